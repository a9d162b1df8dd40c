"""``ScriptedOpenAIServer``: a real OpenAI-compatible HTTP server on loopback, driven by a script.

A ``http.server.ThreadingHTTPServer`` bound to ``127.0.0.1`` port 0 (the OS picks a free port),
serving ``POST /v1/chat/completions`` as JSON or, when the request says ``"stream": true``, as
server-sent events (``data: {chunk}`` lines, then ``data: [DONE]``). Every response closes its
connection, so one request is one TCP connection and faults cannot leak into the next request.

Each request is routed by the component marker of its system prompt (``_marker``) to that
component's script, a queue of replies (``_replies``) consumed in order. Requests are recorded
and counted per component, so "exactly one HTTP attempt" is checked from outside the Harness.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from contracts import StrictJSONError, loads_strict
from reference_harness.openai._marker import Component, component_of
from reference_harness.openai.testing._replies import (
    AssistantMessage,
    Fault,
    Hold,
    Reply,
    StatusReply,
    render,
)
from reference_harness.openai.testing._sse import completion_body, stream_chunks

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from types import TracebackType

__all__ = ["RecordedRequest", "ScriptedOpenAIServer", "ServerScriptError"]

_PATH: Final = "/v1/chat/completions"
_POLL_S: Final = 0.01
"""How often ``serve_forever`` looks for a shutdown request (seconds); bounds ``stop()``."""
_FIXTURE_SCRIPTS: Final[dict[str, Component]] = {
    "router": "ROUTER",
    "agent": "DIAGNOSIS_AGENT",
    "semantic_guard": "SEMANTIC_GUARD",
}


class ServerScriptError(AssertionError):
    """The scripted server was asked for a reply it does not have, or was left with replies."""


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server received it.

    Attributes:
        component: the component named by the system-prompt marker, ``None`` if none was.
        body: the parsed JSON request body.
        stream: whether the request asked for a streamed answer.
    """

    component: Component | None
    body: Mapping[str, Any]
    stream: bool


