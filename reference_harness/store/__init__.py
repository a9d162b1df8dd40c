"""The durable ``diagnosis_run`` store of the reference Harness (Requirement 7).

Public surface:

- :class:`RunStore` — SQLite (SQLAlchemy Core) store of DiagnosisRun rows: ``create_run``,
  ``set_intent``, ``finish_run``, ``recover_crashed``, ``seed``, ``get``, ``list_session``,
  ``select_previous_turn``.
- :class:`PreviousTurnSelection`, :class:`SkippedRun`, :data:`SkipReason`, :func:`skip_reason` —
  the result of previous-turn selection.
- Errors: :class:`RunStoreError` and its subclasses.
"""

from reference_harness.store._errors import (
    DuplicateRunError,
    InvalidRunError,
    RunStoreError,
    StoreUnavailableError,
    TerminalStateError,
    UnknownRunError,
)
from reference_harness.store._selection import (
    PreviousTurnSelection,
    SkippedRun,
    SkipReason,
    skip_reason,
)
from reference_harness.store._store import BUSY_TIMEOUT_S, RunStore

__all__ = [
    "BUSY_TIMEOUT_S",
    "DuplicateRunError",
    "InvalidRunError",
    "PreviousTurnSelection",
    "RunStore",
    "RunStoreError",
    "SkipReason",
    "SkippedRun",
    "StoreUnavailableError",
    "TerminalStateError",
    "UnknownRunError",
    "skip_reason",
]
