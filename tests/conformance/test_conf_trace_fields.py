"""Trace fields derived from another record, and the code of refused arguments: each check passes
the reference's observation and fails a copy with one field changed, naming its rule."""

from __future__ import annotations

import pytest

from conformance.checks import arguments_give_scope, check_arguments_refused, check_trace_fields
from tests.conformance.conftest import reference_observation, reference_observation_copy

REFUSED = "a-tool-call-whose-time-range-ends-before-it-starts-is-never-executed"
TRUNCATED = (
    "a-backend-result-larger-than-the-projection-limits-is-cut-and-marked-truncated-example-1"
)
REJECTED_FIRST = "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed-example-1"


def _event(observation: dict, event_type: str, index: int = 0) -> dict:
    return [e for e in observation["trace"] if e["type"] == event_type][index]


@pytest.mark.parametrize("name", [REFUSED, TRUNCATED, REJECTED_FIRST])
def test_the_reference_observation_passes(name):
    """The reference's trace restates its records exactly."""
    fixture, observation = reference_observation(name)
    result = check_trace_fields(observation, fixture)
    assert result.passed, result.message


@pytest.mark.parametrize(
    ("field", "value"), [("sequence", 5), ("step", 2), ("tool_name", "list_alerts")]
)
def test_an_accepted_event_that_restates_its_call_wrongly_fails(field, value):
    """TOOL_CALL_ACCEPTED's sequence, step and tool are the accepted call's."""
    fixture, observation = reference_observation_copy(REJECTED_FIRST)
    _event(observation, "TOOL_CALL_ACCEPTED")["data"][field] = value
    result = check_trace_fields(observation, fixture)
    assert result.rules == ("R2.accepted-call-recorded",), result.message


def test_a_sequence_that_counts_the_rejected_calls_fails():
    """The accepted call after a rejected one is the Run's accepted call 1."""
    fixture, observation = reference_observation_copy(REJECTED_FIRST)
    accepted = _event(observation, "TOOL_CALL_ACCEPTED")
    rejected = [e for e in observation["trace"] if e["type"] == "TOOL_CALL_REJECTED"]
    assert rejected, "the fixture presents a rejected call"
    accepted["data"]["sequence"] += len(rejected)
    result = check_trace_fields(observation, fixture)
    assert "R2.accepted-call-recorded" in result.rules
    assert "acceptance order" in result.message


@pytest.mark.parametrize(
    ("field", "value"),
    [("item_count", 999), ("truncated", False), ("total_matched", 0), ("evidence_status", "ERROR")],
)
def test_a_classification_that_differs_from_the_projection_fails(field, value):
    """EVIDENCE_CLASSIFIED restates the READY invocation's projection."""
    fixture, observation = reference_observation_copy(TRUNCATED)
    _event(observation, "EVIDENCE_CLASSIFIED")["data"][field] = value
    result = check_trace_fields(observation, fixture)
    assert result.rules == ("R3.classified-as-projected",), result.message


def test_a_ready_invocation_never_classified_fails():
    """In a Run never cancelled every READY invocation is classified once."""
    fixture, observation = reference_observation_copy(TRUNCATED)
    observation["trace"] = [e for e in observation["trace"] if e["type"] != "EVIDENCE_CLASSIFIED"]
    result = check_trace_fields(observation, fixture)
    assert result.rules == ("R3.classified-as-projected",)
    assert "classified 0 times" in result.message


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"target": "t", "time_range": {"start_ms": 1, "end_ms": 2}, "query": ""}, True),
        ({"target": "t", "time_range": {"start_ms": 1, "end_ms": 1}, "query": "q"}, True),
        ({"target": "t", "time_range": {"start_ms": 2, "end_ms": 1}, "query": "q"}, False),
        ({"time_range": {"start_ms": 1, "end_ms": 2}, "query": "q"}, False),
        ({"target": "", "time_range": {"start_ms": 1, "end_ms": 2}, "query": "q"}, False),
        ({"target": "t", "time_range": {"start_ms": True, "end_ms": 2}, "query": "q"}, False),
        ({"target": "t", "time_range": {"start_ms": -1, "end_ms": 2}, "query": "q"}, False),
        ({"target": "t", "time_range": {"start_ms": 1, "end_ms": 2}, "query": "q" * 1025}, False),
        ({"target": "t", "time_range": "last hour", "query": "q"}, False),
        ("target=t", False),
        ({"target": "t", "time_range": {"start_ms": 1, "end_ms": 2}, "query": "q", "x": 1}, None),
    ],
)
def test_arguments_give_a_query_scope_or_not(arguments, expected):
    """Only a missing or misshapen member, or a reversed range, certainly gives no scope."""
    assert arguments_give_scope(arguments) is expected


