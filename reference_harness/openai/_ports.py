"""The OpenAI-compatible model ports: Router, Diagnosis Agent and SemanticGuard.

Each adapter makes exactly one HTTP request per port call through :class:`ChatClient`
(``max_retries=0``, explicit timeout) and returns the model's answer untouched for the Harness
to classify: ids as sent, content parsed as JSON when it is JSON text, else the raw text.

Cancellation (Requirement 8): a synchronous HTTP request cannot be stopped mid-call, but the port
call can: each adapter hands the port's ``interrupt`` event to :meth:`ChatClient.complete`, which
returns as soon as it is set (``ModelUnavailable``); the request ends by its HTTP timeout
(``OpenAIConfig.timeout_s``) or when the server closes it, in its own worker thread, and the
Harness's release gate discards whatever the port call gave.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_harness import _model_input
from reference_harness.openai._client import ChatClient
from reference_harness.openai._completion import parse_json_or_text
from reference_harness.openai._prompts import AGENT_SYSTEM, REVIEWER_SYSTEM, ROUTER_SYSTEM
from reference_harness.ports import (
    AgentAnswer,
    AgentRequest,
    FinalAnswer,
    ProposedToolCall,
    ReviewAnswer,
    ReviewRequest,
    RouterAnswer,
    RouterRequest,
    ToolCallsAnswer,
    ToolSpec,
)

if TYPE_CHECKING:
    import threading

    from reference_harness.openai._config import OpenAIConfig

__all__ = ["OpenAIAgent", "OpenAIReviewer", "OpenAIRouter", "tool_entry"]


def _system(text: str) -> dict[str, object]:
    return {"role": "system", "content": text}


def tool_entry(spec: ToolSpec) -> dict[str, object]:
    """Return the OpenAI ``tools`` entry of ``spec``: ``{"type": "function", "function": {…}}``."""
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": dict(spec.parameters),
        },
    }


class _Adapter:
    def __init__(self, config_or_client: OpenAIConfig | ChatClient) -> None:
        self._client = (
            config_or_client
            if isinstance(config_or_client, ChatClient)
            else ChatClient(config_or_client)
        )

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()


class OpenAIRouter(_Adapter):
    """``RouterPort`` on an OpenAI-compatible endpoint (Requirement 1: Router).

    Sends the user message alone (single turn, no tools). The answer: if the content is JSON
    ``{"intent": X}`` the value ``X``; otherwise the parsed JSON, or the raw text.
    """

    def classify(self, request: RouterRequest, interrupt: threading.Event) -> RouterAnswer:
        """Classify ``request.user_message``; one HTTP request.

        Raises:
            ModelUnavailable: the endpoint failed (429, 5xx, reset, cut, not JSON).
            ModelTimeout: no answer within the timeout.
        """
        completion = self._client.complete(
            [_system(ROUTER_SYSTEM), *_model_input.router_messages(request)], interrupt=interrupt
        )
        content = parse_json_or_text(completion.content)
        if isinstance(content, dict) and set(content) == {"intent"}:
            return RouterAnswer(content["intent"])
        return RouterAnswer(content)


class OpenAIAgent(_Adapter):
    """``AgentPort`` on an OpenAI-compatible endpoint with tool calling (the Diagnosis Agent).

    ``request.tools`` become the request's ``tools``. An answer with tool calls is a
    :class:`ToolCallsAnswer` whose ids are exactly what the endpoint sent (``MISSING`` when no id
    key came); otherwise a :class:`FinalAnswer` of the content (parsed JSON, or raw text).
    """

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer one agent call; one HTTP request.

        Raises:
            ModelUnavailable: the endpoint failed (429, 5xx, reset, cut, not JSON).
            ModelTimeout: no answer within the timeout.
        """
        completion = self._client.complete(
            [_system(AGENT_SYSTEM), *_model_input.agent_messages(request)],
            tools=[tool_entry(spec) for spec in _model_input.agent_tools(request)],
            interrupt=interrupt,
        )
        if completion.tool_calls:
            return ToolCallsAnswer(
                tuple(
                    ProposedToolCall(call.id, call.name, call.arguments)
                    for call in completion.tool_calls
                )
            )
        return FinalAnswer(parse_json_or_text(completion.content))


class OpenAIReviewer(_Adapter):
    """``ReviewerPort`` on an OpenAI-compatible endpoint (SemanticGuard's model).

    One isolated single turn: the system prompt and the verified snapshot as JSON; no tools, no
    history. The answer is the content parsed as JSON, or the raw text.
    """

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        """Review ``request.snapshot``; one HTTP request.

        Raises:
            ModelUnavailable: the endpoint failed (429, 5xx, reset, cut, not JSON).
            ModelTimeout: no answer within the timeout.
        """
        completion = self._client.complete(
            [_system(REVIEWER_SYSTEM), *_model_input.review_messages(request)],
            tools=[tool_entry(spec) for spec in _model_input.review_tools(request)],
            interrupt=interrupt,
        )
        return ReviewAnswer(parse_json_or_text(completion.content))
