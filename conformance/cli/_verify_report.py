"""Turn a :class:`VerifyResult` into a :class:`Report`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.cli._errors import CliSetupError
from conformance.cli._kit import KIT_NAME, kit_version
from conformance.cli._matrix import build_matrix_rows
from conformance.openspec import ParseError
from conformance.reports import MutantRow, Report, Versions, matrix_from_results
from conformance.selftest import SelftestResult
from conformance.suite import SuiteResult
from conformance.verify import requirements_from_suite

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.reports import MatrixRow
    from conformance.verify import VerifyResult

__all__ = ["verify_report"]

SUITE_STEP = "conformance suite"
SELFTEST_STEP = "mutant self-test"


def _mutants(result: VerifyResult) -> tuple[MutantRow, ...]:
    selftest = result.payloads.get(SELFTEST_STEP)
    if not isinstance(selftest, SelftestResult):
        return ()
    return tuple(
        MutantRow(
            m.name,
            m.kind,
            m.requirement_id,
            m.killed,
            (*m.killing_scenarios, *m.killing_properties),
        )
        for m in selftest.mutants
    )


def verify_report(result: VerifyResult, repo: Path) -> Report:
    """The verify report: its steps, the suite's results and the traceability matrix.

    The matrix is rebuilt with the suite's results (so it shows each scenario's outcome); when
    the traceability matrix cannot be built, the report falls back to a results-only matrix.
    """
    suite = result.payloads.get(SUITE_STEP)
    suite_result = suite if isinstance(suite, SuiteResult) else None
    requirements = requirements_from_suite(suite_result) if suite_result else ()
    impl = suite_result.implementation if suite_result else {}
    rows: tuple[MatrixRow, ...]
    try:
        view = build_matrix_rows(repo, suite_result)
        rows, columns = view.rows, view.columns
    except (CliSetupError, ParseError):
        rows, columns = matrix_from_results(requirements)
    return Report(
        title="srdh verify",
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(
            str(impl.get("name", "srdh-reference-harness")),
            str(impl.get("version", kit_version())),
        ),
        requirements=requirements,
        steps=result.steps,
        matrix=rows,
        matrix_columns=columns,
        mutants=_mutants(result),
    )
