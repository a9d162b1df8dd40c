"""``ChatClient``: exactly one chat-completions HTTP request per call, errors mapped to the ports'.

Built on the ``openai`` SDK's synchronous client with ``max_retries=0`` and an explicit timeout on
every call (Requirement 9: the SDK and HTTP layers make one attempt; Requirement 8: a blocking
call ends by its timeout). The response is read raw (``with_raw_response``) so that the model's
values reach the Harness untouched; a streamed response is read as server-sent events and
assembled by :func:`~reference_harness.openai._completion.from_chunks`.

Error mapping (each is one HTTP request):

=====================================================  ======================
what happened                                          raised
=====================================================  ======================
no answer within ``timeout_s`` (connect, read, stream)  ``ModelTimeout``
HTTP 429, 5xx, any other non-2xx status                 ``ModelUnavailable``
connection refused / reset, body or stream cut          ``ModelUnavailable``
body or SSE chunk not JSON, not a chat completion       ``ModelUnavailable``
=====================================================  ======================
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import threading
import time
from typing import TYPE_CHECKING, Any, Final

import httpx
import openai

from contracts import loads_strict
from reference_harness._limits import MAX_WAIT_S
from reference_harness._worker import CallInterruptedError, call_interruptible
from reference_harness.errors import ModelTimeout, ModelUnavailable
from reference_harness.openai._completion import (
    Completion,
    MalformedCompletionError,
    from_body,
    from_chunks,
)

if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

    from reference_harness.openai._config import OpenAIConfig

__all__ = ["MAX_SSE_LINE_BYTES", "ChatClient", "shared_http_client", "sse_lines"]

_DONE: Final = "[DONE]"

MAX_SSE_LINE_BYTES: Final = 16 * 1024 * 1024
"""Longest SSE line read (bytes); a longer one makes the answer unusable (ModelUnavailable)."""

_LINE_END: Final = re.compile(rb"\r\n|\r|\n")
_BOM: Final = b"\xef\xbb\xbf"


def _transport_errors() -> tuple[tuple[type[Exception], ...], tuple[type[Exception], ...]]:
    """(timeout errors, other HTTP errors) of the HTTP libraries the SDK may stream through.

    ``openai`` 3.x reads responses with ``httpx2``, earlier versions with ``httpx``; errors
    raised while a streamed body is read are that library's own, not the SDK's.
    """
    timeouts: list[type[Exception]] = [httpx.TimeoutException]
    others: list[type[Exception]] = [httpx.HTTPError]
    try:
        import httpx2  # noqa: PLC0415 - optional: present with openai >= 3
    except ImportError:  # pragma: no cover - older openai SDKs use httpx only
        pass
    else:
        timeouts.append(httpx2.TimeoutException)
        others.append(httpx2.HTTPError)
    return tuple(timeouts), tuple(others)


_TRANSPORT_TIMEOUTS, _TRANSPORT_ERRORS = _transport_errors()
_TIMEOUT_ERRORS: Final[tuple[type[Exception], ...]] = (openai.APITimeoutError, *_TRANSPORT_TIMEOUTS)
"""Raised when no (complete) answer came in time: outcome TIMEOUT."""
_UNAVAILABLE_ERRORS: Final[tuple[type[Exception], ...]] = (
    openai.APIError,
    *_TRANSPORT_ERRORS,
    MalformedCompletionError,
    ValueError,
)
"""Raised for a status error, a failed connection, a cut or non-JSON answer: UNAVAILABLE."""


@functools.cache
def _tls_context(create: Callable[[], ssl.SSLContext]) -> ssl.SSLContext:
    """One TLS context per process, built as the SDK's default HTTP client builds its own."""
    return create()


def _http_client() -> Any:  # noqa: ANN401 - httpx2.Client or httpx.Client, as the SDK uses
    """An HTTP client with the SDK's defaults, its TLS context shared by the whole process.

    ``openai.DefaultHttpx2Client`` (``DefaultHttpxClient`` for an SDK without httpx2).
    The SDK's own default client loads the CA bundle anew for each client
    (``load_verify_locations``, about 17 ms); the reference builds three clients per Run (Router,
    Diagnosis Agent, SemanticGuard), which made the CA bundle half the cost of a Run over the
    kit's model endpoint. The context is the one the default would build (``verify=True``,
    ``trust_env=True``), made once.
    """
    hooks = {"request": [_trace_sending]}
    try:
        import httpx2  # noqa: PLC0415 - optional: present with openai >= 3
    except ImportError:  # pragma: no cover - older openai SDKs use httpx only
        return openai.DefaultHttpxClient(
            verify=_tls_context(httpx.create_ssl_context), event_hooks=hooks
        )
    return openai.DefaultHttpx2Client(
        verify=_tls_context(httpx2.create_ssl_context), event_hooks=hooks
    )


