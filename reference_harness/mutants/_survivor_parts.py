"""Broken parts found by an independent attacker: late results, tool stops, intent, ordering.

Each part breaks one sentence of Requirements 1, 6, 7, 8 or 9 and nothing else;
:mod:`reference_harness.mutants._survivor_specs` combines each with the reference Harness. They
are the faulty harnesses an implementer's attack found conformant, reduced to one fault each.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_harness._agent_loop import Submission
from reference_harness._harness import Harness
from reference_harness._invocations import InvocationLedger
from reference_harness._projection import MalformedRowsError, evidence_status_of, project
from reference_harness._run_context import RunCancelledError
from reference_harness._tools import TOOL_SPECS
from reference_harness.mutants._runtime_parts import _EXECUTING
from reference_harness.ports import FinalAnswer, ToolRows
from reference_harness.store import RunStore

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

    from reference_harness._run_context import RunContext
    from reference_harness.ports import (
        AcceptedToolCall,
        AgentAnswer,
        AgentPort,
        AgentRequest,
        CancelToken,
        ToolBackend,
        ToolResult,
    )
    from reference_harness.store._selection import PreviousTurnSelection

__all__ = [
    "IntentForgettingStore",
    "LateAnswerAgent",
    "MessageKeepingHarness",
    "SetOrderedSkipStore",
    "classifying_late_settle",
    "code_swapping_ledger",
    "message_keeping_ledger",
    "set_ordered_violations",
    "tools_in_every_agent_request",
    "validating_late_answer",
]


def _set_order(keys: list[str]) -> dict[str, int]:
    """Position of each key in ``set`` iteration order (it follows the process's hash seed)."""
    return {key: index for index, key in enumerate(set(keys))}


# -- R8 "discards any late model result" ------------------------------------------------------


class LateAnswerAgent:
    """Wraps the agent port and remembers, per request, the answer it last gave (late or not)."""

    def __init__(self, inner: AgentPort) -> None:
        """Wrap ``inner``."""
        self._inner = inner
        self._lock = threading.Lock()
        self.answers: dict[int, AgentAnswer] = {}

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer like the inner port; remember the answer by the request's identity."""
        answer = self._inner.step(request, interrupt)
        with self._lock:
            self.answers[id(request)] = answer
        return answer


def validating_late_answer(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_call_agent``: after a cancellation, the late draft still goes to the EvidenceGuard.

    Nothing is released (the release gate is closed): the Harness only validates the late answer
    (DRAFT_SUBMITTED, EVIDENCE_VALIDATION after CANCEL_REQUESTED) before the Run ends CANCELLED.
    """

    async def call(ctx: RunContext, policy: Any, agent: Any, request: AgentRequest) -> Any:  # noqa: ANN401 - wrapped
        try:
            return await original(ctx, policy, agent, request)
        except RunCancelledError:
            late = agent.answers.get(id(request)) if isinstance(agent, LateAnswerAgent) else None
            if isinstance(late, FinalAnswer):
                from reference_harness._release import _validate  # noqa: PLC0415 - the fault

                _validate(ctx, request.intent, Submission(late.content), attempt=1)
            raise

    return call


# -- R8 "cancellable Tool work": the stop's code, the late tool answer ------------------------


def code_swapping_ledger(
    swap: dict[str, str],
) -> Callable[[type[InvocationLedger]], type[InvocationLedger]]:
    """Return a ``Patch`` wrap replacing the Run's ledger: ``fail`` records ``swap[code]``."""

    class _SwappingLedger(InvocationLedger):
        def fail(self, tool_call_id: str, code: Any) -> dict[str, Any]:  # noqa: ANN401 - a code
            return super().fail(tool_call_id, swap.get(code, code))

    def wrap(_original: type[InvocationLedger]) -> type[InvocationLedger]:
        return _SwappingLedger

    return wrap


def classifying_late_settle(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_settle``: a tool answer arriving after its timeout is classified all the same.

    The invocation still ends ERROR / TOOL_TIMEOUT; only an EVIDENCE_CLASSIFIED of the late rows
    is emitted (with :func:`reference_harness.mutants._runtime_parts.tracking_execute`).
    """

    async def settle(task: asyncio.Task[Any], bound_s: float) -> None:
        await original(task, bound_s)
        current = _EXECUTING.get()
        if current is None or not task.done() or task.cancelled() or task.exception():
            return
        ctx, record = current
        result = task.result()
        if ctx.gate_closed or not isinstance(result, ToolRows):
            return
        try:
            projection = project(record["tool_name"], record["arguments"], result, ctx.limits)
        except MalformedRowsError:
            return
        ctx.trace.emit(
            "EVIDENCE_CLASSIFIED",
            {
                "tool_call_id": record["tool_call_id"],
                "evidence_status": evidence_status_of(projection),
                "item_count": len(projection["items"]),
                "total_matched": projection["total_matched"],
                "truncated": projection["truncated"],
            },
        )

    return settle


# -- R6 "exclude ... internal errors": the raised message kept as the safe message -----------

_RAISED: dict[tuple[str, str], str] = {}
"""(run id, Tool Call ID) -> the message its backend raised (mutants run one at a time)."""


class _RememberingBackend:
    def __init__(self, inner: ToolBackend) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:
        try:
            return await self._inner.execute(call, cancel)
        except Exception as error:
            _RAISED[call.run_id, call.tool_call_id] = str(error)
            raise


class MessageKeepingHarness(Harness):
    """The reference Harness whose tool backend remembers what each failing call raised."""

    def __init__(self, **kwargs: Any) -> None:  # noqa: ANN401 - the Harness's collaborators
        """Wire the Harness around a remembering tool backend."""
        kwargs["tools"] = _RememberingBackend(kwargs["tools"])
        super().__init__(**kwargs)


def message_keeping_ledger(_original: type[InvocationLedger]) -> type[InvocationLedger]:
    """Replace the Run's ledger: a raised tool's record keeps the raised text as safe_message.

    Only the stored record: the copy the agent's tool message is built from keeps the fixed text.
    """

    class _KeepingLedger(InvocationLedger):
        def fail(self, tool_call_id: str, code: Any) -> dict[str, Any]:  # noqa: ANN401 - a code
            done = super().fail(tool_call_id, code)
            raised = _RAISED.pop((self._run_id, tool_call_id), None)
            if code == "TOOL_FAILED" and raised:
                self._records[tool_call_id]["error"]["safe_message"] = raised[:256]
            return done

    return _KeepingLedger


# -- R7 "diagnosis_run as the durable source of intent" ---------------------------------------


class IntentForgettingStore(RunStore):
    """Never stores the routed intent: the diagnosis_run row keeps intent null."""

    def set_intent(self, run_id: str, intent: Any) -> None:  # noqa: ANN401 - the fault
        """Do nothing (the reference records the intent of the RUNNING Run)."""


# -- R6 "the single no-Tool structural repair": the request itself ----------------------------


def tools_in_every_agent_request(_original: Callable[..., Any]) -> Callable[..., Any]:
    """Replace ``agent_tools``: every agent request offers the tools, the structural repair too."""

    def tools(request: AgentRequest) -> tuple[Any, ...]:  # noqa: ARG001 - the fault ignores it
        return tuple(TOOL_SPECS)

    return tools


# -- R9 "with the same verified snapshot", whatever the retry reason --------------------------


# ``rebuilt_snapshot_after`` lives in ``_parts`` (with the retry-after-any-outcome variant).


# -- R1 "Harness as deterministic execution control": set-ordered outputs ---------------------


def set_ordered_violations(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``check_draft``: the violations of a rejected draft come in ``set`` order."""

    def check(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - a GuardVerdict
        verdict = original(*args, **kwargs)
        keys = [f"{v.code} {v.pointer}" for v in verdict.violations]
        if len(set(keys)) < 2 or len(set(keys)) != len(keys):  # noqa: PLR2004 - a pair
            return verdict
        order = _set_order(keys)
        ordered = sorted(verdict.violations, key=lambda v: order[f"{v.code} {v.pointer}"])
        return replace(verdict, violations=tuple(ordered))

    return check


class SetOrderedSkipStore(RunStore):
    """Lists the skipped Runs of the previous-turn selection in ``set`` order of their ids."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Like the reference, with ``skipped`` reordered by a set of the run ids."""
        selection = super().select_previous_turn(session_id, before_seq)
        order = _set_order([s.run_id for s in selection.skipped])
        skipped = tuple(sorted(selection.skipped, key=lambda s: order[s.run_id]))
        return replace(selection, skipped=skipped)
