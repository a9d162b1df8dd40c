"""Violation codes, the violation value and the guard verdict (DESIGN section 4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from contracts import ViolationCode

if TYPE_CHECKING:
    from contracts import DiagnosisDraft, KnowledgeAnswer

__all__ = ["MAX_VIOLATIONS", "GuardVerdict", "Violation", "ViolationCode", "rejected"]


MAX_VIOLATIONS = 256
"""Most violations one verdict reports (the first ones in document order); bounds trace events."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a `ViolationCode` value and an RFC 6901 pointer into the submitted document.

    `pointer` is `""` for the whole document; a pointer may name a property the document lacks
    (a missing required property is reported where it should be). It is at most
    `MAX_POINTER_CHARS` long (a longer path is cut to its deepest ancestor that fits), so every
    violation fits the trace event's `{code, pointer}` schema.
    """

    code: str
    pointer: str


@dataclass(frozen=True, slots=True)
class GuardVerdict:
    """EvidenceGuard's answer for one submitted document.

    `valid` is true iff `violations` is empty; `document` is the validated contract model when
    valid and `None` otherwise.
    """

    valid: bool
    violations: tuple[Violation, ...]
    document: DiagnosisDraft | KnowledgeAnswer | None


def rejected(violations: list[Violation]) -> GuardVerdict:
    """Return an invalid verdict with the first `MAX_VIOLATIONS` distinct violations, in order."""
    unique = tuple(dict.fromkeys(violations))[:MAX_VIOLATIONS]
    return GuardVerdict(valid=False, violations=unique, document=None)
