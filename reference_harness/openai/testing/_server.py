"""``ScriptedOpenAIServer``: a real OpenAI-compatible HTTP server on loopback, driven by a script.

A threading TCP server bound to ``127.0.0.1`` port 0 (the OS picks a free port), its requests
parsed by ``h11`` (:mod:`reference_harness.http11`: ``Content-Length`` or chunked bodies,
``Expect: 100-continue``, keep-alive), serving ``POST /v1/chat/completions`` as JSON or, when
the request says ``"stream": true``, as server-sent events (``data: {chunk}`` lines, then
``data: [DONE]``). Every response closes its connection (``Connection: close``), so one request
is one TCP connection and faults cannot leak into the next request; a request the server cannot
take is answered and kept in :meth:`script_errors`.

Each request is routed by the component marker of its system prompt (``_marker``) to that
component's script, a queue of replies (``_replies``) consumed in order. Requests are recorded
and counted per component, so "exactly one HTTP attempt" is checked from outside the Harness.
"""

from __future__ import annotations

import contextlib
import json
import socket
import socketserver
import struct
import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from contracts import StrictJSONError, loads_strict
from reference_harness.http11 import Http11Connection, Received, Refusal
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
_MAX_BODY_BYTES: Final = 32 * 1024 * 1024
"""Largest request body read (bytes); a larger one is refused (413)."""
_STALL_S: Final = 10.0
"""How long a started request may stop arriving (seconds) before it is refused (408)."""
_FIXTURE_SCRIPTS: Final[dict[str, Component]] = {
    "router": "ROUTER",
    "agent": "DIAGNOSIS_AGENT",
    "semantic_guard": "SEMANTIC_GUARD",
}


def _turn_list(turns: object) -> list[Reply]:
    """The dict turns of a fixture's turn list (anything else is left out)."""
    return [turn for turn in turns if isinstance(turn, dict)] if isinstance(turns, list) else []


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
        decoy_agent: Iterable[Reply] = (),
    ) -> None:
        """Create a stopped server with one script per component (replies consumed in order).

        ``decoy_agent`` (a fixture's ``decoy_agent_turns``) answers Diagnosis Agent requests only
        once ``agent`` is used up, and is never counted as unconsumed.
        """
        self._scripts: dict[Component, deque[Reply]] = {
            "ROUTER": deque(router),
            "DIAGNOSIS_AGENT": deque(agent),
            "SEMANTIC_GUARD": deque(semantic_guard),
        }
        self._decoys: deque[Reply] = deque(decoy_agent)
        self._requests: list[RecordedRequest] = []
        self._errors: list[str] = []
        self._changed = threading.Condition()
        self._released = threading.Event()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def from_fixture(cls, fixture: Mapping[str, object]) -> Self:
        """Create a server scripted with a Scenario Fixture's model turns.

        The ``router``, ``agent`` and ``semantic_guard`` turn lists become the three scripts;
        ``decoy_agent_turns`` answer the Diagnosis Agent once ``agent`` is used up.
        """
        scripts = {key: _turn_list(fixture.get(key)) for key in _FIXTURE_SCRIPTS}
        return cls(
            router=scripts["router"],
            agent=scripts["agent"],
            semantic_guard=scripts["semantic_guard"],
            decoy_agent=_turn_list(fixture.get("decoy_agent_turns")),
        )

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> Self:
        """Bind ``127.0.0.1:0`` and serve in a daemon thread; return ``self``."""
        handler = type("_BoundHandler", (_Handler,), {"server_state": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
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
            elif request.component == "DIAGNOSIS_AGENT" and self._decoys:
                return self._decoys.popleft()
            else:
                error = f"{request.component}: script exhausted at request {len(self._requests)}"
            self._errors.append(error)
            return error

    def _refused(self, refusal: Refusal) -> None:
        where = f"{refusal.method} {refusal.target[:200]}".strip() or "a request"
        with self._changed:
            self._errors.append(f"{where}: refused, HTTP {refusal.status} {refusal.reason}")
            self._changed.notify_all()

    def _wait_released(self) -> None:
        self._released.wait()

    def _wait_stopped(self) -> None:
        self._stopping.wait()


class _Server(socketserver.ThreadingTCPServer):
    """The loopback TCP server; each connection is one :class:`_Handler` thread."""

    daemon_threads = True
    allow_reuse_address = True


class _Handler(socketserver.BaseRequestHandler):
    """One connection: its requests (keep-alive), each parsed, recorded and answered."""

    server_state: ClassVar[ScriptedOpenAIServer]
    http: Http11Connection
    close_connection: bool

    def handle(self) -> None:
        """Serve requests until the client closes, a fault ends the connection, or stop().

        A client that hung up mid-answer (its timeout) is not an error.
        """
        state = self.server_state
        self.http = Http11Connection(
            self.request,
            max_body=_MAX_BODY_BYTES,
            stopping=state._stopping,  # noqa: SLF001 - the handler is the server's own part
            stall_s=_STALL_S,
            keep_alive=False,  # one request per connection, as the tests' clients expect
        )
        self.close_connection = False
        with contextlib.suppress(ConnectionError, TimeoutError, OSError):
            while not self.close_connection:
                received = self.http.receive()
                if received is None:
                    return
                if isinstance(received, Refusal):
                    state._refused(received)  # noqa: SLF001 - the handler is the server's own part
                    body = json.dumps(_error_body(received.status, received.reason)).encode()
                    self.http.refuse(received, [("Content-Type", "application/json")], body)
                    return
                self._serve(received)
                if self.close_connection or not self.http.next_cycle():
                    return

    def _serve(self, received: Received) -> None:
        """Serve ``POST /v1/chat/completions``; anything else is 404."""
        if received.method != "POST" or received.target.split("?", 1)[0].rstrip("/") != _PATH:
            self._status(StatusReply(404, f"no route {received.method} {received.target}"))
            return
        try:
            body = loads_strict(received.body, source="the request body")
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
        self._send_json(status.status, _error_body(status.status, status.message))

    def _send_json(self, status: int, body: object) -> None:
        self._send_bytes(status, json.dumps(body).encode(), "application/json")

    def _send_bytes(self, status: int, payload: bytes, content_type: str) -> None:
        self.http.respond(status, [("Content-Type", content_type)], payload)

    def _send_stream(self, chunks: Iterable[bytes]) -> None:
        frames = (b"data: " + chunk + b"\n\n" for chunk in [*chunks, b"[DONE]"])
        self.http.respond_stream(200, [("Content-Type", "text/event-stream")], frames)

    def _cut(self, *, stream: bool) -> None:
        message = AssistantMessage('{"half": "of an answer that never ends', ())
        if stream:
            chunks = list(stream_chunks(message))
            self.http.write_head(200, [("Content-Type", "text/event-stream")])
            for chunk in chunks[: max(1, len(chunks) // 2)]:
                self.http.write(b"data: " + chunk + b"\n\n")
        else:
            payload = json.dumps(completion_body(message)).encode()
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
            self.http.write_head(200, headers)
            self.http.write(payload[: len(payload) // 2])
        self._reset()

    def _reset(self) -> None:
        # SO_LINGER with a zero timeout makes close() send a TCP RST instead of a FIN.
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.request.close()


def _error_body(status: int, message: str) -> dict[str, object]:
    del status
    return {"error": {"message": message, "type": "scripted_error", "code": None}}
