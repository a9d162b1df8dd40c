"""The Harness's small parts, rule by rule: limits, retry policy, id classification,
projection, invocation ledger, trace recorder."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contracts import validate_document
from reference_harness import DEFAULT_RETRY_POLICY, TOOL_SPECS, Limits, RetryPolicy, ScriptedPorts
from reference_harness._ids import classify_tool_call_id, presented_id_text
from reference_harness._invocations import InvocationLedger, InvocationStateError
from reference_harness._projection import project
from reference_harness._tools import valid_arguments
from reference_harness._trace import TraceRecorder
from reference_harness.ports import (
    MISSING,
    AgentPort,
    ReviewerPort,
    RouterPort,
    ToolBackend,
    ToolRows,
)

if TYPE_CHECKING:
    from pathlib import Path

ARGS = {"target": "checkout", "time_range": {"start_ms": 0, "end_ms": 10}, "query": "q"}


# ------------------------------------------------------------------------------ limits
def test_limits_default_to_the_fixture_defaults():
    """Limits() equals the scenario-fixture defaults (8, 20, 2000, 5000, 5000)."""
    assert Limits() == Limits(8, 20, 2000, 5000, 5000)


@pytest.mark.parametrize(
    ("field", "value"),
    [("max_steps", 0), ("max_items", 201), ("max_item_chars", 8193), ("tool_timeout_ms", 0)],
)
def test_limits_refuse_values_outside_their_range(field, value):
    """A limit outside its range raises ValueError naming the limit."""
    with pytest.raises(ValueError, match=field):
        Limits(**{field: value})


def test_limits_refuse_non_integers():
    """A boolean or float limit raises TypeError naming the limit."""
    with pytest.raises(TypeError, match="max_items"):
        Limits(max_items=True)


# ------------------------------------------------------------------------------ retry policy
def test_default_policy_is_router_2_semantic_2_others_1():
    """Default attempts: Router 2, SemanticGuard 2, Diagnosis Agent 1."""
    policy = DEFAULT_RETRY_POLICY
    assert [policy.attempts_for(c) for c in ("ROUTER", "SEMANTIC_GUARD", "DIAGNOSIS_AGENT")] == [
        2,
        2,
        1,
    ]


@pytest.mark.parametrize(
    ("outcome", "retried"),
    [("INVALID_SCHEMA", True), ("UNAVAILABLE", True), ("TIMEOUT", False), ("VALID", False)],
)
def test_default_policy_retries_only_invalid_schema_or_unavailable(outcome, retried):
    """Only INVALID_SCHEMA and UNAVAILABLE get a second Router attempt; never a third."""
    assert DEFAULT_RETRY_POLICY.should_retry("ROUTER", 1, outcome) is retried
    assert DEFAULT_RETRY_POLICY.should_retry("ROUTER", 2, outcome) is False


def test_policy_vocabulary_is_checked():
    """Unknown components, counts below 1 and non-retryable outcomes are refused."""
    with pytest.raises(ValueError, match="PLANNER"):
        RetryPolicy(max_attempts={"PLANNER": 2})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=">= 1"):
        RetryPolicy(max_attempts={"ROUTER": 0})
    with pytest.raises(ValueError, match="VALID"):
        RetryPolicy(retry_on=frozenset({"VALID"}))
    with pytest.raises(ValueError, match="PLANNER"):
        RetryPolicy(retry_on_by_component={"PLANNER": frozenset()})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="CANCELLED"):
        RetryPolicy(retry_on_by_component={"ROUTER": frozenset({"CANCELLED"})})


def test_a_component_may_retry_after_fewer_outcomes():
    """Per component, the retry may follow INVALID_SCHEMA only (the others keep ``retry_on``)."""
    policy = RetryPolicy(retry_on_by_component={"SEMANTIC_GUARD": frozenset({"INVALID_SCHEMA"})})
    assert policy.should_retry("SEMANTIC_GUARD", 1, "INVALID_SCHEMA") is True
    assert policy.should_retry("SEMANTIC_GUARD", 1, "UNAVAILABLE") is False
    assert policy.should_retry("ROUTER", 1, "UNAVAILABLE") is True
    assert policy.should_retry("SEMANTIC_GUARD", 2, "INVALID_SCHEMA") is False


# ------------------------------------------------------------------------------ ids
@pytest.mark.parametrize(
    ("presented", "expected"),
    [
        (MISSING, "MISSING_ID"),
        (None, "MISSING_ID"),
        ("", "MISSING_ID"),
        (" ", "INVALID_ID"),
        ("call 1", "INVALID_ID"),
        ("-call", "INVALID_ID"),
        ("c" * 129, "INVALID_ID"),
        (1, "INVALID_ID"),
        (True, "INVALID_ID"),
        ("call_1", "DUPLICATE_ID"),
        ("c" * 128, None),
        ("toolu_01A", None),
        ("functions.get_weather:0", None),
        ("pyd_ai_x", None),
    ],
)
def test_tool_call_ids_are_classified_per_the_sheet(presented, expected):
    """MISSING for absent/null/"", INVALID for non-conforming, DUPLICATE for accepted ids."""
    assert classify_tool_call_id(presented, {"call_1"}) == expected


def test_presented_id_text_is_bounded_json():
    """The presented id is JSON text cut to 160 characters, null when absent."""
    assert presented_id_text(MISSING) is None
    assert presented_id_text(None) == "null"
    assert presented_id_text("a\u0000") == '"a\\u0000"'
    assert len(presented_id_text("z" * 10_000)) == 160
    assert presented_id_text(float("nan")) == '"<float>"'


def test_tool_specs_offer_the_four_tools_with_one_argument_schema():
    """Four tools, each with the QueryScope-minus-tool arguments schema."""
    assert [spec.name for spec in TOOL_SPECS] == [
        "query_metrics",
        "search_logs",
        "list_alerts",
        "lookup_documents",
    ]
    assert valid_arguments(ARGS)
    assert not valid_arguments({**ARGS, "extra": 1})
    assert not valid_arguments({**ARGS, "time_range": {"start_ms": 5, "end_ms": 4}})
    assert not valid_arguments("target=checkout")


# ------------------------------------------------------------------------------ projection
def _rows(*texts, total=None, ids=None):
    rows = [{"text": t} for t in texts]
    if ids:
        for row, document_id in zip(rows, ids, strict=True):
            row["document_id"] = document_id
    return ToolRows(rows=iter(rows), total_matched=total)


def test_projection_keeps_max_items_and_cuts_text():
    """At most max_items items, each cut to max_item_chars; truncated; total counted."""
    limits = Limits(max_items=2, max_item_chars=3)
    projection = project("search_logs", ARGS, _rows("abcdef", "gh", "ij"), limits)
    assert projection["items"] == [{"text": "abc"}, {"text": "gh"}]
    assert (projection["total_matched"], projection["truncated"]) == (3, True)
    assert projection["document_ids"] == []
    assert projection["query_scope"] == {"tool": "search_logs", **ARGS}
    assert validate_document(projection, "bounded-projection") == []


def test_projection_of_a_lookup_lists_document_ids():
    """A lookup projection keeps each item's document_id and lists them once."""
    projection = project(
        "lookup_documents", ARGS, _rows("a", "b", "c", ids=["d1", "d2", "d1"]), Limits()
    )
    assert projection["document_ids"] == ["d1", "d2"]
    assert projection["truncated"] is False
    assert validate_document(projection, "bounded-projection") == []


