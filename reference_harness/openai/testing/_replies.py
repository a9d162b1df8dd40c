"""What the scripted server answers: fixture turns rendered as chat completions, and HTTP faults.

A *reply* is one of:

* a Scenario Fixture turn (a mapping with ``kind``; contract sheet: RouterTurn, AgentTurn,
  ReviewTurn), rendered as the assistant message a real endpoint would send;
* a :class:`Fault` — an HTTP-level misbehaviour (429, 500, invalid JSON body, connection reset,
  body cut in half, no answer at all);
* a :class:`Hold` — block until the test calls ``release()`` (or the server stops), then answer.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["AssistantMessage", "Fault", "Hold", "Reply", "StatusReply", "render"]


class Fault(enum.Enum):
    """HTTP-level faults of an OpenAI-compatible endpoint (one request each)."""

    RATE_LIMITED = "RATE_LIMITED"
    """HTTP 429 with an OpenAI error body."""
    SERVER_ERROR = "SERVER_ERROR"
    """HTTP 500 with an OpenAI error body."""
    UNAVAILABLE = "UNAVAILABLE"
    """HTTP 503 with an OpenAI error body (the fixture's ``error: UNAVAILABLE``)."""
    INVALID_JSON = "INVALID_JSON"
    """HTTP 200, ``application/json`` (or one SSE chunk) whose body is not JSON."""
    CONNECTION_RESET = "CONNECTION_RESET"
    """The request is read, then the socket is closed with a TCP reset (no status line)."""
    STREAM_CUT = "STREAM_CUT"
    """Headers and the first half of the body (or of the SSE stream), then the socket closes."""
    NEVER_ANSWER = "NEVER_ANSWER"
    """Nothing is sent until the server stops, then the socket closes (fixture TIMEOUT)."""


@dataclass(frozen=True, slots=True)
class Hold:
    """Block until the test calls ``ScriptedOpenAIServer.release()``, then answer ``then``."""

    then: Reply


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    """A rendered answer: assistant ``content`` text and/or raw ``tool_calls`` objects."""

    content: str | None
    tool_calls: tuple[Mapping[str, object], ...]


@dataclass(frozen=True, slots=True)
class StatusReply:
    """An HTTP error status with an OpenAI-style error body."""

    status: int
    message: str


Reply: TypeAlias = "Mapping[str, object] | Fault | Hold"
"""A fixture turn, a fault, or a hold."""

_STATUS_OF_FAULT = {
    Fault.RATE_LIMITED: StatusReply(429, "rate limited"),
    Fault.SERVER_ERROR: StatusReply(500, "internal server error"),
    Fault.UNAVAILABLE: StatusReply(503, "service unavailable"),
}


def _json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _tool_call(call: Mapping[str, object]) -> Mapping[str, object]:
    rendered: dict[str, object] = {}
    if "id" in call:  # an absent id stays absent: the server never invents one
        rendered["id"] = call["id"]
    rendered["type"] = "function"
    rendered["function"] = {
        "name": call.get("name"),
        "arguments": _json_text(call.get("arguments")),
    }
    return rendered


_CONTENT_OF_KIND: dict[str, Callable[[Mapping[str, object]], str]] = {
    "intent": lambda turn: _json_text({"intent": turn.get("intent")}),
    "draft": lambda turn: _json_text(turn.get("draft")),
    "knowledge_answer": lambda turn: _json_text(turn.get("answer")),
    "verdict": lambda turn: _json_text(turn.get("verdict")),
    "raw": lambda turn: str(turn.get("text", "")),
}


def render(turn: Reply) -> AssistantMessage | StatusReply | Fault | Hold:
    """Translate one reply into what the server sends.

    Fixture turns: ``intent`` → content ``{"intent": …}``; ``draft`` / ``knowledge_answer`` /
    ``verdict`` → content = the JSON text of the value; ``raw`` → the text as is; ``tool_calls`` →
    ``tool_calls`` with ids exactly as scripted (absent stays absent, ``""``/``null``/numbers kept);
    ``draft_and_tool_calls`` → the draft's JSON text as content *and* those tool calls;
    ``error: UNAVAILABLE`` → HTTP 503; ``error: TIMEOUT`` → :attr:`Fault.NEVER_ANSWER`;
    ``block_until_cancelled`` → :class:`Hold`; ``ignore_cancellation`` → its ``then`` at once.

    Raises:
        ValueError: the turn has an unknown ``kind``.
    """
    if isinstance(turn, (Hold, Fault)):
        return _STATUS_OF_FAULT.get(turn, turn) if isinstance(turn, Fault) else turn
    kind = turn.get("kind")
    if isinstance(kind, str) and kind in _CONTENT_OF_KIND:
        return AssistantMessage(_CONTENT_OF_KIND[kind](turn), ())
    match kind:
        case "tool_calls" | "draft_and_tool_calls":
            calls = turn.get("tool_calls")
            listed = calls if isinstance(calls, list) else []
            content = _json_text(turn.get("draft")) if kind == "draft_and_tool_calls" else None
            return AssistantMessage(content, tuple(_tool_call(call) for call in listed))
        case "error":
            timeout = turn.get("error") == "TIMEOUT"
            return Fault.NEVER_ANSWER if timeout else _STATUS_OF_FAULT[Fault.UNAVAILABLE]
        case "block_until_cancelled":
            return Hold(_then(turn))
        case "ignore_cancellation":
            return render(_then(turn))
        case _:
            message = f"unknown turn kind {kind!r}; expected a Scenario Fixture turn kind"
            raise ValueError(message)


def _then(turn: Mapping[str, object]) -> Mapping[str, object]:
    then = turn.get("then")
    if not isinstance(then, dict):
        message = f"turn kind {turn.get('kind')!r} needs a 'then' turn object"
        raise ValueError(message)  # noqa: TRY004 - a fixture value error, not a caller type error
    return then
