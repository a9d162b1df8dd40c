"""The reference Harness: deterministic execution control of one diagnosis Run.

``Harness.run`` drives one Run end to end (DESIGN sections 2-8): it creates the ``diagnosis_run``
row, routes the intent (Router, Harness-owned retry), selects the previous turn for DIAGNOSIS,
steps the Diagnosis Agent (ReAct loop with Tool Call ID classification, dispatch and bounded
projection), runs the release pipeline (EvidenceGuard, one structural repair, SemanticGuard), and
finishes the row atomically with exactly one published result, or CANCELLED with none.

It never plans, composes, routes workflows, reasons about the diagnosis or writes report text: the
Diagnosis Agent authors every body that can be released, byte for byte.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from contracts import PublishedResult
from reference_harness._agent_loop import AgentLoop, Submission
from reference_harness._cancellation import CancelScope
from reference_harness._conversation import opening_messages
from reference_harness._limits import Limits
from reference_harness._model_calls import CallResult, call_with_retry
from reference_harness._outcome import Outcome, failed, fallback
from reference_harness._release import release_pipeline
from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
from reference_harness._run_context import RunCancelledError, RunContext, RunFailedError
from reference_harness._trace import TraceRecorder
from reference_harness.guards import safe_fallback
from reference_harness.ports import RouterAnswer, RouterRequest
from reference_harness.store import RunStoreError, StoreUnavailableError

if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import Executor

    from contracts import DiagnosisRun
    from reference_harness._trace import Sink
    from reference_harness.ports import AgentPort, Intent, ReviewerPort, RouterPort, ToolBackend
    from reference_harness.store import RunStore

__all__ = ["Harness", "RunJournal", "new_run_id", "wall_clock_ms"]

_INTENTS = ("DIAGNOSIS", "KNOWLEDGE_QUERY")
_SELECTING_INTENTS: frozenset[str] = frozenset({"DIAGNOSIS"})
"""The intents whose Runs select a previous turn (``PREVIOUS_TURN_SELECTED``). Only a DIAGNOSIS
Run's agent is given it; looked up at call time, so a variant can widen it."""
_T = TypeVar("_T")


def wall_clock_ms() -> int:
    """Return the current time in milliseconds since the Unix epoch (UTC)."""
    return time.time_ns() // 1_000_000


def new_run_id() -> str:
    """Return a fresh random Run id (``run-`` + 32 hex digits)."""
    return f"run-{uuid.uuid4().hex}"


@dataclass
class RunJournal:
    """What the Harness hands back besides the row, for observers (the kit's in-process IUT).

    Filled when the Run ends: ``events`` is the whole trace (every event, also those emitted after
    the client went away), ``invocations`` the canonical ``ToolInvocation`` documents by
    ``sequence``, ``published_result`` the released ``PublishedResult`` document or ``None``.
    """

    events: list[dict[str, Any]] = field(default_factory=list)
    invocations: list[dict[str, Any]] = field(default_factory=list)
    published_result: dict[str, Any] | None = None


async def _release_point() -> None:
    """Let every cancel already requested (a disconnect scheduled on the loop) run first."""
    await asyncio.sleep(0)


def _route_check(answer: object) -> Intent | None:
    if isinstance(answer, RouterAnswer) and isinstance(answer.content, str):
        if answer.content == "DIAGNOSIS":
            return "DIAGNOSIS"
        if answer.content == "KNOWLEDGE_QUERY":
            return "KNOWLEDGE_QUERY"
    return None


