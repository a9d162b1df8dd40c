"""Endpoint faults through the Harness: one HTTP request per attempt, each attempt recorded.

The Harness runs with the OpenAI-compatible adapters against the scripted server. Each fault is
counted at the server (outside the Harness) and must match the Attempt Records in the trace.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import pytest

from conformance import fixtures as fx
from reference_harness import Harness, Limits, ScriptedTools
from reference_harness.openai import OpenAIAgent, OpenAIConfig, OpenAIReviewer, OpenAIRouter
from reference_harness.openai.testing import Fault, Reply, ScriptedOpenAIServer
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from pathlib import Path

_TIMEOUT_MS = 1_000
_FAULTS = [
    Fault.INVALID_JSON,
    Fault.RATE_LIMITED,
    Fault.SERVER_ERROR,
    Fault.CONNECTION_RESET,
    Fault.STREAM_CUT,
]


def _run(
    tmp_path: Path, *, router: list[Reply], agent: list[Reply], stream: bool = False
) -> tuple[dict[str, Any], list[dict[str, Any]], ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(router=router, agent=agent) as server:
        config = OpenAIConfig(server.base_url, "m", "k", _TIMEOUT_MS / 1000 * 0.9, stream)
        store = RunStore(tmp_path / "runs.sqlite")
        frames: list[dict[str, Any]] = []
        harness = Harness(
            store=store,
            router=OpenAIRouter(config),
            agent=OpenAIAgent(config),
            reviewer=OpenAIReviewer(config),
            tools=ScriptedTools({"search_logs": fx.tool_script(default=fx.rows("x"))}),
            limits=Limits(model_call_timeout_ms=_TIMEOUT_MS),
        )
        row = asyncio.run(harness.run("s-1", "why?", sink=frames.append))
        store.close()
    events = [f["data"] for f in frames if f["event"] == "run_event"]
    return row.model_dump(mode="json"), events, server


def _attempts(events: list[dict[str, Any]], component: str) -> list[str]:
    return [
        e["data"]["outcome"]
        for e in events
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == component
    ]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("fault", _FAULTS, ids=lambda fault: fault.value.lower())
def test_agent_fault_is_one_request_one_unavailable_attempt(
    tmp_path: Path, fault: Fault, stream: bool
) -> None:
    """An agent call hit by a fault: one request, one UNAVAILABLE record, AGENT_UNAVAILABLE."""
    row, events, server = _run(
        tmp_path, router=[fx.intent_turn("DIAGNOSIS")], agent=[fault], stream=stream
    )
    assert server.request_count("DIAGNOSIS_AGENT") == 1
    assert _attempts(events, "DIAGNOSIS_AGENT") == ["UNAVAILABLE"]
    assert (row["state"], row["error_code"]) == ("FAILED", "AGENT_UNAVAILABLE")
    server.check_consumed()


@pytest.mark.parametrize("fault", _FAULTS, ids=lambda fault: fault.value.lower())
def test_router_fault_twice_is_two_requests_two_records(tmp_path: Path, fault: Fault) -> None:
    """The Router may retry once (Harness policy): two faults = two requests = two records."""
    row, events, server = _run(tmp_path, router=[fault, fault], agent=[])
    assert server.request_count("ROUTER") == 2
    assert _attempts(events, "ROUTER") == ["UNAVAILABLE", "UNAVAILABLE"]
    assert (row["state"], row["error_code"]) == ("FAILED", "ROUTER_UNAVAILABLE")
    server.check_consumed()


def test_agent_that_never_answers_is_one_request_and_timeout(tmp_path: Path) -> None:
    """No answer at all: the HTTP timeout ends the call; one request, one TIMEOUT record."""
    row, events, server = _run(
        tmp_path, router=[fx.intent_turn("DIAGNOSIS")], agent=[Fault.NEVER_ANSWER]
    )
    assert server.request_count("DIAGNOSIS_AGENT") == 1
    assert _attempts(events, "DIAGNOSIS_AGENT") == ["TIMEOUT"]
    assert row["state"] == "FAILED"


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
def test_empty_tool_call_id_is_rejected_missing_id(tmp_path: Path, stream: bool) -> None:
    """A tool call with ``""`` from the endpoint is one request and rejected MISSING_ID, not run."""
    calls = fx.tool_calls_turn([fx.tool_call("")])
    row, events, server = _run(
        tmp_path,
        router=[fx.intent_turn("DIAGNOSIS")],
        agent=[calls, Fault.SERVER_ERROR],
        stream=stream,
    )
    rejected = [e["data"] for e in events if e["type"] == "TOOL_CALL_REJECTED"]
    assert [(r["reason"], r["presented_id"]) for r in rejected] == [("MISSING_ID", '""')]
    assert not [e for e in events if e["type"] == "TOOL_CALL_ACCEPTED"]
    assert server.request_count("DIAGNOSIS_AGENT") == 2
    assert _attempts(events, "DIAGNOSIS_AGENT") == ["VALID", "UNAVAILABLE"]
    assert row["state"] == "FAILED"
