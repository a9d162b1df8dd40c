"""The assistant message of one chat completion, with the model's values untouched.

Both answer shapes end here: a JSON ``chat.completion`` body (:func:`from_body`) and the chunks of a
streamed one (:func:`from_chunks`). Tool-call ids are never generated or repaired: an absent id
stays :data:`~reference_harness.ports.MISSING`, ``""``/``null``/numbers stay as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reference_harness.ports import MISSING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "Completion",
    "MalformedCompletionError",
    "RawToolCall",
    "from_body",
    "from_chunks",
    "parse_json_or_text",
]


class MalformedCompletionError(ValueError):
    """The endpoint's answer is not a chat completion (no choice, no message, stream unfinished)."""


@dataclass(frozen=True, slots=True)
class RawToolCall:
    """One tool call as sent: ``id`` is ``MISSING`` when no id key was sent, else the sent value."""

    id: object
    name: object
    arguments: object


@dataclass(frozen=True, slots=True)
class Completion:
    """The assistant message: ``content`` text (``None`` if absent) and tool calls in order."""

    content: str | None
    tool_calls: tuple[RawToolCall, ...]


def parse_json_or_text(text: object) -> object:
    """Return the parsed JSON of ``text`` if it is JSON text, else ``text`` unchanged."""
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _choice(body: Mapping[str, object], key: str) -> Mapping[str, object] | None:
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    part = choices[0].get(key)
    return part if isinstance(part, dict) else None


def from_body(body: object) -> Completion:
    """Read the first choice's message of a ``chat.completion`` JSON object.

    Raises:
        MalformedCompletionError: ``body`` has no ``choices[0].message`` object.
    """
    message = _choice(body, "message") if isinstance(body, dict) else None
    if message is None:
        reason = "the completion has no choices[0].message object"
        raise MalformedCompletionError(reason)
    content = message.get("content")
    calls = message.get("tool_calls")
    raw_calls = calls if isinstance(calls, list) else []
    return Completion(
        content if isinstance(content, str) else None,
        tuple(_raw_call(call) for call in raw_calls),
    )


def _raw_call(call: object) -> RawToolCall:
    if not isinstance(call, dict):
        return RawToolCall(MISSING, None, None)
    function = call.get("function")
    name = function.get("name") if isinstance(function, dict) else None
    arguments = function.get("arguments") if isinstance(function, dict) else None
    return RawToolCall(call.get("id", MISSING), name, parse_json_or_text(arguments))


@dataclass
class _Partial:
    id: object = MISSING
    name: object = None
    arguments: str = ""
    null_id: bool = False

    def presented_id(self) -> object:
        """The first non-null id sent; ``None`` if only ``null`` was; ``MISSING`` if none was."""
        if self.id is MISSING and self.null_id:
            return None
        return self.id


def from_chunks(chunks: Iterable[object]) -> Completion:
    """Assemble a streamed completion from its ``chat.completion.chunk`` JSON objects.

    Content deltas are concatenated. Tool-call deltas are accumulated by ``index``: the id is the
    first non-null one any delta of that index carried (``""`` counts), ``MISSING`` if no delta
    had an ``id`` key; the name is the first one sent; argument fragments are
    concatenated, then parsed as JSON (kept as text if they do not parse). If the deltas of an
    index carried only ``"id": null``, the id is ``None`` (the key was sent, with null).

    Raises:
        MalformedCompletionError: the stream ended without a ``finish_reason`` (it was cut).
    """
    content: list[str] = []
    saw_content = False
    partials: dict[object, _Partial] = {}
    finished = False
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue
        delta = _choice(chunk, "delta")
        choices = chunk.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            finished = finished or choices[0].get("finish_reason") is not None
        if delta is None:
            continue
        piece = delta.get("content")
        if isinstance(piece, str):
            content.append(piece)
            saw_content = saw_content or bool(piece)
        calls = delta.get("tool_calls")
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict):
                _accumulate(partials.setdefault(call.get("index", len(partials)), _Partial()), call)
    if not finished:
        reason = "the stream ended before any choice carried a finish_reason"
        raise MalformedCompletionError(reason)
    calls_out = tuple(
        RawToolCall(p.presented_id(), p.name, parse_json_or_text(p.arguments))
        for p in partials.values()
    )
    text = "".join(content) if saw_content or not partials else None
    return Completion(text, calls_out)


def _accumulate(partial: _Partial, delta: Mapping[str, object]) -> None:
    if "id" in delta and delta["id"] is None:
        partial.null_id = True
    elif partial.id is MISSING and "id" in delta:
        partial.id = delta["id"]
    function = delta.get("function")
    if isinstance(function, dict):
        if partial.name is None and function.get("name") is not None:
            partial.name = function["name"]
        fragment = function.get("arguments")
        if isinstance(fragment, str):
            partial.arguments += fragment