_SHARED_LOCK = threading.Lock()
_SHARED: list[tuple[int, Any]] = []
"""``(pid, client)``: this process's shared HTTP client (:func:`shared_http_client`)."""


def shared_http_client() -> Any:  # noqa: ANN401 - httpx2.Client or httpx.Client, as the SDK uses
    """This process's one HTTP client (:func:`_http_client`), made on first use; thread-safe.

    For model clients that share a connection pool: the reference's ports on the kit's model
    endpoint (:func:`reference_harness.openai._endpoint.endpoint_ports`). The pool keeps idle
    keep-alive connections per origin (scheme, host, port), so the Router, Diagnosis Agent and
    SemanticGuard of one Run reuse one connection to the endpoint instead of opening one each,
    and a connection to an endpoint that has stopped is dropped when the pool next looks at it
    (the server closed it: ``httpcore`` closes an idle connection that became readable). A
    forked child makes its own (the parent's sockets are not its to use). Never closed: it
    lives as long as the process.
    """
    with _SHARED_LOCK:
        if not _SHARED or _SHARED[0][0] != os.getpid():
            _SHARED[:] = [(os.getpid(), _http_client())]
        return _SHARED[0][1]


_SENDING = threading.local()
"""``event``: the :class:`threading.Event` of the request this thread is making, if any."""


def _trace_sending(request: Any) -> None:  # noqa: ANN401 - an httpx2.Request or httpx.Request
    """Request hook: set the calling thread's sending event once the request is fully sent.

    httpcore reports each phase of a request to the ``trace`` request extension; the end of
    ``send_request_body`` means the server has the whole request (so the model endpoint, or a
    real provider, records the attempt) and only its answer is awaited.
    """
    sent: threading.Event | None = getattr(_SENDING, "event", None)
    if sent is None:
        return

    def trace(name: str, _info: object) -> None:
        if name.endswith("send_request_body.complete"):
            sent.set()

    request.extensions["trace"] = trace


class ChatClient:
    """One OpenAI-compatible endpoint; :meth:`complete` makes one request per call.

    Thread-safe: the Harness may call it from several worker threads.
    """

    _owns_http_client: bool = True
    """Whether the HTTP client (and its pool) is this client's own; see :meth:`__init__`."""

    def __init__(self, config: OpenAIConfig, *, http_client: Any = None) -> None:  # noqa: ANN401
        """Create the SDK client: ``max_retries=0``, ``openai.Timeout(config.timeout_s)``.

        A ``timeout_s`` past :data:`~reference_harness._limits.MAX_WAIT_S` (the longest wait the
        platform's sockets take) is clamped to it: a wait no call reaches, as asked.

        Its HTTP client is ``http_client`` when given (e.g. :func:`shared_http_client`; then
        :meth:`close` leaves it open, it is not this client's), else its own: the SDK's default
        one with the process's shared TLS context.
        """
        self._config = config
        self._timeout_s = min(config.timeout_s, MAX_WAIT_S)
        self._timeout = openai.Timeout(self._timeout_s)
        self._owns_http_client = http_client is None
        self._client = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key,
            max_retries=0,
            timeout=self._timeout,
            http_client=_http_client() if http_client is None else http_client,
        )

    @property
    def config(self) -> OpenAIConfig:
        """The endpoint configuration."""
        return self._config

    def close(self) -> None:
        """Close the connection pool, if it is this client's own (not a shared one)."""
        if self._owns_http_client:
            self._client.close()

    def complete(
        self,
        messages: Sequence[Mapping[str, object]],
        *,
        tools: Sequence[Mapping[str, object]] = (),
        interrupt: threading.Event | None = None,
    ) -> Completion:
        """Send one chat-completions request and return the assistant message.

        Args:
            messages: OpenAI-style chat messages.
            tools: OpenAI ``tools`` entries (``{"type": "function", "function": {…}}``); none sent
                when empty.
            interrupt: the port call's interrupt event (Requirement 8): once it is set and the
                request has been sent (so the server saw the attempt), this call returns
                (``ModelUnavailable``) instead of waiting for its HTTP timeout; the request
                itself ends by its timeout or when the server closes it
                (:func:`~reference_harness._worker.call_interruptible`).

        Raises:
            ModelTimeout: no complete answer within ``config.timeout_s`` seconds.
            ModelUnavailable: non-2xx status, connection failure, a cut or non-JSON answer, or
                ``interrupt`` was set first.
        """
        if interrupt is None:
            return self._request(messages, tools)
        sent = threading.Event()

        def request() -> Completion:
            _SENDING.event = sent
            try:
                return self._request(messages, tools)
            finally:
                _SENDING.event = None
                sent.set()

        try:
            return call_interruptible(request, interrupt, name="srdh-http-request", ready=sent)
        except CallInterruptedError:
            message = "the call was interrupted (the Run was cancelled or its call timed out)"
            raise ModelUnavailable(message) from None

    def _request(
        self, messages: Sequence[Mapping[str, object]], tools: Sequence[Mapping[str, object]]
    ) -> Completion:
        deadline = time.monotonic() + self._timeout_s
        extra: dict[str, Any] = {"tools": list(tools)} if tools else {}
        try:
            raw = self._client.chat.completions.with_raw_response.create(
                model=self._config.model,
                messages=list(messages),  # type: ignore[arg-type] # OpenAI-style dicts, passed as sent
                stream=self._config.stream,
                timeout=self._timeout,
                **extra,
            )
            response = raw.http_response
            try:
                if self._config.stream:
                    chunks = response.iter_bytes()
                    completion = from_chunks(_sse_json(sse_lines(chunks), deadline))
                    if not self._owns_http_client:
                        _drain(chunks, deadline)
                    return completion
                return from_body(loads_strict(response.read(), source="the completion body"))
            finally:
                response.close()
        except _TIMEOUT_ERRORS as error:
            raise ModelTimeout(_describe(error)) from error
        except _UNAVAILABLE_ERRORS as error:
            raise ModelUnavailable(_describe(error)) from error


