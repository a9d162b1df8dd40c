"""Execution of one accepted tool call: dispatch, timeout, bounded projection, terminal state.

Outcomes (contract sheet ``tool-invocation``):

* rows → ``READY`` with ``EVIDENCE_FOUND`` or ``NO_EVIDENCE`` (zero items, zero matched);
* in-band backend error → ``READY``/``ERROR``, code ``BACKEND_ERROR`` (empty projection);
* the backend raises, or returns something that is not a tool result, or a malformed row →
  ``ERROR``/``ERROR``, code ``TOOL_FAILED``;
* no answer within ``tool_timeout_ms`` → ``ERROR``/``ERROR``, code ``TOOL_TIMEOUT``;
* the Run is cancelled meanwhile → ``ERROR``/``ERROR``, code ``CANCELLED`` (done by the cancel
  handler, which also emits ``TOOL_WORK_CANCELLED``).

Every terminal ``READY`` is followed by ``EVIDENCE_CLASSIFIED``. Nothing of an exception or of the
raw payload is kept: only codes and the bounded projection.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from reference_harness._projection import MalformedRowsError, project, query_scope_of
from reference_harness._run_context import RunCancelledError
from reference_harness.ports import AcceptedToolCall, CancelToken, InBandError, ToolRows

if TYPE_CHECKING:
    from reference_harness._run_context import RunContext
    from reference_harness.ports import ToolBackend

__all__ = ["execute_tool"]


async def _settle(task: asyncio.Task[Any], bound_s: float) -> None:
    """Wait (bounded) for a cancelled task to end and retrieve its outcome."""
    await asyncio.wait({task}, timeout=bound_s)
    if task.done() and not task.cancelled():
        task.exception()


def _classified(ctx: RunContext, record: dict[str, Any]) -> None:
    projection = record["projection"]
    ctx.trace.emit(
        "EVIDENCE_CLASSIFIED",
        {
            "tool_call_id": record["tool_call_id"],
            "evidence_status": record["evidence_status"],
            "item_count": len(projection["items"]),
            "total_matched": projection["total_matched"],
            "truncated": projection["truncated"],
        },
    )


async def execute_tool(
    ctx: RunContext, backend: ToolBackend, record: dict[str, Any]
) -> dict[str, Any]:
    """Execute the ``PROJECTING`` invocation ``record`` and return its terminal record.

    Raises:
        RunCancelledError: the Run was cancelled before or during the execution (the invocation
            is then ``ERROR``/``ERROR`` ``CANCELLED`` if it had started).
    """
    tool_call_id = record["tool_call_id"]
    try:
        ctx.check_open()
    except RunCancelledError:  # accepted, but the gate closed before it could start
        ctx.ledger.fail(tool_call_id, "CANCELLED")
        raise
    tool_name = record["tool_name"]
    arguments = record["arguments"]
    call = AcceptedToolCall(
        tool_call_id=tool_call_id,
        tool_name=tool_name,
        arguments=arguments,
        run_id=ctx.run_id,
        step=record["step"],
        sequence=record["sequence"],
    )
    token = CancelToken()
    task = asyncio.ensure_future(backend.execute(call, token))
    ctx.tools_in_flight[tool_call_id] = (task, token)
    bound_s = ctx.limits.tool_timeout_s
    try:
        await asyncio.wait({task}, timeout=bound_s)
    finally:
        ctx.tools_in_flight.pop(tool_call_id, None)
    if ctx.gate_closed:
        await _settle(task, bound_s)
        raise RunCancelledError
    if not task.done():
        token.cancel()
        task.cancel()
        await _settle(task, bound_s)
        return ctx.ledger.fail(tool_call_id, "TOOL_TIMEOUT")
    if task.cancelled() or task.exception() is not None:
        return ctx.ledger.fail(tool_call_id, "TOOL_FAILED")
    result: object = task.result()
    if isinstance(result, InBandError):
        empty = {
            "query_scope": query_scope_of(tool_name, arguments),
            "items": [],
            "total_matched": 0,
            "truncated": False,
            "document_ids": [],
        }
        done = ctx.ledger.backend_error(tool_call_id, empty)
    elif isinstance(result, ToolRows):
        try:
            projection = project(tool_name, arguments, result, ctx.limits)
        except MalformedRowsError:
            return ctx.ledger.fail(tool_call_id, "TOOL_FAILED")
        except Exception:  # noqa: BLE001 - a row stream that breaks mid-way is a tool failure
            return ctx.ledger.fail(tool_call_id, "TOOL_FAILED")
        done = ctx.ledger.ready(tool_call_id, projection)
    else:
        return ctx.ledger.fail(tool_call_id, "TOOL_FAILED")
    _classified(ctx, done)
    return done
