"""Parts of the sixth red team's cancellation mutants (docs/decisions/red-team-6.md).

A model call not wired to the Run's cancellation (its wait ignores a disconnect, which the Run
records only at its next gate, as a lazily cancelling Harness does), and the cancellation layers
swapped when the cancellation is noticed during tool work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_harness._run_context import RunContext
from reference_harness.mutants._redteam_parts import InterruptFirstContext

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = [
    "DeferredCancelContext",
    "ToolPathInterruptFirstContext",
    "uncancellable_attempt",
]


class DeferredCancelContext(RunContext):
    """A Run whose cancellation, while an unwired model call runs, is recorded at the next gate.

    Outside such a call it cancels as the reference does; during one, the cause is kept and the
    layers (CANCEL_REQUESTED ...) are run by the next ``check_open`` or ``pass_release_gate``.
    """

    deferring = False
    pending: Any = None

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Keep ``cause`` while an unwired call runs, else cancel at once."""
        if self.deferring:
            self.pending = self.pending or cause
            return
        super().on_cancel(cause)

    def _settle(self) -> None:
        if self.pending is not None and not self.deferring:
            cause, self.pending = self.pending, None
            super().on_cancel(cause)

    def check_open(self) -> None:
        """Run a kept cancellation's layers, then refuse new work as the reference does."""
        self._settle()
        super().check_open()

    def pass_release_gate(self) -> bool:
        """Run a kept cancellation's layers, then pass the gate as the reference does."""
        self._settle()
        return super().pass_release_gate()


def uncancellable_attempt(
    unwired: Callable[[str, str], bool],
) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """A ``Patch`` wrap of ``_model_calls._attempt``: some attempts ignore the cancellation.

    Attempts ``unwired(component, purpose)`` selects wait for their answer (or their timeout)
    whatever the Run's cancellation, and their answer is used; the cancellation is recorded at
    the next gate (:class:`DeferredCancelContext`).
    """

    def wrap(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def attempt(ctx: Any, **parts: Any) -> Any:  # noqa: ANN401
            if not isinstance(ctx, DeferredCancelContext) or not unwired(
                str(parts.get("component")), str(parts.get("purpose"))
            ):
                return await original(ctx, **parts)
            ctx.check_open()
            ctx.deferring = True
            try:
                return await original(ctx, **parts)
            finally:
                ctx.deferring = False

        return attempt

    return wrap


class ToolPathInterruptFirstContext(InterruptFirstContext):
    """Cancellation noticed during tool work interrupts the agent before preventing new work."""

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Swap NEW_WORK_PREVENTED and INTERRUPT_REQUESTED when tool work is in flight."""
        if self.tools_in_flight:
            super().on_cancel(cause)
        else:
            RunContext.on_cancel(self, cause)
