"""check_model_inputs: each rule on what a model call received fails on its kind of fault."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conformance import checks
from conformance.adapters import InProcessAdapter

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def _fixture(fixture_id: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{fixture_id}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def observed() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Reference observations (scripted path, so with model_calls) of three fixtures."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    names = (
        "only-the-selected-previous-turn-reaches-the-diagnosis-agent",
        "raw-rows-beyond-the-bounded-projection-never-reach-a-model",
        "the-router-is-unavailable",
    )
    try:
        return {name: (_fixture(name), adapter.run(_fixture(name))) for name in names}
    finally:
        adapter.close()


def _calls(observation: dict[str, Any], component: str) -> list[dict[str, Any]]:
    return [c for c in observation["model_calls"] if c["component"] == component]


def _broken(result: checks.CheckResult, rule: str) -> None:
    assert not result.passed
    assert rule in result.rules, result.message


def test_model_inputs_hold_for_the_reference_harness(observed):
    """The reference Harness's reported inputs keep every rule."""
    for fixture, observation in observed.values():
        checks.check_model_inputs(observation, fixture).require()


def test_model_inputs_without_any_report_fail(observed):
    """No model_calls and no endpoint: the inputs cannot be checked, which is a failure."""
    fixture, observation = observed["the-router-is-unavailable"]
    hidden = {k: v for k, v in observation.items() if k != "model_calls"}
    _broken(checks.check_model_inputs(hidden, fixture), "R0.model-input-reported")


def test_model_inputs_must_cover_every_started_attempt(observed):
    """An attempt missing from model_calls is a hole in the report."""
    fixture, observation = observed["the-router-is-unavailable"]
    partial = {**observation, "model_calls": observation["model_calls"][:1]}
    _broken(checks.check_model_inputs(partial, fixture), "R0.model-input-reported")


@pytest.mark.parametrize(
    "change",
    [
        "tools",
        "history",
        "not_json",
        "other_digest",
    ],
)
def test_reviewer_input_must_be_the_snapshot_alone(observed, change):
    """Tools, history, no snapshot or another snapshot in a SemanticGuard call are caught."""
    fixture, observation = copy.deepcopy(
        observed["raw-rows-beyond-the-bounded-projection-never-reach-a-model"]
    )
    review = _calls(observation, "SEMANTIC_GUARD")[0]
    if change == "tools":
        review["tools"] = ["search_logs"]
    elif change == "history":
        review["messages"].insert(0, {"role": "assistant", "content": "earlier answer"})
    elif change == "not_json":
        # instructions around the snapshot are allowed (false-kills-8, F7); a snapshot cut short
        # is no snapshot
        review["messages"][-1]["content"] = "Review this: " + review["messages"][-1]["content"][:-1]
    else:
        snapshot = json.loads(review["messages"][-1]["content"])
        snapshot["digest"] = "0" * 64
        review["messages"][-1]["content"] = json.dumps(snapshot)
    _broken(checks.check_model_inputs(observation, fixture), "R1.reviewer-isolated-single-turn")


@pytest.mark.parametrize(
    "run_id", ["prior-run-2", "prior-run-3", "prior-run-4", "other-session-run-1"]
)
def test_agent_context_must_hold_no_other_earlier_run(observed, run_id):
    """A failed, cancelled, fallback or other session's Run's user text must not reach the agent."""
    fixture, observation = copy.deepcopy(
        observed["only-the-selected-previous-turn-reaches-the-diagnosis-agent"]
    )
    text = next(r["user_message"] for r in fixture["prior_runs"] if r["run_id"] == run_id)
    agent = _calls(observation, "DIAGNOSIS_AGENT")[0]
    agent["messages"].insert(1, {"role": "user", "content": text})
    _broken(checks.check_model_inputs(observation, fixture), "R7.previous-turn-context-only")


def test_an_earlier_runs_enum_values_are_not_its_text(observed):
    """A contract enum value (DIAGNOSIS_DRAFT) of an excluded Run may reach a model; its text not.

    Every Run's published result says ``kind: DIAGNOSIS_DRAFT``; a model input naming that
    vocabulary leaks nothing of the excluded Run, while its free text does.
    """
    fixture, observation = copy.deepcopy(
        observed["only-the-selected-previous-turn-reaches-the-diagnosis-agent"]
    )
    excluded = next(r for r in fixture["prior_runs"] if r["run_id"] == "other-session-run-1")
    excluded["published_result"] = {"kind": "DIAGNOSIS_DRAFT", "note": "excluded run's own words"}
    fixture["prior_runs"] = [excluded]  # no selected Run whose text would allow the enum value
    agent = _calls(observation, "DIAGNOSIS_AGENT")[0]
    agent["messages"].insert(1, {"role": "user", "content": "kind: DIAGNOSIS_DRAFT"})
    checks.check_model_inputs(observation, fixture).require()
    agent["messages"].insert(1, {"role": "user", "content": "excluded run's own words"})
    _broken(checks.check_model_inputs(observation, fixture), "R7.previous-turn-context-only")


