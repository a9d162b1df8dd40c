"""Per-Run state of the Harness: trace, invocations, release gate, interrupts, in-flight work.

The release gate is the authority of cancellation (Requirement 8): once a cancel is requested the
gate is closed, no new model or tool call starts, and nothing can be released, whatever a port
does afterwards. The cancel handler runs synchronously where ``CancelScope.cancel`` is called, so
the layered events appear in a deterministic order.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any

from reference_harness._invocations import InvocationLedger

if TYPE_CHECKING:
    import threading

    from reference_harness._cancellation import CancelCause
    from reference_harness._limits import Limits
    from reference_harness._retry import Component
    from reference_harness._trace import TraceRecorder
    from reference_harness.ports import CancelToken

__all__ = ["RunCancelledError", "RunContext", "RunFailedError"]


class RunCancelledError(Exception):
    """Unwinds the work of a Run whose release gate closed (never escapes the Harness)."""


class RunFailedError(Exception):
    """Unwinds the work of a Run that ends FAILED with a fixed public error code."""

    def __init__(self, error_code: str) -> None:
        """Carry the public error code (``ROUTER_UNAVAILABLE``, ``AGENT_UNAVAILABLE`` …)."""
        super().__init__(error_code)
        self.error_code = error_code


class RunContext:
    """Everything one Run's work shares.

    Attributes:
        run_id: the Run.
        limits: its budgets.
        trace: its trace recorder.
        ledger: its canonical invocations (each change emits ``INVOCATION_STATUS_CHANGED``).
        interrupts: the interrupt events of the model calls in flight.
        tools_in_flight: Tool Call ID → (task, cancel token) of the tool executions in flight.
    """

    def __init__(self, *, run_id: str, limits: Limits, trace: TraceRecorder) -> None:
        """Create the state of a starting Run; call inside the event loop."""
        self.run_id = run_id
        self.limits = limits
        self.trace = trace
        self.ledger = InvocationLedger(run_id, self._invocation_changed)
        self.interrupts: set[threading.Event] = set()
        self.tools_in_flight: dict[str, tuple[asyncio.Task[Any], CancelToken]] = {}
        self.cancel_cause: CancelCause | None = None
        self._gate_closed = False
        self._released = False
        self._cancelled = asyncio.Event()
        self._calls: Counter[str] = Counter()

    # ------------------------------------------------------------------------- release gate

    @property
    def gate_closed(self) -> bool:
        """Whether cancellation closed the release gate."""
        return self._gate_closed

    @property
    def cancelled_event(self) -> asyncio.Event:
        """Set once the cancel handler has run (wakes the waiting work)."""
        return self._cancelled

    def check_open(self) -> None:
        """Refuse new work once the gate is closed.

        Raises:
            RunCancelledError: the Run was cancelled.
        """
        if self._gate_closed:
            raise RunCancelledError

    def pass_release_gate(self) -> bool:
        """Atomically pass the gate for the final release; ``False`` if it is closed.

        After this returns ``True`` a cancel request changes nothing.
        """
        if self._gate_closed:
            return False
        self._released = True
        return True

    # ------------------------------------------------------------------------- counters

    def next_call_index(self, component: Component) -> int:
        """Return the index (from 1) of the next logical call of ``component`` in this Run."""
        self._calls[component] += 1
        return self._calls[component]

    # ------------------------------------------------------------------------- cancellation

    def on_cancel(self, cause: CancelCause) -> None:
        """Run the layered cancellation (DESIGN section 7); ignored after the release."""
        if self._released or self._gate_closed:
            return
        self.cancel_cause = cause
        self.trace.emit("CANCEL_REQUESTED", {"cause": cause})
        self._gate_closed = True
        self.trace.emit("NEW_WORK_PREVENTED", {})
        for interrupt in self.interrupts:
            interrupt.set()
        self.trace.emit("INTERRUPT_REQUESTED", {})
        for tool_call_id, (task, token) in list(self.tools_in_flight.items()):
            token.cancel()
            task.cancel()
            self.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": tool_call_id})
            if self.ledger.is_projecting(tool_call_id):
                self.ledger.fail(tool_call_id, "CANCELLED")
        self._cancelled.set()

    def _invocation_changed(self, record: dict[str, Any]) -> None:
        self.trace.emit(
            "INVOCATION_STATUS_CHANGED",
            {
                "tool_call_id": record["tool_call_id"],
                "status": record["status"],
                "evidence_status": record["evidence_status"],
            },
        )
