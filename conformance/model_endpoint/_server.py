"""``ModelEndpoint``: the kit plays the model over HTTP (an OpenAI-compatible server on loopback).

A threading TCP server bound to ``127.0.0.1`` port 0 (the OS picks a free port), its requests
parsed by ``h11`` (:mod:`reference_harness.http11`: ``Content-Length`` or chunked bodies,
``Expect: 100-continue``, keep-alive), serves one Run of one Scenario Fixture. Each
model-backed component has its own path prefix, and the path alone tells them apart (model
names are only echoed):

==================  =========================================  ======================
component           ``POST`` path                              model name handed out
==================  =========================================  ======================
Router              ``/router/v1/chat/completions``            ``srdh-router``
Diagnosis Agent     ``/diagnosis-agent/v1/chat/completions``   ``srdh-diagnosis-agent``
SemanticGuard       ``/semantic-guard/v1/chat/completions``    ``srdh-semantic-guard``
==================  =========================================  ======================

Every request to a component's path consumes that component's next fixture turn
(:mod:`~conformance.model_endpoint._replies`; once the Diagnosis Agent's ``agent`` turns are used
up, its requests get the fixture's ``decoy_agent_turns`` in order, which are never reported
unconsumed) and is recorded (``ModelRequest``: messages, tool
names, stream flag, what was answered), so SDK and HTTP retries are visible as extra requests.
Answers are JSON or, when the request says ``"stream": true``, server-sent events
(:mod:`~conformance.model_endpoint._bodies`); a connection serves requests until the client
closes it. A request the endpoint cannot take (malformed HTTP, a body that is not a JSON object,
another path or method) is answered with an error status and kept, with what was wrong, in
:meth:`ModelEndpoint.refusals` (the adapters put it in the observation's error).

Held requests (``error: TIMEOUT``, ``block_until_cancelled``) wait for an event the kit observes:
the client hangs up (its timeout or the Run's cancellation: ``CLIENT_CLOSED``), the endpoint
stops (``NOT_ANSWERED``), or the IUT sends a later request to the endpoint (it has moved on past
the held call, so a ``block_until_cancelled`` turn's ``then`` answer is surely late for it). No
timer decides that an answer is late while the IUT may still be inside its timeout: an IUT
starved of CPU for seconds still hangs up first (``docs/decisions/races.md``).

Bounds: a request body is at most :data:`MAX_BODY_BYTES`; a held request is answered or dropped
within :attr:`ModelEndpoint.max_hold_s` at the latest (a safety bound, seconds past the IUT's own
timeout, so that a Harness waiting for a blocked call is seen answering instead of hanging the
kit); :meth:`ModelEndpoint.stop` ends every hold at once and joins every handler thread, so the
endpoint stops by itself and leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import json
import select
import selectors
import socket
import socketserver
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from conformance.model_endpoint._bodies import completion_body, error_body, stream_chunks
from conformance.model_endpoint._record import chat_messages, offered_tools
from conformance.model_endpoint._replies import COT_CANARY, Hold, Message, Reply, Status, render
from contracts import loads_strict
from reference_harness.http11 import Http11Connection, Received, Refusal

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from types import TracebackType

__all__ = ["API_KEY", "COMPONENTS", "MAX_BODY_BYTES", "STARVATION_MARGIN_S", "ModelEndpoint"]

COMPONENTS: Final[Mapping[str, tuple[str, str, str]]] = {
    "ROUTER": ("router", "router", "srdh-router"),
    "DIAGNOSIS_AGENT": ("diagnosis_agent", "diagnosis-agent", "srdh-diagnosis-agent"),
    "SEMANTIC_GUARD": ("semantic_guard", "semantic-guard", "srdh-semantic-guard"),
}
"""Component → (run-message key, path prefix, model name)."""

_FIXTURE_KEYS: Final = {
    "ROUTER": "router",
    "DIAGNOSIS_AGENT": "agent",
    "SEMANTIC_GUARD": "semantic_guard",
}
"""Component → the fixture's turn list."""

