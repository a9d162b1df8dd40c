"""Value types of the OpenSpec parser: locations, steps, scenarios, requirements, documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pathlib import Path

StepKeyword = Literal["WHEN", "THEN", "AND", "GIVEN"]
"""The bold keyword that opens a scenario bullet (``- **WHEN** …``)."""

Level = Literal["MUST", "SHALL", "SHOULD", "MAY"]
"""An RFC 2119 keyword, strongest first."""

Operation = Literal["ADDED", "MODIFIED", "REMOVED", "RENAMED"]
"""A delta section of a change's spec (``## ADDED Requirements`` …)."""


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a file: ``path`` and a 1-based ``line`` (0 when the whole file is meant)."""

    path: Path
    line: int

    def __str__(self) -> str:
        """Render as ``path:line`` (or ``path`` for the whole file)."""
        return f"{self.path}:{self.line}" if self.line else str(self.path)


class ParseError(Exception):
    """A spec file cannot be read (missing, unreadable or not UTF-8).

    Attributes:
        location: the file and, when known, the 1-based line of the fault.
        reason: what was expected.
    """

    def __init__(self, location: Location, reason: str) -> None:
        """Record where reading failed and why."""
        super().__init__(f"{location}: {reason}")
        self.location = location
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Step:
    """One ``- **KEYWORD** text`` bullet of a scenario."""

    keyword: StepKeyword
    text: str
    location: Location


@dataclass(frozen=True, slots=True)
class Scenario:
    """A ``#### Scenario: <name>`` block; ``id`` is ``slugify(name)``.

    ``unparsed_bullets`` holds the bullets that carry no bold WHEN/THEN/AND/GIVEN keyword.
    """

    name: str
    id: str
    steps: tuple[Step, ...]
    location: Location
    unparsed_bullets: tuple[tuple[str, Location], ...] = ()
    has_body: bool = True


@dataclass(frozen=True, slots=True)
class Requirement:
    """A ``### Requirement: <name>`` block.

    ``id`` is ``slugify(name)``; ``level`` the strongest RFC 2119 keyword of ``text`` (the body
    before the first scenario), ``None`` when it has none.
    """

    name: str
    id: str
    level: Level | None
    text: str
    scenarios: tuple[Scenario, ...]
    location: Location


@dataclass(frozen=True, slots=True)
class SpecDocument:
    """A main spec ``openspec/specs/<capability>/spec.md``.

    ``purpose`` is the trimmed ``## Purpose`` text ("" when absent); ``requirements`` are those
    inside ``## Requirements`` in file order.
    """

    path: Path
    capability: str
    title: str
    purpose: str
    requirements: tuple[Requirement, ...]


@dataclass(frozen=True, slots=True)
class Rename:
    """One ``FROM:``/``TO:`` pair of a ``## RENAMED Requirements`` section."""

    from_name: str
    to_name: str
    location: Location


@dataclass(frozen=True, slots=True)
class DeltaSection:
    """One delta section: its operation, header location and what it holds.

    ADDED and MODIFIED hold ``requirements``; REMOVED holds ``removed`` names; RENAMED ``renames``.
    """

    operation: Operation
    location: Location
    requirements: tuple[Requirement, ...] = ()
    removed: tuple[str, ...] = ()
    renames: tuple[Rename, ...] = ()


@dataclass(frozen=True, slots=True)
class DeltaDocument:
    """A change's delta spec ``specs/<capability>/spec.md`` (sections in file order)."""

    path: Path
    capability: str
    sections: tuple[DeltaSection, ...]

    def requirements(self, operation: Operation) -> tuple[Requirement, ...]:
        """Return every requirement of the sections with ``operation``, in file order."""
        return tuple(r for s in self.sections if s.operation == operation for r in s.requirements)


@dataclass(frozen=True, slots=True)
class ChangeDocument:
    """An OpenSpec change folder, active (``changes/<id>/``) or archived.

    ``archive_date`` is the ``YYYY-MM-DD`` prefix of an archived folder, else ``None``. The
    ``proposal``/``design``/``tasks`` paths are ``None`` when the file is absent.
    """

    id: str
    path: Path
    archived: bool
    archive_date: str | None
    proposal: Path | None
    design: Path | None
    tasks: Path | None
    deltas: tuple[DeltaDocument, ...]


@dataclass(frozen=True, slots=True)
class SpecTree:
    """Everything under ``<root>/openspec``: main specs by capability, changes in folder order."""

    root: Path
    specs: dict[str, SpecDocument] = field(default_factory=dict)
    changes: tuple[ChangeDocument, ...] = ()

    @property
    def active_changes(self) -> tuple[ChangeDocument, ...]:
        """The changes not yet archived."""
        return tuple(c for c in self.changes if not c.archived)

    @property
    def archived_changes(self) -> tuple[ChangeDocument, ...]:
        """The changes under ``openspec/changes/archive/``."""
        return tuple(c for c in self.changes if c.archived)


Severity = Literal["ERROR", "WARNING"]


@dataclass(frozen=True, slots=True)
class LintIssue:
    """One finding of :func:`lint_tree`.

    ``code`` is stable: codes starting ``OPENSPEC_`` mirror a rule of the official CLI
    (``openspec validate``); codes starting ``KIT_`` are the kit's own rules.
    """

    level: Severity
    code: str
    message: str
    location: Location

    @property
    def official(self) -> bool:
        """Whether the official OpenSpec CLI has the same rule."""
        return self.code.startswith("OPENSPEC_")

    def __str__(self) -> str:
        """Render as ``path:line: LEVEL CODE message``."""
        return f"{self.location}: {self.level} {self.code} {self.message}"