def test_refused_arguments_recorded_with_another_code_fail():
    """A call whose range ends before it starts ends INVALID_ARGUMENTS, not TOOL_FAILED."""
    fixture, observation = reference_observation_copy(REFUSED)
    record = next(r for r in observation["invocations"] if r["tool_call_id"] == "call_1")
    assert record["error"]["code"] == "INVALID_ARGUMENTS"
    record["error"]["code"] = "TOOL_FAILED"
    assert check_trace_fields(observation, fixture).rules == ("R3.malformed-arguments-error",)
    assert check_arguments_refused(observation, fixture, "call_1").rules == (
        "R3.malformed-arguments-error",
    )


def test_invalid_arguments_on_a_well_formed_call_fails():
    """INVALID_ARGUMENTS is the code of nothing else."""
    fixture, observation = reference_observation_copy(REFUSED)
    record = next(r for r in observation["invocations"] if r["tool_call_id"] == "call_2")
    record.update(
        status="ERROR",
        evidence_status="ERROR",
        projection=None,
        error={"code": "INVALID_ARGUMENTS", "safe_message": "x"},
    )
    result = check_trace_fields(observation, fixture)
    assert "R3.malformed-arguments-error" in result.rules
    assert "well-formed arguments" in result.message


def test_a_refused_call_that_was_executed_fails():
    """The next well-formed call of the tool gets the response the refused one would have got."""
    fixture, observation = reference_observation_copy(REFUSED)
    assert check_arguments_refused(observation, fixture, "call_1").passed
    record = next(r for r in observation["invocations"] if r["tool_call_id"] == "call_2")
    record["projection"]["items"][0]["text"] = "search_logs line 2"
    result = check_arguments_refused(observation, fixture, "call_1")
    assert result.rules == ("R3.malformed-arguments-error",)
    assert "was executed" in result.message


def test_the_refusal_scenario_needs_arguments_that_give_no_scope():
    """The Then step fails when the fixture's WHEN does not hold."""
    fixture, observation = reference_observation_copy(REFUSED)
    result = check_arguments_refused(observation, fixture, "call_2")
    assert not result.passed
    assert "the WHEN would not hold" in result.message


def test_run_events_that_disagree_with_the_run_fail():
    """RUN_STARTED's session, RESULT_RELEASED's kind and RUN_FINISHED's codes are the Run's."""
    fixture, observation = reference_observation_copy(REFUSED)
    assert check_trace_fields(observation, fixture).passed
    _event(observation, "RUN_STARTED")["data"]["session_id"] = "another-session"
    _event(observation, "RESULT_RELEASED")["data"]["kind"] = "SAFE_FALLBACK"
    result = check_trace_fields(observation, fixture)
    assert result.rules == ("R7.trace-agrees-with-run",)
    assert "another-session" in result.message
    assert "one RESULT_RELEASED naming it" in result.message


def test_run_finished_naming_another_fallback_than_the_row_fails():
    """RUN_FINISHED's fallback_type is the diagnosis_run row's."""
    fixture, observation = reference_observation_copy(REFUSED)
    finished = _event(observation, "RUN_FINISHED")["data"]
    finished.update(state="FALLBACK", fallback_type="SEMANTIC_UNSUPPORTED")
    result = check_trace_fields(observation, fixture)
    assert result.rules == ("R7.trace-agrees-with-run",)
    assert "fallback_type SEMANTIC_UNSUPPORTED" in result.message
