"""Turn the suite's result into a :class:`Report` for ``srdh run``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.cli._kit import KIT_NAME, kit_version
from conformance.reports import Report, Versions, matrix_from_results
from conformance.verify import requirements_from_suite

if TYPE_CHECKING:
    from conformance.verify import SuiteResultLike

__all__ = ["report_from_suite"]


def report_from_suite(result: SuiteResultLike, title: str) -> Report:
    """A report of one suite run: kit and IUT versions, results per requirement and scenario."""
    impl = result.implementation
    requirements = requirements_from_suite(result)
    rows, columns = matrix_from_results(requirements)
    return Report(
        title=title,
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(str(impl.get("name", "unknown")), str(impl.get("version", "unknown"))),
        requirements=requirements,
        matrix=rows,
        matrix_columns=columns,
    )
