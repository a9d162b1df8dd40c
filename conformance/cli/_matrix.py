"""The traceability matrix as report rows, from ``conformance.traceability``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.cli._errors import CliSetupError
from conformance.verify._kit_steps import optional_attr

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.reports import MatrixRow

__all__ = ["MatrixView", "build_matrix_rows"]


@dataclass(frozen=True)
class MatrixView:
    """Rows and column names for reports, and the drift problems (one line each)."""

    rows: tuple[MatrixRow, ...]
    columns: tuple[str, ...]
    problems: tuple[str, ...]


def build_matrix_rows(repo: Path) -> MatrixView:
    """Build the matrix of ``repo``.

    Raises:
        CliSetupError: ``conformance.traceability`` is not part of this installation.
    """
    build = optional_attr("conformance.traceability", "build_matrix")
    if build is None:
        msg = "the traceability matrix (conformance.traceability.build_matrix) is not available"
        raise CliSetupError(msg)
    del repo
    msg = "the traceability integration is pending"
    raise CliSetupError(msg)
