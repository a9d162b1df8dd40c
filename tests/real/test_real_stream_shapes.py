"""Streamed answers equal non-streamed ones, whatever delta shapes and splittings a server uses.

Field faults F8 (deltas without ``index``), F9 (a second id on index 0) and F10 (SSE lines end
only at CR, LF or CRLF; a raw U+2028 inside the data is data), each as a kind: properties over
random completions, delta shapes and chunk boundaries, plus one real HTTP round trip.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_harness.openai import OpenAIConfig
from reference_harness.openai._client import ChatClient, _sse_json, sse_lines
from reference_harness.openai._completion import (
    Completion,
    MalformedCompletionError,
    from_body,
    from_chunks,
)
from tests._profile import untimed_settings

if TYPE_CHECKING:
    from collections.abc import Iterator

CASES = Path(__file__).parents[1] / "field_inputs" / "stream-tool-call-chunks.json"
EXAMPLES = untimed_settings(ci=100, dev=20)
"""Examples per property: Hypothesis's default 100 under ``ci``; depth is the profile's."""


def _calls(completion: Completion) -> list[tuple[object, object, object]]:
    return [(call.id, call.name, call.arguments) for call in completion.tool_calls]


@pytest.mark.parametrize("case", ["index-missing-one-call", "two-calls-same-index"])
def test_f8_f9_field_streams_assemble_to_the_expected_calls(case: str) -> None:
    """F8: deltas without index are one call; F9: a second id on index 0 is a second call."""
    recorded = json.loads(CASES.read_text(encoding="utf-8"))[case]
    expected = [(c["id"], c["name"], c["arguments"]) for c in recorded["expected_calls"]]
    assert _calls(from_chunks(recorded["chunks"])) == expected


ROUND3 = Path(__file__).parents[1] / "field_inputs" / "round3"


@pytest.mark.parametrize("case", ["stream-unstable-tool-call-id", "stream-leading-bom"])
@pytest.mark.parametrize("split", [None, 1, 2, 7], ids=["whole", "by-1", "by-2", "by-7"])
def test_g7_g8_field_streams_read_as_one_complete_call(case: str, split: int | None) -> None:
    """G7: an id changed mid-call keeps the call (its index names it; the first id stays).
    G8: a leading UTF-8 BOM is ignored (WHATWG), even split across network chunks."""
    raw = (ROUND3 / case / "stream.sse").read_bytes()
    expected = json.loads((ROUND3 / case / "expected.json").read_text(encoding="utf-8"))
    pieces = [raw] if split is None else [raw[i : i + split] for i in range(0, len(raw), split)]
    completion = from_chunks(_sse_json(sse_lines(pieces), float("inf")))
    want = [(c["id"], c["name"], c["arguments"]) for c in expected["expected_calls"]]
    assert _calls(completion) == want
    assert completion.content is None


@pytest.mark.parametrize(
    "tail",
    [
        b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": ""}]}\n\ndata: [DONE]\n\n',
        b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": null}]}\n\n',
        b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}',
    ],
    ids=["empty-finish-reason", "null-then-eof", "last-event-cut-before-its-blank-line"],
)
def test_a_stream_without_a_real_finish_reason_is_a_cut_stream(tail: bytes) -> None:
    """Only a non-empty finish_reason in a whole event ends a message; anything else is cut."""
    head = (ROUND3 / "stream-unstable-tool-call-id" / "stream.sse").read_bytes()
    opening = head.split(b"\n\n")[0] + b"\n\n"
    with pytest.raises(MalformedCompletionError, match="finish_reason"):
        from_chunks(_sse_json(sse_lines([opening + tail]), float("inf")))


def test_a_bom_inside_the_stream_is_data_not_dropped() -> None:
    """Only the stream's first bytes may be a BOM; a later one is kept as text."""
    body = b'data: "a"\n\n' + b'data: "\xef\xbb\xbfb"\n\n'
    assert list(_sse_json(sse_lines([body]), float("inf"))) == ["a", "\ufeffb"]


# --- the property: streamed == non-streamed --------------------------------------------------

_text = st.text(st.characters(codec="utf-8"), max_size=8)
_arguments = st.dictionaries(
    st.sampled_from(["target", "query", "time_range", "note"]),
    _text | st.integers(0, 2**53 - 1) | st.dictionaries(_text, _text, max_size=2),
    max_size=4,
)
_call = st.fixed_dictionaries(
    {
        "id": st.text(st.sampled_from("abc_0123"), min_size=1, max_size=6).map("call_".__add__),
        "name": st.sampled_from(["search_logs", "query_metrics", "list_alerts"]),
        "arguments": _arguments,
    }
)
_message = st.lists(_call, min_size=1, max_size=3, unique_by=lambda c: c["id"])


def _body(calls: list[dict[str, Any]]) -> dict[str, object]:
    return {
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {
                                "name": c["name"],
                                "arguments": json.dumps(c["arguments"], ensure_ascii=False),
                            },
                        }
                        for c in calls
                    ],
                },
            }
        ],
    }


def _chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