def test_projection_trusts_a_larger_backend_total():
    """A backend total above the rows returned is kept and marks the projection truncated."""
    projection = project("search_logs", ARGS, _rows("a", total=40), Limits())
    assert (projection["total_matched"], projection["truncated"]) == (40, True)


def test_projection_drops_document_ids_of_other_tools():
    """A non-lookup tool never exposes a document_id (the schema forbids it)."""
    projection = project("search_logs", ARGS, _rows("a", ids=["d1"]), Limits())
    assert projection["items"] == [{"text": "a"}]


# ------------------------------------------------------------------------------ ledger
def test_ledger_transitions_once_and_never_overwrites():
    """PROJECTING → READY once; a terminal record is immutable; an id is never re-accepted."""
    changes = []
    ledger = InvocationLedger("run-1", changes.append)
    ledger.accept("call_1", "search_logs", ARGS, step=1)
    projection = project("search_logs", ARGS, _rows(), Limits())
    ready = ledger.ready("call_1", projection)
    assert (ready["status"], ready["evidence_status"]) == ("READY", "NO_EVIDENCE")
    assert validate_document(ready, "tool-invocation") == []
    with pytest.raises(InvocationStateError, match="immutable"):
        ledger.fail("call_1", "TOOL_FAILED")
    with pytest.raises(InvocationStateError, match="never overwritten"):
        ledger.accept("call_1", "query_metrics", ARGS, step=2)
    assert ledger.get("call_1") == ready
    assert [(c["status"], c["evidence_status"]) for c in changes] == [
        ("PROJECTING", None),
        ("READY", "NO_EVIDENCE"),
    ]


