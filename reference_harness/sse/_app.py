"""``create_app``: the chat entry as a Starlette app streaming server-sent events.

Routes:

``POST /internal/v1/chat`` — always the single ReAct Harness (stage 4's internal entry).
``POST /v1/chat`` — the public entry: the Harness when ``public_entry`` is ``SINGLE_REACT``;
    while it is ``LEGACY`` (the phase gate has not allowed stage 6B), a fixed
    ``409 {"public_entry": "LEGACY", "internal_entry": "/internal/v1/chat"}`` — this kit has no
    legacy implementation to forward to, and the public route never runs the new Harness early.
``GET /internal/v1/runs/{run_id}/trace`` — ``{"run_id", "finished", "events"}`` of a recent Run
    (the trace stays observable after the client went away); 404 if unknown.

A chat body is ``{"session_id": id, "message": string}`` sent as ``application/json`` (``422
{"error": "INVALID_REQUEST", "pointer", "expected"}`` otherwise; a body nested too deep is a
422 too). Before a Run starts, :mod:`._guard` refuses a foreign ``Host`` (400) or ``Origin``
(403), a missing internal token (401), another content type (415) and a body over the limit
(413, never buffered past it). The answer is ``text/event-stream`` of ``run_event``
(RunTraceEvent), ``result`` (PublishedResult) and ``end`` (``{state}``) events, as the contract
sheet's ``client_frames``. A client disconnect cancels the Run with ``CLIENT_DISCONNECTED``.
If the harness factory fails, a chat route answers a fixed ``503 {"error": "HARNESS_UNAVAILABLE"}``
(the cause is logged, never sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from reference_harness.sse._guard import (
    DEFAULT_ALLOWED_HOSTS,
    DEFAULT_MAX_BODY_BYTES,
    BodyRefused,
    OriginGuard,
    read_json_body,
    token_refusal,
)
from reference_harness.sse._request import ChatRequestError, parse_chat_request
from reference_harness.sse._runs import ActiveRun, ChatHarness, TraceLog

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from starlette.requests import Request

__all__ = ["INTERNAL_CHAT_PATH", "PUBLIC_CHAT_PATH", "PublicEntry", "create_app"]

PublicEntry: TypeAlias = Literal["LEGACY", "SINGLE_REACT"]
"""Contract sheet: public entry."""

PUBLIC_CHAT_PATH: Final = "/v1/chat"
INTERNAL_CHAT_PATH: Final = "/internal/v1/chat"
_SHUTDOWN_WAIT_S: Final = 30.0
_LOG: Final = logging.getLogger(__name__)


class _Routes:
    """The route handlers of one app, sharing its harness factory, trace log and Run tasks."""

    def __init__(
        self,
        harness_factory: Callable[[], ChatHarness],
        public_entry: PublicEntry,
        log: TraceLog,
        *,
        max_body_bytes: int,
        internal_token: str | None,
    ) -> None:
        self._factory = harness_factory
        self._public_entry = public_entry
        self._log = log
        self._max_body_bytes = max_body_bytes
        self._internal_token = internal_token
        self.tasks: set[asyncio.Task[None]] = set()

    async def internal_chat(self, request: Request) -> Response:
        refusal = token_refusal(request, self._internal_token)
        return refusal if refusal is not None else await self.chat(request)

    async def chat(self, request: Request) -> Response:
        try:
            body = parse_chat_request(await read_json_body(request, self._max_body_bytes))
        except BodyRefused as refused:
            return refused.response
        except ChatRequestError as problem:
            return JSONResponse(problem.as_json(), status_code=422)
        try:
            harness = self._factory()
        except Exception:  # noqa: BLE001 - any setup failure is the same fixed 503, logged
            _LOG.exception("the harness factory failed")
            return JSONResponse({"error": "HARNESS_UNAVAILABLE"}, status_code=503)
        run = ActiveRun(
            harness, body.session_id, body.message, trace_log=self._log, tasks=self.tasks
        )
        return EventSourceResponse(run.frames(), client_close_handler_callable=run.on_disconnect)

    async def public_chat(self, request: Request) -> Response:
        if self._public_entry == "LEGACY":
            return JSONResponse(
                {"public_entry": "LEGACY", "internal_entry": INTERNAL_CHAT_PATH}, status_code=409
            )
        return await self.chat(request)

    async def trace(self, request: Request) -> Response:
        refusal = token_refusal(request, self._internal_token)
        if refusal is not None:
            return refusal
        found = self._log.get(request.path_params["run_id"])
        if found is None:
            return JSONResponse({"error": "UNKNOWN_RUN"}, status_code=404)
        return JSONResponse(found)

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        yield
        if self.tasks:  # Runs still finishing (e.g. cancelled, waiting out a blocking model call)
            await asyncio.wait(set(self.tasks), timeout=_SHUTDOWN_WAIT_S)


def create_app(  # noqa: PLR0913 - one keyword per documented setting
    *,
    harness_factory: Callable[[], ChatHarness],
    public_entry: PublicEntry,
    trace_log: TraceLog | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS,
    allowed_origins: tuple[str, ...] = (),
    internal_token: str | None = None,
) -> Starlette:
    """Build the chat app.

    Args:
        harness_factory: builds the Harness serving one chat request (called per request).
        public_entry: what the phase gate allows on ``POST /v1/chat`` (``LEGACY`` until 6B).
        trace_log: where Run traces are kept (a new :class:`TraceLog` by default).
        max_body_bytes: the largest chat body accepted, in bytes (413 beyond).
        allowed_hosts: host names accepted in the ``Host`` header (loopback names by default;
            ``"*"`` accepts any, which DNS rebinding can then reach).
        allowed_origins: cross-site origins (``scheme://host[:port]``) allowed to POST, besides
            the server's own.
        internal_token: when set, the internal routes (``/internal/...``) require
            ``Authorization: Bearer <internal_token>``; ``None`` leaves them open (an embedding
            that authenticates by other means, or a test). ``srdh serve`` always sets one.

    Raises:
        ValueError: ``public_entry`` is not ``LEGACY`` or ``SINGLE_REACT``.
    """
    if public_entry not in ("LEGACY", "SINGLE_REACT"):
        message = f"public_entry: expected LEGACY or SINGLE_REACT, got {public_entry!r}"
        raise ValueError(message)
    routes = _Routes(
        harness_factory,
        public_entry,
        trace_log if trace_log is not None else TraceLog(),
        max_body_bytes=max_body_bytes,
        internal_token=internal_token,
    )
    return Starlette(
        routes=[
            Route(PUBLIC_CHAT_PATH, routes.public_chat, methods=["POST"]),
            Route(INTERNAL_CHAT_PATH, routes.internal_chat, methods=["POST"]),
            Route("/internal/v1/runs/{run_id}/trace", routes.trace, methods=["GET"]),
        ],
        middleware=[
            Middleware(
                TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False
            ),
            Middleware(OriginGuard, allowed_origins=allowed_origins),
        ],
        lifespan=routes.lifespan,
    )
