"""Parts of the mutants of the kinds closed in docs/decisions/red-team-8.md by misc8.

* :class:`LowWordSeqStore`: the next ``seq`` of a session computed from the low 32 bits of its
  greatest ``seq`` (an unsigned 32-bit column or variable), red team 8, S14.
* :class:`SilentDiscardRecorder`: a late model result is dropped without its
  ``LATE_RESULT_DISCARDED`` record, red team 8, S10.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import update

from reference_harness._trace import TraceRecorder
from reference_harness.store import RunStore
from reference_harness.store._table import diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Mapping

    from contracts import DiagnosisRun

__all__ = ["LowWordSeqStore", "SilentDiscardRecorder", "silent_discard"]

_WORD: Final = 2**32


class LowWordSeqStore(RunStore):
    """Numbers a new Run ``1 + (greatest seq mod 2**32)``: past 32 bits the seq falls back."""

    def create_run(
        self, *, run_id: str, session_id: str, user_message: str, now_ms: int
    ) -> DiagnosisRun:
        """Create the Run as the reference does, then renumber it from the low word."""
        greatest = max((run.seq for run in self.list_session(session_id)), default=0)
        created = super().create_run(
            run_id=run_id, session_id=session_id, user_message=user_message, now_ms=now_ms
        )
        narrow = greatest % _WORD + 1
        if narrow == created.seq:
            return created
        with self._write() as connection:
            connection.execute(
                update(diagnosis_run).where(diagnosis_run.c.run_id == run_id).values(seq=narrow)
            )
        return created.model_copy(update={"seq": narrow})


class SilentDiscardRecorder(TraceRecorder):
    """Records every event but ``LATE_RESULT_DISCARDED``: the late result is dropped silently."""

    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Emit as the reference does, except a late-result record (returned, never recorded)."""
        if event_type == "LATE_RESULT_DISCARDED":
            return {"type": event_type, "data": dict(data)}
        return super().emit(event_type, data)


def silent_discard(_original: type[TraceRecorder]) -> type[TraceRecorder]:
    """A ``Patch`` wrap putting :class:`SilentDiscardRecorder` in place of the recorder."""
    return SilentDiscardRecorder