@st.composite
def _streams(draw: st.DrawFn, calls: list[dict[str, Any]]) -> list[dict[str, object]]:
    """The chunks of ``calls`` in one of the delta shapes servers are seen to send."""
    indexing = draw(st.sampled_from(["per-call", "none", "all-zero"]))
    as_object = draw(st.booleans())
    empty_finish = draw(st.booleans())  # servers that send "" before the real finish_reason
    chunks = [_chunk({"role": "assistant", "content": None})]
    for position, call in enumerate(calls):
        text = json.dumps(call["arguments"], ensure_ascii=draw(st.booleans()))
        cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=4)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        id_later = draw(st.booleans()) and len(pieces) > 1
        unstable_id = draw(st.booleans())  # G7: the provider changes the id mid-call
        deltas: list[dict[str, Any]] = []
        for number, piece in enumerate(pieces):
            function: dict[str, object] = {"arguments": piece}
            delta: dict[str, Any] = {"function": function}
            if number == 0:
                function["name"] = call["name"]
                delta["type"] = "function"
            if number == (1 if id_later else 0):
                delta["id"] = call["id"]
            elif (
                unstable_id and number > (1 if id_later else 0) and "".join(pieces[:number]) != text
            ):
                delta["id"] = f"{call['id']}_changed_{number}"
            deltas.append(delta)
        if as_object:  # arguments sent whole, as an object, in the opening delta
            deltas = [
                {
                    "id": call["id"],
                    "function": {"name": call["name"], "arguments": call["arguments"]},
                }
            ]
        for delta in deltas:
            if indexing == "per-call":
                delta["index"] = position
            elif indexing == "all-zero":
                delta["index"] = 0
            chunks.append(_chunk({"tool_calls": [delta]}, "" if empty_finish else None))
    chunks.append(_chunk({}, "tool_calls"))
    return chunks


@EXAMPLES
@given(st.data(), _message)
def test_streamed_calls_equal_the_non_streamed_ones(
    data: st.DataObject, calls: list[dict[str, Any]]
) -> None:
    """For any splitting and delta shape (index per call, none, all 0; id first or later, or
    changed mid-call; object arguments; ``""`` finish reasons before the real one), the
    assembled calls equal what the completion sent whole gives."""
    chunks = data.draw(_streams(calls))
    assert _calls(from_chunks(chunks)) == _calls(from_body(_body(calls)))


# --- SSE lines -------------------------------------------------------------------------------


def _sse_body(chunks: list[dict[str, object]], endings: list[str]) -> bytes:
    """The SSE text of ``chunks``, line ``i`` ended by ``endings[i % len]``.

    A CR followed by an empty line ended by LF would read as one CRLF, so that empty line is
    ended by CR instead (the text stays what it means).
    """
    lines: list[str] = [": a comment"]
    for chunk in [*chunks, "[DONE]"]:
        data = chunk if isinstance(chunk, str) else json.dumps(chunk, ensure_ascii=False)
        lines.extend(["data: " + data, ""])
    out: list[str] = []
    previous = ""
    for i, line in enumerate(lines):
        ending = endings[i % len(endings)]
        if previous == "\r" and not line and ending.startswith("\n"):
            ending = "\r"
        out.append(line + ending)
        previous = ending
    return "".join(out).encode()


@EXAMPLES
@given(st.data(), _message)
def test_sse_lines_end_only_at_cr_lf_or_crlf(
    data: st.DataObject, calls: list[dict[str, Any]]
) -> None:
    """An SSE body with raw U+2028/U+2029/U+0085 in its data, any of the three line ends, maybe a
    leading BOM, cut into random byte chunks (a CRLF or the BOM may be split), reads as the
    non-streamed completion."""
    calls[0]["arguments"]["note"] = "a\u2028b\u2029c\u0085d\x0be"
    chunks = data.draw(_streams(calls))
    endings = data.draw(st.lists(st.sampled_from(["\n", "\r", "\r\n"]), min_size=1, max_size=3))
    body = _sse_body(chunks, endings)
    if data.draw(st.booleans()):  # G8: one leading byte order mark is ignored
        body = b"\xef\xbb\xbf" + body
    cuts = sorted(data.draw(st.sets(st.integers(0, len(body)), max_size=8)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    events = _sse_json(sse_lines(iter(pieces)), float("inf"))
    assert _calls(from_chunks(events)) == _calls(from_body(_body(calls)))


def test_sse_lines_split_exactly_at_the_three_line_ends() -> None:
    """CR, LF and CRLF end a line (a CRLF split over two chunks is one end); nothing else does."""
    pieces = ["a\u2028b".encode(), b"\r", b"\nc\rd\n", "\x85e\x0bf\u2029".encode()]
    assert list(sse_lines(pieces)) == ["a\u2028b", "c", "d", "\x85e\x0bf\u2029"]


# --- one real HTTP round trip ----------------------------------------------------------------


class _RawSSE(BaseHTTPRequestHandler):
    """Answers every POST with :attr:`body` as ``text/event-stream``, then closes."""

    body: ClassVar[bytes] = b""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base class name
        """Keep test output clean."""

    def do_POST(self) -> None:
        """Send the canned SSE body."""
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(self.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(self.body)


@pytest.fixture
def raw_sse_server() -> Iterator[tuple[str, type[_RawSSE]]]:
    handler = type("Handler", (_RawSSE,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("ending", ["\n", "\r", "\r\n"], ids=["lf", "cr", "crlf"])
def test_f10_a_raw_u2028_in_streamed_tool_arguments_over_http(
    raw_sse_server: tuple[str, type[_RawSSE]], ending: str
) -> None:
    """F10: over real HTTP the streamed answer equals the non-streamed body, never unavailable."""
    base_url, handler = raw_sse_server
    calls = [
        {
            "id": "call_1",
            "name": "search_logs",
            "arguments": {"target": "checkout", "query": "level:error\u2028status:503"},
        }
    ]
    chunks = [
        _chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "search_logs",
                            "arguments": json.dumps(calls[0]["arguments"], ensure_ascii=False),
                        },
                    }
                ]
            }
        ),
        _chunk({}, "tool_calls"),
    ]
    handler.body = _sse_body(chunks, [ending])
    client = ChatClient(OpenAIConfig(base_url, "m", "k", 2.0, stream=True))
    try:
        completion = client.complete([{"role": "user", "content": "hi"}])
    finally:
        client.close()
    assert _calls(completion) == _calls(from_body(_body(calls)))
