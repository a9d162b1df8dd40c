"""Broken parts of the runtime rules: retries, timeouts, cancellation, previous turn, ordering.

Each part breaks one sentence of Requirements 1, 6, 7, 8 or 9 and nothing else;
:mod:`reference_harness.mutants._runtime_specs` combines each with the reference Harness.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from reference_harness._cancellation import CancelScope
from reference_harness._harness import Harness
from reference_harness._projection import MalformedRowsError, project
from reference_harness._run_context import RunContext
from reference_harness.ports import ToolCallsAnswer, ToolRows
from reference_harness.store import RunStore
from reference_harness.store._selection import PreviousTurnSelection, SkippedRun, skip_reason

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterable

    from contracts import DiagnosisRun
    from reference_harness._trace import Sink
    from reference_harness.ports import AgentAnswer, AgentPort, AgentRequest, ToolBackend

__all__ = [
    "CrossSessionStore",
    "DisconnectDeafHarness",
    "RunningTolerantStore",
    "SetOrderingAgent",
    "TimeOrderedStore",
    "accepting_settle",
    "late_tool_context",
    "recording_review_outcome",
    "timeout_as_unsupported",
    "tool_uncancelling_context",
    "tracking_execute",
    "unbounded_wait",
]


def _select(
    runs: Iterable[DiagnosisRun],
    *,
    eligible: Callable[[DiagnosisRun], bool],
    newest_first: Callable[[DiagnosisRun], Any],
) -> PreviousTurnSelection:
    skipped: list[SkippedRun] = []
    for run in sorted(runs, key=newest_first, reverse=True):
        if eligible(run):
            return PreviousTurnSelection(selected=run, skipped=tuple(skipped))
        reason = skip_reason(run.intent, run.state) or "STATE_RUNNING"
        skipped.append(SkippedRun(run.run_id, reason))
    return PreviousTurnSelection(selected=None, skipped=tuple(skipped))


def _diagnosis_success(run: DiagnosisRun) -> bool:
    return run.intent == "DIAGNOSIS" and run.state == "SUCCESS"


class RunningTolerantStore(RunStore):
    """Selects the latest DIAGNOSIS Run that is SUCCESS *or still RUNNING* as the previous turn."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Like the reference, but a RUNNING DIAGNOSIS Run is eligible."""
        return _select(
            (r for r in self.list_session(session_id) if r.seq < before_seq),
            eligible=lambda r: r.intent == "DIAGNOSIS" and r.state in {"SUCCESS", "RUNNING"},
            newest_first=lambda r: r.seq,
        )


class TimeOrderedStore(RunStore):
    """Takes the newest eligible Run by creation time instead of by ``seq``."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Like the reference, but Runs are ordered by ``created_at_ms``."""
        return _select(
            (r for r in self.list_session(session_id) if r.seq < before_seq),
            eligible=_diagnosis_success,
            newest_first=lambda r: (r.created_at_ms, r.seq),
        )


class CrossSessionStore(RunStore):
    """Ignores the session: the newest DIAGNOSIS + SUCCESS earlier Run of *any* session."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Like the reference, over the earlier Runs of every session, newest ``seq`` first."""
        from sqlalchemy import select  # noqa: PLC0415 - only this mutant lists every session

        from reference_harness.store._table import diagnosis_run  # noqa: PLC0415

        with self._connect() as connection:
            sessions = set(connection.execute(select(diagnosis_run.c.session_id)).scalars())
        runs = [
            r
            for s in sorted(sessions | {session_id})
            for r in self.list_session(s)
            if r.seq < before_seq and r.run_id
        ]
        current = [r for r in runs if r.session_id == session_id]
        others = [r for r in runs if r.session_id != session_id]
        return _select(
            [*current, *others],
            eligible=_diagnosis_success,
            newest_first=lambda r: (r.seq, r.session_id != session_id),
        )


_LAST_REVIEW: ContextVar[str | None] = ContextVar("srdh_mutant_last_review", default=None)


