"""The matrix as report rows (:class:`conformance.reports.MatrixRow`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conformance.reports import MatrixRow

if TYPE_CHECKING:
    from conformance.traceability._model import Matrix

__all__ = ["REPORT_COLUMNS", "report_rows"]

REPORT_COLUMNS: Final = (
    "level",
    "spec",
    "gherkin",
    "steps",
    "property",
    "rules",
    "mutants",
    "untested",
    "result",
    "issues",
)
"""The columns :func:`report_rows` fills, in display order."""


def report_rows(matrix: Matrix) -> tuple[MatrixRow, ...]:
    """Return one :class:`MatrixRow` per spec Scenario with the :data:`REPORT_COLUMNS` cells.

    ``rules``/``mutants``/``untested`` cover the sentences of the scenario's requirement body and
    of its own THEN bullets: the check rules quoting them, the mutants breaking those rules, and
    the ids of the normative sentences no rule tests.
    """
    rows = []
    for row in matrix.rows:
        mine = [
            s
            for s in matrix.sentences
            if s.sentence.requirement_id == row.requirement_id
            and s.sentence.scenario_id in {"", row.scenario_id}
            and s.sentence.normative
        ]
        rules = dict.fromkeys(r for s in mine for r in s.rules)
        mutants = dict.fromkeys(m for s in mine for m in s.mutants)
        untested = [s.sentence.id for s in mine if not s.tested]
        issues = [i.code for i in matrix.issues if i.scenario_id == row.scenario_id]
        bound = sum(1 for s in row.steps if s.bound)
        rows.append(
            MatrixRow(
                requirement_id=row.requirement_id,
                scenario_id=row.scenario_id,
                scenario_name=row.scenario_name,
                cells={
                    "level": row.level,
                    "spec": row.spec_location,
                    "gherkin": row.mirror.location if row.mirror else "",
                    "steps": f"{bound}/{len(row.steps)} bound",
                    "property": row.property_test or "",
                    "rules": ", ".join(rules),
                    "mutants": ", ".join(mutants),
                    "untested": ", ".join(untested),
                    "result": row.result or "",
                    "issues": ", ".join(sorted(set(issues))),
                },
            )
        )
    return tuple(rows)