def test_agent_context_may_hold_the_selected_previous_turn(observed):
    """The selected previous turn's text is allowed (it is already in the reference's context)."""
    fixture, observation = observed["only-the-selected-previous-turn-reaches-the-diagnosis-agent"]
    selected = next(r for r in fixture["prior_runs"] if r["run_id"] == "prior-run-1")
    first = _calls(observation, "DIAGNOSIS_AGENT")[0]
    assert selected["user_message"] in json.dumps(first["messages"])
    checks.check_model_inputs(observation, fixture).require()


@pytest.mark.parametrize("which", ["row_past_max_items", "row_tail_past_max_chars"])
def test_no_raw_row_beyond_the_projection_reaches_a_model(observed, which):
    """A row past max_items or the part of a row past max_item_chars is a raw payload."""
    fixture, observation = copy.deepcopy(
        observed["raw-rows-beyond-the-bounded-projection-never-reach-a-model"]
    )
    items = fixture["tools"]["search_logs"]["responses"][0]["items"]
    leaked = items[2]["text"] if which == "row_past_max_items" else items[1]["text"][:70]
    agent = _calls(observation, "DIAGNOSIS_AGENT")[-1]
    agent["messages"][-1]["content"] += leaked
    _broken(checks.check_model_inputs(observation, fixture), "R4.no-raw-payload-to-model")


def test_no_chain_of_thought_field_reaches_a_model(observed):
    """A reasoning_content key on a message sent to a model is a chain-of-thought field."""
    fixture, observation = copy.deepcopy(observed["the-router-is-unavailable"])
    observation["model_calls"][0]["messages"][0]["other_fields"] = {"reasoning_content": "x"}
    _broken(checks.check_model_inputs(observation, fixture), "R4.no-chain-of-thought")


def test_endpoint_chain_of_thought_canary_must_not_reach_the_client(observed):
    """The endpoint's reasoning text in a client frame is chain-of-thought exposed."""
    fixture, observation = copy.deepcopy(observed["the-router-is-unavailable"])
    observation["client_frames"].append(
        {"event": "run_event", "data": {"note": f"{checks.COT_CANARY} router 1"}}
    )
    _broken(checks.check_model_inputs(observation, fixture), "R4.no-chain-of-thought")


def test_more_http_requests_than_attempts_is_a_retrying_sdk(observed):
    """Over the endpoint, a component with more requests than attempts had an SDK/HTTP retry."""
    fixture, observation = copy.deepcopy(observed["the-router-is-unavailable"])
    request = {
        "component": "ROUTER",
        "model": "srdh-router",
        "messages": [{"role": "user", "content": fixture["user_message"]}],
        "tools": [],
        "stream": False,
        "answer": "HTTP_ERROR",
    }
    attempts = len(_calls(observation, "ROUTER"))
    observation.pop("model_calls")
    observation["model_requests"] = [request] * attempts
    checks.check_model_inputs(observation, fixture).require()
    observation["model_requests"] = [request] * (attempts + 1)
    _broken(
        checks.check_model_inputs(observation, fixture), "R9.one-http-attempt-per-model-attempt"
    )


def test_a_cut_row_that_starts_with_a_tool_name_is_no_leak():
    """A cut window that is also a tool name's prefix is vocabulary, not a leaked raw row.

    Found by the global-invariants property (example 344): with ``max_item_chars`` 8, the window
    around the cut of a row starting ``query_metrics`` is ``query_met``, which every request naming
    that tool carries. Here the row starts with ``search_logs``: the reference must pass, and the
    whole row in an agent message must still fail.
    """
    fixture = _fixture("raw-rows-beyond-the-bounded-projection-never-reach-a-model")
    fixture["limits"] = {**fixture["limits"], "max_item_chars": 8}
    items = fixture["tools"]["search_logs"]["responses"][0]["items"]
    items[0]["text"] = "search_logs: checkout p99 latency rose to 2.4 s at 10:02"
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    checks.check_model_inputs(observation, fixture).require()
    agent = _calls(observation, "DIAGNOSIS_AGENT")[-1]
    agent["messages"][-1]["content"] += items[0]["text"]
    _broken(checks.check_model_inputs(observation, fixture), "R4.no-raw-payload-to-model")
