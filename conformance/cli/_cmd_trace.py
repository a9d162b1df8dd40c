"""``srdh trace [REPO]``: the traceability matrix (spec scenario ↔ Gherkin mirror ↔ tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output
from conformance.cli._repo import require_openspec

__all__ = ["trace"]


def trace(
    repo: Annotated[Path, typer.Argument(help="Repository with openspec/.")] = Path(),
) -> None:
    """Print the traceability matrix of REPO and every drift problem.

    Drift is a scenario renamed, reworded, missing, unimplemented or failing. Exit 1 on drift.
    """
    from conformance.cli._matrix import build_matrix_rows  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    matrix = build_matrix_rows(require_openspec(repo))
    rows = [
        [row.requirement_id, row.scenario_id, *(row.cells.get(c, "") for c in matrix.columns)]
        for row in matrix.rows
    ]
    out.table("traceability matrix", ["requirement", "scenario", *matrix.columns], rows)
    for problem in matrix.problems:
        out.line(problem)
    out.line(f"{len(matrix.rows)} scenario(s), {len(matrix.problems)} drift problem(s)")
    if matrix.problems:
        raise typer.Exit(EXIT_FAILED)
