"""One server-side HTTP/1.1 connection on a blocking socket, parsed by ``h11`` (no hand parsing).

The loopback servers that play a model (the kit's model endpoint,
``conformance.model_endpoint``; the reference's scripted OpenAI server,
``reference_harness.openai.testing``) read requests through :class:`Http11Connection`, so they
accept what HTTP/1.1 clients send (RFC 9112):

* a body framed by ``Content-Length`` or by ``Transfer-Encoding: chunked`` (§7.1: a recipient
  must parse chunked; Node ``fetch`` with a stream body, Go with an ``io.Reader``, Java
  ``BodyPublishers.ofInputStream`` and ``httpx`` with an iterator send it);
* ``Expect: 100-continue`` (RFC 9110 §10.1.1): ``100 Continue`` is sent before the body is read,
  unless the request is refused from its head (too large);
* several requests on one connection (keep-alive, §9.3): :meth:`Http11Connection.next_cycle`.

A request the server cannot take comes back as a :class:`Refusal` (status and reason, e.g. h11's
own words for a malformed head or chunk), so the server can answer it and record why.

Bounds: a body is at most ``max_body`` bytes (413 from ``Content-Length`` before anything is read,
or as soon as a chunked body passes it); a request that stops arriving for ``stall_s`` seconds is
refused (408); an idle connection between requests waits only until ``stopping`` is set.
"""

from __future__ import annotations

import enum
import http
import select
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

import h11

if TYPE_CHECKING:
    import socket
    import threading
    from collections.abc import Iterable

__all__ = ["Http11Connection", "Received", "Refusal"]

_POLL_S: Final = 0.02
_READ_BYTES: Final = 64 * 1024
_MAX_HEAD_BYTES: Final = 64 * 1024


class _Step(enum.Enum):
    MORE = "more"
    """The request is not complete yet: read on."""


