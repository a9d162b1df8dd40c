"""Checks of late results, tool stops, the durable intent, raised text and repair requests.

Each test takes a reference observation (which passes), breaks one thing a faulty Harness would
do, and shows the check names the rule (and only then).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conformance import checks
from conformance.adapters import InProcessAdapter
from conformance.checks._late import SURE_WAIT_MS
from conformance.fixtures import cross_process_fixtures
from conformance.model_endpoint._record import offered_tools

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def _fixture(name):
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def observe():
    adapter = InProcessAdapter("reference_harness.iut:create")
    seen = {}

    def run(name):
        if name not in seen:
            fixture = _fixture(name)
            seen[name] = (fixture, adapter.run(fixture))
        fixture, observation = seen[name]
        return fixture, copy.deepcopy(observation)

    yield run
    adapter.close()


def _invariant_rules(observation, fixture):
    return set(checks.check_global_invariants(observation, fixture).rules) | set(
        checks.check_model_inputs(observation, fixture).rules
    )


def _renumber(observation):
    for seq, event in enumerate(observation["trace"], start=1):
        event["seq"] = seq


def _index(observation, event_type):
    return next(i for i, e in enumerate(observation["trace"]) if e["type"] == event_type)


def test_reference_observations_keep_the_new_rules(observe):
    """The reference passes every new rule on the fixtures that reach them."""
    for name in (
        "the-model-adapter-swallows-the-first-cancellation",
        "client-disconnects-during-a-model-call",
        "a-tool-blocks-past-its-timeout-and-answers-late",
        "a-tool-answers-after-its-work-is-cancelled",
        "a-backend-that-raises-cannot-be-cited-as-no-evidence",
        "evidence-validation-fails-twice",
    ):
        fixture, observation = observe(name)
        assert _invariant_rules(observation, fixture) == set(), name


def test_validating_a_late_draft_after_the_cancel_is_named(observe):
    """An EvidenceGuard verdict after CANCEL_REQUESTED breaks R8.late-result-discarded."""
    fixture, observation = observe("the-model-adapter-swallows-the-first-cancellation")
    at = _index(observation, "LATE_RESULT_DISCARDED")
    run_id = observation["run_id"]
    data = {"attempt": 1, "result_kind": "DIAGNOSIS_DRAFT", "valid": True, "violations": []}
    observation["trace"][at:at] = [
        {"run_id": run_id, "seq": 0, "type": "DRAFT_SUBMITTED", "data": data | {}},
        {"run_id": run_id, "seq": 0, "type": "EVIDENCE_VALIDATION", "data": data},
    ]
    del observation["trace"][at]["data"]["valid"], observation["trace"][at]["data"]["violations"]
    _renumber(observation)
    result = checks.check_late_results(observation, fixture)
    assert result.rules == ("R8.late-result-discarded",)
    assert "EVIDENCE_VALIDATION" in result.message


def test_a_late_answer_not_recorded_discarded_is_named(observe):
    """A call in flight at the cancel whose answer came late needs LATE_RESULT_DISCARDED."""
    fixture, observation = observe("client-disconnects-during-a-model-call")
    del observation["trace"][_index(observation, "LATE_RESULT_DISCARDED")]
    _renumber(observation)
    result = checks.check_late_results(observation, fixture)
    assert result.rules == ("R8.late-result-discarded",)


@pytest.mark.parametrize(
    ("field", "value"), [("call_index", 9), ("purpose", "STRUCTURAL_REPAIR"), ("attempt", 2)]
)
def test_a_discard_naming_a_call_that_was_not_interrupted_is_named(observe, field, value):
    """LATE_RESULT_DISCARDED names the attempt whose MODEL_CALL_FINISHED said CANCELLED."""
    fixture, observation = observe("client-disconnects-during-a-model-call")
    data = observation["trace"][_index(observation, "LATE_RESULT_DISCARDED")]["data"]
    assert data[field] != value
    data[field] = value
    result = checks.check_late_results(observation, fixture)
    assert result.rules == ("R8.late-result-discarded",)
    assert "not interrupted" in result.message


@pytest.mark.parametrize(
    ("event_type", "rule"),
    [
        ("LATE_RESULT_DISCARDED", "R8.late-result-discarded"),
        ("INTERRUPT_REQUESTED", "R8.layered-cancellation"),
    ],
)
def test_an_event_recorded_once_recorded_twice_is_named(observe, event_type, rule):
    """One late result is discarded once; the Run's agent loop is interrupted once."""
    fixture, observation = observe("client-disconnects-during-a-model-call")
    index = _index(observation, event_type)
    observation["trace"].insert(index + 1, copy.deepcopy(observation["trace"][index]))
    _renumber(observation)
    assert checks.check_late_results(observation, fixture).rules == (rule,)


