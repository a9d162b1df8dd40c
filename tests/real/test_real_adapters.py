"""The OpenAI-compatible ports against the scripted server: what is sent, what is read back."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import pytest

from reference_harness.openai import OpenAIAgent, OpenAIConfig, OpenAIReviewer, OpenAIRouter
from reference_harness.ports import (
    MISSING,
    AgentRequest,
    FinalAnswer,
    ReviewRequest,
    RouterRequest,
    ToolCallsAnswer,
    ToolSpec,
)

if TYPE_CHECKING:
    from reference_harness.openai.testing import ScriptedOpenAIServer

_SPEC = ToolSpec(
    "search_logs",
    "Search the logs of one service.",
    {"type": "object", "properties": {"target": {"type": "string"}}, "required": ["target"]},
)
_ARGS = {"target": "checkout", "time_range": {"start_ms": 0, "end_ms": 900000}, "query": "error"}


def _agent_request() -> AgentRequest:
    return AgentRequest(
        purpose="AGENT_STEP",
        messages=({"role": "user", "content": "why is checkout failing?"},),
        tools=(_SPEC,),
        intent="DIAGNOSIS",
    )


def test_router_returns_the_intent_of_a_json_answer(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """The Router port sends one request marked ROUTER and returns the intent the model wrote."""
    server.enqueue("ROUTER", {"kind": "intent", "intent": "KNOWLEDGE_QUERY"})
    answer = OpenAIRouter(config).classify(RouterRequest("what is a runbook?"), threading.Event())
    assert answer.content == "KNOWLEDGE_QUERY"
    assert server.request_count("ROUTER") == 1
    sent = server.requests[0].body
    assert sent["model"] == "scripted-model"
    assert sent["messages"][-1] == {"role": "user", "content": "what is a runbook?"}
    assert "tools" not in sent
    assert server.requests[0].stream is config.stream


def test_router_keeps_a_non_json_answer_as_raw_text(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """Content that is not JSON reaches the Harness as the raw text, for it to classify."""
    server.enqueue("ROUTER", {"kind": "raw", "text": "I think it is a diagnosis"})
    answer = OpenAIRouter(config).classify(RouterRequest("x"), threading.Event())
    assert answer.content == "I think it is a diagnosis"


def test_agent_sends_tool_specs_as_openai_tools(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """Each ToolSpec becomes one OpenAI function tool with its name, description and parameters."""
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "draft", "draft": {"conclusion": {}}})
    OpenAIAgent(config).step(_agent_request(), threading.Event())
    tools = server.requests[0].body["tools"]
    assert tools == [
        {
            "type": "function",
            "function": {
                "name": _SPEC.name,
                "description": _SPEC.description,
                "parameters": dict(_SPEC.parameters),
            },
        }
    ]


@pytest.mark.parametrize(
    ("scripted", "expected"),
    [
        ({"id": "call_1"}, "call_1"),
        ({"id": "functions.get_weather:0"}, "functions.get_weather:0"),
        ({"id": ""}, ""),
        ({}, MISSING),
        ({"id": 42}, 42),
        ({"id": "   "}, "   "),
        ({"id": "call\u0000x"}, "call\u0000x"),
    ],
    ids=["call", "functions", "empty", "absent", "number", "blank", "control-char"],
)
def test_agent_passes_tool_call_ids_through_untouched(
    server: ScriptedOpenAIServer,
    config: OpenAIConfig,
    scripted: dict[str, object],
    expected: object,
) -> None:
    """The presented Tool Call ID reaches the Harness as sent: never generated, never repaired."""
    call = {**scripted, "name": "search_logs", "arguments": _ARGS}
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "tool_calls", "tool_calls": [call]})
    answer = OpenAIAgent(config).step(_agent_request(), threading.Event())
    assert isinstance(answer, ToolCallsAnswer)
    (proposed,) = answer.calls
    assert proposed.id == expected
    assert type(proposed.id) is type(expected)
    assert proposed.name == "search_logs"
    assert proposed.arguments == _ARGS


def test_agent_keeps_parallel_calls_in_order_with_their_own_ids(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """Two calls of one step, both ``""``: two proposals, in order, each keeping its empty id."""
    calls = [
        {"id": "", "name": "search_logs", "arguments": _ARGS},
        {"id": "", "name": "query_metrics", "arguments": {**_ARGS, "query": "latency"}},
    ]
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "tool_calls", "tool_calls": calls})
    answer = OpenAIAgent(config).step(_agent_request(), threading.Event())
    assert isinstance(answer, ToolCallsAnswer)
    assert [(c.id, c.name, c.arguments) for c in answer.calls] == [
        ("", "search_logs", _ARGS),
        ("", "query_metrics", {**_ARGS, "query": "latency"}),
    ]


def test_agent_final_answer_is_the_parsed_draft(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """A content answer becomes a FinalAnswer holding the JSON value the model wrote."""
    draft = {"conclusion": {"summary": "db down", "confidence": "HIGH", "analysis_ids": ["a1"]}}
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "draft", "draft": draft})
    answer = OpenAIAgent(config).step(_agent_request(), threading.Event())
    assert answer == FinalAnswer(draft)


def test_agent_request_starts_with_the_component_marker(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """The Harness's messages follow the adapter's system prompt, unchanged and in order."""
    server.enqueue("DIAGNOSIS_AGENT", {"kind": "raw", "text": "not json"})
    request = _agent_request()
    answer = OpenAIAgent(config).step(request, threading.Event())
    assert answer == FinalAnswer("not json")
    messages = server.requests[0].body["messages"]
    assert messages[0]["role"] == "system"
    assert messages[0]["content"].startswith("[srdh-component: DIAGNOSIS_AGENT]")
    assert messages[1:] == [dict(m) for m in request.messages]


def test_reviewer_sends_only_the_snapshot(
    server: ScriptedOpenAIServer, config: OpenAIConfig
) -> None:
    """The reviewer call is one isolated turn: system prompt + the snapshot JSON, no tools."""
    verdict = {"verdict": "SUPPORTED", "unsupported_analysis_ids": []}
    server.enqueue("SEMANTIC_GUARD", {"kind": "verdict", "verdict": verdict})

    class _Snapshot:
        def model_dump_json(self, *, exclude_none: bool) -> str:
            assert exclude_none
            return '{"digest": "ab"}'

    request = ReviewRequest(_Snapshot())  # type: ignore[arg-type]
    answer = OpenAIReviewer(config).review(request, threading.Event())
    assert answer.content == verdict
    body = server.requests[0].body
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"] == '{"digest": "ab"}'
    assert "tools" not in body