API_KEY: Final = "srdh-kit"
"""The bearer token handed out (any token is accepted)."""

MAX_BODY_BYTES: Final = 32 * 1024 * 1024
"""Largest request body the endpoint reads (bytes); a larger one gets HTTP 413."""

_POLL_S: Final = 0.02
_RETRY_AFTER_MS: Final = 10
_SOCKET_TIMEOUT_S: Final = 10.0
_HOLD_SHARE: Final = 3.0
_HOLD_MAX_S: Final = 60.0
STARVATION_MARGIN_S: Final = 5.0
"""Seconds a held request waits past 3 model-call timeouts before the safety bound ends it.

A conforming IUT starved of CPU for up to this long still hangs up (or moves on) first, so the
late ``then`` answer of a ``block_until_cancelled`` turn never reaches a Harness still inside
its own timeout."""
_DEFAULT_TIMEOUT_MS: Final = 5000
_PATHS: Final = {f"/{prefix}/v1/chat/completions": c for c, (_, prefix, _m) in COMPONENTS.items()}


class ModelEndpoint:
    """The fixture's model turns served as an OpenAI-compatible endpoint for one Run.

    Use as a context manager; hand :meth:`descriptor` to the IUT in the ``run`` message; read
    :meth:`requests` and :meth:`script_problems` after the Run.

    Args:
        fixture: a valid Scenario Fixture; its ``router``, ``agent`` and ``semantic_guard`` turns
            are the scripts (``decoy_agent_turns`` follow ``agent``), its
            ``limits.model_call_timeout_ms`` (default 5000) sets :attr:`max_hold_s`.

    Attributes:
        max_hold_s: the safety bound of a held request (seconds): 3 times
            ``model_call_timeout_ms`` (at most 60 s) plus :data:`STARVATION_MARGIN_S`. A held
            request ends earlier when its client hangs up, the endpoint stops, or a later
            request arrives (then a ``block_until_cancelled`` turn answers its ``then`` turn late,
            a ``TIMEOUT`` turn keeps holding); at the bound the former answers, the latter is
            dropped.
    """

    def __init__(self, fixture: Mapping[str, Any]) -> None:
        """Create a stopped endpoint scripted with ``fixture``'s model turns."""
        limits = fixture.get("limits") or {}
        timeout_s = int(limits.get("model_call_timeout_ms", _DEFAULT_TIMEOUT_MS)) / 1000
        self.max_hold_s = min(_HOLD_MAX_S, timeout_s * _HOLD_SHARE) + STARVATION_MARGIN_S
        self._scripts: dict[str, deque[Mapping[str, Any]]] = {
            component: deque(t for t in fixture.get(key, []) if isinstance(t, dict))
            for component, key in _FIXTURE_KEYS.items()
        }
        decoys = fixture.get("decoy_agent_turns", [])
        self._decoys: deque[Mapping[str, Any]] = deque(t for t in decoys if isinstance(t, dict))
        self._served: dict[str, int] = dict.fromkeys(COMPONENTS, 0)
        self._requests: list[dict[str, Any]] = []
        self._exhausted: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._refusals: list[str] = []
        self._thread: threading.Thread | None = None
        self._wake: socket.socket | None = None
        self._holds: list[threading.Event] = []  # set by the next request: the IUT moved on
        self._arrived: list[float] = []  # each request's arrival (time.monotonic())

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> Self:
        """Bind ``127.0.0.1:0`` and serve in a background thread; return ``self``."""
        handler = type("_BoundHandler", (_Handler,), {"endpoint": self})
        wake, self._wake = socket.socketpair()
        httpd = _Server(("127.0.0.1", 0), handler, wake)
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_until_woken, name="srdh-model-endpoint", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """End every hold, stop serving, join the handler threads, close the socket (idempotent).

        Nothing here waits for a poll interval: closing the wake-up socket's other end makes it
        readable for the serving loop, every held request and every idle keep-alive connection
        at once.
        """
        self._stopping.set()
        wake, self._wake = self._wake, None
        if wake is not None:
            wake.close()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.server_close()  # joins every handler thread (block_on_close)
            httpd.wake.close()

    def __enter__(self) -> Self:
        """Start the endpoint."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the endpoint."""
        self.stop()

    # ----------------------------------------------------------------- what the kit reads

    @property
    def port(self) -> int:
        """The TCP port the OS assigned.

        Raises:
            RuntimeError: the endpoint is not started.
        """
        if self._httpd is None:
            message = "the model endpoint is not started"
            raise RuntimeError(message)
        return int(self._httpd.server_address[1])

    def descriptor(self) -> dict[str, Any]:
        """Return the run message's ``model_endpoint`` object (contract sheet: ModelEndpoint)."""
        base = f"http://127.0.0.1:{self.port}"
        described: dict[str, Any] = {
            key: {"base_url": f"{base}/{prefix}/v1", "model": model}
            for key, prefix, model in COMPONENTS.values()
        }
        described["api_key"] = API_KEY
        return described

    def requests(self) -> list[dict[str, Any]]:
        """Every request received so far, in arrival order (contract sheet: ModelRequest).

        ``held_ms`` is the kit's clock from the request's arrival to its end (answered, closed by
        the client, endpoint stopped), or to now for a request still held.
        """
        now = time.monotonic()
        with self._lock:
            return [
                {"held_ms": _ms(now - arrived), **request}
                for request, arrived in zip(self._requests, self._arrived, strict=True)
            ]

    def script_problems(self) -> tuple[list[str], dict[str, int]]:
        """Return (requests that found no turn left, turns left unconsumed per component)."""
        with self._lock:
            left = {c: len(q) for c, q in self._scripts.items() if q}
            return list(self._exhausted), left

    def refusals(self) -> list[str]:
        """Every request the endpoint refused, in arrival order, each with what was wrong.

        One line each: ``"POST /router/v1/chat/completions: HTTP 400 the request body is not
        JSON: ..."`` (method and target are empty when the request head never parsed). A refused
        request consumes no fixture turn and is not in :meth:`requests`.
        """
        with self._lock:
            return list(self._refusals)

    # ----------------------------------------------------------------- handler side

    def _refused(self, refusal: Refusal) -> None:
        where = f"{refusal.method} {refusal.target[:200]}".strip() or "a request"
        with self._lock:
            self._refusals.append(f"{where}: HTTP {refusal.status} {refusal.reason}")

    def _take(
        self, component: str, body: Mapping[str, Any]
    ) -> tuple[int, Reply | None, threading.Event]:
        """Record the request; return its index, its reply and its "moved on" event.

        The reply is ``None`` when the script is exhausted; the event is set once a later
        request arrives (the IUT moved on past this one).
        """
        record = {
            "component": component,
            "model": str(body.get("model", ""))[:256],
            "messages": chat_messages(body.get("messages")),
            "tools": offered_tools(body),
            "stream": body.get("stream") is True,
            "answer": "NOT_ANSWERED",
        }
        later = threading.Event()
        with self._lock:
            for earlier in self._holds:  # the IUT moved on: every earlier call is over for it
                earlier.set()
            self._holds = [later]
            self._requests.append(record)
            self._arrived.append(time.monotonic())
            index = len(self._requests) - 1
            self._served[component] += 1
            served = self._served[component]
            script = self._scripts[component]
            if not script and component == "DIAGNOSIS_AGENT" and self._decoys:
                script = self._decoys
            if not script:
                self._exhausted.append(f"{component}: request {served} has no scripted turn")
                return index, None, later
            turn = script.popleft()
        reasoning = f"{COT_CANARY} {component.lower()} {served}: private reasoning"
        return index, render(turn, reasoning), later

    def _answered(self, index: int, answer: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._requests[index]["answer"] = answer
            self._requests[index]["held_ms"] = _ms(now - self._arrived[index])


def _ms(seconds: float) -> int:
    """Whole milliseconds of a duration (never negative)."""
    return max(0, int(seconds * 1000))


class _Server(socketserver.ThreadingTCPServer):
    """The loopback TCP server; each connection is one :class:`_Handler` thread.

    It serves until ``wake`` (one end of a socket pair) becomes readable: the endpoint closes
    the other end to stop, which wakes the serving loop, every held request and every idle
    connection at once (``serve_forever`` would notice a ``shutdown()`` only at its next poll,
    up to its whole interval later, on every Run).
    """

    daemon_threads = False
    block_on_close = True  # server_close() joins every handler thread
    allow_reuse_address = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[socketserver.BaseRequestHandler],
        wake: socket.socket,
    ) -> None:
        super().__init__(address, handler)
        self.wake = wake

    def serve_until_woken(self) -> None:
        """Accept and dispatch connections until :attr:`wake` is readable."""
        with selectors.DefaultSelector() as selector:
            selector.register(self, selectors.EVENT_READ)
            selector.register(self.wake, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self.wake in ready:
                    return
                self.handle_request()


class _Handler(socketserver.BaseRequestHandler):
    """One connection: its requests (keep-alive), each routed by path, recorded and answered."""

    endpoint: ClassVar[ModelEndpoint]
    http: Http11Connection

    def handle(self) -> None:
        """Serve requests until the client closes, a request is refused, or the endpoint stops.

        A client that hung up (its timeout) is not an error.
        """
        endpoint = self.endpoint
        self.http = Http11Connection(
            self.request,
            max_body=MAX_BODY_BYTES,
            stopping=endpoint._stopping,  # noqa: SLF001 - the endpoint's own handler
            stall_s=_SOCKET_TIMEOUT_S,
            wake=self.server.wake,  # type: ignore[attr-defined] # always a _Server
        )
        self.close_connection = False
        with contextlib.suppress(ConnectionError, TimeoutError, OSError):
            while not self.close_connection:
                received = self.http.receive()
                if received is None:
                    return
                if isinstance(received, Refusal):
                    self._refuse(received)
                    return
                self._serve(received)
                if not self.http.next_cycle():
                    return

    def _refuse(self, refusal: Refusal) -> None:
        """Record a request the endpoint cannot take, with what was wrong; answer it; close."""
        self.endpoint._refused(refusal)  # noqa: SLF001 - the endpoint's own handler
        payload = json.dumps(error_body(refusal.reason), ensure_ascii=False).encode()
        self.http.refuse(refusal, [("Content-Type", "application/json")], payload)
        self.close_connection = True

    def _serve(self, received: Received) -> None:
        """Serve ``POST /<component>/v1/chat/completions``; anything else is refused."""
        self.path = received.target
        component = _PATHS.get(received.target.split("?", 1)[0].rstrip("/"))
        if received.method != "POST":
            reason = "only POST {base_url}/chat/completions is served"
            self._refuse(Refusal(405, reason, received.method, received.target))
            return
        if component is None:
            reason = f"no model endpoint at {received.target[:200]!r}"
            self._refuse(Refusal(404, reason, received.method, received.target))
            return
        try:
            body = loads_strict(received.body, source="a model request body")
        except ValueError as error:
            reason = f"the request body is not JSON: {str(error)[:300]}"
            self._refuse(Refusal(400, reason, received.method, received.target))
            return
        if not isinstance(body, dict):
            reason = "the request body is not a JSON object"
            self._refuse(Refusal(400, reason, received.method, received.target))
            return
        endpoint = self.endpoint
        index, reply, later = endpoint._take(component, body)  # noqa: SLF001 - its own handler
        model = str(body.get("model", ""))[:256]
        if reply is None:
            message = f"{component}: the fixture has no model turn left for this request"
            self._deliver(index, "HTTP_ERROR", lambda: self._plain(500, message))
            return
        self._answer(index, reply, later, model=model, stream=body.get("stream") is True)

    def _answer(
        self, index: int, reply: Reply, later: threading.Event, *, model: str, stream: bool
    ) -> None:
        endpoint = self.endpoint
        while isinstance(reply, Hold):
            outcome = self._hold(endpoint.max_hold_s, None if reply.then is None else later)
            if outcome not in {"ELAPSED", "MOVED_ON"} or reply.then is None:
                self.close_connection = True
                answer = "CLIENT_CLOSED" if outcome == "CLOSED" else "NOT_ANSWERED"
                endpoint._answered(index, answer)  # noqa: SLF001 - the endpoint's own handler
                return
            reply = reply.then
        if isinstance(reply, Status):
            body = error_body(reply.message)
            status = reply.status
            self._deliver(
                index,
                "HTTP_ERROR",
                lambda: self._send_json(status, body, retry_after_ms=_RETRY_AFTER_MS),
            )
            return
        assert isinstance(reply, Message)  # noqa: S101 - Reply is Message | Status | Hold
        if stream:
            chunks = stream_chunks(reply, model)
            self._deliver(index, "ANSWERED", lambda: self._send_stream(chunks))
        else:
            completion = completion_body(reply, model)
            self._deliver(index, "ANSWERED", lambda: self._send_json(200, completion))

    def _deliver(self, index: int, answer: str, send: Callable[[], None]) -> None:
        """Record ``answer``, then send it: a client holding the answer finds it recorded.

        Recording after the send raced with the kit reading the requests as soon as the IUT
        had its answer (a 500 read as ``NOT_ANSWERED`` under load). A send the client cut short
        is recorded as ``CLIENT_CLOSED``.
        """
        endpoint = self.endpoint
        endpoint._answered(index, answer)  # noqa: SLF001 - the endpoint's own handler
        try:
            send()
        except OSError:
            endpoint._answered(index, "CLIENT_CLOSED")  # noqa: SLF001
            raise

    def _hold(self, bound_s: float, later: threading.Event | None = None) -> str:
        """Wait: ``CLOSED`` (client hung up), ``STOPPED``, ``MOVED_ON`` or ``ELAPSED``.

        ``MOVED_ON``: ``later`` was set (a later request arrived; looked at every
        :data:`_POLL_S`); ``ELAPSED``: ``bound_s`` passed. A client that hung up is ``CLOSED``
        even when another of these is seen at once (the connection is looked at first).
        """
        deadline = time.monotonic() + bound_s
        stopping = self.endpoint._stopping  # noqa: SLF001 - the endpoint's own handler
        wake = self.server.wake  # type: ignore[attr-defined] # always a _Server
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "ELAPSED"
            if later is not None and later.is_set():
                return "MOVED_ON"
            wait = remaining if later is None else min(remaining, _POLL_S)
            readable, _, _ = select.select([self.request, wake], [], [], wait)
            if self.request in readable:
                try:
                    peeked = self.request.recv(1, socket.MSG_PEEK)
                except OSError:
                    return "CLOSED"
                if not peeked:
                    return "CLOSED"
                if stopping.wait(_POLL_S):  # the client sent more bytes; keep holding
                    return "STOPPED"
            elif wake in readable:
                return "STOPPED"

    # ----------------------------------------------------------------- writers

    def _plain(self, status: int, message: str) -> None:
        self._send_json(status, error_body(message))

    def _send_json(self, status: int, body: object, *, retry_after_ms: int | None = None) -> None:
        payload = json.dumps(body, ensure_ascii=False).encode()
        headers = [("Content-Type", "application/json")]
        if retry_after_ms is not None:  # as OpenAI sends it; a client that retries does so at once
            headers.append(("retry-after-ms", str(retry_after_ms)))
        self.http.respond(status, headers, payload)

    def _send_stream(self, chunks: Iterable[bytes]) -> None:
        headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]
        frames = (b"data: " + chunk + b"\n\n" for chunk in [*chunks, b"[DONE]"])
        self.http.respond_stream(200, headers, frames, whole=True)  # timely: on the wire at once