def test_a_tool_work_cancelled_twice_is_named(observe):
    """Each in-flight tool work is cancelled once: a second TOOL_WORK_CANCELLED is named."""
    fixture, observation = observe("a-tool-answers-after-its-work-is-cancelled")
    index = _index(observation, "TOOL_WORK_CANCELLED")
    assert checks.check_late_results(observation, fixture).passed
    observation["trace"].insert(index + 1, copy.deepcopy(observation["trace"][index]))
    _renumber(observation)
    assert checks.check_late_results(observation, fixture).rules == ("R8.tool-work-cancelled",)


@pytest.mark.parametrize("timeout_ms", [1, 300, SURE_WAIT_MS - 1])
def test_a_short_timeout_accepts_either_order_of_the_late_answer_and_the_wait(observe, timeout_ms):
    """Below SURE_WAIT_MS the Harness's deadline may end its wait before the scripted late answer
    comes (released by the interrupt): no LATE_RESULT_DISCARDED is required (races.md)."""
    fixture, observation = observe("client-disconnects-during-a-model-call")
    del observation["trace"][_index(observation, "LATE_RESULT_DISCARDED")]
    _renumber(observation)
    fixture = {**fixture, "limits": {**fixture["limits"], "model_call_timeout_ms": timeout_ms}}
    assert checks.check_late_results(observation, fixture).passed


def test_the_stop_of_a_tool_is_its_cause(observe):
    """A timed-out tool recorded CANCELLED, a cancelled one TOOL_TIMEOUT: both are named."""
    fixture, observation = observe("a-tool-blocks-past-its-timeout-and-answers-late")
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == "call_1")
    assert record["error"]["code"] == "TOOL_TIMEOUT"
    record["error"]["code"] = "CANCELLED"
    assert checks.check_late_results(observation, fixture).rules == ("R8.tool-stop-recorded",)
    fixture, observation = observe("a-tool-answers-after-its-work-is-cancelled")
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == "call_1")
    assert record["error"]["code"] == "CANCELLED"
    record["error"]["code"] = "TOOL_TIMEOUT"
    assert checks.check_late_results(observation, fixture).rules == ("R8.tool-stop-recorded",)


def test_a_late_tool_answer_classified_or_sent_to_the_agent_is_named(observe):
    """EVIDENCE_CLASSIFIED of a timed-out call, or its late rows in a model call, are named."""
    fixture, observation = observe("a-tool-blocks-past-its-timeout-and-answers-late")
    classified = copy.deepcopy(observation["trace"][_index(observation, "EVIDENCE_CLASSIFIED")])
    classified["data"]["tool_call_id"] = "call_1"
    observation["trace"].insert(_index(observation, "EVIDENCE_CLASSIFIED"), classified)
    _renumber(observation)
    assert checks.check_late_results(observation, fixture).rules == (
        "R8.late-tool-result-discarded",
    )
    fixture, observation = observe("a-tool-blocks-past-its-timeout-and-answers-late")
    last = observation["model_calls"][-2]  # the agent's submission call
    last["messages"].append({"role": "tool", "content": "search_logs late line"})
    assert checks.check_late_results(observation, fixture).rules == (
        "R8.late-tool-result-discarded",
    )


def test_the_stored_intent_is_the_routed_one(observe):
    """A row whose intent is null or another one than INTENT_ROUTED breaks the durable rule."""
    fixture, observation = observe("evidence-validation-fails-twice")
    row = next(r for r in observation["runs"] if r["run_id"] == observation["run_id"])
    row["intent"] = None
    result = checks.check_durable_run(observation, fixture)
    assert result.rules == ("R7.durable-run-intent",)
    row["intent"] = "KNOWLEDGE_QUERY"
    assert "R7.durable-run-intent" in checks.check_durable_run(observation, fixture).rules
    row["intent"] = "DIAGNOSIS"
    row["user_message"] = "something else"
    assert checks.check_durable_run(observation, fixture).rules == ("R7.durable-run-intent",)


