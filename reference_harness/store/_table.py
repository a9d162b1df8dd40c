"""The ``diagnosis_run`` table (SQLAlchemy Core).

One row per Run. ``published_result`` holds the RFC 8785 canonical JSON text of the
PublishedResult (or NULL). Constraints the database can hold itself are declared here as a second
line of defence behind the contract validation in :mod:`._codec`:

- ``run_id`` is the primary key; ``(session_id, seq)`` is unique, so two Runs of one session can
  never share a ``seq`` even under concurrent writers;
- ``ix_diagnosis_run_previous_turn`` on ``(session_id, intent, state, seq)`` serves the
  previous-turn lookup (Requirement 7) as one index seek;
- CHECK constraints hold the closed vocabularies of ``state``, ``intent``, ``fallback_type`` and
  ``error_code``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = ["RUN_STATES", "TERMINAL_STATES", "diagnosis_run", "metadata"]

RUN_STATES = ("RUNNING", "SUCCESS", "FALLBACK", "FAILED", "CANCELLED")
"""Run state vocabulary, in the contract sheet's order."""

TERMINAL_STATES = frozenset(RUN_STATES) - {"RUNNING"}
"""States a Run never leaves."""

_INTENTS = ("DIAGNOSIS", "KNOWLEDGE_QUERY")
_FALLBACK_TYPES = ("EVIDENCE_VALIDATION_FAILED", "SEMANTIC_UNSUPPORTED", "SEMANTIC_UNAVAILABLE")
_ERROR_CODES = ("ROUTER_UNAVAILABLE", "AGENT_UNAVAILABLE", "INTERNAL_ERROR")


def _one_of(column: str, values: tuple[str, ...], *, nullable: bool) -> str:
    listed = ", ".join(f"'{value}'" for value in values)
    check = f"{column} IN ({listed})"
    return f"{column} IS NULL OR {check}" if nullable else check


metadata = MetaData()

diagnosis_run = Table(
    "diagnosis_run",
    metadata,
    Column("run_id", Text, primary_key=True),
    Column("session_id", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("user_message", Text, nullable=False),
    Column("intent", Text, nullable=True),
    Column("state", Text, nullable=False),
    Column("published_result", Text, nullable=True),
    Column("fallback_type", Text, nullable=True),
    Column("error_code", Text, nullable=True),
    Column("created_at_ms", BigInteger, nullable=False),
    Column("finished_at_ms", BigInteger, nullable=True),
    UniqueConstraint("session_id", "seq", name="uq_diagnosis_run_session_seq"),
    CheckConstraint("seq >= 1", name="ck_diagnosis_run_seq"),
    CheckConstraint(_one_of("state", RUN_STATES, nullable=False), name="ck_diagnosis_run_state"),
    CheckConstraint(_one_of("intent", _INTENTS, nullable=True), name="ck_diagnosis_run_intent"),
    CheckConstraint(
        _one_of("fallback_type", _FALLBACK_TYPES, nullable=True),
        name="ck_diagnosis_run_fallback_type",
    ),
    CheckConstraint(
        _one_of("error_code", _ERROR_CODES, nullable=True), name="ck_diagnosis_run_error_code"
    ),
    Index("ix_diagnosis_run_previous_turn", "session_id", "intent", "state", "seq"),
)
"""The ``diagnosis_run`` table."""
