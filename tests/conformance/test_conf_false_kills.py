"""Conforming behaviour the kit once failed (suite-gaps round 3, K1-K7): each passes now, and the
faulty behaviour next to it still fails naming its rule."""

from __future__ import annotations

import copy
import json
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance import checks
from conformance.adapters import InProcessAdapter, ObservationContractError, StdioAdapter
from conformance.checks._order import ORDER_RULES, OrderRule, order_table, order_violations
from conformance.cli import EXIT_FAILED, app
from reference_harness.http11 import Http11Connection, Refusal

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "conformance" / "fixtures"
LYING = ROOT / "tests" / "conformance" / "iuts" / "lying_iut.py"
DOC = ROOT / "docs" / "implementers.md"


def _fixture(fixture_id: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / f"{fixture_id}.json").read_text("utf-8"))
    return loaded


def _run(fixture: dict[str, Any], factory: str = "reference_harness.iut:create") -> dict[str, Any]:
    adapter = InProcessAdapter(factory)
    try:
        return adapter.run(fixture)
    finally:
        adapter.close()


def _failing_rules(result: checks.CheckResult) -> tuple[str, ...]:
    assert not result.passed
    return result.rules


# -- K1: a client that left before the result frame ---------------------------------------


def _released_then_left() -> dict[str, Any]:
    fixture = _fixture("the-client-disconnects-at-any-event-of-the-run-example-9")
    fixture["fixture_id"] = "k1-disconnect-on-result-released"
    fixture["client"] = {"disconnect_on": {"event_type": "RESULT_RELEASED", "occurrence": 1}}
    return fixture


def test_k1_client_leaving_on_result_released_is_conforming():
    """Released SUCCESS, no result frame after the disconnect frame: every invariant holds."""
    fixture = _released_then_left()
    observation = _run(fixture)
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    assert not [f for f in observation["client_frames"] if f["event"] == "result"]
    checks.check_global_invariants(observation, fixture).require()


def test_k1_result_frame_after_the_disconnect_still_fails():
    """A result frame the client could not have received (after its last frame) is caught."""
    fixture = _released_then_left()
    observation = _run(fixture)
    late = {"event": "result", "data": observation["published_result"]}
    observation["client_frames"].append(late)
    rules = _failing_rules(checks.check_global_invariants(observation, fixture))
    assert "R8.nothing-after-disconnect" in rules


# -- K2: a discard event only for a late result ------------------------------------------------


def _requests(observation: dict[str, Any], blocked_answer: str) -> list[dict[str, Any]]:
    started = [e["data"] for e in observation["trace"] if e["type"] == "MODEL_CALL_STARTED"]
    requests = [{"component": d["component"], "answer": "ANSWERED"} for d in started]
    requests[-1]["answer"] = blocked_answer
    return requests


@pytest.mark.parametrize(("answer", "required"), [("CLIENT_CLOSED", False), ("ANSWERED", True)])
def test_k2_late_result_discarded_only_when_one_arrived(answer, required):
    """A hung-up agent call (CLIENT_CLOSED) needs no LATE_RESULT_DISCARDED; an answered one does."""
    fixture = _fixture("client-disconnects-during-a-model-call")
    observation = _run(fixture)
    hung_up = copy.deepcopy(observation)
    hung_up["trace"] = [e for e in hung_up["trace"] if e["type"] != "LATE_RESULT_DISCARDED"]
    hung_up["model_requests"] = _requests(observation, answer)
    result = checks.check_layered_cancellation(hung_up, fixture)
    assert result.passed is not required
    if required:
        assert "LATE_RESULT_DISCARDED" in result.message


# -- K3: two codes fit; the stricter reading of "the single lookup Tool Call" ------------------


