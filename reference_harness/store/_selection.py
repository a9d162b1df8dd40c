"""Previous-turn selection results and skip reasons (Requirement 7).

The previous turn of Run R is the Run with the greatest ``seq < R.seq`` in the same session whose
intent is DIAGNOSIS and whose state is SUCCESS. Every newer Run passed over is reported with one
skip reason. A Run that did not end in SUCCESS is reported by its state (``STATE_*``, this covers
Runs whose intent was never routed); a SUCCESS Run of another intent by its intent
(``INTENT_KNOWLEDGE_QUERY``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from contracts import DiagnosisRun

__all__ = ["PreviousTurnSelection", "SkipReason", "SkippedRun", "skip_reason"]

SkipReason = Literal[
    "INTENT_KNOWLEDGE_QUERY", "STATE_RUNNING", "STATE_FALLBACK", "STATE_FAILED", "STATE_CANCELLED"
]
"""Why a newer Run was passed over (contract sheet vocabulary "skip reason")."""

_STATE_REASONS: dict[str, SkipReason] = {
    "RUNNING": "STATE_RUNNING",
    "FALLBACK": "STATE_FALLBACK",
    "FAILED": "STATE_FAILED",
    "CANCELLED": "STATE_CANCELLED",
}


def skip_reason(intent: str | None, state: str) -> SkipReason | None:
    """Return why a Run with this ``intent`` and ``state`` is not a previous turn.

    Returns ``None`` for an eligible Run (intent DIAGNOSIS, state SUCCESS). A non-SUCCESS state is
    the reason even when the intent is KNOWLEDGE_QUERY. A SUCCESS Run with any intent other than
    DIAGNOSIS is ``INTENT_KNOWLEDGE_QUERY`` (the store refuses SUCCESS without an intent).
    """
    if state != "SUCCESS":
        return _STATE_REASONS[state]
    if intent == "DIAGNOSIS":
        return None
    return "INTENT_KNOWLEDGE_QUERY"


@dataclass(frozen=True, slots=True)
class SkippedRun:
    """One newer Run passed over by previous-turn selection."""

    run_id: str
    """The skipped Run's ``run_id``."""
    reason: SkipReason
    """Why it is not eligible."""


@dataclass(frozen=True, slots=True)
class PreviousTurnSelection:
    """The result of ``RunStore.select_previous_turn``.

    ``skipped`` lists the Runs strictly between the selected Run (or the session start) and the
    current Run, newest first, at most ``RunStore.SKIPPED_LIMIT`` of them; ``skipped_omitted``
    counts the older passed-over Runs left off the list (bounded, see the field).
    """

    selected: DiagnosisRun | None
    """The previous turn, or ``None`` when no earlier Run is eligible."""
    skipped: tuple[SkippedRun, ...] = ()
    """Passed-over Runs, newest (greatest ``seq``) first."""
    skipped_omitted: int = field(default=0)
    """How many further passed-over Runs are not listed in ``skipped`` (counted up to
    ``RunStore.OMITTED_COUNT_LIMIT``; a value equal to that limit means at least that many)."""
