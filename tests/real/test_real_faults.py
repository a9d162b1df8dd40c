"""Bad input from the endpoint: each fault is exactly one HTTP request, mapped to its outcome."""

from __future__ import annotations

import threading

import pytest

from reference_harness.errors import ModelTimeout, ModelUnavailable
from reference_harness.openai import OpenAIAgent, OpenAIConfig, OpenAIReviewer, OpenAIRouter
from reference_harness.openai.testing import Fault, ScriptedOpenAIServer
from reference_harness.ports import (
    AgentRequest,
    ReviewRequest,
    RouterRequest,
    ToolCallsAnswer,
)

_REQUEST = AgentRequest(
    purpose="AGENT_STEP",
    messages=({"role": "user", "content": "diagnose checkout"},),
    tools=(),
    intent="DIAGNOSIS",
)


@pytest.mark.parametrize(
    "fault",
    [
        Fault.INVALID_JSON,
        Fault.RATE_LIMITED,
        Fault.SERVER_ERROR,
        Fault.UNAVAILABLE,
        Fault.CONNECTION_RESET,
        Fault.STREAM_CUT,
    ],
    ids=lambda fault: fault.value.lower(),
)
def test_fault_is_one_request_and_model_unavailable(
    server: ScriptedOpenAIServer, config: OpenAIConfig, fault: Fault
) -> None:
    """Invalid JSON, 429, 500, 503, a reset, a cut body: one request each, ModelUnavailable."""
    server.enqueue("DIAGNOSIS_AGENT", fault)
    with pytest.raises(ModelUnavailable):
        OpenAIAgent(config).step(_REQUEST, threading.Event())
    assert server.request_count() == 1


def test_no_answer_is_one_request_and_model_timeout(server: ScriptedOpenAIServer) -> None:
    """An endpoint that never answers is bounded by the call timeout: ModelTimeout, one request."""
    config = OpenAIConfig(server.base_url, "m", "k", timeout_s=0.2)
    server.enqueue("ROUTER", Fault.NEVER_ANSWER)
    with pytest.raises(ModelTimeout):
        OpenAIRouter(config).classify(RouterRequest("x"), threading.Event())
    assert server.request_count("ROUTER") == 1


def test_fixture_error_turns_map_to_their_outcomes(server: ScriptedOpenAIServer) -> None:
    """The fixture's ``error: UNAVAILABLE`` / ``error: TIMEOUT`` turns become the port errors."""
    config = OpenAIConfig(server.base_url, "m", "k", timeout_s=0.2)
    server.enqueue(
        "SEMANTIC_GUARD",
        {"kind": "error", "error": "UNAVAILABLE"},
        {"kind": "error", "error": "TIMEOUT"},
    )

    class _Snapshot:
        def model_dump_json(self, *, exclude_none: bool) -> str:
            return "{}" if exclude_none else "null"

    request = ReviewRequest(_Snapshot())  # type: ignore[arg-type]
    reviewer = OpenAIReviewer(config)
    with pytest.raises(ModelUnavailable):
        reviewer.review(request, threading.Event())
    with pytest.raises(ModelTimeout):
        reviewer.review(request, threading.Event())
    assert server.request_count("SEMANTIC_GUARD") == 2


def test_empty_tool_call_id_is_one_request_passed_through(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """A tool call with an empty id is one request; ``""`` reaches the Harness to be rejected."""
    call = {"id": "", "name": "list_alerts", "arguments": {}}
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "tool_calls", "tool_calls": [call]})
    answer = OpenAIAgent(config).step(_REQUEST, threading.Event())
    assert isinstance(answer, ToolCallsAnswer)
    assert [c.id for c in answer.calls] == [""]
    assert server.request_count() == 1


def test_refused_connection_is_model_unavailable() -> None:
    """No server listening: one refused connection, ModelUnavailable (no retry loop to wait for)."""
    with ScriptedOpenAIServer() as stopped_later:
        base_url = stopped_later.base_url
    config = OpenAIConfig(base_url, "m", "k", timeout_s=1.0)
    with pytest.raises(ModelUnavailable):
        OpenAIRouter(config).classify(RouterRequest("x"), threading.Event())


def test_sdk_client_makes_no_retries(config: OpenAIConfig) -> None:
    """The SDK client is built with ``max_retries=0`` and the configured timeout (Requirement 9)."""
    agent = OpenAIAgent(config)
    sdk = agent._client._client
    assert sdk.max_retries == 0
    assert sdk.timeout.read == config.timeout_s


def test_decoy_agent_turns_answer_after_the_agent_script_and_are_never_left_over() -> None:
    """A fixture's ``decoy_agent_turns`` answer only once ``agent`` is used up, never counted."""
    first = {"id": "call_1", "name": "list_alerts", "arguments": {}}
    decoy = {"id": "call_9", "name": "list_alerts", "arguments": {}}
    fixture = {
        "agent": [{"kind": "tool_calls", "tool_calls": [first]}],
        "decoy_agent_turns": [
            {"kind": "tool_calls", "tool_calls": [decoy]},
            {"kind": "tool_calls", "tool_calls": [decoy]},
        ],
    }
    with ScriptedOpenAIServer.from_fixture(fixture) as server:
        agent = OpenAIAgent(OpenAIConfig(server.base_url, "m", "k", timeout_s=5))
        answers = [agent.step(_REQUEST, threading.Event()) for _ in range(2)]
        assert [[c.id for c in a.calls] for a in answers if isinstance(a, ToolCallsAnswer)] == [
            ["call_1"],
            ["call_9"],
        ]
        server.check_consumed()  # one decoy left over is no error