@pytest.mark.parametrize(
    "factory",
    [
        "reference_harness.iut:create",
        "reference_harness.variants:failed_lookup_not_ready",
        "reference_harness.variants:single_lookup_call_strict",
    ],
)
@pytest.mark.parametrize(
    "fixture_id",
    [
        "a-knowledge-answer-names-the-lookup-that-failed",
        "a-failed-lookup-is-called-again-and-the-answer-names-the-ready-one",
    ],
)
def test_k3_either_code_and_the_stricter_reading_pass(factory, fixture_id):
    """LOOKUP_CALL_COUNT or INVOCATION_NOT_READY for a named failed lookup; a Harness rejecting
    every answer of a Run with two lookup calls: all pass the global invariants."""
    fixture = _fixture(fixture_id)
    checks.check_global_invariants(_run(fixture, factory), fixture).require()


def test_k3_accepting_a_named_failed_lookup_still_fails():
    """The mutant that accepts an answer naming the failed lookup is still killed (R5)."""
    fixture = _fixture("a-knowledge-answer-names-the-lookup-that-failed")
    observation = _run(fixture, "reference_harness.mutants:failed_lookup_named_accepted")
    rules = _failing_rules(checks.check_global_invariants(observation, fixture))
    assert "R5.exact-rag-bindings" in rules


# -- K4: the failed-repair trace shape ---------------------------------------------------------


def test_k4_failed_repair_without_attempt_two_is_conforming():
    """A repair answered by tool calls may record no DRAFT_SUBMITTED/EVIDENCE_VALIDATION 2."""
    fixture = _fixture("the-structural-repair-answers-with-a-tool-call-example-1")
    observation = _run(fixture, "reference_harness.variants:failed_repair_submits_nothing")
    assert [e for e in observation["trace"] if e["type"] == "EVIDENCE_VALIDATION"][-1]["data"][
        "attempt"
    ] == 1
    checks.check_global_invariants(observation, fixture).require()
    call_id = fixture["agent"][-1]["tool_calls"][0]["id"]
    checks.check_failed_repair(observation, fixture, call_id).require()
    valid = copy.deepcopy(observation)
    second = {**_event(valid, "EVIDENCE_VALIDATION"), "data": {}}
    second["data"] = {**_event(valid, "EVIDENCE_VALIDATION")["data"], "attempt": 2, "valid": True}
    valid["trace"].insert(-2, second)
    assert not checks.check_failed_repair(valid, fixture, call_id).passed


def _event(observation: dict[str, Any], event_type: str) -> dict[str, Any]:
    return next(e for e in observation["trace"] if e["type"] == event_type)


# -- K5: the user's own words are no draft text ------------------------------------------------


@pytest.mark.parametrize("statement", ["whole", "one word"])
def test_k5_a_statement_restating_the_user_is_no_leak(statement):
    """A rejected draft whose statement is the user's sentence (or a word of it): no leak."""
    fixture = _fixture("evidence-validation-fails-twice")
    said = fixture["user_message"] if statement == "whole" else fixture["user_message"].split()[2]
    for turn in fixture["agent"]:
        for analysis in (turn.get("draft") or {}).get("analyses", []):
            analysis["statement"] = said
    observation = _run(fixture)
    assert observation["published_result"]["kind"] == "SAFE_FALLBACK"
    checks.check_global_invariants(observation, fixture).require()
    leaked = copy.deepcopy(observation)
    row = next(r for r in leaked["runs"] if r["run_id"] == leaked["run_id"])
    row["error_code"] = "leaked: " + fixture["agent"][-1]["draft"]["conclusion"]["summary"]
    assert "R6.fallback-fixed-schema" in _failing_rules(
        checks.check_global_invariants(leaked, fixture)
    )


# -- K6: each run starts from prior_runs alone -------------------------------------------------


def test_k6_a_store_kept_across_runs_is_named_plainly():
    """Rows the fixture does not seed: the first failure line says so, naming the rule."""
    fixture = _fixture("latest-run-is-a-fallback")
    observation = _run(fixture)
    kept = copy.deepcopy(observation)
    extra = copy.deepcopy(next(r for r in kept["runs"] if r["run_id"] == kept["run_id"]))
    extra["run_id"] = "left-from-an-earlier-run"
    kept["runs"].insert(0, extra)
    result = checks.check_global_invariants(kept, fixture)
    assert "R7.prior-runs-untouched" in _failing_rules(result)
    first = result.message.splitlines()[1]
    assert "the fixture does not seed (left-from-an-earlier-run)" in first
    assert "prior_runs alone" in first
    checks.check_global_invariants(observation, fixture).require()


