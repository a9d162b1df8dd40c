"""Spec Scenario "Client disconnects during a model call", end to end over real sockets.

uvicorn serves the chat app on loopback; the Harness uses the OpenAI adapters against the scripted
OpenAI-compatible server; an httpx client streams the chat and goes away while the agent's model
call is blocked. Waits are bounded events, never sleeps.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from reference_harness import Harness, Limits, ScriptedTools
from reference_harness.openai import OpenAIAgent, OpenAIConfig, OpenAIReviewer, OpenAIRouter
from reference_harness.openai.testing import Fault, Hold, ScriptedOpenAIServer
from reference_harness.sse import INTERNAL_CHAT_PATH, LoopbackServer, TraceLog, create_app
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

WAIT_S = 30.0
"""Bound of every wait on an event in these tests."""

_DRAFT = {
    "conclusion": {
        "summary": "checkout database is down",
        "confidence": "HIGH",
        "analysis_ids": ["a1"],
    },
    "analyses": [
        {
            "analysis_id": "a1",
            "kind": "INFERENCE",
            "statement": "db down",
            "tool_call_ids": ["call_1"],
        }
    ],
    "action_plan": [],
    "recommendations": [],
    "limitations": [],
}


class _WatchedTraceLog(TraceLog):
    """A TraceLog that sets an event per trace event type it records."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def event(self, event_type: str) -> threading.Event:
        with self._lock:
            return self.seen.setdefault(event_type, threading.Event())

    def record(self, event: Any) -> None:
        super().record(event)
        self.event(str(event["type"])).set()


class _Recorder:
    """Wraps each Harness: records every frame it hands the app, signals when its Run ended."""

    def __init__(self, harness: Harness) -> None:
        self._harness = harness
        self.frames: list[dict[str, Any]] = []
        self.done = threading.Event()

    async def run(self, session_id: str, user_message: str, *, sink: Any, cancel: Any) -> object:
        def recording_sink(frame: dict[str, Any]) -> None:
            self.frames.append(frame)
            sink(frame)

        try:
            return await self._harness.run(
                session_id, user_message, sink=recording_sink, cancel=cancel
            )
        finally:
            self.done.set()


def _sse_events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    event, data = "message", []
    for line in lines:
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield event, json.loads("\n".join(data))
            event, data = "message", []


def _row_state(db: Path, run_id: str) -> tuple[str, str | None]:
    with sqlite3.connect(db) as connection:
        row = connection.execute(
            "SELECT state, published_result FROM diagnosis_run WHERE run_id = ?", (run_id,)
        ).fetchone()
    assert row is not None, f"no diagnosis_run row {run_id}"
    return row[0], row[1]


@pytest.fixture
def model_server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as server:
        yield server


def _app_server(model_server: ScriptedOpenAIServer, db: Path, timeout_ms: int, log: TraceLog):
    config = OpenAIConfig(model_server.base_url, "scripted-model", "k", timeout_ms / 1000 * 0.9)
    store = RunStore(db)
    recorders: list[_Recorder] = []

    def factory() -> _Recorder:
        harness = Harness(
            store=store,
            router=OpenAIRouter(config),
            agent=OpenAIAgent(config),
            reviewer=OpenAIReviewer(config),
            tools=ScriptedTools({}),
            limits=Limits(model_call_timeout_ms=timeout_ms),
        )
        recorders.append(_Recorder(harness))
        return recorders[-1]

    app = create_app(harness_factory=factory, public_entry="LEGACY", trace_log=log)
    return LoopbackServer(app), recorders, store


