"""The traceability matrix as report rows, from ``conformance.traceability``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.cli._errors import CliSetupError
from conformance.traceability import REPORT_COLUMNS, build_matrix, report_rows

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.reports import MatrixRow
    from conformance.suite import SuiteResult

__all__ = ["MatrixView", "build_matrix_rows"]


@dataclass(frozen=True)
class MatrixView:
    """What ``srdh trace`` and the reports show of the traceability matrix.

    Rows and column names for reports, the drift problems (one line each), the sentence ->
    rule -> mutant matrix (``sentences``, JSON-ready dicts), its notes, and the whole matrix as
    JSON (``document``).
    """

    rows: tuple[MatrixRow, ...]
    columns: tuple[str, ...]
    problems: tuple[str, ...]
    sentences: tuple[dict[str, object], ...] = ()
    notes: tuple[str, ...] = ()
    document: dict[str, object] | None = None


def build_matrix_rows(
    repo: Path, results: SuiteResult | None = None, *, features: Path | None = None
) -> MatrixView:
    """Build the matrix of ``repo`` (with the suite's ``results`` when given).

    ``features`` is the Gherkin mirror folder (default ``repo/features``).

    Raises:
        CliSetupError: a part of the kit the matrix reads is not installed.
        ParseError: a spec file cannot be read.
    """
    try:
        if features is None:
            matrix = build_matrix(repo, results=results)
        else:
            matrix = build_matrix(repo, results=results, features=str(features))
    except ImportError as exc:
        msg = f"the traceability matrix is not available: {exc}"
        raise CliSetupError(msg) from None
    problems = tuple(str(issue) for issue in matrix.issues)
    return MatrixView(
        report_rows(matrix),
        tuple(REPORT_COLUMNS),
        problems,
        sentences=tuple(row.to_dict() for row in matrix.sentences),
        notes=matrix.notes,
        document=matrix.to_dict(),
    )
