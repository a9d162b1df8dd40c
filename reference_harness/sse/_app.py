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
If the harness factory fails, or the Run does not start (its ``diagnosis_run`` row cannot be
created: the store is locked or full) within :data:`START_WAIT_S`, a chat route answers a fixed
``503 {"error": "HARNESS_UNAVAILABLE"}`` (the cause is logged once, never sent). A body not
received within :data:`BODY_WAIT_S` is a ``408``.

With ``run_store``, the app also finishes the Runs the store could not finish (their terminal
write failed: :meth:`RunStore.abandon`): every :data:`RECOVERY_INTERVAL_S` while some are
abandoned, and once more at shutdown, off the event loop (:meth:`RunStore.recover_abandoned`).
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

from reference_harness._harness import wall_clock_ms
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
from reference_harness.store import RunStore, RunStoreError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from starlette.requests import Request

__all__ = [
    "BODY_WAIT_S",
    "INTERNAL_CHAT_PATH",
    "PUBLIC_CHAT_PATH",
    "RECOVERY_INTERVAL_S",
    "START_WAIT_S",
    "PublicEntry",
    "create_app",
]

PublicEntry: TypeAlias = Literal["LEGACY", "SINGLE_REACT"]
"""Contract sheet: public entry."""

PUBLIC_CHAT_PATH: Final = "/v1/chat"
INTERNAL_CHAT_PATH: Final = "/internal/v1/chat"
_SHUTDOWN_WAIT_S: Final = 30.0
START_WAIT_S: Final = 15.0
"""Seconds a chat request waits for its Run to start (row created) before a ``503``."""
BODY_WAIT_S: Final = 10.0
"""Seconds a chat request has to deliver its whole body before a ``408``."""
RECOVERY_INTERVAL_S: Final = 1.0
"""Seconds between two attempts to finish the abandoned Runs, while there are some."""
_LOG: Final = logging.getLogger(__name__)
_UNAVAILABLE: Final = {"error": "HARNESS_UNAVAILABLE"}


class _Routes:
    """The route handlers of one app, sharing its harness factory, trace log and Run tasks."""

    def __init__(  # noqa: PLR0913 - one keyword per setting of create_app
        self,
        harness_factory: Callable[[], ChatHarness],
        public_entry: PublicEntry,
        log: TraceLog,
        *,
        max_body_bytes: int,
        internal_token: str | None,
        run_store: RunStore | None,
    ) -> None:
        self._factory = harness_factory
        self._store = run_store
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
            async with asyncio.timeout(BODY_WAIT_S):
                raw = await read_json_body(request, self._max_body_bytes)
            body = parse_chat_request(raw)
        except BodyRefused as refused:
            return refused.response
        except TimeoutError:
            return JSONResponse({"error": "BODY_TIMEOUT", "limit_s": BODY_WAIT_S}, status_code=408)
        except ChatRequestError as problem:
            return JSONResponse(problem.as_json(), status_code=422)
        try:
            harness = self._factory()
        except Exception:  # noqa: BLE001 - any setup failure is the same fixed 503, logged
            _LOG.exception("the harness factory failed")
            return JSONResponse(_UNAVAILABLE, status_code=503)
        run = ActiveRun(
            harness, body.session_id, body.message, trace_log=self._log, tasks=self.tasks
        )
        if not await run.wait_started(START_WAIT_S):
            return JSONResponse(_UNAVAILABLE, status_code=503)
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

    async def _recover_abandoned(self) -> None:
        """Try once to finish the store's abandoned Runs, in a thread; log a failure."""
        store = self._store
        if store is None or not store.abandoned:
            return
        try:
            done = await asyncio.to_thread(store.recover_abandoned, wall_clock_ms())
        except RunStoreError as error:
            _LOG.warning("abandoned Runs not recovered yet: %s", error)
        else:
            if done:
                _LOG.warning("recovered %d abandoned Run(s) as FAILED", len(done))

    async def _recovery_loop(self) -> None:
        while True:
            await asyncio.sleep(RECOVERY_INTERVAL_S)
            await self._recover_abandoned()

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        recovery = asyncio.create_task(self._recovery_loop()) if self._store else None
        try:
            yield
        finally:
            if recovery is not None:
                recovery.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await recovery
            if self.tasks:  # Runs still finishing (cancelled, waiting out a model call)
                await asyncio.wait(set(self.tasks), timeout=_SHUTDOWN_WAIT_S)
            await self._recover_abandoned()


def create_app(  # noqa: PLR0913 - one keyword per documented setting
    *,
    harness_factory: Callable[[], ChatHarness],
    public_entry: PublicEntry,
    trace_log: TraceLog | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS,
    allowed_origins: tuple[str, ...] = (),
    internal_token: str | None = None,
    run_store: RunStore | None = None,
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
        run_store: the store the factory's Harnesses write; its abandoned Runs are finished
            by the app (see the module docstring). ``None``: nothing to recover.

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
        run_store=run_store,
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