def test_ledger_error_states_have_fixed_messages_and_valid_pairs():
    """ERROR/ERROR and READY/ERROR records validate and carry only fixed messages."""
    ledger = InvocationLedger("run-1", lambda _record: None)
    ledger.accept("call_1", "search_logs", ARGS, step=1)
    ledger.accept("call_2", "search_logs", ARGS, step=1)
    failed = ledger.fail("call_1", "TOOL_TIMEOUT")
    empty = project("search_logs", ARGS, _rows(), Limits())
    backend = ledger.backend_error("call_2", empty)
    assert validate_document(failed, "tool-invocation") == []
    assert validate_document(backend, "tool-invocation") == []
    assert (backend["status"], backend["evidence_status"]) == ("READY", "ERROR")
    with pytest.raises(InvocationStateError, match="in-band"):
        InvocationLedger("run-1", lambda _record: None).fail("x", "BACKEND_ERROR")


# ------------------------------------------------------------------------------ trace
def test_trace_numbers_events_and_survives_a_broken_sink():
    """Events are numbered from 1; a sink that raises stops receiving, the trace goes on."""
    received = []

    def sink(frame):
        received.append(frame)
        raise ConnectionResetError

    clock = iter(range(100, 200))
    trace = TraceRecorder("run-1", lambda: next(clock), sink)
    trace.emit("NEW_WORK_PREVENTED", {})
    trace.emit("INTERRUPT_REQUESTED", {})
    assert [(e["seq"], e["type"], e["ts_ms"]) for e in trace.events] == [
        (1, "NEW_WORK_PREVENTED", 100),
        (2, "INTERRUPT_REQUESTED", 101),
    ]
    assert len(received) == 1
    assert all(validate_document(e, "run-trace-event") == [] for e in trace.events)


def test_scripted_ports_satisfy_the_port_protocols():
    """The shipped scripted doubles are Router, Agent, Reviewer and Tool ports."""
    ports = ScriptedPorts.from_fixture(
        {"router": [], "agent": [], "semantic_guard": [], "tools": {}}
    )
    assert isinstance(ports.router, RouterPort)
    assert isinstance(ports.agent, AgentPort)
    assert isinstance(ports.reviewer, ReviewerPort)
    assert isinstance(ports.tools, ToolBackend)
    assert ports.script_error() is None


@given(
    st.one_of(
        st.text(max_size=140),
        st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,130}", fullmatch=True),
        st.none(),
        st.integers(),
        st.booleans(),
    )
)
def test_id_grammar_agrees_with_the_tool_call_id_schema(value):
    """The Harness accepts a presented id iff the tool-call-id JSON Schema accepts it."""
    schema_valid = validate_document(value, "tool-call-id") == []
    assert (classify_tool_call_id(value, ()) is None) == schema_valid


# ------------------------------------------------------------------------ Run store files
def test_iut_runs_each_get_a_fresh_store_file_deleted_after_the_run(h, monkeypatch, tmp_path):
    """Every fixture Run opens its own new SQLite file in the process's scratch folder (one per
    temporary-files folder) and leaves nothing behind."""
    import tempfile  # noqa: PLC0415 - only this test moves the temporary-files folder

    from reference_harness import _fixture_iut  # noqa: PLC0415 - the paths are its own

    given: list[tuple[Path, bool]] = []
    original = _fixture_iut._run_store_path

    def watched() -> Path:
        path = original()
        given.append((path, path.exists()))
        return path

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(_fixture_iut, "_run_store_path", watched)
    first, second = h.run(h.fixture()), h.run(h.fixture())
    assert first == second
    assert len({path for path, _ in given}) == len(given) == 2
    assert [existed for _, existed in given] == [False, False]
    (folder,) = {path.parent for path, _ in given}
    assert folder.parent == tmp_path
    assert list(folder.iterdir()) == []
    assert _fixture_iut._SCRATCH[(os.getpid(), str(tmp_path))] == folder
