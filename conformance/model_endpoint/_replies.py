"""What the kit's model endpoint answers: fixture turns rendered as chat completions, and faults.

A fixture turn (contract sheet: ``RouterTurn``, ``AgentTurn``, ``ReviewTurn``) becomes one
:data:`Reply`:

* :class:`Message` — an assistant message: ``content`` text and/or tool calls (both at once when
  a ``tool_calls`` turn carries ``content``, or for a ``draft_and_tool_calls`` turn: the draft's
  JSON text and the tool calls, which an OpenAI-compatible client reads as its tool calls),
  always with a ``reasoning_content`` field carrying a chain-of-thought canary, as reasoning
  servers send it (it must never reach a later model call or any output);
* :class:`Status` — an HTTP error status with an OpenAI error body (``error: UNAVAILABLE`` is 503
  unless the turn names another ``http_status``: 429, 500, 502, 503 or 504);
* :class:`Hold` — ``error: TIMEOUT`` holds the request until the client gives up (its HTTP
  timeout) and never answers; ``block_until_cancelled`` holds it until the client gives up (the
  Harness's own ``model_call_timeout_ms``, or the Run's cancellation), and answers its ``then``
  turn late only once the IUT sends a later request (or at the endpoint's safety bound).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["COT_CANARY", "Hold", "Message", "Reply", "Status", "render"]

COT_CANARY: Final = "srdh-cot-canary"
"""Prefix of the chain-of-thought text the endpoint sends in ``reasoning_content``."""

_DEFAULT_STATUS: Final = 503
_STATUSES: Final = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class Message:
    """An assistant message: ``content`` (``None``: absent), raw tool calls, reasoning text."""

    content: str | None
    tool_calls: tuple[Mapping[str, object], ...]
    reasoning: str


@dataclass(frozen=True, slots=True)
class Status:
    """An HTTP error status with an OpenAI-style error body."""

    status: int
    message: str


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold the request until the client hangs up; answer ``then`` once the IUT moved on.

    ``then`` is ``None`` for a never-answered ``error: TIMEOUT`` turn.
    """

    then: Reply | None


Reply: TypeAlias = "Message | Status | Hold"
"""What one request gets."""


def _json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _tool_call(call: Mapping[str, object]) -> dict[str, object]:
    rendered: dict[str, object] = {}
    if "id" in call:  # an absent id stays absent: the endpoint never invents one
        rendered["id"] = call["id"]
    rendered["type"] = "function"
    rendered["function"] = {
        "name": call.get("name"),
        "arguments": _json_text(call.get("arguments")),
    }
    return rendered


def render(turn: Mapping[str, object], reasoning: str) -> Reply:
    """Translate one fixture turn into the endpoint's reply.

    ``intent`` → content ``{"intent": …}``; ``draft`` / ``knowledge_answer`` / ``verdict`` → the
    JSON text of the value; ``raw`` → the text as is; ``tool_calls`` → tool calls with ids exactly
    as scripted (absent stays absent) and the turn's ``content`` text if it has one;
    ``draft_and_tool_calls`` → the draft's JSON text as content *and* those tool calls; ``error`` →
    :class:`Status` (UNAVAILABLE) or a never-answered :class:`Hold` (TIMEOUT);
    ``block_until_cancelled`` → a :class:`Hold` answering its ``then`` late;
    ``ignore_cancellation`` → its ``then``.

    Raises:
        ValueError: an unknown ``kind``, or a wrapper turn without a ``then`` object.
    """
    kind = turn.get("kind")
    contents = {
        "intent": lambda: _json_text({"intent": turn.get("intent")}),
        "draft": lambda: _json_text(turn.get("draft")),
        "knowledge_answer": lambda: _json_text(turn.get("answer")),
        "verdict": lambda: _json_text(turn.get("verdict")),
        "raw": lambda: str(turn.get("text", "")),
    }
    if isinstance(kind, str) and kind in contents:
        return Message(contents[kind](), (), reasoning)
    match kind:
        case "tool_calls" | "draft_and_tool_calls":
            calls = turn.get("tool_calls")
            listed = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
            content = turn.get("content")
            text = content if isinstance(content, str) else None
            if kind == "draft_and_tool_calls":
                text = _json_text(turn.get("draft"))
            return Message(text, tuple(_tool_call(call) for call in listed), reasoning)
        case "error" if turn.get("error") == "TIMEOUT":
            return Hold(None)
        case "error":
            status = turn.get("http_status", _DEFAULT_STATUS)
            code = status if isinstance(status, int) and status in _STATUSES else _DEFAULT_STATUS
            return Status(code, "scripted model failure")
        case "block_until_cancelled":
            return Hold(render(_then(turn), reasoning))
        case "ignore_cancellation":
            return render(_then(turn), reasoning)
        case _:
            message = f"unknown turn kind {kind!r}; expected a Scenario Fixture turn kind"
            raise ValueError(message)


def _then(turn: Mapping[str, object]) -> Mapping[str, object]:
    then = turn.get("then")
    if not isinstance(then, dict):
        message = f"turn kind {turn.get('kind')!r} needs a 'then' turn object"
        raise ValueError(message)  # noqa: TRY004 - a fixture value error, not a caller type error
    return then
