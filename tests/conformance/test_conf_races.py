"""The verdict does not depend on the machine's load (``docs/decisions/races.md``).

A conforming IUT starved of CPU past its 300 ms model-call timeout is reproduced
deterministically: the IUT's process group is stopped (SIGSTOP) when the kit's model endpoint
takes a chosen request, and continued 1.2-1.5 s later (longer than three such timeouts).
"""

from __future__ import annotations

import copy
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from conformance import checks
from conformance.adapters import STARVED_RUNS, StdioAdapter
from conformance.adapters._starved import unstarved
from conformance.checks import check_global_invariants, check_model_calls, starved_by_the_clock
from conformance.model_endpoint import _server

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
ROUTER_RETRY = "every-router-answer-gets-the-attempts-the-declared-policy-allows-example-2"
"""Router UNAVAILABLE, then DIAGNOSIS; every model call times out after 300 ms."""
REVIEW_BLOCKS = "the-semanticguard-s-last-allowed-answer-decides-the-fallback-example-2"
"""The SemanticGuard's call blocks until cancelled (then SUPPORTED); 300 ms timeouts."""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs POSIX signals")


def _load(fixture_id: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{fixture_id}.json").read_text(encoding="utf-8"))


def _outcomes(observation: dict[str, Any], component: str) -> list[str]:
    return [
        e["data"]["outcome"]
        for e in observation["trace"]
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == component
    ]


def _pausing(monkeypatch, adapter: StdioAdapter, component: str, pause_s: float) -> list[int]:
    """Stop the IUT's process group for ``pause_s`` when the first Run's first request of
    ``component`` is taken; return the list of Runs started (one endpoint each)."""
    runs: list[int] = []
    take = _server.ModelEndpoint._take
    init = _server.ModelEndpoint.__init__

    def counted(endpoint: _server.ModelEndpoint, fixture: Any) -> None:
        init(endpoint, fixture)
        runs.append(len(runs))

    def paused(endpoint: _server.ModelEndpoint, taken: str, body: Any) -> Any:
        result = take(endpoint, taken, body)
        if taken == component and len(runs) == 1 and endpoint._served[taken] == 1:
            group = adapter._child.pgid  # type: ignore[union-attr] # started by then
            os.killpg(group, signal.SIGSTOP)
            resume = threading.Timer(pause_s, os.killpg, (group, signal.SIGCONT))
            resume.start()
        return result

    monkeypatch.setattr(_server.ModelEndpoint, "__init__", counted)
    monkeypatch.setattr(_server.ModelEndpoint, "_take", paused)
    return runs


@pytest.fixture
def reference():
    adapter = StdioAdapter([sys.executable, "-m", "reference_harness.stdio"], timeout_s=30.0)
    adapter.hello()
    yield adapter
    adapter.close()


def test_a_run_whose_iut_was_starved_past_a_timely_answer_is_run_again(monkeypatch, reference):
    """Stopped 1.2 s on its first Router request, the reference records TIMEOUT for the scripted
    UNAVAILABLE (its clock ran out): that Run decides nothing and is run again, and the second
    Run follows the script (UNAVAILABLE, then VALID) and passes."""
    fixture = _load(ROUTER_RETRY)
    runs = _pausing(monkeypatch, reference, "ROUTER", 1.2)
    observation = reference.run(fixture)
    assert len(runs) >= 2  # a third only if the machine starved the second Run too
    assert _outcomes(observation, "ROUTER") == ["UNAVAILABLE", "VALID"]
    check_model_calls(observation, fixture, reference.capabilities).require()
    check_global_invariants(observation, fixture).require()


def test_a_held_answer_never_reaches_an_iut_starved_inside_its_timeout(monkeypatch, reference):
    """Stopped 1.5 s (five of its timeouts) while its SemanticGuard call is held, the reference
    never gets the late answer: it waits for an event (a later request), not for a timer of 3
    timeouts that a starved IUT can outsleep (the old endpoint answered it at 0.9 s)."""
    fixture = _load(REVIEW_BLOCKS)
    _pausing(monkeypatch, reference, "SEMANTIC_GUARD", 1.5)
    observation = reference.run(fixture)
    review = [r for r in observation["model_requests"] if r["component"] == "SEMANTIC_GUARD"]
    # never ANSWERED; the hang-up may still be on its way when the observation is read
    assert [r["answer"] for r in review] in (["CLIENT_CLOSED"], ["NOT_ANSWERED"])
    assert _outcomes(observation, "SEMANTIC_GUARD") == ["TIMEOUT"]
    check_global_invariants(observation, fixture).require()


def _finished(component: str, *outcomes: str) -> list[dict[str, Any]]:
    return [
        {"type": "MODEL_CALL_FINISHED", "data": {"component": component, "outcome": outcome}}
        for outcome in outcomes
    ]


ROUTER_TIMES_OUT = {"router": [{"kind": "error", "error": "TIMEOUT"}]}
ROUTER_TURNS = {
    "router": [{"kind": "error", "error": "UNAVAILABLE"}, {"kind": "intent", "intent": "DIAGNOSIS"}]
}


@pytest.mark.parametrize(
    ("fixture", "trace", "starved"),
    [
        (ROUTER_TURNS, _finished("ROUTER", "UNAVAILABLE", "VALID"), False),
        (ROUTER_TURNS, _finished("ROUTER", "TIMEOUT"), True),
        (ROUTER_TURNS, _finished("ROUTER", "UNAVAILABLE", "TIMEOUT"), True),
        (ROUTER_TIMES_OUT, _finished("ROUTER", "TIMEOUT"), False),
        (
            {"semantic_guard": [{"kind": "block_until_cancelled", "then": {"kind": "raw"}}]},
            _finished("SEMANTIC_GUARD", "TIMEOUT"),
            False,
        ),
        (
            {"agent": [{"kind": "ignore_cancellation", "then": {"kind": "raw", "text": "x"}}]},
            _finished("DIAGNOSIS_AGENT", "TIMEOUT"),
            True,
        ),
        (
            {
                "agent": [{"kind": "raw", "text": "a"}],
                "decoy_agent_turns": [{"kind": "error", "error": "TIMEOUT"}],
            },
            _finished("DIAGNOSIS_AGENT", "VALID", "TIMEOUT"),
            False,
        ),
        (ROUTER_TURNS, _finished("ROUTER", "UNAVAILABLE", "CANCELLED"), False),
    ],
)
def test_starved_by_the_clock_counts_timeouts_against_the_scripted_ones(fixture, trace, starved):
    """More TIMEOUT attempts than scripted timeouts (in the turns consumed) is a starved Run."""
    observation = {"trace": trace, "invocations": []}
    assert (starved_by_the_clock(observation, fixture) is not None) is starved


def _invocation(call_id: str, code: str | None, sequence: int) -> dict[str, Any]:
    error = None if code is None else {"code": code}
    status = "READY" if code is None else "ERROR"
    return {
        "tool_call_id": call_id,
        "tool_name": "search_logs",
        "status": status,
        "error": error,
        "sequence": sequence,
    }


BLOCKING_TOOL = {"kind": "block_until_cancelled"}
ROWS = {"kind": "rows", "items": []}


@pytest.mark.parametrize(
    ("responses", "codes", "starved"),
    [
        ([ROWS, BLOCKING_TOOL], [None, "TOOL_TIMEOUT"], False),
        ([ROWS, BLOCKING_TOOL], ["TOOL_TIMEOUT", None], True),
        ([ROWS, ROWS], [None, "CANCELLED"], False),
    ],
)
def test_starved_by_the_clock_sees_a_timely_tool_answer_ended_by_the_tool_timeout(
    responses, codes, starved
):
    """A TOOL_TIMEOUT whose scripted backend response answers at once is a starved Run."""
    fixture = {"tools": {"search_logs": {"responses": responses}}}
    invocations = [_invocation(f"call_{n}", code, n) for n, code in enumerate(codes, start=1)]
    observation = {"trace": [], "invocations": invocations}
    assert (starved_by_the_clock(observation, fixture) is not None) is starved


def test_unstarved_runs_a_starved_fixture_at_most_starved_runs_times():
    """A Harness that times out timely answers every time is judged on its last Run."""
    starved = {"trace": _finished("ROUTER", "TIMEOUT"), "invocations": []}
    calls: list[dict[str, Any]] = []

    def run_once() -> dict[str, Any]:
        calls.append(copy.deepcopy(starved))
        return calls[-1]

    assert unstarved(run_once, ROUTER_TURNS) is calls[-1]
    assert len(calls) == STARVED_RUNS == 3


def _event(seq: int, kind: str, **data: Any) -> dict[str, Any]:
    return {"run_id": "run-1", "seq": seq, "type": kind, "data": data}


def test_two_runs_may_differ_only_in_recording_a_late_answer():
    """A 1 ms timeout and a disconnect: one Run's interrupted call answered before the wait
    ended (LATE_RESULT_DISCARDED), the other's after; the rest of the trace is the same, so
    R1.deterministic-control holds. Any other difference still fails it."""
    head = [_event(1, "RUN_STARTED"), _event(2, "MODEL_CALL_STARTED", attempt=1)]
    cancelled = [_event(3, "CANCEL_REQUESTED"), _event(4, "MODEL_CALL_FINISHED", attempt=1)]
    late = [_event(5, "LATE_RESULT_DISCARDED", attempt=1)]
    discarded = {"run_id": "run-1", "trace": [*head, *cancelled, *late, _event(6, "RUN_FINISHED")]}
    silent = {"run_id": "run-1", "trace": [*head, *cancelled, _event(5, "RUN_FINISHED")]}
    assert checks.check_same_normalized_trace(discarded, silent).passed
    other = copy.deepcopy(silent)
    other["trace"][-1]["data"] = {"state": "FAILED"}
    assert not checks.check_same_normalized_trace(discarded, other).passed
