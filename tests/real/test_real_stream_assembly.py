"""Streamed completions are assembled by tool-call index; ids are taken as sent, never invented."""

from __future__ import annotations

import pytest

from reference_harness.openai._completion import (
    MalformedCompletionError,
    from_body,
    from_chunks,
)
from reference_harness.ports import MISSING


def _chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _call(index: int, **fields: object) -> dict[str, object]:
    return _chunk({"tool_calls": [{"index": index, **fields}]})


def test_interleaved_deltas_are_accumulated_per_index() -> None:
    """Fragments of two calls arriving interleaved are joined per index, in first-seen order."""
    chunks = [
        _call(0, id="call_a", function={"name": "search_logs", "arguments": '{"tar'}),
        _call(1, id="call_b", function={"name": "list_alerts", "arguments": '{"target"'}),
        _call(0, function={"arguments": 'get": "x"}'}),
        _call(1, function={"arguments": ': "y"}'}),
        _chunk({}, "tool_calls"),
    ]
    completion = from_chunks(chunks)
    assert [(c.id, c.name, c.arguments) for c in completion.tool_calls] == [
        ("call_a", "search_logs", {"target": "x"}),
        ("call_b", "list_alerts", {"target": "y"}),
    ]
    assert completion.content is None


def test_id_comes_from_the_first_delta_that_carries_one() -> None:
    """An id sent only on a later delta is used; a later different id opens another call (F9)."""
    chunks = [
        _call(0, function={"name": "search_logs", "arguments": ""}),
        _call(0, id="call_late", function={"arguments": "{}"}),
        _call(0, id="call_other"),
        _chunk({}, "tool_calls"),
    ]
    first, second = from_chunks(chunks).tool_calls
    assert (first.id, first.name, first.arguments) == ("call_late", "search_logs", {})
    assert (second.id, second.name) == ("call_other", None)


@pytest.mark.parametrize(
    ("id_fields", "expected"),
    [({}, MISSING), ({"id": None}, None), ({"id": ""}, "")],
    ids=["no-id-key", "null-only", "empty"],
)
def test_absent_null_and_empty_ids_are_kept_apart(
    id_fields: dict[str, object], expected: object
) -> None:
    """No id key → MISSING; only ``null`` → None; ``""`` → ``""``: nothing is generated."""
    chunks = [
        _call(0, **id_fields, function={"name": "search_logs", "arguments": "{}"}),
        _chunk({}, "tool_calls"),
    ]
    (call,) = from_chunks(chunks).tool_calls
    assert call.id == expected
    assert type(call.id) is type(expected)


def test_content_pieces_are_concatenated() -> None:
    """Content deltas form the message text in order."""
    chunks = [
        _chunk({"role": "assistant", "content": ""}),
        _chunk({"content": '{"a"'}),
        _chunk({"content": ": 1}"}),
        _chunk({}, "stop"),
    ]
    assert from_chunks(chunks).content == '{"a": 1}'


def test_stream_without_finish_reason_is_malformed() -> None:
    """A stream that stops before any finish_reason was cut: it is an error, not an answer."""
    with pytest.raises(MalformedCompletionError):
        from_chunks([_chunk({"content": '{"half'})])


def test_unparseable_arguments_are_kept_as_text() -> None:
    """Arguments that are not JSON reach the Harness as the raw text (it rejects them)."""
    body = {
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [{"id": "c", "function": {"name": "x", "arguments": "{oops"}}],
                }
            }
        ]
    }
    (call,) = from_body(body).tool_calls
    assert call.arguments == "{oops"


def test_body_without_a_message_is_malformed() -> None:
    """A JSON body that is not a chat completion is an error (mapped to ModelUnavailable)."""
    with pytest.raises(MalformedCompletionError):
        from_body({"error": "nope"})