# -- K7: a schema-invalid observation is R0.valid-observation, exit 1 --------------------------


def test_k7_schema_invalid_observation_is_a_contract_failure():
    """Over stdio the adapter raises ObservationContractError (a conformance failure)."""
    adapter = StdioAdapter([sys.executable, str(LYING), "schema-invalid"], 30.0)
    try:
        with pytest.raises(ObservationContractError) as caught:
            adapter.run(_fixture("draft-contains-an-analysis-item"))
    finally:
        adapter.close()
    assert checks.check_observation_contract(caught.value.violations).rules == (
        "R0.valid-observation",
    )


def test_k7_schema_invalid_observation_with_fixture_exits_one(tmp_path):
    """``srdh run --fixture``: exit 1, the failure names R0.valid-observation (not exit 2)."""
    path = tmp_path / "f.json"
    path.write_text(json.dumps(_fixture("draft-contains-an-analysis-item")), encoding="utf-8")
    command = f"{sys.executable} {LYING} schema-invalid"
    result = CliRunner().invoke(app, ["run", "--iut", command, "--fixture", str(path)])
    assert result.exit_code == EXIT_FAILED, result.output
    assert "R0.valid-observation" in result.output


# -- the observation protocol: the doc's order table is the checks' data ----------------------


def test_order_table_in_the_guide_is_the_checks_data():
    """docs/implementers.md's partial-order table is exactly ORDER_RULES, row by row."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- order-table")[1].split("<!-- /order-table -->")[0]
    rows = [line for line in block.splitlines() if line.startswith("| `") or "| no `" in line]
    assert rows == order_table()


@pytest.mark.parametrize(
    "rule",
    [r for r in ORDER_RULES if not r.first.startswith("frame:") and r.first != r.then],
    ids=lambda r: f"{r.kind}-{r.first}-{r.then}",
)
def test_each_trace_order_rule_is_enforced(rule):
    """A trace breaking the rule is reported by the evaluator; the reference's order passes."""
    if rule.kind == "last":
        broken = [{"type": rule.first}, {"type": "RUN_STARTED"}]
    elif rule.kind == "before":
        broken = [{"type": rule.then}, {"type": rule.first}]
    elif rule.kind == "requires":
        broken = [{"type": "RUN_STARTED"}, {"type": rule.then}]
    else:
        broken = [{"type": rule.first}, {"type": rule.then}]
    assert [r for r, _ in order_violations(broken, (rule,))] == [rule]
    if rule.kind == "requires":
        kept = [{"type": rule.then}, {"type": rule.first}]  # the order is a ``before`` rule's
        assert order_violations(kept, (rule,)) == []
    else:
        assert order_violations(list(reversed(broken)), (rule,)) == [] or rule.kind == "last"