def test_client_disconnect_during_model_call_cancels_and_discards_late_draft(
    model_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    """A client gone mid model call: Run CANCELLED, no draft ever sent, the late draft discarded."""
    model_server.enqueue("ROUTER", {"kind": "intent", "intent": "DIAGNOSIS"})
    model_server.enqueue("DIAGNOSIS_AGENT", Hold({"kind": "draft", "draft": _DRAFT}))
    db = tmp_path / "runs.sqlite"
    log = _WatchedTraceLog()
    app_server, recorders, store = _app_server(model_server, db, 20_000, log)
    received: list[tuple[str, dict[str, Any]]] = []
    with app_server, httpx.Client(base_url=app_server.base_url, timeout=WAIT_S) as client:
        body = {"session_id": "s-1", "message": "why is checkout failing?"}
        with client.stream("POST", INTERNAL_CHAT_PATH, json=body) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            for event, data in _sse_events(response.iter_lines()):
                received.append((event, data))
                if (
                    data.get("type") == "MODEL_CALL_STARTED"
                    and data["data"]["component"] == "DIAGNOSIS_AGENT"
                ):
                    break
            model_server.wait_for_requests("DIAGNOSIS_AGENT", 1, timeout_s=WAIT_S)
        # the stream is closed: the client is gone while the agent's HTTP call is blocked
        assert log.event("CANCEL_REQUESTED").wait(WAIT_S)
        model_server.release()  # the model now answers late with a valid draft
        (recorder,) = recorders
        assert recorder.done.wait(WAIT_S)
        run_id = received[0][1]["run_id"]
        trace = client.get(f"/internal/v1/runs/{run_id}/trace").json()
    store.close()

    assert _row_state(db, run_id) == ("CANCELLED", None)
    assert trace["finished"] is True
    types = [event["type"] for event in trace["events"]]
    layered = [
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "LATE_RESULT_DISCARDED",
        "RUN_FINISHED",
    ]
    assert [t for t in types if t in layered] == layered
    by_type = {event["type"]: event["data"] for event in trace["events"]}
    assert by_type["CANCEL_REQUESTED"] == {"cause": "CLIENT_DISCONNECTED"}
    assert by_type["LATE_RESULT_DISCARDED"]["component"] == "DIAGNOSIS_AGENT"
    assert by_type["RUN_FINISHED"]["state"] == "CANCELLED"
    assert "RESULT_RELEASED" not in types
    finished = [e["data"] for e in trace["events"] if e["type"] == "MODEL_CALL_FINISHED"]
    assert finished[-1]["component"] == "DIAGNOSIS_AGENT"
    assert finished[-1]["outcome"] == "CANCELLED"
    assert all(event != "result" for event, _ in received)
    assert all(frame["event"] != "result" for frame in recorder.frames)
    assert model_server.request_count("DIAGNOSIS_AGENT") == 1
    assert model_server.request_count("SEMANTIC_GUARD") == 0
    model_server.check_consumed()


def test_model_call_that_never_answers_is_bounded_by_its_timeout(
    model_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    """An endpoint that never answers: the agent attempt ends TIMEOUT after exactly one request."""
    model_server.enqueue("ROUTER", {"kind": "intent", "intent": "DIAGNOSIS"})
    model_server.enqueue("DIAGNOSIS_AGENT", Fault.NEVER_ANSWER)
    db = tmp_path / "runs.sqlite"
    app_server, recorders, store = _app_server(model_server, db, 500, _WatchedTraceLog())
    with app_server, httpx.Client(base_url=app_server.base_url, timeout=WAIT_S) as client:
        body = {"session_id": "s-1", "message": "why is checkout failing?"}
        with client.stream("POST", INTERNAL_CHAT_PATH, json=body) as response:
            received = list(_sse_events(response.iter_lines()))
    store.close()

    events = [data for event, data in received if event == "run_event"]
    agent_finished = [
        e["data"]
        for e in events
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == "DIAGNOSIS_AGENT"
    ]
    assert [f["outcome"] for f in agent_finished] == ["TIMEOUT"]
    assert model_server.request_count("DIAGNOSIS_AGENT") == 1
    end_state = received[-1]
    assert end_state[0] == "end"
    run_id = events[0]["run_id"]
    assert _row_state(db, run_id)[0] == end_state[1]["state"]
    assert recorders[0].done.is_set()


def test_disconnect_while_model_never_answers_ends_at_the_interrupt(
    model_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    """Client gone, model silent: the blocked call ends at the Harness's interrupt.

    The port call returns once its request was sent and the Run's cancellation interrupted it
    (not at its HTTP timeout); the Run is CANCELLED, the call's end arrives after the
    cancellation and is discarded as a late result; the endpoint saw exactly one request.
    """
    model_server.enqueue("ROUTER", {"kind": "intent", "intent": "DIAGNOSIS"})
    model_server.enqueue("DIAGNOSIS_AGENT", Fault.NEVER_ANSWER)
    db = tmp_path / "runs.sqlite"
    log = _WatchedTraceLog()
    app_server, recorders, store = _app_server(model_server, db, 1_000, log)
    with app_server, httpx.Client(base_url=app_server.base_url, timeout=WAIT_S) as client:
        body = {"session_id": "s-1", "message": "why is checkout failing?"}
        with client.stream("POST", INTERNAL_CHAT_PATH, json=body) as response:
            for _event, data in _sse_events(response.iter_lines()):
                if (
                    data.get("type") == "MODEL_CALL_STARTED"
                    and data["data"]["component"] == "DIAGNOSIS_AGENT"
                ):
                    run_id = data["run_id"]
                    break
            model_server.wait_for_requests("DIAGNOSIS_AGENT", 1, timeout_s=WAIT_S)
        assert recorders[0].done.wait(WAIT_S)
        trace = client.get(f"/internal/v1/runs/{run_id}/trace").json()
    store.close()

    assert _row_state(db, run_id) == ("CANCELLED", None)
    types = [event["type"] for event in trace["events"]]
    assert types.index("CANCEL_REQUESTED") < types.index("LATE_RESULT_DISCARDED")
    assert types[-1] == "RUN_FINISHED"
    assert model_server.request_count("DIAGNOSIS_AGENT") == 1
