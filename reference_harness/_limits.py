"""Harness budgets and bounds (contract sheet: scenario-fixture ``limits``).

All limits are data, handed to :class:`~reference_harness.Harness` at construction. Their defaults
are the fixture defaults; the projection limits never exceed the bounded-projection schema caps.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final

__all__ = ["ITEMS_CAP", "ITEM_CHARS_CAP", "MAX_WAIT_S", "Limits", "wait_s"]

ITEMS_CAP: Final = 200
"""Schema cap of ``BoundedProjection.items`` (``maxItems``)."""

ITEM_CHARS_CAP: Final = 8192
"""Schema cap of a projection item's ``text`` (``maxLength``)."""

MAX_WAIT_S: Final = threading.TIMEOUT_MAX
"""Longest wait the platform can honour, in seconds (CPython's ``threading.TIMEOUT_MAX``: 64-bit
nanoseconds, about 292 years on a 64-bit machine).

The contract bounds ``model_call_timeout_ms`` and ``tool_timeout_ms`` below only (>= 1) and the
kit's documents are I-JSON, so a valid fixture may ask for up to 2**53 - 1 ms (about 285,000
years). Lock and socket timeouts overflow past this bound (``OverflowError: timestamp out of range
for platform time_t``: an HTTP client with a 10**12 s timeout fails before it sends). A wait that
long is one no Run reaches, so every wait is clamped to it (:func:`wait_s`): the same meaning,
"no timeout within the Run" (docs/decisions/extreme-limits-11.md)."""


def wait_s(timeout_ms: float) -> float:
    """Return a timeout of ``timeout_ms`` milliseconds in seconds, at most :data:`MAX_WAIT_S`."""
    return min(timeout_ms / 1000, MAX_WAIT_S)


@dataclass(frozen=True, slots=True)
class Limits:
    """Budgets of one Run.

    Attributes:
        max_steps: most tool steps (``tool_calls`` answers executed) per Run, >= 1. An agent that
            asks for tools again after ``max_steps`` steps gets no more tools: the Run ends with the
            Safe Fallback ``EVIDENCE_VALIDATION_FAILED`` (no draft was verified), without a
            structural repair.
        max_items: most items in one bounded projection, 0..200.
        max_item_chars: most characters of one projected item's text, 0..8192.
        model_call_timeout_ms: bound of one blocking model call attempt, in ms, >= 1 (no upper
            bound: waits use :attr:`model_call_timeout_s`, clamped to :data:`MAX_WAIT_S`).
        tool_timeout_ms: bound of one tool backend call, in ms, >= 1 (the lazy projection of its
            rows follows the call; waits use :attr:`tool_timeout_s`).

    Raises:
        ValueError: a limit is out of its range (the message names it).
    """

    max_steps: int = 8
    max_items: int = 20
    max_item_chars: int = 2000
    model_call_timeout_ms: int = 5000
    tool_timeout_ms: int = 5000

    def __post_init__(self) -> None:
        """Check every limit against its range."""
        ranges = {
            "max_steps": (1, None),
            "max_items": (0, ITEMS_CAP),
            "max_item_chars": (0, ITEM_CHARS_CAP),
            "model_call_timeout_ms": (1, None),
            "tool_timeout_ms": (1, None),
        }
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                msg = f"Limits.{name}: expected an integer, got {value!r}"
                raise TypeError(msg)
            if value < low or (high is not None and value > high):
                bound = f"{low}..{high}" if high is not None else f">= {low}"
                msg = f"Limits.{name}: expected {bound}, got {value}"
                raise ValueError(msg)

    @property
    def model_call_timeout_s(self) -> float:
        """``model_call_timeout_ms`` in seconds, clamped to :data:`MAX_WAIT_S`."""
        return wait_s(self.model_call_timeout_ms)

    @property
    def tool_timeout_s(self) -> float:
        """``tool_timeout_ms`` in seconds, clamped to :data:`MAX_WAIT_S`."""
        return wait_s(self.tool_timeout_ms)
