"""The assistant message of one chat completion, with the model's values untouched.

Both answer shapes end here: a JSON ``chat.completion`` body (:func:`from_body`) and the chunks of a
streamed one (:func:`from_chunks`). Tool-call ids are never generated or repaired: an absent id
stays :data:`~reference_harness.ports.MISSING`, ``""``/``null``/numbers stay as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from contracts import StrictJSONError, loads_strict
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
    """Return the parsed JSON of ``text`` if the kit's strict reader takes it, else ``text``.

    Strict (:func:`contracts.loads_strict`): tool arguments with duplicate member names, ``NaN``
    or lone surrogates stay text, so the Harness refuses them as invalid arguments.
    """
    if not isinstance(text, str):
        return text
    try:
        return loads_strict(text)
    except StrictJSONError:
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


_NO_OBJECT: Final = object()


@dataclass
class _Partial:
    """One tool call being assembled from stream deltas."""

    id: object = MISSING
    name: object = None
    text: str = ""
    obj: object = _NO_OBJECT
    null_id: bool = False

    def presented_id(self) -> object:
        """The first non-null id sent; ``None`` if only ``null`` was; ``MISSING`` if none was."""
        if self.id is MISSING and self.null_id:
            return None
        return self.id

    def arguments(self) -> object:
        """The arguments: an object sent whole, else the joined fragments parsed (or as text)."""
        if self.obj is _NO_OBJECT:
            return parse_json_or_text(self.text)
        if self.text:  # an object and text fragments: not one value; the Harness refuses it
            return json.dumps(self.obj) + self.text
        return self.obj

    def complete(self) -> bool:
        """True when the arguments received so far are one whole JSON value."""
        return self.obj is not _NO_OBJECT or (
            bool(self.text) and parse_json_or_text(self.text) is not self.text
        )


def _starts_new_call(current: _Partial, delta: Mapping[str, object]) -> bool:
    """Whether ``delta`` opens another call than ``current`` (same index, or no index at all).

    The index names the call (OpenAI keys deltas by ``index``), so a delta continues
    ``current`` unless ``current`` is already whole. It opens a new call when ``current`` has
    a name and complete arguments, and the delta names a function or carries a different
    non-null id (servers that reuse index 0 for every call; index-less streams). A different id
    while ``current``'s arguments are still arriving is the same call under a changed id (some
    providers change it mid-call): the first id stays. A different id with a function name
    on a call that has a name but no argument text yet also opens a new call (a call without
    arguments, then the next one).
    """
    sent_id = delta.get("id")
    function = delta.get("function")
    names_one = isinstance(function, dict) and function.get("name") is not None
    other_id = sent_id is not None and current.id is not MISSING and sent_id != current.id
    if current.name is not None and current.complete():
        return other_id or (sent_id is None and names_one)
    no_arguments_yet = not current.text and current.obj is _NO_OBJECT
    return other_id and names_one and current.name is not None and no_arguments_yet


def from_chunks(chunks: Iterable[object]) -> Completion:
    """Assemble a streamed completion from its ``chat.completion.chunk`` JSON objects.

    Content deltas are concatenated. A tool-call delta belongs to the call its ``index`` names;
    a delta without ``index`` continues the call of the previous tool-call delta. Either way a
    delta opens a new call instead when :func:`_starts_new_call` says so (a new id or a new
    name once the call's arguments are complete; an id that changes while the arguments are
    still arriving keeps the call). Per call: the id is the first non-null one
    sent (``""`` counts; ``MISSING`` if no delta had an ``id`` key, ``None`` if only ``null``
    was sent), wherever it came; the name is the first one sent; argument fragments are joined
    and parsed as JSON (kept as text if they do not parse), or an object sent as ``arguments``
    is taken as it is. Calls keep the order in which they were opened. The result equals what
    :func:`from_body` reads from the same completion sent whole.

    Raises:
        MalformedCompletionError: the stream ended without a real ``finish_reason`` (a non-empty
            string; it was cut).
    """
    content: list[str] = []
    saw_content = False
    calls = _Calls()
    finished = False
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue
        delta = _choice(chunk, "delta")
        choices = chunk.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            finished = finished or _real_finish_reason(choices[0].get("finish_reason"))
        if delta is None:
            continue
        piece = delta.get("content")
        if isinstance(piece, str):
            content.append(piece)
            saw_content = saw_content or bool(piece)
        deltas = delta.get("tool_calls")
        for call in deltas if isinstance(deltas, list) else []:
            if isinstance(call, dict):
                calls.take(call)
    if not finished:
        reason = "the stream ended before any choice carried a finish_reason"
        raise MalformedCompletionError(reason)
    calls_out = tuple(RawToolCall(p.presented_id(), p.name, p.arguments()) for p in calls.opened)
    text = "".join(content) if saw_content or not calls.opened else None
    return Completion(text, calls_out)


def _real_finish_reason(value: object) -> bool:
    """A finish reason that ends the message: a non-empty string (``"stop"``, ``"tool_calls"``...).

    Some servers send ``""`` (or ``null``) on every chunk before the last; neither ends it.
    """
    return isinstance(value, str) and bool(value.strip())


class _Calls:
    """The calls of one streamed message, in the order they were opened."""

    def __init__(self) -> None:
        self.opened: list[_Partial] = []
        self._by_index: dict[object, _Partial] = {}
        self._previous: _Partial | None = None

    def take(self, delta: Mapping[str, object]) -> None:
        """Add one tool-call delta to the call it belongs to (opening one if needed)."""
        index = delta.get("index")
        current = self._previous if index is None else self._by_index.get(_index_key(index))
        if current is None or _starts_new_call(current, delta):
            current = _Partial()
            self.opened.append(current)
            if index is not None:
                self._by_index[_index_key(index)] = current
        _accumulate(current, delta)
        self._previous = current


def _index_key(index: object) -> object:
    """A hashable key for a sent ``index`` (any JSON value)."""
    return index if isinstance(index, str | int | float | bool) else json.dumps(index)


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
            partial.text += fragment
        elif fragment is not None:
            partial.obj = fragment
