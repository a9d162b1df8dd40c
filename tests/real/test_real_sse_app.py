"""The chat app over a real socket: routes, the phase gate's public entry, bad input, frames."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from conformance import fixtures as fx
from reference_harness import Harness, ScriptedPorts
from reference_harness.sse import (
    INTERNAL_CHAT_PATH,
    PUBLIC_CHAT_PATH,
    LoopbackServer,
    create_app,
)
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

WAIT_S = 30.0

_DRAFT = fx.diagnosis_draft([fx.analysis("a1", "OBSERVATION", ["call_1"])])
_FIXTURE = fx.diagnosis_fixture(
    "sse-success",
    steps=[[fx.tool_call("call_1")]],
    draft=_DRAFT,
    reviews=[fx.supported_turn()],
    tools={"search_logs": fx.tool_script(fx.rows("checkout error 500"))},
)


def _sse(lines: Iterator[str]) -> list[tuple[str, Any]]:
    frames, event, data = [], "message", []
    for line in lines:
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            frames.append((event, json.loads("\n".join(data))))
            event, data = "message", []
    return frames


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "runs.sqlite"


def _serve(db: Path, public_entry: Any) -> tuple[LoopbackServer, list[ScriptedPorts]]:
    store = RunStore(db)
    made: list[ScriptedPorts] = []

    def factory() -> Harness:
        ports = ScriptedPorts.from_fixture(_FIXTURE)
        made.append(ports)
        return Harness(
            store=store,
            router=ports.router,
            agent=ports.agent,
            reviewer=ports.reviewer,
            tools=ports.tools,
        )

    return LoopbackServer(create_app(harness_factory=factory, public_entry=public_entry)), made


def test_legacy_public_entry_answers_fixed_409_and_runs_nothing(db: Path) -> None:
    """While the gate says LEGACY, POST /v1/chat never runs the single ReAct Harness."""
    server, made = _serve(db, "LEGACY")
    with server, httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(PUBLIC_CHAT_PATH, json={"session_id": "s-1", "message": "hi"})
    assert response.status_code == 409
    assert response.json() == {"public_entry": "LEGACY", "internal_entry": INTERNAL_CHAT_PATH}
    assert made == []


@pytest.mark.parametrize(
    ("public_entry", "path"),
    [
        ("LEGACY", INTERNAL_CHAT_PATH),
        ("SINGLE_REACT", INTERNAL_CHAT_PATH),
        ("SINGLE_REACT", PUBLIC_CHAT_PATH),
    ],
)
def test_harness_route_streams_run_events_result_and_end(
    db: Path, public_entry: str, path: str
) -> None:
    """The internal route always, and the public one after cutover, stream the Run to its end."""
    server, made = _serve(db, public_entry)
    with server, httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        with client.stream("POST", path, json={"session_id": "s-1", "message": "why?"}) as response:
            assert response.status_code == 200
            frames = _sse(response.iter_lines())
        run_id = frames[0][1]["run_id"]
        trace = client.get(f"/internal/v1/runs/{run_id}/trace").json()
    kinds = [event for event, _ in frames]
    assert kinds.count("result") == 1
    assert kinds[-1] == "end"
    assert set(kinds) == {"run_event", "result", "end"}
    events = [data for event, data in frames if event == "run_event"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert trace == {"run_id": run_id, "finished": True, "events": events}
    released = kinds.index("result")
    assert frames[released - 1][1]["type"] == "RESULT_RELEASED"
    result, end = frames[released][1], frames[-1][1]
    assert result == {"kind": "DIAGNOSIS_DRAFT", "diagnosis_draft": _DRAFT}
    with sqlite3.connect(db) as connection:
        (state,) = connection.execute(
            "SELECT state FROM diagnosis_run WHERE run_id = ?", (run_id,)
        ).fetchone()
    assert end == {"state": state} == {"state": "SUCCESS"}
    assert made[0].script_error() is None


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (b"not json", ""),
        (b"[]", ""),
        (b'{"message": "hi"}', "/session_id"),
        (b'{"session_id": " bad", "message": "hi"}', "/session_id"),
        (b'{"session_id": "s-1", "message": 7}', "/message"),
        (b'{"session_id": "s-1", "message": "hi", "extra": 1}', "/extra"),
    ],
    ids=[
        "not-json",
        "not-object",
        "missing-session",
        "bad-session",
        "message-not-string",
        "extra-field",
    ],
)
def test_bad_chat_body_is_one_clear_422(db: Path, body: bytes, pointer: str) -> None:
    """A bad body gets one error naming the JSON pointer and what was expected; no Run starts."""
    server, made = _serve(db, "SINGLE_REACT")
    with server, httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(
            INTERNAL_CHAT_PATH, content=body, headers={"content-type": "application/json"}
        )
    assert response.status_code == 422
    answer = response.json()
    assert answer["error"] == "INVALID_REQUEST"
    assert answer["pointer"] == pointer
    assert answer["expected"]
    assert "Traceback" not in response.text
    assert made == []


def test_unknown_run_trace_is_404(db: Path) -> None:
    """Asking for the trace of a Run the app never served is a 404 with a fixed code."""
    server, _ = _serve(db, "LEGACY")
    with server, httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.get("/internal/v1/runs/nope/trace")
    assert (response.status_code, response.json()) == (404, {"error": "UNKNOWN_RUN"})


def test_public_entry_must_be_a_known_value() -> None:
    """create_app refuses a public entry outside the contract's vocabulary."""
    with pytest.raises(ValueError, match="LEGACY or SINGLE_REACT"):
        create_app(harness_factory=lambda: None, public_entry="NEW")  # type: ignore[arg-type,return-value]


def test_failing_harness_factory_is_a_fixed_503(caplog: pytest.LogCaptureFixture) -> None:
    """A harness that cannot be built gives 503 with a fixed code, never the error text."""

    def factory() -> Harness:
        message = "SRDH_OPENAI_BASE_URL is not set: secret detail"
        raise RuntimeError(message)

    server = LoopbackServer(create_app(harness_factory=factory, public_entry="SINGLE_REACT"))
    with server, httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
        response = client.post(PUBLIC_CHAT_PATH, json={"session_id": "s-1", "message": "hi"})
    assert (response.status_code, response.json()) == (503, {"error": "HARNESS_UNAVAILABLE"})
    assert "secret detail" not in response.text
    assert any("harness factory failed" in record.message for record in caplog.records)
