"""The runtime oracle and checks: attempts, timeouts, disconnects, sessions, optional retries."""

from __future__ import annotations

import copy

import pytest

from conformance import checks
from conformance.adapters import AdapterError, InProcessAdapter
from conformance.bdd._when import _hung_on_blocked_call
from conformance.checks._runtime_oracle import review_outcome, router_outcome
from conformance.fixtures import (
    analysis,
    blocks_until_cancelled,
    diagnosis_draft,
    diagnosis_fixture,
    draft_turn,
    error_turn,
    intent_turn,
    invalid_verdict_turn,
    prior_run,
    raw_turn,
    rows,
    supported_turn,
    tool_call,
    tool_script,
    unsupported_turn,
)

DRAFT = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
FAST = {"model_call_timeout_ms": 300, "tool_timeout_ms": 300}


def _fixture(**fields):
    fields.setdefault("tools", {"search_logs": tool_script(rows("checkout error rate 12%"))})
    fields.setdefault("limits", FAST)
    return diagnosis_fixture("runtime", steps=[[tool_call("call_1")]], **fields)


@pytest.fixture(scope="module")
def reference():
    adapter = InProcessAdapter("reference_harness.iut:create")
    yield adapter
    adapter.close()


def _rules(result):
    return set(result.rules)


def test_oracle_outcomes_of_scripted_answers():
    """Each scripted answer gives its outcome; a blocking turn is a TIMEOUT."""
    assert router_outcome(intent_turn()) == "VALID"
    assert router_outcome(raw_turn("maybe?")) == "INVALID_SCHEMA"
    assert router_outcome(raw_turn("DIAGNOSIS")) is None
    assert router_outcome(blocks_until_cancelled(intent_turn())) == "TIMEOUT"
    assert review_outcome(supported_turn(), {"a1"}) == ("VALID", "SUPPORTED")
    assert review_outcome(unsupported_turn(["a1"]), {"a1"}) == ("VALID", "UNSUPPORTED")
    assert review_outcome(unsupported_turn(["a9"]), {"a1"}) == ("INVALID_SCHEMA", None)
    assert review_outcome(invalid_verdict_turn(), {"a1"}) == ("INVALID_SCHEMA", None)
    assert review_outcome(error_turn("TIMEOUT"), {"a1"}) == ("TIMEOUT", None)


def test_oracle_attempts_follow_the_declared_policy():
    """A second attempt only after INVALID_SCHEMA or UNAVAILABLE, only when declared."""
    assert checks.expected_attempts(["INVALID_SCHEMA", "VALID"], 2) == ["INVALID_SCHEMA", "VALID"]
    assert checks.expected_attempts(["TIMEOUT", "VALID"], 2) == ["TIMEOUT"]
    assert checks.expected_attempts(["UNAVAILABLE", "VALID"], 1) == ["UNAVAILABLE"]
    assert checks.attempt_policy(["DIAGNOSIS"]) == {
        "DIAGNOSIS_AGENT": 1,
        "ROUTER": 1,
        "SEMANTIC_GUARD": 1,
    }
    assert checks.attempt_policy(None)["SEMANTIC_GUARD"] == 2


def test_fit_to_capabilities_trims_only_what_an_undeclared_retry_would_read():
    """Without the retries: one review turn; a failing Router empties what comes after it."""
    fixture = _fixture(draft=DRAFT, reviews=[invalid_verdict_turn(), supported_turn()])
    fixture["router"] = [raw_turn("maybe?"), intent_turn()]
    fitted = checks.fit_to_capabilities(fixture, ["DIAGNOSIS"])
    assert fitted["router"] == [raw_turn("maybe?")]
    assert (fitted["agent"], fitted["semantic_guard"], fitted["tools"]) == ([], [], {})
    full = checks.fit_to_capabilities(fixture, ["DIAGNOSIS", "ROUTER_RETRY", "SEMANTIC_RETRY"])
    assert full == fixture


def test_semantic_timeout_must_fall_back_unavailable(reference):
    """S10: a SemanticGuard timeout is SEMANTIC_UNAVAILABLE; UNSUPPORTED there is named R6."""
    fixture = _fixture(draft=DRAFT, reviews=[error_turn("TIMEOUT")])
    observation = reference.run(fixture)
    assert checks.check_model_calls(observation, fixture).passed
    broken = copy.deepcopy(observation)
    for row in broken["runs"]:
        if row["run_id"] == broken["run_id"]:
            row["fallback_type"] = "SEMANTIC_UNSUPPORTED"
    result = checks.check_model_calls(broken, fixture)
    assert _rules(result) == {"R6.semantic-outcome-fallback"}


