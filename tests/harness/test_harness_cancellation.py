"""Layered cancellation (Requirement 8, DESIGN section 7) and the release gate."""

from __future__ import annotations

import asyncio
import threading

import pytest

from reference_harness import CancelScope, Harness, Limits, RunJournal, ScriptedPorts
from reference_harness.ports import FinalAnswer, ToolRows
from reference_harness.store import RunStore


def test_disconnect_during_a_tool_cancels_its_work(h):
    """A disconnect while a tool runs: TOOL_WORK_CANCELLED, invocation ERROR/ERROR CANCELLED."""
    fixture = h.fixture(
        agent=[h.tool_calls(h.call()), h.draft_turn(h.draft())],
        semantic_guard=[],
        tools=h.tools(search_logs=[{"kind": "block_until_cancelled"}]),
        client={"disconnect_on": {"event_type": "INVOCATION_STATUS_CHANGED", "occurrence": 1}},
    )
    observation = h.run(fixture)
    types = h.types(observation)
    tail = types[types.index("CANCEL_REQUESTED") :]
    assert tail == [
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "TOOL_WORK_CANCELLED",
        "INVOCATION_STATUS_CHANGED",
        "RUN_FINISHED",
    ]
    invocation = h.invocation(observation, "call_1")
    assert (invocation["status"], invocation["evidence_status"]) == ("ERROR", "ERROR")
    assert invocation["error"]["code"] == "CANCELLED"
    assert h.final_run(observation)["state"] == "CANCELLED"
    # The agent's draft turn is never asked for: no new model call after the gate closed, and a
    # cancelled Run may leave its script unconsumed (no SCRIPT_UNCONSUMED error).
    assert "MODEL_CALL_STARTED" not in tail
    assert "error" not in observation


def test_cancel_before_any_work_prevents_every_model_call(h, direct):
    """A scope cancelled before the Run starts: no model call at all, CANCELLED, no result."""
    scope = CancelScope()
    scope.cancel("OPERATOR")
    result = direct(h.fixture(router=[], agent=[], semantic_guard=[], tools={}), scope=scope)
    assert result.types() == [
        "RUN_STARTED",
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "RUN_FINISHED",
    ]
    assert result.row.state.value == "CANCELLED"
    assert [f["event"] for f in result.frames][-1] == "end"
    assert result.frames[-1]["data"] == {"state": "CANCELLED"}


def test_disconnect_during_semantic_review_blocks_release(h):
    """A reviewer blocked at disconnect answers SUPPORTED late; nothing is released."""
    fixture = h.fixture(
        semantic_guard=[{"kind": "block_until_cancelled", "then": h.supported()}],
        client={"disconnect_on": {"event_type": "MODEL_CALL_STARTED", "occurrence": 4}},
    )
    observation = h.run(fixture)
    assert h.data(observation, "LATE_RESULT_DISCARDED") == [
        {"component": "SEMANTIC_GUARD", "purpose": "SEMANTIC_REVIEW", "call_index": 1, "attempt": 1}
    ]
    assert "SEMANTIC_VERDICT" not in h.types(observation)
    assert observation["published_result"] is None
    assert h.final_run(observation)["state"] == "CANCELLED"


def test_disconnect_after_release_changes_nothing(h):
    """A disconnect after RESULT_RELEASED cannot undo the durable release."""
    fixture = h.fixture(
        client={"disconnect_on": {"event_type": "RESULT_RELEASED", "occurrence": 1}},
    )
    observation = h.run(fixture)
    assert h.final_run(observation)["state"] == "SUCCESS"
    assert "CANCEL_REQUESTED" not in h.types(observation)
    frames = [f["event"] for f in observation["client_frames"]]
    assert frames[-1] == "run_event"
    assert observation["client_frames"][-1]["data"]["type"] == "RESULT_RELEASED"


def test_cancel_is_idempotent_and_checks_its_cause():
    """A second cancel is refused (False); an unknown cause raises ValueError naming it."""
    scope = CancelScope()
    assert scope.cancel("RUN_DEADLINE") is True
    assert scope.cancel("OPERATOR") is False
    assert scope.cause == "RUN_DEADLINE"
    with pytest.raises(ValueError, match="CLIENT_GONE"):
        CancelScope().cancel("CLIENT_GONE")  # type: ignore[arg-type]


def test_a_scope_serves_one_run():
    """Binding a scope twice raises: one scope per Run."""
    scope = CancelScope()
    scope.bind(lambda _cause: None)
    with pytest.raises(RuntimeError, match="one scope per Run"):
        scope.bind(lambda _cause: None)


