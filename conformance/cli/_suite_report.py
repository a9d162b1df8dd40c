"""Turn the suite's result into a :class:`Report` for ``srdh run``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import conformance
from conformance.cli._errors import CliSetupError
from conformance.cli._kit import KIT_NAME, kit_version
from conformance.cli._matrix import build_matrix_rows
from conformance.reports import MatrixRow, Report, Versions, matrix_from_results
from conformance.verify import requirements_from_suite

if TYPE_CHECKING:
    from conformance.reports import RequirementResult
    from conformance.suite import SuiteResult

__all__ = ["kit_matrix", "report_from_suite"]


def kit_matrix(
    result: SuiteResult, requirements: tuple[RequirementResult, ...]
) -> tuple[tuple[MatrixRow, ...], tuple[str, ...]]:
    """The traceability matrix of the kit's own spec and Gherkin mirror, with ``result``.

    In a source checkout (the kit's ``openspec/`` and ``features/`` beside the package) this is
    the full matrix; otherwise (an installed wheel ships no spec) a results-only matrix.
    """
    root = Path(conformance.__file__).resolve().parents[1]
    if (root / "openspec").is_dir() and (root / "features").is_dir():
        try:
            view = build_matrix_rows(root, result)
        except CliSetupError:
            pass
        else:
            return view.rows, view.columns
    return matrix_from_results(requirements)


def report_from_suite(
    result: SuiteResult,
    title: str,
    requirements: tuple[RequirementResult, ...] | None = None,
) -> Report:
    """A report of one suite run: kit and IUT versions, results per requirement and scenario.

    ``requirements`` overrides the results read from ``result`` (e.g. merged with properties).
    """
    impl = result.implementation
    requirements = requirements if requirements is not None else requirements_from_suite(result)
    rows, columns = kit_matrix(result, requirements)
    return Report(
        title=title,
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(str(impl.get("name", "unknown")), str(impl.get("version", "unknown"))),
        requirements=requirements,
        matrix=rows,
        matrix_columns=columns,
    )