def _observed(fixture_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    fixture = _fixture(fixture_id)
    return _run(fixture), fixture


_DATA: dict[str, dict[str, Any]] = {
    "RESULT_RELEASED": {"kind": "DIAGNOSIS_DRAFT"},
    "EVIDENCE_VALIDATION": {
        "attempt": 1,
        "result_kind": "DIAGNOSIS_DRAFT",
        "valid": False,
        "violations": [],
    },
    "DRAFT_SUBMITTED": {"attempt": 1, "result_kind": "DIAGNOSIS_DRAFT"},
}
"""Valid data of an event a broken trace adds where the Run had none to copy."""


def _broken(observation: dict[str, Any], rule: OrderRule) -> dict[str, Any]:
    """``observation`` with its trace changed to break ``rule`` (events moved or added)."""
    broken = copy.deepcopy(observation)
    trace = broken["trace"]
    first = next((i for i, e in enumerate(trace) if e["type"] == rule.first), len(trace))
    if rule.kind == "requires":
        call = broken["invocations"][0]["tool_call_id"]
        added = {"run_id": broken["run_id"], "type": rule.then, "data": {"tool_call_id": call}}
        trace.insert(len(trace) - 1, added)
    elif rule.kind == "last":
        trace.insert(first - 1, trace.pop(first))
    elif rule.kind == "before":
        then = next(i for i, e in enumerate(trace) if e["type"] == rule.then)
        trace.insert(first, trace.pop(then))
    else:
        model = next((e for e in trace if e["type"] == rule.then), None)
        data = _DATA.get(rule.then, {})
        added = copy.deepcopy(model) if model else {"type": rule.then, "data": data}
        added["run_id"] = broken["run_id"]
        trace.insert(first + 1, added)
    for seq, event in enumerate(trace, 1):
        event["seq"] = seq
    broken["client_frames"] = [{"event": "run_event", "data": e} for e in trace]
    return broken


_WHERE: dict[str, str] = {
    "R0.valid-observation": "draft-contains-an-analysis-item",
    "R1.released-is-agent-authored": "draft-contains-an-analysis-item",
    "R8.layered-cancellation": "client-disconnects-during-a-model-call",
    "R8.late-result-discarded": "client-disconnects-during-a-model-call",
    "R8.late-tool-result-discarded": "client-disconnects-during-a-model-call",
    "R8.tool-stop-recorded": "a-tool-blocks-past-its-timeout-and-answers-late",
}
"""A fixture whose reference Run holds the events of each rule (both, or the first)."""

_WHERE_EVENT: dict[tuple[str, str], str] = {
    ("R8.layered-cancellation", "TOOL_WORK_CANCELLED"): (
        "a-tool-answers-after-its-work-is-cancelled"
    ),
}
"""A fixture whose reference Run holds an event the rule's fixture above does not."""


@pytest.mark.parametrize(
    "rule",
    [r for r in ORDER_RULES if r.rule_id in _WHERE],
    ids=lambda r: f"{r.rule_id}-{r.kind}-{r.first}-{r.then}",
)
def test_each_documented_trace_order_is_enforced_by_the_checks(rule):
    """Breaking a documented ordering rule in a reference Run fails the kit's checks naming it."""
    where = _WHERE_EVENT.get((rule.rule_id, rule.then), _WHERE[rule.rule_id])
    observation, fixture = _observed(where)
    broken = _broken(observation, rule)
    named = set(checks.check_global_invariants(broken, fixture).rules)
    named |= set(checks.check_layered_cancellation(broken, fixture).rules)
    assert rule.rule_id in named, f"{rule} broken, the checks named {sorted(named)}"


# -- a client hanging up mid-request is no malformed request ----------------------------------


def _receive(payload: bytes, *, close: bool) -> object:
    server, client = socket.socketpair()
    try:
        client.sendall(payload)
        if close:
            client.shutdown(socket.SHUT_WR)
        connection = Http11Connection(
            server, max_body=1 << 20, stopping=threading.Event(), stall_s=0.5
        )
        return connection.receive()
    finally:
        server.close()
        client.close()


def test_a_request_cut_short_by_the_client_is_a_hang_up():
    """Head and part of the body, then the client closes: no request and no refusal (the
    Harness's cancellation hung up; the kit's endpoint must not call it malformed)."""
    head = b"POST /diagnosis-agent/v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
    cut = head + b"Content-Length: 100\r\n\r\n" + b'{"model": "m"'
    assert _receive(cut, close=True) is None
    garbage = _receive(b"NOT HTTP AT ALL\r\n\r\n", close=False)
    assert isinstance(garbage, Refusal)


# -- red team 6: interruption requested only when something is in flight ----------------------


def _dropped(observation: dict[str, Any], event_type: str) -> dict[str, Any]:
    """``observation`` without its ``event_type`` trace events (recorded after the client left)."""
    changed = copy.deepcopy(observation)
    changed["trace"] = [e for e in changed["trace"] if e["type"] != event_type]
    for seq, event in enumerate(changed["trace"], 1):
        event["seq"] = seq
    return changed


def test_no_interrupt_requested_when_nothing_is_in_flight_is_conforming():
    """Cancellation noticed between calls (the client left on SEMANTIC_VERDICT): CANCEL_REQUESTED
    and NEW_WORK_PREVENTED without INTERRUPT_REQUESTED pass. "requests interruption" is the THEN
    of "WHEN an SSE client disconnects while a synchronous model call is in flight"."""
    fixture = _fixture("the-client-disconnects-at-any-event-of-the-run-example-11")
    assert fixture["client"]["disconnect_on"]["event_type"] == "SEMANTIC_VERDICT"
    observation = _dropped(_run(fixture), "INTERRUPT_REQUESTED")
    cancel = next(i for i, e in enumerate(observation["trace"]) if e["type"] == "CANCEL_REQUESTED")
    before = [e["type"] for e in observation["trace"][:cancel]]
    assert before.count("MODEL_CALL_STARTED") == before.count("MODEL_CALL_FINISHED")
    checks.check_disconnect(observation, fixture).require()
    checks.check_global_invariants(observation, fixture).require()


def test_no_interrupt_requested_with_a_model_call_in_flight_still_fails():
    """The Diagnosis Agent call blocked at the disconnect: INTERRUPT_REQUESTED is required."""
    fixture = _fixture("client-disconnects-during-a-model-call")
    observation = _dropped(_run(fixture), "INTERRUPT_REQUESTED")
    rules = _failing_rules(checks.check_disconnect(observation, fixture))
    assert "R8.layered-cancellation" in rules
    assert "in flight at the cancellation" in checks.check_disconnect(observation, fixture).message


@pytest.mark.parametrize(
    "fixture_id",
    [
        "the-client-disconnects-while-the-semanticguard-call-is-in-flight",
        "the-client-disconnects-while-the-structural-repair-call-is-in-flight",
        "the-client-disconnects-while-the-router-call-is-in-flight",
    ],
)
def test_a_held_call_at_the_disconnect_must_end_cancelled(fixture_id):
    """The call in flight at the disconnect (its answer held until it is interrupted) ends
    CANCELLED on the reference; recorded TIMEOUT (never interrupted) or VALID (its late answer
    used) before the Harness records the cancellation, it fails naming its rule."""
    fixture = _fixture(fixture_id)
    observation = _run(fixture)
    checks.check_disconnect(observation, fixture).require()
    trace = observation["trace"]
    disconnect = [e for e in trace if e["type"] == "MODEL_CALL_STARTED"][
        fixture["client"]["disconnect_on"]["occurrence"] - 1
    ]
    key = {k: disconnect["data"][k] for k in ("component", "purpose", "call_index", "attempt")}
    for outcome, rule in (
        ("TIMEOUT", "R8.layered-cancellation"),
        ("VALID", "R8.late-result-discarded"),
    ):
        broken = copy.deepcopy(observation)
        finished = next(
            e
            for e in broken["trace"]
            if e["type"] == "MODEL_CALL_FINISHED"
            and all(e["data"].get(k) == v for k, v in key.items())
        )
        finished["data"]["outcome"] = outcome
        # the lazily cancelling Harness: the call finishes, then the cancellation is recorded
        broken["trace"].remove(finished)
        cancel = next(i for i, e in enumerate(broken["trace"]) if e["type"] == "CANCEL_REQUESTED")
        broken["trace"].insert(cancel, finished)
        broken["trace"] = [e for e in broken["trace"] if e["type"] != "LATE_RESULT_DISCARDED"]
        for seq, event in enumerate(broken["trace"], 1):
            event["seq"] = seq
        assert rule in _failing_rules(checks.check_disconnect(broken, fixture)), outcome