class Harness:
    """Deterministic execution control of diagnosis Runs.

    Args:
        store: the ``diagnosis_run`` store (durable Run rows, previous-turn selection).
        router: the Router model port.
        agent: the Diagnosis Agent model port.
        reviewer: the SemanticGuard model port.
        tools: the tool backend.
        limits: budgets (steps, projection bounds, timeouts).
        retry: the retry policy (Router 2, SemanticGuard 2, others 1 attempt by default).
        clock: milliseconds since the Unix epoch (UTC); used for row times and ``ts_ms``.
        run_ids: returns a fresh, unique Run id per call.
        store_executor: where store calls run. ``None``: inline, on the event loop (one Run at
            a time, the kit's in-process IUT). A server passes a thread pool, so that a store
            waiting on SQLite's busy timeout (another process holds the lock) or a slow disk
            never blocks the event loop (:mod:`reference_harness.sse`).

    One Harness may serve many Runs, one ``run`` call per Run, on one event loop.

    When the store cannot be written (:class:`~reference_harness.store.StoreUnavailableError`)
    while the Run ends, the client still gets the fixed PUBLIC_ERROR ``INTERNAL_ERROR`` result
    and ``end`` ``{state: FAILED}`` (the trace's ``RUN_FINISHED`` says the same), the Run is
    handed to :meth:`RunStore.abandon`, and the error is raised after the frames: the row is
    then finished exactly as the store's crash recovery would finish it.
    """

    def __init__(  # noqa: PLR0913 - the Harness's collaborators, all keyword-only
        self,
        *,
        store: RunStore,
        router: RouterPort,
        agent: AgentPort,
        reviewer: ReviewerPort,
        tools: ToolBackend,
        limits: Limits | None = None,
        retry: RetryPolicy = DEFAULT_RETRY_POLICY,
        clock: Callable[[], int] = wall_clock_ms,
        run_ids: Callable[[], str] = new_run_id,
        store_executor: Executor | None = None,
    ) -> None:
        """Wire the Harness; nothing is called yet."""
        self._store = store
        self._router = router
        self._agent = agent
        self._reviewer = reviewer
        self._tools = tools
        self._limits = limits if limits is not None else Limits()
        self._retry = retry
        self._clock = clock
        self._run_ids = run_ids
        self._store_executor = store_executor

    @property
    def limits(self) -> Limits:
        """The budgets every Run of this Harness gets."""
        return self._limits

    async def run(
        self,
        session_id: str,
        user_message: str,
        *,
        sink: Sink,
        cancel: CancelScope | None = None,
        journal: RunJournal | None = None,
    ) -> DiagnosisRun:
        """Run one diagnosis Run to its terminal state and return its final ``diagnosis_run`` row.

        Args:
            session_id: the chat session (id grammar).
            user_message: the user's message (0..16000 characters).
            sink: receives the frames ``{"event": "run_event", "data": RunTraceEvent}`` for every
                trace event, then ``{"event": "result", "data": PublishedResult}`` (not for a
                CANCELLED Run) and ``{"event": "end", "data": {"state": ...}}``.
            cancel: the Run's cancel scope (one scope per Run).
            journal: filled with the whole trace, the invocations and the published result.

        Returns:
            The terminal row: SUCCESS, FALLBACK, FAILED (``ROUTER_UNAVAILABLE``,
            ``AGENT_UNAVAILABLE``, ``INTERNAL_ERROR``) or CANCELLED.

        Raises:
            InvalidRunError: ``session_id`` or ``user_message`` break the ``diagnosis-run``
                contract (nothing is written).
            StoreUnavailableError: the store could not be written: before any frame when the
                Run row could not be created (nothing was written); after the ``end`` frame
                when the terminal row could not be (the Run is abandoned to the store).
            asyncio.CancelledError: the task running the Run was cancelled; the Run is first
                finished CANCELLED (cause ``OPERATOR``) with the layered events.
        """
        scope = cancel if cancel is not None else CancelScope()
        run_id = self._run_ids()
        store = self._store
        try:
            row = await self._stored(
                lambda: store.create_run(
                    run_id=run_id,
                    session_id=session_id,
                    user_message=user_message,
                    now_ms=self._clock(),
                )
            )
        except asyncio.CancelledError:
            store.abandon(run_id)  # created or not: recovery finishes it, or forgets it
            raise
        trace = TraceRecorder(run_id, self._clock, sink)
        ctx = RunContext(run_id=run_id, limits=self._limits, trace=trace)
        trace.emit("RUN_STARTED", {"session_id": session_id, "run_seq": row.seq})
        scope.bind(ctx.on_cancel)
        outcome: Outcome | None
        stopped: asyncio.CancelledError | None = None
        try:
            outcome = await self._work(ctx, session_id, user_message, row.seq)
        except RunCancelledError:
            outcome = None
        except asyncio.CancelledError as cancelled:
            # The task running this Run is cancelled (e.g. server shutdown): an operator cancel.
            ctx.on_cancel("OPERATOR")
            outcome = None
            stopped = cancelled
        except RunFailedError as failure:
            outcome = failed(failure.error_code)
        except Exception:  # noqa: BLE001 - any other fault is the fixed INTERNAL_ERROR, no text
            outcome = failed("INTERNAL_ERROR")
        if stopped is None:
            # The release is the Run's last wait: a disconnect that arrived after the last
            # verdict (e.g. on SEMANTIC_VERDICT) is noticed here and closes the gate first.
            await _release_point()
        final, published, unavailable = await self._finish(ctx, outcome)
        if journal is not None:
            journal.events = trace.events
            journal.invocations = ctx.ledger.documents()
            journal.published_result = published
        if stopped is not None:
            raise stopped
        if unavailable is not None:
            raise unavailable
        assert final is not None  # noqa: S101 - written unless the store was unavailable
        return final

    async def _stored(self, call: Callable[[], _T]) -> _T:
        """Run one store call: inline, or in :attr:`_store_executor` without blocking the loop.

        A cancellation while the call runs in the executor waits for it first (the store call
        is one transaction that cannot be interrupted), then is raised.
        """
        if self._store_executor is None:
            return call()
        future = asyncio.get_running_loop().run_in_executor(self._store_executor, call)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            await asyncio.wait([future])
            raise

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        intent = await self._route(ctx, user_message)
        ctx.check_open()
        store = self._store
        await self._stored(lambda: store.set_intent(ctx.run_id, intent))
        ctx.trace.emit("INTENT_ROUTED", {"intent": intent})
        previous = None
        if intent in _SELECTING_INTENTS:
            selection = await self._stored(lambda: store.select_previous_turn(session_id, run_seq))
            selected = selection.selected
            ctx.trace.emit(
                "PREVIOUS_TURN_SELECTED",
                {
                    "selected_run_id": None if selected is None else selected.run_id,
                    "skipped": [
                        {"run_id": skipped.run_id, "reason": skipped.reason}
                        for skipped in selection.skipped
                    ],
                },
            )
            previous = selected if intent == "DIAGNOSIS" else None
        loop = AgentLoop(
            ctx,
            agent=self._agent,
            tools=self._tools,
            policy=self._retry,
            intent=intent,
            messages=opening_messages(intent, user_message, previous),
        )
        submission = await loop.run()
        if not isinstance(submission, Submission):  # BUDGET_EXHAUSTED
            return fallback(safe_fallback("EVIDENCE_VALIDATION_FAILED"))
        return await release_pipeline(
            ctx,
            loop=loop,
            reviewer=self._reviewer,
            policy=self._retry,
            intent=intent,
            submission=submission,
        )

    async def _route(self, ctx: RunContext, user_message: str) -> Intent:
        request = RouterRequest(user_message=user_message)
        router = self._router
        result: CallResult[Intent] = await call_with_retry(
            ctx,
            self._retry,
            component="ROUTER",
            purpose="ROUTE",
            invoke=lambda interrupt: router.classify(request, interrupt),
            check=_route_check,
        )
        if result.value is None:
            msg = "ROUTER_UNAVAILABLE"
            raise RunFailedError(msg)
        return result.value

    async def _finish(
        self, ctx: RunContext, outcome: Outcome | None
    ) -> tuple[DiagnosisRun | None, dict[str, Any] | None, StoreUnavailableError | None]:
        """Write the terminal row, then deliver the closing events and frames.

        Returns the row (``None`` when the store was unavailable), the published document and
        the store's error (the Run was then abandoned and published as FAILED).
        """
        trace = ctx.trace
        if outcome is None or not ctx.pass_release_gate():
            for record in ctx.ledger.documents():  # no invocation outlives its Run as PROJECTING
                if record["status"] == "PROJECTING":
                    ctx.ledger.fail(record["tool_call_id"], "CANCELLED")
            store = self._store
            try:
                row = await self._stored(
                    lambda: store.finish_run(
                        ctx.run_id,
                        state="CANCELLED",
                        published_result=None,
                        fallback_type=None,
                        error_code=None,
                        now_ms=self._clock(),
                    )
                )
            except StoreUnavailableError as error:
                return self._abandon(ctx, error)
            trace.emit(
                "RUN_FINISHED", {"state": "CANCELLED", "fallback_type": None, "error_code": None}
            )
            trace.deliver({"event": "end", "data": {"state": "CANCELLED"}})
            return row, None, None
        try:
            try:
                row = await self._write_terminal(ctx, outcome)
            except StoreUnavailableError:
                raise
            except (RunStoreError, ValidationError):
                # The result could not be stored as the contract requires: the fixed error.
                outcome = failed("INTERNAL_ERROR")
                row = await self._write_terminal(ctx, outcome)
        except StoreUnavailableError as error:
            return self._abandon(ctx, error)
        self._publish(ctx, outcome)
        return row, outcome.published, None

    def _abandon(
        self, ctx: RunContext, error: StoreUnavailableError
    ) -> tuple[None, dict[str, Any], StoreUnavailableError]:
        """The terminal write failed: abandon the row to the store, publish the fixed error.

        What the client gets is what the store's recovery writes (FAILED, ``INTERNAL_ERROR``),
        so the stream and the row agree once the row is recovered.
        """
        self._store.abandon(ctx.run_id)
        outcome = failed("INTERNAL_ERROR")
        self._publish(ctx, outcome)
        return None, outcome.published, error

    @staticmethod
    def _publish(ctx: RunContext, outcome: Outcome) -> None:
        trace = ctx.trace
        trace.emit("RESULT_RELEASED", {"kind": outcome.kind})
        trace.deliver({"event": "result", "data": outcome.published})
        trace.emit(
            "RUN_FINISHED",
            {
                "state": outcome.state,
                "fallback_type": outcome.fallback_type,
                "error_code": outcome.error_code,
            },
        )
        trace.deliver({"event": "end", "data": {"state": outcome.state}})

    async def _write_terminal(self, ctx: RunContext, outcome: Outcome) -> DiagnosisRun:
        published = PublishedResult.model_validate(outcome.published)
        store = self._store
        return await self._stored(
            lambda: store.finish_run(
                ctx.run_id,
                state=outcome.state,
                published_result=published,
                fallback_type=outcome.fallback_type,
                error_code=outcome.error_code,
                now_ms=self._clock(),
            )
        )
