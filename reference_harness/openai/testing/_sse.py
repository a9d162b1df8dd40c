"""Chat-completions bodies: one JSON completion, or the chunk sequence of a streamed one.

Streaming follows what OpenAI-compatible servers send: a first chunk with ``role``, content split
over several chunks, each tool call opened by a delta carrying ``index``, ``id`` (only if the
model gave one), ``type`` and the function name, its arguments then spread over further deltas
that carry only ``index``; a last chunk with ``finish_reason``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterator

    from reference_harness.openai.testing._replies import AssistantMessage

__all__ = ["completion_body", "stream_chunks"]

_ID: Final = "chatcmpl-scripted"
_MODEL: Final = "scripted"
_CREATED: Final = 0
_PIECES: Final = 3


def _finish_reason(message: AssistantMessage) -> str:
    return "tool_calls" if message.tool_calls else "stop"


def completion_body(message: AssistantMessage) -> dict[str, object]:
    """Return a ``chat.completion`` object carrying ``message``."""
    assistant: dict[str, object] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        assistant["tool_calls"] = [dict(call) for call in message.tool_calls]
    return {
        "id": _ID,
        "object": "chat.completion",
        "created": _CREATED,
        "model": _MODEL,
        "choices": [{"index": 0, "message": assistant, "finish_reason": _finish_reason(message)}],
    }


def _split(text: str) -> list[str]:
    size = max(1, -(-len(text) // _PIECES))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _chunk(delta: dict[str, object], finish_reason: str | None = None) -> bytes:
    body = {
        "id": _ID,
        "object": "chat.completion.chunk",
        "created": _CREATED,
        "model": _MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }
    return json.dumps(body).encode()


def stream_chunks(message: AssistantMessage) -> Iterator[bytes]:
    """Yield the JSON of each ``chat.completion.chunk`` of ``message`` (without ``[DONE]``)."""
    yield _chunk({"role": "assistant", "content": ""})
    if message.content is not None:
        for piece in _split(message.content):
            yield _chunk({"content": piece})
    for index, call in enumerate(message.tool_calls):
        function = call.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        arguments = function.get("arguments") if isinstance(function, dict) else ""
        opening: dict[str, object] = {"index": index}
        if "id" in call:
            opening["id"] = call["id"]
        opening["type"] = "function"
        opening["function"] = {"name": name, "arguments": ""}
        yield _chunk({"tool_calls": [opening]})
        for piece in _split(arguments if isinstance(arguments, str) else ""):
            yield _chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield _chunk({}, _finish_reason(message))