def recording_review_outcome(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``call_with_retry``: remember the SemanticGuard call's last outcome for this Run."""

    async def call(ctx: RunContext, policy: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - wrapped
        result = await original(ctx, policy, **kwargs)
        if kwargs.get("component") == "SEMANTIC_GUARD":
            _LAST_REVIEW.set(result.outcome)
        return result

    return call


def timeout_as_unsupported(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``safe_fallback``: a SemanticGuard that timed out falls back SEMANTIC_UNSUPPORTED."""

    def build(fallback_type: str, **kwargs: Any) -> Any:  # noqa: ANN401 - a SafeFallback
        if fallback_type == "SEMANTIC_UNAVAILABLE" and _LAST_REVIEW.get() == "TIMEOUT":
            fallback_type = "SEMANTIC_UNSUPPORTED"
        return original(fallback_type, **kwargs)

    return build


def any_time(_original: Callable[..., Any]) -> Callable[..., Any]:
    """Replace ``_in_time``: an answer counts whenever it came (the deadline is ignored)."""

    def in_time(ended: list[float], deadline: float) -> bool:  # noqa: ARG001 - ignored bound
        return bool(ended)

    return in_time


def unbounded_wait(_original: Callable[..., Any]) -> Callable[..., Any]:
    """Replace ``_wait_first``: wait for the model call or the cancel, ignoring the timeout."""

    async def wait(future: asyncio.Future[Any], event: asyncio.Event, bound_s: float) -> None:  # noqa: ARG001 - the bound is what this mutant ignores
        waiter = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait({future, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            await asyncio.wait({waiter})

    return wait


class _ToolUncancellingContext(RunContext):
    """Cancels the Run layer by layer but leaves tool work in flight running, unrecorded."""

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        in_flight = dict(self.tools_in_flight)
        self.tools_in_flight.clear()
        try:
            super().on_cancel(cause)
        finally:
            self.tools_in_flight.update(in_flight)


def tool_uncancelling_context(_original: type[RunContext]) -> type[RunContext]:
    """Replace the Harness's ``RunContext``: tool work in flight is left running on a cancel."""
    return _ToolUncancellingContext


class _LateToolContext(RunContext):
    """Signals in-flight tools to stop and records TOOL_WORK_CANCELLED, but keeps their tasks."""

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        in_flight = dict(self.tools_in_flight)
        self.tools_in_flight.clear()
        try:
            super().on_cancel(cause)
        finally:
            self.tools_in_flight.update(in_flight)
        if self.gate_closed:
            for tool_call_id, (_task, token) in in_flight.items():
                token.cancel()
                self.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": tool_call_id})


def late_tool_context(_original: type[RunContext]) -> type[RunContext]:
    """Replace the Harness's ``RunContext``: in-flight tools are told to stop, then trusted.

    With :func:`tracking_execute` and :func:`accepting_settle`: the cancelled tool is told to stop
    (and TOOL_WORK_CANCELLED recorded), but whatever it answers afterwards is projected READY.
    """
    return _LateToolContext


_EXECUTING: ContextVar[tuple[RunContext, dict[str, Any]] | None] = ContextVar(
    "srdh_mutant_executing", default=None
)


def tracking_execute(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``execute_tool``: remember which invocation this Run is executing."""

    async def execute(ctx: RunContext, backend: ToolBackend, record: dict[str, Any]) -> Any:  # noqa: ANN401 - the wrapped result
        token = _EXECUTING.set((ctx, record))
        try:
            return await original(ctx, backend, record)
        finally:
            _EXECUTING.reset(token)

    return execute


def accepting_settle(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_settle``: after a cancel, a tool answer that still arrives is projected READY."""

    async def settle(task: asyncio.Task[Any], bound_s: float) -> None:
        await original(task, bound_s)
        current = _EXECUTING.get()
        if current is None or not task.done() or task.cancelled() or task.exception():
            return
        ctx, record = current
        result = task.result()
        tool_call_id = record["tool_call_id"]
        if (
            ctx.gate_closed
            and isinstance(result, ToolRows)
            and ctx.ledger.is_projecting(tool_call_id)
        ):
            try:
                projection = project(record["tool_name"], record["arguments"], result, ctx.limits)
            except MalformedRowsError:
                return
            ctx.ledger.ready(tool_call_id, projection)

    return settle


class DisconnectDeafHarness(Harness):
    """Never hears the client's disconnect: the Run's cancel scope is its own, never cancelled."""

    async def run(
        self,
        session_id: str,
        user_message: str,
        *,
        sink: Sink,
        cancel: CancelScope | None = None,  # noqa: ARG002 - ignored: that is the fault
        journal: Any = None,  # noqa: ANN401 - a RunJournal
    ) -> DiagnosisRun:
        return await super().run(
            session_id, user_message, sink=sink, cancel=CancelScope(), journal=journal
        )


class SetOrderingAgent:
    """Wraps the agent port: the calls of one step come back in set order of their ids.

    ``set`` iteration order of strings follows the process's hash seed, so two processes with
    different ``PYTHONHASHSEED`` execute the same step in different orders.
    """

    def __init__(self, inner: AgentPort) -> None:
        """Wrap ``inner``."""
        self._inner = inner

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer like the inner port, with each step's calls reordered by a set of their ids."""
        answer = self._inner.step(request, interrupt)
        if not isinstance(answer, ToolCallsAnswer) or len(answer.calls) < 2:  # noqa: PLR2004 - a pair
            return answer
        keys = [repr(call.id) for call in answer.calls]
        if len(set(keys)) != len(keys):
            return answer
        order = {key: index for index, key in enumerate(set(keys))}
        calls = sorted(answer.calls, key=lambda call: order[repr(call.id)])
        return ToolCallsAnswer(calls=tuple(calls))