class HangingAgent:
    """Ignores its interrupt; blocks until the test lets it go (a stuck HTTP call)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def step(self, _request, _interrupt):
        self.release.wait(30)
        return FinalAnswer({"never": "used"})


def test_a_hung_model_call_ends_by_its_timeout(h, direct):
    """A call that never returns ends TIMEOUT at model_call_timeout_ms: AGENT_UNAVAILABLE."""
    agent = HangingAgent()
    try:
        result = direct(
            h.fixture(agent=[], semantic_guard=[], tools={}),
            agent=agent,
            limits=Limits(model_call_timeout_ms=50),
        )
    finally:
        agent.release.set()
    finished = [e["data"] for e in result.journal.events if e["type"] == "MODEL_CALL_FINISHED"]
    assert finished[-1]["outcome"] == "TIMEOUT"
    assert result.row.error_code.value == "AGENT_UNAVAILABLE"


def test_cancel_while_a_hung_call_ignores_the_interrupt(h, direct):
    """Cancelled during a call that never returns: the Harness waits only up to the timeout."""
    agent = HangingAgent()
    scope = CancelScope()

    def sink(frame):
        data = frame["data"]
        started = frame["event"] == "run_event" and data["type"] == "MODEL_CALL_STARTED"
        if started and data["data"]["component"] == "DIAGNOSIS_AGENT":
            asyncio.get_running_loop().call_soon(scope.cancel, "OPERATOR")

    try:
        result = direct(
            h.fixture(agent=[], semantic_guard=[], tools={}),
            agent=agent,
            sink=sink,
            scope=scope,
            limits=Limits(model_call_timeout_ms=50),
        )
    finally:
        agent.release.set()
    types = result.types()
    assert types[-2:] == ["MODEL_CALL_FINISHED", "RUN_FINISHED"]  # nothing came back to discard
    assert "LATE_RESULT_DISCARDED" not in types
    assert result.row.state.value == "CANCELLED"


class SlowTool:
    """A tool backend that never answers until cancelled."""

    async def execute(self, _call, _cancel):
        await asyncio.Event().wait()
        return ToolRows(rows=iter(()))


def test_a_tool_that_never_answers_times_out(h, direct):
    """A tool without an answer within tool_timeout_ms ends ERROR/ERROR TOOL_TIMEOUT."""
    result = direct(
        h.fixture(
            agent=[h.tool_calls(h.call()), h.draft_turn(h.draft()), h.draft_turn(h.draft())],
            semantic_guard=[],
        ),
        tools=SlowTool(),
        limits=Limits(tool_timeout_ms=30),
    )
    invocation = result.journal.invocations[0]
    assert (invocation["status"], invocation["evidence_status"]) == ("ERROR", "ERROR")
    assert invocation["error"] == {
        "code": "TOOL_TIMEOUT",
        "safe_message": "The tool did not answer in time.",
    }
    # The draft cites the ERROR evidence, before and after the repair: the evidence fallback.
    validations = [e["data"] for e in result.journal.events if e["type"] == "EVIDENCE_VALIDATION"]
    assert [v["violations"][0]["code"] for v in validations] == ["ERROR_EVIDENCE_CITED"] * 2
    assert result.row.fallback_type.value == "EVIDENCE_VALIDATION_FAILED"


def test_a_cancel_after_the_verdict_still_closes_the_release_gate(h, direct):
    """A cancel arriving after SUPPORTED but before the release: CANCELLED, nothing released."""
    scope = CancelScope()
    frames: list[dict] = []

    def sink(frame):
        frames.append(frame)
        if frame["event"] == "run_event" and frame["data"]["type"] == "SEMANTIC_VERDICT":
            scope.cancel("RUN_DEADLINE")  # synchronously, inside the last step of the work

    result = direct(h.fixture(), sink=sink, scope=scope)
    assert result.row.state.value == "CANCELLED"
    assert result.journal.published_result is None
    assert not any(f["event"] == "result" for f in frames)
    assert result.types()[-5:] == [
        "SEMANTIC_VERDICT",
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "RUN_FINISHED",
    ]


def test_cancelling_the_run_task_finishes_the_run_cancelled(h, tmp_path):
    """Cancelling the asyncio task of a Run (shutdown) still writes CANCELLED, cause OPERATOR."""
    fixture = h.fixture(agent=[], semantic_guard=[], tools={})
    ports = ScriptedPorts.from_fixture(fixture)
    agent = HangingAgent()
    started = asyncio.Event()

    def sink(frame):
        data = frame["data"]
        is_start = frame["event"] == "run_event" and data["type"] == "MODEL_CALL_STARTED"
        if is_start and data["data"]["component"] == "DIAGNOSIS_AGENT":
            started.set()

    async def scenario():
        harness = Harness(
            store=store,
            router=ports.router,
            agent=agent,
            reviewer=ports.reviewer,
            tools=ports.tools,
        )
        task = asyncio.ensure_future(harness.run("session-1", "hi", sink=sink, journal=journal))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    journal = RunJournal()
    with RunStore(tmp_path / "runs.sqlite3") as store:
        try:
            asyncio.run(scenario())
        finally:
            agent.release.set()
        [run] = store.list_session("session-1")
    assert run.state.value == "CANCELLED"
    assert run.published_result is None
    types = [event["type"] for event in journal.events]
    assert types[-5:] == [
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "MODEL_CALL_FINISHED",
        "RUN_FINISHED",
    ]
    assert journal.events[-5]["data"] == {"cause": "OPERATOR"}
    assert journal.events[-2]["data"]["outcome"] == "CANCELLED"
