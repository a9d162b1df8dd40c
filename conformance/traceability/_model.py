"""Value types of the traceability matrix: rows, step bindings and the matrix itself.

Serves DESIGN section 9 ("Gherkin mirror", "Levels and reports"): every spec Scenario is traced
requirement -> spec scenario -> feature scenario -> step implementations -> property test ->
result, and every break in that chain is an issue with a stable code (:mod:`._issues`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.traceability._issues import TraceIssue
    from conformance.traceability._sentences import SentenceRow

__all__ = [
    "Matrix",
    "MirrorRef",
    "StepBinding",
    "TraceRow",
]


@dataclass(frozen=True, slots=True)
class StepBinding:
    """A Gherkin step and the pytest-bdd step definition that implements it.

    Attributes:
        keyword: ``given``, ``when`` or ``then`` (the step's resolved type; ``And`` inherits).
        text: the step text as written (a Scenario Outline's example values rendered in).
        line: its 1-based line in the feature file.
        definitions: ``module:function`` of every matching step definition (one when bound).
    """

    keyword: str
    text: str
    line: int
    definitions: tuple[str, ...]

    @property
    def bound(self) -> bool:
        """Whether exactly one step definition implements the step."""
        return len(self.definitions) == 1


@dataclass(frozen=True, slots=True)
class MirrorRef:
    """The feature scenario that mirrors a spec Scenario: ``path:line``, name and tags."""

    path: str
    line: int
    name: str
    tags: tuple[str, ...]

    @property
    def location(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"

    @property
    def capabilities(self) -> tuple[str, ...]:
        """The IUT capabilities the scenario needs (its ``@capability:<NAME>`` tags)."""
        return tuple(sorted(t.partition(":")[2] for t in self.tags if t.startswith("capability:")))


@dataclass(frozen=True, slots=True)
class TraceRow:
    """One spec Scenario, traced.

    Attributes:
        requirement_id: kebab slug of the requirement name.
        requirement_name: the requirement as written.
        level: its RFC 2119 level, normalized to ``MUST``, ``SHOULD`` or ``MAY``.
        scenario_id: kebab slug of the scenario name.
        scenario_name: the scenario as written in the spec.
        spec_location: ``path:line`` of the ``#### Scenario:`` header.
        mirror: the mirroring feature scenario, ``None`` when missing.
        steps: every step of the mirror with its step definition(s).
        property_test: the registered property test (pytest node id), ``None`` when missing.
        result: the scenario's status in the last suite run (``PASSED``, ``FAILED``, ``SKIPPED``
            …), ``None`` when no result was given.
        skip_reason: why the last run skipped it (``""`` when it did not).
    """

    requirement_id: str
    requirement_name: str
    level: str
    scenario_id: str
    scenario_name: str
    spec_location: str
    mirror: MirrorRef | None
    steps: tuple[StepBinding, ...]
    property_test: str | None
    result: str | None = None
    skip_reason: str = ""

    @property
    def implemented(self) -> bool:
        """Whether the mirror exists and every one of its steps is bound to one definition."""
        return self.mirror is not None and bool(self.steps) and all(s.bound for s in self.steps)


@dataclass(frozen=True)
class Matrix:
    """The traceability matrix of a repository.

    Attributes:
        rows: one per spec Scenario, in spec order.
        issues: every break found, in the order found.
        notes: reported facts that are not failures (e.g. a scenario skipped because the IUT
            declares it lacks a capability, a SHOULD/MAY sentence no rule tests).
        sentences: one per sentence of the spec (body, THEN, condition) with the check rules
            quoting it and the mutants breaking those rules, in spec order.
    """

    rows: tuple[TraceRow, ...]
    issues: tuple[TraceIssue, ...] = ()
    notes: tuple[str, ...] = field(default=())
    sentences: tuple[SentenceRow, ...] = field(default=())

    @property
    def complete(self) -> bool:
        """True when there is no issue: every spec Scenario is mirrored, implemented and tested."""
        return not self.issues

    def codes(self) -> set[str]:
        """Return the set of issue codes present."""
        return {issue.code for issue in self.issues}

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict.

        Keys: ``rows`` (with mirror, steps, property, result), ``sentences`` (id, requirement and
        scenario ids, kind, level, keyword, text, location, rules, mutants, tested), ``issues``
        (code, message, location, scenario id), ``notes`` and ``complete``.
        """
        return {
            "complete": self.complete,
            "rows": [
                {
                    "requirement_id": r.requirement_id,
                    "level": r.level,
                    "scenario_id": r.scenario_id,
                    "scenario_name": r.scenario_name,
                    "spec": r.spec_location,
                    "gherkin": r.mirror.location if r.mirror else None,
                    "steps": [
                        {
                            "keyword": s.keyword,
                            "text": s.text,
                            "line": s.line,
                            "definitions": list(s.definitions),
                        }
                        for s in r.steps
                    ],
                    "property_test": r.property_test,
                    "result": r.result,
                }
                for r in self.rows
            ],
            "issues": [
                {
                    "code": i.code,
                    "message": i.message,
                    "location": i.location,
                    "scenario_id": i.scenario_id,
                }
                for i in self.issues
            ],
            "notes": list(self.notes),
            "sentences": [s.to_dict() for s in self.sentences],
        }

    def row(self, scenario_id: str) -> TraceRow:
        """Return the row of ``scenario_id``.

        Raises:
            KeyError: no spec Scenario has that id.
        """
        for row in self.rows:
            if row.scenario_id == scenario_id:
                return row
        raise KeyError(scenario_id)