@dataclass(frozen=True, slots=True)
class Received:
    """One complete request.

    Attributes:
        method: the method (``"POST"``), as sent.
        target: the request target (``"/v1/chat/completions"``), as sent.
        headers: header fields, names lower-cased (a repeated field: the last value).
        body: the body, de-chunked, at most ``max_body`` bytes.
    """

    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the connection refused; the server answers ``status`` and closes.

    Attributes:
        status: the HTTP status to answer (400, 408, 413, 431...).
        reason: what was wrong, in words (h11's own for a protocol error).
        method: the request's method, ``""`` if its head never parsed.
        target: the request's target, ``""`` if its head never parsed.
    """

    status: int
    reason: str
    method: str = ""
    target: str = ""


class Http11Connection:
    """The server side of one HTTP/1.1 connection (blocking socket, one request at a time).

    Args:
        sock: the accepted connection.
        max_body: largest request body taken (bytes).
        stopping: set when the server stops; an idle or stalled read ends at once.
        wake: a socket that becomes readable when the server stops (the other end of a socket
            pair the server closes): an idle read then ends without waiting for its next look
            at ``stopping``.
        stall_s: how long a started request may stop arriving (seconds) before 408.
        keep_alive: serve more requests on the connection (HTTP/1.1's default); ``False``
            answers each with ``Connection: close`` (a test double whose callers never close
            their connection pools).
    """

    def __init__(  # noqa: PLR0913 - the connection's settings, all keyword-only
        self,
        sock: socket.socket,
        *,
        max_body: int,
        stopping: threading.Event,
        stall_s: float,
        keep_alive: bool = True,
        wake: socket.socket | None = None,
    ) -> None:
        """Wrap ``sock`` (not yet read)."""
        self._keep_alive = keep_alive
        self._watched = [sock] if wake is None else [sock, wake]
        self.sock = sock
        self._max_body = max_body
        self._stopping = stopping
        self._stall_s = stall_s
        self._h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=_MAX_HEAD_BYTES)
        self._peer_closed = False

    # ----------------------------------------------------------------- reading

    def receive(self) -> Received | Refusal | None:
        """Read the next request: complete, refused, or ``None`` (closed, or the server stops).

        A client that closes its side before its request is complete hung up (``None``), it did
        not send a malformed request.
        """
        pending = _Pending()
        try:
            while True:
                event = self._h11.next_event()
                if event is h11.NEED_DATA:
                    more = self._read_more(started=pending.request is not None)
                    if isinstance(more, Refusal):
                        return pending.refusal(more)
                    if not more:
                        return None
                    continue
                outcome = self._take(event, pending)
                if outcome is not _Step.MORE:
                    return outcome
        except h11.RemoteProtocolError as error:
            if self._peer_closed:
                # the client hung up before its request was complete (its cancellation or its
                # timeout): a request abandoned, not a malformed one
                return None
            reason = f"malformed HTTP/1.1 request: {error}"
            return pending.refusal(Refusal(error.error_status_hint, reason))

    def _take(
        self, event: object, pending: _Pending
    ) -> Received | Refusal | Literal[_Step.MORE] | None:
        """One parser event: the request's outcome, or :data:`_Step.MORE` (read on)."""
        if isinstance(event, h11.ConnectionClosed) or event is h11.PAUSED:
            return None
        if isinstance(event, h11.Request):
            pending.request = event
            refused = self._refuse_from_head(event)
            if refused is not None:
                return refused
            if self._h11.client_is_waiting_for_100_continue:
                continuing = h11.InformationalResponse(
                    status_code=100, headers=[], reason=_phrase(100)
                )
                self._send(continuing)
        elif isinstance(event, h11.Data):
            pending.body += event.data
            if len(pending.body) > self._max_body:
                return pending.refusal(Refusal(413, f"request body over {self._max_body} bytes"))
        elif isinstance(event, h11.EndOfMessage) and pending.request is not None:
            return _received(pending.request, bytes(pending.body))
        return _Step.MORE

    def _read_more(self, *, started: bool) -> Refusal | bool:
        """Feed the parser more bytes: ``True``, ``False`` (stop), or a 408 :class:`Refusal`."""
        waited = 0.0
        while not self._stopping.is_set():
            readable, _, _ = select.select(self._watched, [], [], _POLL_S)
            if self.sock in readable:
                try:
                    data = self.sock.recv(_READ_BYTES)
                except OSError:
                    return False
                self._peer_closed = not data
                self._h11.receive_data(data)  # b"": the client closed its side
                return True
            if readable:  # only the wake-up socket: the server stops
                return False
            waited += _POLL_S
            begun = started or bool(self._h11.trailing_data[0])
            if begun and waited >= self._stall_s:
                return Refusal(408, f"the request stopped arriving for {self._stall_s:g} s")
        return False

    def _refuse_from_head(self, request: h11.Request) -> Refusal | None:
        declared = dict(request.headers).get(b"content-length")
        if declared is not None and int(declared) > self._max_body:
            reason = f"request body over {self._max_body} bytes (Content-Length {int(declared)})"
            return _with_head(Refusal(413, reason), request)
        return None

    # ----------------------------------------------------------------- writing

    def respond(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        """Send a whole response (``Content-Length`` framed) in one write.

        One write: the client gets the head and the body together, however the sending thread
        is scheduled (a response split over writes can reach a client past its read timeout
        when the sender is starved between them).

        Raises:
            OSError: the client is gone.
        """
        fields = [*headers, ("Content-Length", str(len(body)))]
        self._send_all([self._head(status, fields), h11.Data(data=body), h11.EndOfMessage()])

    def respond_stream(
        self,
        status: int,
        headers: list[tuple[str, str]],
        pieces: Iterable[bytes],
        *,
        whole: bool = False,
    ) -> None:
        """Send a response whose body is ``pieces``, each sent at once (chunked for HTTP/1.1).

        ``whole``: the pieces are all known already; head, pieces (each still its own chunk)
        and end go out in one write, as :meth:`respond` does.

        Raises:
            OSError: the client is gone.
        """
        if whole:
            body = [h11.Data(data=piece) for piece in pieces if piece]
            self._send_all([self._head(status, headers), *body, h11.EndOfMessage()])
            return
        self.write_head(status, headers)
        for piece in pieces:
            self.write(piece)
        self.write_end()

    def write_head(self, status: int, headers: list[tuple[str, str]]) -> None:
        """Send a response's status line and headers (no ``Content-Length``: chunked).

        Raises:
            OSError: the client is gone.
        """
        self._send(self._head(status, headers))

    def _head(self, status: int, headers: list[tuple[str, str]]) -> h11.Response:
        closing = not self._keep_alive and all(k.lower() != "connection" for k, _ in headers)
        fields = [*headers, ("Connection", "close")] if closing else headers
        return h11.Response(status_code=status, headers=fields, reason=_phrase(status))

    def write(self, piece: bytes) -> None:
        """Send one piece of the response body at once (a fault may stop before the end).

        Raises:
            OSError: the client is gone.
        """
        self._send(h11.Data(data=piece))

    def write_end(self) -> None:
        """End the response body (the last chunk when chunked).

        Raises:
            OSError: the client is gone.
        """
        self._send(h11.EndOfMessage())

    def refuse(self, refusal: Refusal, headers: list[tuple[str, str]], body: bytes) -> None:
        """Answer a refused request with ``refusal.status`` and ``body``, then close."""
        fields = [*headers, ("Connection", "close")]
        try:
            self.respond(refusal.status, fields, body)
        except (h11.LocalProtocolError, OSError):
            return  # the parser cannot frame an answer here (or the client left): just close

    def next_cycle(self) -> bool:
        """After a response: whether the connection is ready for another request (keep-alive)."""
        if self._h11.our_state is h11.DONE and self._h11.their_state is h11.DONE:
            self._h11.start_next_cycle()
            return True
        return False

    def _send(self, event: h11.Event) -> None:
        data = self._h11.send(event)
        if data:
            self.sock.sendall(data)

    def _send_all(self, events: list[h11.Event]) -> None:
        """Send ``events`` in one write."""
        data = b"".join(self._h11.send(event) or b"" for event in events)
        if data:
            self.sock.sendall(data)


@dataclass(slots=True)
class _Pending:
    """The request being read: its head once parsed, its body so far."""

    request: h11.Request | None = None
    body: bytearray = field(default_factory=bytearray)

    def refusal(self, refused: Refusal) -> Refusal:
        """``refused`` with this request's method and target (when its head parsed)."""
        return _with_head(refused, self.request)


def _received(request: h11.Request, body: bytes) -> Received:
    headers = {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in request.headers
    }
    return Received(
        method=request.method.decode("latin-1"),
        target=request.target.decode("latin-1"),
        headers=headers,
        body=body,
    )


def _with_head(refusal: Refusal, request: h11.Request | None) -> Refusal:
    if request is None:
        return refusal
    return Refusal(
        refusal.status,
        refusal.reason,
        request.method.decode("latin-1"),
        request.target.decode("latin-1"),
    )


def _phrase(status: int) -> bytes:
    try:
        return http.HTTPStatus(status).phrase.encode("ascii")
    except ValueError:
        return b""