def test_late_answer_of_a_blocked_call_is_a_timeout_violation(reference):
    """S14: a blocked agent call recorded VALID (the Harness waited) is named R8."""
    fixture = _fixture(submission_turn=blocks_until_cancelled(draft_turn(DRAFT)))
    observation = reference.run(fixture)
    assert checks.check_model_calls(observation, fixture).passed
    broken = copy.deepcopy(observation)
    for event in broken["trace"]:
        if event["type"] == "MODEL_CALL_FINISHED" and event["data"]["outcome"] == "TIMEOUT":
            event["data"]["outcome"] = "VALID"
    assert "R8.model-call-timeout" in _rules(checks.check_model_calls(broken, fixture))


def test_disconnect_on_tool_acceptance_must_cancel_the_tool(reference):
    """S13: an invocation in flight at the disconnect ending READY is named R8."""
    fixture = _fixture(
        tools={"search_logs": tool_script({"kind": "block_until_cancelled", "then": rows("x")})},
        client={"disconnect_on": {"event_type": "TOOL_CALL_ACCEPTED", "occurrence": 1}},
    )
    observation = reference.run(fixture)
    assert checks.check_disconnect(observation, fixture).passed
    broken = copy.deepcopy(observation)
    for event in broken["trace"]:
        if event["type"] == "INVOCATION_STATUS_CHANGED" and event["data"]["status"] == "ERROR":
            event["data"]["status"] = "READY"
    assert _rules(checks.check_disconnect(broken, fixture)) == {"R8.tool-work-cancelled"}


def test_disconnect_that_is_never_noticed_is_named(reference):
    """A Run that goes on after the disconnect without CANCEL_REQUESTED is named R8."""
    fixture = _fixture(
        draft=DRAFT,
        reviews=[supported_turn()],
        client={"disconnect_on": {"event_type": "INTENT_ROUTED", "occurrence": 1}},
    )
    plain = _fixture(draft=DRAFT, reviews=[supported_turn()])
    observation = reference.run(plain)  # a Harness deaf to the disconnect behaves like this
    observation["fixture_id"] = fixture["fixture_id"]
    assert "R8.disconnect-noticed" in _rules(checks.check_disconnect(observation, fixture))
    assert checks.check_disconnect(reference.run(fixture), fixture).passed


def test_previous_turn_of_another_session_is_named(reference):
    """S12: selecting a Run of another session is R7.same-session-selection."""
    history = [prior_run(1), prior_run(2, session_id="session-2"), prior_run(3, state="RUNNING")]
    history[1]["run_id"] = "session-2-run-2"
    fixture = _fixture(draft=DRAFT, reviews=[supported_turn()], prior_runs=history)
    assert checks.expected_previous_turn(fixture) == (
        "prior-run-1",
        [{"run_id": "prior-run-3", "reason": "STATE_RUNNING"}],
    )
    observation = reference.run(fixture)
    assert checks.check_previous_turn_rule(observation, fixture).passed
    for event in observation["trace"]:
        if event["type"] == "PREVIOUS_TURN_SELECTED":
            event["data"]["selected_run_id"] = "session-2-run-2"
    result = checks.check_previous_turn_rule(observation, fixture)
    assert "R7.same-session-selection" in _rules(result)


def test_cross_process_observations_are_compared_normalized(reference):
    """Same fixture, same normalized observation; a reordered trace is named R1."""
    fixture = _fixture(draft=DRAFT, reviews=[supported_turn()])
    first, second = reference.run(fixture), reference.run(fixture)
    assert checks.check_same_normalized_observation(first, second).passed
    second["invocations"] = list(reversed(second["invocations"] + [second["invocations"][0]]))
    result = checks.check_same_normalized_observation(first, second)
    assert result.rules == ("R1.deterministic-control",)


def test_a_hang_on_a_blocked_call_names_the_timeout_rule():
    """An IUT that gives no observation for a fixture with a blocked call breaks R8."""
    blocked = _fixture(submission_turn=blocks_until_cancelled(draft_turn(DRAFT)))
    error = AdapterError("IUT sent nothing within the timeout while the observation was due")
    named = _hung_on_blocked_call(blocked, error)
    assert isinstance(named, AssertionError)
    assert checks.rule_ids_in(str(named)) == ("R8.model-call-timeout",)
    assert _hung_on_blocked_call(_fixture(draft=DRAFT), error) is error
