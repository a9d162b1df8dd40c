"""What one verify step returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from conformance.reports import Status

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Outcome", "VerifyContext", "failed", "not_available", "passed"]


@dataclass(frozen=True)
class VerifyContext:
    """Inputs of every step: the repository (its ``openspec/``) and the kit's schema folder.

    ``shared`` carries what one step hands a later one (the reference suite result, so that
    the self-test does not run it twice; background tool processes started early).
    """

    repo: Path
    kit_schemas: Path
    shared: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """A step's verdict: ``status``, a one-line ``detail``, and an optional ``payload``.

    The payload carries what the reports need (the suite result, the traceability matrix).
    """

    status: Status
    detail: str
    payload: Any = field(default=None)


def passed(detail: str, payload: object = None) -> Outcome:
    """A PASSED outcome."""
    return Outcome(Status.PASSED, detail, payload)


def failed(detail: str, payload: object = None) -> Outcome:
    """A FAILED outcome."""
    return Outcome(Status.FAILED, detail, payload)


def not_available(what: str) -> Outcome:
    """A FAILED outcome for a part of the kit that is not installed (never a silent pass)."""
    return Outcome(Status.FAILED, f"not available: {what} is not importable")
