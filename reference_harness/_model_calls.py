"""Model-call attempts and the Harness-owned retry loop (Requirements 8 and 9).

One *attempt* = one blocking port call in its own thread, bounded by ``model_call_timeout_ms``,
framed by ``MODEL_CALL_STARTED`` and ``MODEL_CALL_FINISHED`` (whose data is the Attempt Record).
One *logical call* = the attempts the :class:`~reference_harness.RetryPolicy` allows for its
component; ports themselves make exactly one attempt.

Outcomes: ``VALID`` (the answer passed the caller's check), ``INVALID_SCHEMA`` (it did not),
``UNAVAILABLE`` (:class:`ModelUnavailable`), ``TIMEOUT`` (:class:`ModelTimeout`, or no answer
within the bound), ``CANCELLED`` (the Run was cancelled while the call was in flight: the Harness
waits for the call, bounded by its timeout, and discards whatever comes back).
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from reference_harness._run_context import RunCancelledError
from reference_harness._worker import start_blocking
from reference_harness.errors import ModelTimeout, ModelUnavailable

if TYPE_CHECKING:
    from collections.abc import Callable

    from reference_harness._retry import AttemptOutcome, Component, RetryPolicy
    from reference_harness._run_context import RunContext

__all__ = ["CallResult", "PortCrashedError", "call_with_retry"]

A = TypeVar("A")
R = TypeVar("R")


class PortCrashedError(Exception):
    """A port raised something other than ModelUnavailable/ModelTimeout (INTERNAL_ERROR).

    Carries no text of the original exception; the original stays only as ``__cause__``.
    """


@dataclass(frozen=True, slots=True)
class CallResult(Generic[R]):
    """The end of one logical call: the last attempt's outcome and, if ``VALID``, the value."""

    outcome: AttemptOutcome
    value: R | None
    attempts: int


def _in_time(ended: list[float], deadline: float) -> bool:
    """Whether the port's answer ended by ``deadline`` (monotonic seconds); no answer: False."""
    return bool(ended) and ended[0] <= deadline


async def _wait_first(future: asyncio.Future[Any], event: asyncio.Event, bound_s: float) -> None:
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({future, waiter}, timeout=bound_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        await asyncio.wait({waiter})


async def _attempt(  # noqa: C901, PLR0913 - the Attempt Record has exactly these parts
    ctx: RunContext,
    *,
    component: Component,
    purpose: str,
    call_index: int,
    attempt: int,
    snapshot_digest: str | None,
    invoke: Callable[[threading.Event], A],
    check: Callable[[A], R | None],
) -> tuple[AttemptOutcome, R | None]:
    ctx.check_open()
    head = {
        "component": component,
        "purpose": purpose,
        "call_index": call_index,
        "attempt": attempt,
    }
    interrupt = threading.Event()
    ctx.interrupts.add(interrupt)

    def finished(outcome: AttemptOutcome) -> None:
        ctx.trace.emit(
            "MODEL_CALL_FINISHED", {**head, "snapshot_digest": snapshot_digest, "outcome": outcome}
        )

    try:
        loop = asyncio.get_running_loop()
        timeout = ctx.limits.model_call_timeout_s
        deadline = loop.time() + timeout
        ended: list[float] = []

        def timed() -> A:
            try:
                return invoke(interrupt)
            finally:
                ended.append(time.monotonic())  # the loop's clock (asyncio uses monotonic)

        future = start_blocking(timed, name=f"srdh-{component.lower()}")
        ctx.trace.emit("MODEL_CALL_STARTED", {**head, "snapshot_digest": snapshot_digest})
        await _wait_first(future, ctx.cancelled_event, timeout)
        if ctx.gate_closed:
            if not future.done():
                await asyncio.wait({future}, timeout=max(0.0, deadline - loop.time()))
            finished("CANCELLED")
            if future.done():
                ctx.trace.emit("LATE_RESULT_DISCARDED", head)
            raise RunCancelledError
        # An answer that came after the deadline is late even when the loop sees it only now
        # (a 1 ms timeout and a busy loop): it is dropped like one still running.
        if not future.done() or not _in_time(ended, deadline):
            interrupt.set()  # tell the port to give up; its late answer is dropped
            finished("TIMEOUT")
            return "TIMEOUT", None
        error = future.exception()
        if isinstance(error, ModelUnavailable):
            finished("UNAVAILABLE")
            return "UNAVAILABLE", None
        if isinstance(error, ModelTimeout):
            finished("TIMEOUT")
            return "TIMEOUT", None
        if error is not None:
            finished("UNAVAILABLE")
            raise PortCrashedError from error
        value = check(future.result())
        outcome: AttemptOutcome = "INVALID_SCHEMA" if value is None else "VALID"
        finished(outcome)
        return outcome, value  # noqa: TRY300 - every exit of the attempt is inside the try
    except asyncio.CancelledError:
        # The Run's task itself is cancelled (shutdown): an operator cancel; the attempt is not
        # waited for (the loop is going away) but it is still recorded as CANCELLED.
        ctx.on_cancel("OPERATOR")
        finished("CANCELLED")
        raise
    finally:
        ctx.interrupts.discard(interrupt)


async def call_with_retry(  # noqa: PLR0913 - one logical call is described by these parts
    ctx: RunContext,
    policy: RetryPolicy,
    *,
    component: Component,
    purpose: str,
    invoke: Callable[[threading.Event], A],
    check: Callable[[A], R | None],
    snapshot_digest: str | None = None,
) -> CallResult[R]:
    """Make one logical model call with as many attempts as ``policy`` allows.

    Args:
        ctx: the Run.
        policy: the retry policy.
        component: ``ROUTER``, ``DIAGNOSIS_AGENT`` or ``SEMANTIC_GUARD``.
        purpose: ``ROUTE``, ``AGENT_STEP``, ``STRUCTURAL_REPAIR`` or ``SEMANTIC_REVIEW``.
        invoke: the blocking port call, given the attempt's interrupt event.
        check: turns the port's answer into the value, or ``None`` for ``INVALID_SCHEMA``.
        snapshot_digest: the reviewed snapshot's digest (``SEMANTIC_REVIEW`` only).

    Raises:
        RunCancelledError: the Run was cancelled before or during an attempt.
        PortCrashedError: the port raised an unexpected exception.
    """
    call_index = ctx.next_call_index(component)
    attempt = 1
    while True:
        outcome, value = await _attempt(
            ctx,
            component=component,
            purpose=purpose,
            call_index=call_index,
            attempt=attempt,
            snapshot_digest=snapshot_digest,
            invoke=invoke,
            check=check,
        )
        if outcome == "VALID" or not policy.should_retry(component, attempt, outcome):
            return CallResult(outcome=outcome, value=value, attempts=attempt)
        attempt += 1