def _drain(chunks: Iterator[bytes], deadline: float) -> None:
    """Read what is left of a stream after its ``[DONE]`` (normally only the body's end).

    A response read to its end leaves its keep-alive connection to the pool; one closed before
    it closes the connection. Only for a shared pool (:func:`shared_http_client`: the kit's
    model endpoint, which sends a whole stream in one write, so its end is already there).
    The answer was complete at ``[DONE]``: what comes after it, or fails, changes nothing; the
    reading stops at ``deadline``.
    """
    with contextlib.suppress(*_TIMEOUT_ERRORS, *_UNAVAILABLE_ERRORS, OSError):
        for _ in chunks:
            if time.monotonic() > deadline:
                return


def _describe(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def sse_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """Split a server-sent event stream into lines: a line ends at CRLF, LF or CR, nowhere else.

    The SSE grammar (WHATWG HTML, "server-sent events") ends lines only there; U+2028, U+2029,
    U+0085 and other characters ``str.splitlines`` (and so ``httpx``'s ``iter_lines``) breaks
    at are data. A CR at the end of one chunk and an LF at the start of the next are one CRLF.
    One UTF-8 byte order mark at the very start of the stream is dropped (the grammar's
    ``stream = [ bom ] *event``), even when it is split across chunks.

    Raises:
        ValueError: a line is longer than :data:`MAX_SSE_LINE_BYTES` or not UTF-8.
    """
    buffer = bytearray()
    skip_lf = False
    at_start = True
    for chunk in chunks:
        if not chunk:
            continue
        if skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # noqa: PLW2901 - the LF of a CRLF split across two chunks
        skip_lf = False
        buffer += chunk
        if at_start:
            if len(buffer) < len(_BOM) and _BOM.startswith(buffer):
                continue  # maybe a BOM split across chunks: wait for its other bytes
            if buffer.startswith(_BOM):
                del buffer[: len(_BOM)]
            at_start = False
        start = 0
        for end in _LINE_END.finditer(buffer):
            yield buffer[start : end.start()].decode("utf-8")
            start = end.end()
            skip_lf = end.group() == b"\r" and start == len(buffer)
        del buffer[:start]
        if len(buffer) > MAX_SSE_LINE_BYTES:
            message = f"an SSE line longer than {MAX_SSE_LINE_BYTES} bytes"
            raise ValueError(message)
    if buffer and not (at_start and _BOM.startswith(buffer)):
        yield buffer.decode("utf-8")


def _sse_json(lines: Iterator[str], deadline: float) -> Iterator[object]:
    """Yield the JSON of each SSE ``data`` event until ``[DONE]``; bound the stream by ``deadline``.

    Fields as the WHATWG event-stream interpretation reads them: a line starting with ``:`` is a
    comment; ``data:value`` (one leading space dropped) and a bare ``data`` line (empty value)
    add to the event's data; other fields are ignored; a blank line dispatches the event. An
    event the stream ends in the middle of (no blank line after it) is discarded, as the
    standard says, so a cut last chunk never counts. Each event's data is read by the kit's
    strict reader (:func:`contracts.loads_strict`).

    Raises:
        ValueError: an event's data is not (I-)JSON.
        ModelTimeout: the stream is still going at ``deadline``.
    """
    data: list[str] = []
    for line in lines:
        if time.monotonic() > deadline:
            message = "the stream did not finish within the call timeout"
            raise ModelTimeout(message)
        if line:
            name, colon, value = line.partition(":")
            if name == "data":
                data.append(value.removeprefix(" ") if colon else "")
            continue  # a comment (empty name), another field, or a data line
        if not data:
            continue  # a blank line with nothing buffered
        payload = "\n".join(data)
        data = []
        if payload == _DONE:
            return
        yield loads_strict(payload, source="an SSE event")
