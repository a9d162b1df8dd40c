"""Parts of the mutants of the survivor kinds closed in docs/decisions/left-kinds-8.md.

An in-band backend error's code copied into the invocation's safe message, the tool work
cancelled (``TOOL_WORK_CANCELLED``) before the cancellation request is recorded or for a tool
its own timeout stopped, a released
Knowledge Answer's items and references sorted, a lookup projection's item ids sorted apart from
their texts.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from reference_harness._run_context import RunContext
from reference_harness.ports import InBandError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from reference_harness.ports import AcceptedToolCall, CancelToken, ToolBackend, ToolResult

__all__ = [
    "ToolWorkFirstContext",
    "in_band_code_kept",
    "item_document_ids_sorted",
    "sorted_knowledge_release",
    "timeout_recorded_as_cancelled_work",
]


class _CodeKeepingBackend:
    """Wraps the Run's tool backend and remembers the code of each in-band error it answers."""

    def __init__(self, inner: ToolBackend) -> None:
        self._inner = inner
        self.codes: dict[str, str] = {}

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:
        result = await self._inner.execute(call, cancel)
        if isinstance(result, InBandError):
            self.codes[call.tool_call_id] = result.code
        return result


def in_band_code_kept(
    original: Callable[..., Awaitable[dict[str, Any]]],
) -> Callable[..., Awaitable[dict[str, Any]]]:
    """A ``Patch`` wrap of ``_agent_loop.execute_tool``: the backend's in-band code kept.

    An in-band error's record keeps the backend's code in its safe message ("The tool backend
    answered with an error: RATE_LIMITED").

    The fault of a Harness that "explains" a backend error by quoting it: R6 "SHALL exclude ...
    internal errors", the contract's safe_message "never raw exception or backend text".
    """

    async def execute(ctx: RunContext, backend: ToolBackend, record: dict[str, Any]) -> Any:  # noqa: ANN401 - the record
        keeping = _CodeKeepingBackend(backend)
        done = await original(ctx, keeping, record)
        tool_call_id = record["tool_call_id"]
        code = keeping.codes.get(tool_call_id)
        error = done.get("error") or {}
        if code is not None and error.get("code") == "BACKEND_ERROR":
            message = f"The tool backend answered with an error: {code}"[:256]
            ctx.ledger.accepted_ids[tool_call_id]["error"]["safe_message"] = message
            done["error"]["safe_message"] = message
        return done

    return execute


class ToolWorkFirstContext(RunContext):
    """A Run whose cancellation records the tool work it stops before the request itself.

    ``TOOL_WORK_CANCELLED`` for each tool in flight comes first, then ``CANCEL_REQUESTED``,
    ``NEW_WORK_PREVENTED``, ``INTERRUPT_REQUESTED``; the invocations end ERROR/``CANCELLED``
    after the request, as the reference ends them: only the layers' record is out of order.
    """

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Stop and record the tool work in flight, then the request and the other layers."""
        if self._released or self._gate_closed:
            return
        stopped = list(self.tools_in_flight.items())
        for tool_call_id, (task, token) in stopped:
            token.cancel()
            task.cancel()
            self.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": tool_call_id})
        self.cancel_cause = cause
        self.trace.emit("CANCEL_REQUESTED", {"cause": cause})
        self._gate_closed = True
        self.trace.emit("NEW_WORK_PREVENTED", {})
        for interrupt in self.interrupts:
            interrupt.set()
        self.trace.emit("INTERRUPT_REQUESTED", {})
        for tool_call_id, _work in stopped:
            if self.ledger.is_projecting(tool_call_id):
                self.ledger.fail(tool_call_id, "CANCELLED")
        self._cancelled.set()


def sorted_knowledge_release(
    original: Callable[[str, object], Any],
) -> Callable[[str, object], Any]:
    """A ``Patch`` wrap of ``_release.success``: a Knowledge Answer is released sorted.

    Its items by ``item_id`` and each item's references by ``document_id`` (a Harness making its
    output "stable"): the released document is no longer the one the agent wrote.
    """

    def success(result_kind: str, body: object) -> Any:  # noqa: ANN401 - an Outcome
        if result_kind == "KNOWLEDGE_ANSWER" and isinstance(body, dict):
            body = copy.deepcopy(body)
            items = sorted(body["items"], key=lambda item: item["item_id"])
            for item in items:
                item["references"].sort(key=lambda reference: reference["document_id"])
            body["items"] = items
        return original(result_kind, body)

    return success


def item_document_ids_sorted(
    original: Callable[..., dict[str, Any]],
) -> Callable[..., dict[str, Any]]:
    """A ``Patch`` wrap of ``_tool_execution.project``: a lookup's item ids sorted.

    The texts stay in the rows' order, so an item is labelled with another row's document.
    """

    def project(*args: Any, **kwargs: Any) -> dict[str, Any]:  # noqa: ANN401 - project's own
        projection = original(*args, **kwargs)
        items = projection["items"]
        ids = sorted(item["document_id"] for item in items if "document_id" in item)
        if len(ids) == len(items):
            for item, document_id in zip(items, ids, strict=True):
                item["document_id"] = document_id
        return projection

    return project


def timeout_recorded_as_cancelled_work(
    original: Callable[..., Awaitable[dict[str, Any]]],
) -> Callable[..., Awaitable[dict[str, Any]]]:
    """A ``Patch`` wrap of ``_agent_loop.execute_tool``: a tool timeout recorded as cancelled.

    The invocation still ends ERROR ``TOOL_TIMEOUT``, but the Harness also records
    ``TOOL_WORK_CANCELLED`` for it in a Run nobody cancelled: the timeout and the cancellation
    layer not told apart.
    """

    async def execute(ctx: RunContext, backend: ToolBackend, record: dict[str, Any]) -> Any:  # noqa: ANN401 - the record
        done = await original(ctx, backend, record)
        if (done.get("error") or {}).get("code") == "TOOL_TIMEOUT":
            ctx.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": record["tool_call_id"]})
        return done

    return execute
