"""The matrix as report rows (:class:`conformance.reports.MatrixRow`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conformance.reports import MatrixRow

if TYPE_CHECKING:
    from conformance.traceability._model import Matrix

__all__ = ["REPORT_COLUMNS", "report_rows"]

REPORT_COLUMNS: Final = ("level", "spec", "gherkin", "steps", "property", "result", "issues")
"""The columns :func:`report_rows` fills, in display order."""


def report_rows(matrix: Matrix) -> tuple[MatrixRow, ...]:
    """Return one :class:`MatrixRow` per spec Scenario with the :data:`REPORT_COLUMNS` cells."""
    rows = []
    for row in matrix.rows:
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
                    "result": row.result or "",
                    "issues": ", ".join(sorted(set(issues))),
                },
            )
        )
    return tuple(rows)
