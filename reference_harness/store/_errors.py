"""Errors raised by the ``diagnosis_run`` store.

One family, rooted at :class:`RunStoreError`, so a caller can catch every store refusal with one
``except``. Every error carries a one-line message naming the Run and the rule it broke.
"""

from __future__ import annotations

__all__ = [
    "DuplicateRunError",
    "InvalidRunError",
    "RunStoreError",
    "StoreUnavailableError",
    "TerminalStateError",
    "UnknownRunError",
]


class RunStoreError(Exception):
    """Base class of every error the ``diagnosis_run`` store raises."""


class UnknownRunError(RunStoreError, LookupError):
    """No ``diagnosis_run`` row has the given ``run_id``."""

    def __init__(self, run_id: str) -> None:
        """Name the missing ``run_id``."""
        super().__init__(f"unknown Run {run_id!r}: no diagnosis_run row has this run_id")
        self.run_id = run_id


class DuplicateRunError(RunStoreError):
    """A ``diagnosis_run`` row with the given ``run_id`` (or session ``seq``) already exists."""

    def __init__(self, run_id: str, detail: str) -> None:
        """Name the clashing ``run_id`` and what clashed."""
        super().__init__(f"Run {run_id!r} already exists: {detail}")
        self.run_id = run_id


class TerminalStateError(RunStoreError):
    """The Run is already in a terminal state; terminal states are immutable (Requirement 7)."""

    def __init__(self, run_id: str, state: str) -> None:
        """Name the Run and the terminal state it already holds."""
        super().__init__(
            f"Run {run_id!r} is already terminal ({state}); a terminal diagnosis_run is immutable"
        )
        self.run_id = run_id
        self.state = state


class InvalidRunError(RunStoreError, ValueError):
    """The row the store was asked to write breaks the ``diagnosis-run`` contract.

    Raised before anything is written: the database is unchanged.
    """

    def __init__(self, run_id: str, problems: list[str]) -> None:
        """Name the Run and every contract problem found (JSON pointer and expectation)."""
        joined = "; ".join(problems)
        super().__init__(f"Run {run_id!r} would break the diagnosis-run contract: {joined}")
        self.run_id = run_id
        self.problems = tuple(problems)


class StoreUnavailableError(RunStoreError):
    """The store's database file cannot be read or written right now; nothing was written.

    SQLite refused the transaction: the database is locked by another process past the busy
    timeout, the disk (or the process's file-size limit) is full, the file is read-only, not a
    database, or the folder cannot hold its journal. A fault of the store's environment, never of
    the Run: the message names the file and SQLite's reason.

    Attributes:
        path: the database file (``":memory:"`` for an in-memory store).
        reason: SQLite's own words (``"database is locked"``, ``"disk I/O error"`` …).
    """

    def __init__(self, path: str, reason: str) -> None:
        """Name the file and SQLite's reason."""
        super().__init__(f"run store {path}: cannot be written or read ({reason})")
        self.path = path
        self.reason = reason
