"""Cancellation of a Run: the scope a caller cancels, and its cause vocabulary (Requirement 8).

A :class:`CancelScope` is created by whoever may cancel the Run (the SSE entry on client
disconnect, a deadline timer, an operator) and handed to ``Harness.run``. ``cancel(cause)`` is
idempotent; the Harness then runs the layered sequence of DESIGN section 7 (CANCEL_REQUESTED →
NEW_WORK_PREVENTED → INTERRUPT_REQUESTED → TOOL_WORK_CANCELLED … → RUN_FINISHED(CANCELLED)).
A cancel that arrives after the Run released its result (its terminal row is written) changes
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CANCEL_CAUSES", "CancelCause", "CancelScope"]

CancelCause: TypeAlias = Literal["CLIENT_DISCONNECTED", "RUN_DEADLINE", "OPERATOR"]
"""Contract sheet: cancel cause."""

CANCEL_CAUSES: Final[tuple[CancelCause, ...]] = ("CLIENT_DISCONNECTED", "RUN_DEADLINE", "OPERATOR")


class CancelScope:
    """A one-shot cancellation request for one Run.

    Call :meth:`cancel` on the event loop thread that runs the Harness (from a sink, a task or a
    ``loop.call_soon_threadsafe`` callback). Cancelling before the Run starts is allowed: the Run
    then starts and is cancelled at once.
    """

    __slots__ = ("_cause", "_handler")

    def __init__(self) -> None:
        """Create a scope that is not cancelled."""
        self._cause: CancelCause | None = None
        self._handler: Callable[[CancelCause], None] | None = None

    @property
    def cause(self) -> CancelCause | None:
        """The first cause given to :meth:`cancel`, or ``None``."""
        return self._cause

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cause is not None

    def cancel(self, cause: CancelCause) -> bool:
        """Request cancellation; return ``False`` if it was already requested.

        Raises:
            ValueError: ``cause`` is not a cancel cause.
        """
        if cause not in CANCEL_CAUSES:
            msg = f"cancel cause: expected one of {', '.join(CANCEL_CAUSES)}, got {cause!r}"
            raise ValueError(msg)
        if self._cause is not None:
            return False
        self._cause = cause
        if self._handler is not None:
            self._handler(cause)
        return True

    def bind(self, handler: Callable[[CancelCause], None]) -> None:
        """Attach the Harness's handler (once); a cancel already requested is delivered now.

        Raises:
            RuntimeError: the scope is already bound to a Run (a scope serves one Run).
        """
        if self._handler is not None:
            msg = "this CancelScope is already bound to a Run; use one scope per Run"
            raise RuntimeError(msg)
        self._handler = handler
        if self._cause is not None:
            handler(self._cause)
