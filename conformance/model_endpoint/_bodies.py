"""Chat-completions bodies: one JSON ``chat.completion``, or the chunks of a streamed one.

The chunks take the shapes OpenAI-compatible servers really send, which naive clients get wrong:

* a first chunk with ``role`` only; then ``reasoning_content`` and ``content`` split over chunks;
* each tool call opened by a delta with ``index``, ``type`` and the function name but **no id**;
  the id follows in a **later** delta of the same index; the arguments come in several pieces
  (the first one empty), each delta carrying only ``index``;
* a last choice chunk with ``finish_reason``, then a usage chunk whose ``choices`` is empty.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterator

    from conformance.model_endpoint._replies import Message

__all__ = ["completion_body", "error_body", "stream_chunks"]

_ID: Final = "chatcmpl-srdh-kit"
_CREATED: Final = 0
_PIECES: Final = 3


def _finish_reason(message: Message) -> str:
    return "tool_calls" if message.tool_calls else "stop"


def _usage() -> dict[str, int]:
    return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


def completion_body(message: Message, model: str) -> dict[str, object]:
    """Return a ``chat.completion`` object carrying ``message`` (for a non-streamed request)."""
    assistant: dict[str, object] = {
        "role": "assistant",
        "content": message.content,
        "reasoning_content": message.reasoning,
    }
    if message.tool_calls:
        assistant["tool_calls"] = [dict(call) for call in message.tool_calls]
    return {
        "id": _ID,
        "object": "chat.completion",
        "created": _CREATED,
        "model": model,
        "choices": [{"index": 0, "message": assistant, "finish_reason": _finish_reason(message)}],
        "usage": _usage(),
    }


def error_body(message: str) -> dict[str, object]:
    """Return an OpenAI-style error body."""
    return {"error": {"message": message, "type": "srdh_scripted_error", "code": None}}


def _split(text: str) -> list[str]:
    size = max(1, -(-len(text) // _PIECES))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _chunk(model: str, delta: dict[str, object], finish_reason: str | None = None) -> bytes:
    body = {
        "id": _ID,
        "object": "chat.completion.chunk",
        "created": _CREATED,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }
    return json.dumps(body, ensure_ascii=False).encode()


def stream_chunks(message: Message, model: str) -> Iterator[bytes]:
    """Yield the JSON of each chunk of ``message`` (without the final ``[DONE]``)."""
    yield _chunk(model, {"role": "assistant"})
    for piece in _split(message.reasoning):
        yield _chunk(model, {"reasoning_content": piece})
    if message.content is not None:
        for piece in _split(message.content):
            yield _chunk(model, {"content": piece})
    for index, call in enumerate(message.tool_calls):
        function = call.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        arguments = function.get("arguments") if isinstance(function, dict) else ""
        opening = {"index": index, "type": "function", "function": {"name": name, "arguments": ""}}
        yield _chunk(model, {"tool_calls": [opening]})
        if "id" in call:  # the id arrives in a later delta than the one opening the call
            yield _chunk(model, {"tool_calls": [{"index": index, "id": call["id"]}]})
        for piece in _split(arguments if isinstance(arguments, str) else ""):
            delta = {"index": index, "function": {"arguments": piece}}
            yield _chunk(model, {"tool_calls": [delta]})
    yield _chunk(model, {}, _finish_reason(message))
    usage = {
        "id": _ID,
        "object": "chat.completion.chunk",
        "created": _CREATED,
        "model": model,
        "choices": [],
        "usage": _usage(),
    }
    yield json.dumps(usage).encode()