def test_an_unrouted_run_stores_no_intent(observe):
    """A Run the Router never routed keeps intent null."""
    fixture, observation = observe("the-router-is-unavailable")
    assert checks.check_durable_run(observation, fixture).passed
    row = next(r for r in observation["runs"] if r["run_id"] == observation["run_id"])
    row["intent"] = "DIAGNOSIS"
    assert checks.check_durable_run(observation, fixture).rules == ("R7.durable-run-intent",)


@pytest.mark.parametrize("cut", [slice(None), slice(20), slice(-18, None)])
def test_raised_text_in_a_stored_invocation_is_named(observe, cut):
    """The raised message, whole, its opening or its end, as a safe_message is named."""
    fixture, observation = observe("a-backend-that-raises-cannot-be-cited-as-no-evidence")
    raised = fixture["tools"]["search_logs"]["default"]["message"]
    record = next(i for i in observation["invocations"] if i["status"] == "ERROR")
    record["error"]["safe_message"] = f"The tool failed: {raised[cut]}"
    result = checks.check_global_invariants(observation, fixture)
    assert result.rules == ("R6.internal-error-excluded",)


def test_a_repair_request_offering_tools_is_named(observe):
    """The structural repair call's request offers no tool, whatever the model answered."""
    fixture, observation = observe("evidence-validation-fails-twice")
    repair = next(
        c
        for c in observation["model_calls"]
        if c["component"] == "DIAGNOSIS_AGENT" and c["call_index"] == 3
    )
    assert repair["tools"] == []
    repair["tools"] = ["search_logs"]
    assert checks.check_model_inputs(observation, fixture).rules == ("R6.repair-offers-no-tools",)


def test_a_retry_on_another_snapshot_is_named_whatever_the_first_outcome(observe):
    """A SemanticGuard retry after UNAVAILABLE that names another digest breaks R9."""
    fixture, observation = observe(
        "the-semanticguard-s-last-allowed-answer-decides-the-fallback-example-5"
    )
    attempts = [
        e
        for e in observation["trace"]
        if e["type"] in {"MODEL_CALL_STARTED", "MODEL_CALL_FINISHED"}
        and e["data"]["component"] == "SEMANTIC_GUARD"
    ]
    assert [e["data"].get("outcome") for e in attempts][:2] == [None, "UNAVAILABLE"]
    attempts[-1]["data"]["snapshot_digest"] = "0" * 64
    assert (
        "R9.semantic-retry-same-snapshot"
        in checks.check_global_invariants(observation, fixture).rules
    )


def test_offered_tools_reads_every_way_to_offer_a_tool():
    """``tools``, legacy ``functions`` and a ``tool_choice`` naming a function all offer tools."""
    assert offered_tools({"tools": [{"type": "function", "function": {"name": "a"}}]}) == ["a"]
    assert offered_tools({"functions": [{"name": "b"}], "function_call": {"name": "b"}}) == ["b"]
    choice = {"type": "function", "function": {"name": "c"}}
    assert offered_tools({"tool_choice": choice}) == ["c"]
    assert offered_tools({"tool_choice": "none", "messages": []}) == []


def test_cross_process_fixtures_hold_several_entries_in_every_ordered_list():
    """The companion fixtures give several violations, skipped Runs, sources and documents."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        violations, selection, knowledge = (adapter.run(f) for f in cross_process_fixtures())
    finally:
        adapter.close()
    rejected = [e["data"] for e in violations["trace"] if e["type"] == "EVIDENCE_VALIDATION"]
    assert [len(v["violations"]) >= 3 for v in rejected] == [True, True]
    (chosen,) = [e["data"] for e in selection["trace"] if e["type"] == "PREVIOUS_TURN_SELECTED"]
    assert len(chosen["skipped"]) == 6
    sources = selection["published_result"]["safe_fallback"]["verified_sources"]
    assert len(sources) >= 3
    (projection,) = [i["projection"] for i in knowledge["invocations"]]
    assert len(projection["document_ids"]) == 6
    assert knowledge["published_result"]["kind"] == "KNOWLEDGE_ANSWER"
