"""``create_app``: the chat entry as a Starlette app streaming server-sent events.

Routes:

``POST /internal/v1/chat`` — always the single ReAct Harness (stage 4's internal entry).
``POST /v1/chat`` — the public entry: the Harness when ``public_entry`` is ``SINGLE_REACT``;
    while it is ``LEGACY`` (the phase gate has not allowed stage 6B), a fixed
    ``409 {"public_entry": "LEGACY", "internal_entry": "/internal/v1/chat"}`` — this kit has no
    legacy implementation to forward to, and the public route never runs the new Harness early.
``GET /internal/v1/runs/{run_id}/trace`` — ``{"run_id", "finished", "events"}`` of a recent Run
    (the trace stays observable after the client went away); 404 if unknown.

A chat body is ``{"session_id": id, "message": string}`` (``422 {"error": "INVALID_REQUEST",
"pointer", "expected"}`` otherwise). The answer is ``text/event-stream`` of ``run_event``
(RunTraceEvent), ``result`` (PublishedResult) and ``end`` (``{state}``) events, as the contract
sheet's ``client_frames``. A client disconnect cancels the Run with ``CLIENT_DISCONNECTED``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

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


def create_app(
    *,
    harness_factory: Callable[[], ChatHarness],
    public_entry: PublicEntry,
    trace_log: TraceLog | None = None,
) -> Starlette:
    """Build the chat app.

    Args:
        harness_factory: builds the Harness serving one chat request (called per request).
        public_entry: what the phase gate allows on ``POST /v1/chat`` (``LEGACY`` until 6B).
        trace_log: where Run traces are kept (a new :class:`TraceLog` by default).

    Raises:
        ValueError: ``public_entry`` is not ``LEGACY`` or ``SINGLE_REACT``.
    """
    if public_entry not in ("LEGACY", "SINGLE_REACT"):
        message = f"public_entry: expected LEGACY or SINGLE_REACT, got {public_entry!r}"
        raise ValueError(message)
    log = trace_log if trace_log is not None else TraceLog()
    tasks: set[asyncio.Task[None]] = set()

    async def chat(request: Request) -> Response:
        try:
            body = parse_chat_request(await request.body())
        except ChatRequestError as problem:
            return JSONResponse(problem.as_json(), status_code=422)
        run = ActiveRun(
            harness_factory(), body.session_id, body.message, trace_log=log, tasks=tasks
        )
        return EventSourceResponse(run.frames(), client_close_handler_callable=run.on_disconnect)

    async def public_chat(request: Request) -> Response:
        if public_entry == "LEGACY":
            return JSONResponse(
                {"public_entry": "LEGACY", "internal_entry": INTERNAL_CHAT_PATH}, status_code=409
            )
        return await chat(request)

    async def trace(request: Request) -> Response:
        found = log.get(request.path_params["run_id"])
        if found is None:
            return JSONResponse({"error": "UNKNOWN_RUN"}, status_code=404)
        return JSONResponse(found)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        if tasks:  # Runs still finishing (e.g. cancelled, waiting out a blocking model call)
            await asyncio.wait(set(tasks), timeout=_SHUTDOWN_WAIT_S)

    return Starlette(
        routes=[
            Route(PUBLIC_CHAT_PATH, public_chat, methods=["POST"]),
            Route(INTERNAL_CHAT_PATH, chat, methods=["POST"]),
            Route("/internal/v1/runs/{run_id}/trace", trace, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