class ScriptedOpenAIServer:
    """A scripted OpenAI-compatible endpoint on ``127.0.0.1`` (real sockets, real HTTP).

    Use as a context manager (``with ScriptedOpenAIServer(...) as server:``), then point an
    adapter at :attr:`base_url`. Test hooks: :meth:`wait_for_requests` (bounded wait on an event,
    no sleeps), :meth:`release` (answers every :class:`Hold`), :meth:`request_count`.
    """

    def __init__(
        self,
        *,
        router: Iterable[Reply] = (),
        agent: Iterable[Reply] = (),
        semantic_guard: Iterable[Reply] = (),
    ) -> None:
        """Create a stopped server with one script per component (replies consumed in order)."""
        self._scripts: dict[Component, deque[Reply]] = {
            "ROUTER": deque(router),
            "DIAGNOSIS_AGENT": deque(agent),
            "SEMANTIC_GUARD": deque(semantic_guard),
        }
        self._requests: list[RecordedRequest] = []
        self._errors: list[str] = []
        self._changed = threading.Condition()
        self._released = threading.Event()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def from_fixture(cls, fixture: Mapping[str, object]) -> Self:
        """Create a server scripted with a Scenario Fixture's model turns.

        The ``router``, ``agent`` and ``semantic_guard`` turn lists become the three scripts.
        """
        scripts: dict[str, list[Reply]] = {}
        for key in _FIXTURE_SCRIPTS:
            turns = fixture.get(key, [])
            scripts[key] = (
                [turn for turn in turns if isinstance(turn, dict)]
                if isinstance(turns, list)
                else []
            )
        return cls(
            router=scripts["router"],
            agent=scripts["agent"],
            semantic_guard=scripts["semantic_guard"],
        )

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> Self:
        """Bind ``127.0.0.1:0`` and serve in a daemon thread; return ``self``."""
        handler = type("_BoundHandler", (_Handler,), {"server_state": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": _POLL_S},
            name="scripted-openai-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release every hold, stop serving and close the socket (idempotent)."""
        self._stopping.set()
        self._released.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> Self:
        """Start the server."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server."""
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1`` (what ``SRDH_OPENAI_BASE_URL`` would hold).

        Raises:
            RuntimeError: the server is not started.
        """
        if self._httpd is None:
            message = "the scripted server is not started"
            raise RuntimeError(message)
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # ----------------------------------------------------------------- test hooks

    def enqueue(self, component: Component, *replies: Reply) -> None:
        """Append replies to ``component``'s script."""
        with self._changed:
            self._scripts[component].extend(replies)

    def release(self) -> None:
        """Let every current and future :class:`Hold` answer (``NEVER_ANSWER`` still never does)."""
        self._released.set()

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Every request received so far, in arrival order."""
        with self._changed:
            return tuple(self._requests)

    def request_count(self, component: Component | None = None) -> int:
        """Requests received for ``component`` (all components when ``None``)."""
        with self._changed:
            return sum(1 for r in self._requests if component is None or r.component == component)

    def wait_for_requests(self, component: Component, count: int, *, timeout_s: float) -> None:
        """Block until ``component`` has received ``count`` requests.

        Raises:
            TimeoutError: fewer arrived within ``timeout_s`` seconds.
        """
        with self._changed:
            arrived = self._changed.wait_for(
                lambda: self.request_count(component) >= count, timeout=timeout_s
            )
        if not arrived:
            message = f"{component}: {self.request_count(component)} of {count} requests arrived"
            raise TimeoutError(message)

    def unconsumed(self) -> dict[Component, int]:
        """Replies left per component (components with none left are omitted)."""
        with self._changed:
            return {c: len(q) for c, q in self._scripts.items() if q}

    def script_errors(self) -> tuple[str, ...]:
        """Requests that found no reply (script exhausted) or no component marker, in order."""
        with self._changed:
            return tuple(self._errors)

    def check_consumed(self) -> None:
        """Raise unless every script was consumed and no request went unanswered by the script.

        Raises:
            ServerScriptError: a reply was left, or a request found no reply / no marker.
        """
        with self._changed:
            problems = list(self._errors)
        problems += [
            f"{c}: {n} scripted replies never requested" for c, n in self.unconsumed().items()
        ]
        if problems:
            raise ServerScriptError("; ".join(problems))

    # ----------------------------------------------------------------- handler side

    def _take(self, request: RecordedRequest) -> Reply | str:
        with self._changed:
            self._requests.append(request)
            self._changed.notify_all()
            if request.component is None:
                error = "request without a [srdh-component: …] system-prompt marker"
            elif self._scripts[request.component]:
                return self._scripts[request.component].popleft()
            else:
                error = f"{request.component}: script exhausted at request {len(self._requests)}"
            self._errors.append(error)
            return error

    def _wait_released(self) -> None:
        self._released.wait()

    def _wait_stopped(self) -> None:
        self._stopping.wait()


class _Handler(BaseHTTPRequestHandler):
    """One request: parse, record, take the next reply, answer it (then close the connection)."""

    protocol_version = "HTTP/1.1"
    server_state: ClassVar[ScriptedOpenAIServer]

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Stay quiet: tests read recorded requests, not logs."""

    def do_POST(self) -> None:
        """Serve ``POST /v1/chat/completions``; anything else is 404."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") != _PATH:
            self._status(StatusReply(404, f"no route {self.path}"))
            return
        try:
            body = loads_strict(raw, source="the request body")
        except StrictJSONError:
            self._status(StatusReply(400, "request body is not JSON"))
            return
        if not isinstance(body, dict):
            self._status(StatusReply(400, "request body is not a JSON object"))
            return
        stream = body.get("stream") is True
        request = RecordedRequest(component_of(body.get("messages")), body, stream)
        reply = self.server_state._take(request)  # noqa: SLF001 - the handler is the server's own part
        if isinstance(reply, str):
            self._status(StatusReply(500, reply))
            return
        self._answer(reply, stream=stream)

    def _answer(self, reply: Reply, *, stream: bool) -> None:
        rendered = render(reply)
        while isinstance(rendered, Hold):
            self.server_state._wait_released()  # noqa: SLF001 - the handler is the server's own part
            rendered = render(rendered.then)
        match rendered:
            case StatusReply():
                self._status(rendered)
            case AssistantMessage():
                if stream:
                    self._send_stream(stream_chunks(rendered))
                else:
                    self._send_json(200, completion_body(rendered))
            case Fault.NEVER_ANSWER:
                self.server_state._wait_stopped()  # noqa: SLF001 - the handler is the server's own part
                self.close_connection = True
            case Fault.CONNECTION_RESET:
                self._reset()
            case Fault.INVALID_JSON:
                if stream:
                    self._send_stream([b"{not json"])
                else:
                    self._send_bytes(200, b"{not json", "application/json")
            case Fault.STREAM_CUT:
                self._cut(stream=stream)
            case _:  # pragma: no cover - render() maps the status faults to StatusReply
                self._status(StatusReply(500, f"unhandled reply {rendered!r}"))

    # ----------------------------------------------------------------- writers

    def _status(self, status: StatusReply) -> None:
        body = {"error": {"message": status.message, "type": "scripted_error", "code": None}}
        self._send_json(status.status, body)

    def _send_json(self, status: int, body: object) -> None:
        self._send_bytes(status, json.dumps(body).encode(), "application/json")

    def _send_bytes(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)
        self.close_connection = True

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()

    def _write_chunk(self, data: bytes) -> None:
        frame = b"data: " + data + b"\n\n"
        self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
        self.wfile.flush()

    def _send_stream(self, chunks: Iterable[bytes]) -> None:
        self._start_stream()
        for chunk in chunks:
            self._write_chunk(chunk)
        self._write_chunk(b"[DONE]")
        self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True

    def _cut(self, *, stream: bool) -> None:
        message = AssistantMessage('{"half": "of an answer that never ends', ())
        if stream:
            chunks = list(stream_chunks(message))
            self._start_stream()
            for chunk in chunks[: max(1, len(chunks) // 2)]:
                self._write_chunk(chunk)
        else:
            payload = json.dumps(completion_body(message)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload[: len(payload) // 2])
            self.wfile.flush()
        self._reset()

    def _reset(self) -> None:
        # SO_LINGER with a zero timeout makes close() send a TCP RST instead of a FIN.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.close()

    def finish(self) -> None:
        """Flush what is left; a peer that already went away is not an error of the server."""
        with contextlib.suppress(OSError, ValueError):
            super().finish()

    def handle(self) -> None:
        """Handle one request; a client that hung up mid-answer (its timeout) is not an error."""
        with contextlib.suppress(ConnectionError, TimeoutError):
            super().handle()
