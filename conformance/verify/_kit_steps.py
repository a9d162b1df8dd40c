"""Verify steps backed by kit parts built elsewhere: traceability, suite, mutant self-test.

Each part is looked up when the step runs. A part that is not importable makes its step FAILED
("not available"), never a silent pass.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from conformance.adapters import AdapterError, InProcessAdapter
from conformance.openspec import ParseError
from conformance.reports import Status, normalize_level
from conformance.suite import CatalogueError, SuiteSetupError, run_suite
from conformance.traceability import build_matrix
from conformance.verify._outcome import Outcome, failed, not_available, passed
from conformance.verify._suite_results import describe_error, requirements_from_suite

if TYPE_CHECKING:
    from conformance.verify._outcome import VerifyContext

__all__ = [
    "REFERENCE_IUT",
    "conformance_suite",
    "mutant_selftest",
    "optional_attr",
    "traceability",
]

REFERENCE_IUT = "reference_harness.iut:create"
"""The in-process factory of the reference harness."""


def optional_attr(module: str, name: str) -> Any:  # noqa: ANN401 - whatever the module exports
    """``module.name`` if ``module`` imports and has it, else ``None``."""
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None
        raise
    return getattr(loaded, name, None)


def traceability(ctx: VerifyContext) -> Outcome:
    """Build the traceability matrix of ``<repo>/openspec`` and ``<repo>/features``.

    PASSED when the matrix is complete (every spec Scenario mirrored, its steps bound, a property
    test registered). The payload is the :class:`~conformance.traceability.Matrix`.
    """
    try:
        matrix = build_matrix(ctx.repo)
    except ParseError as exc:
        return failed(str(exc))
    except ImportError as exc:  # a part the matrix reads (e.g. the property registry) is missing
        return failed(f"not available: {exc}")
    detail = f"{len(matrix.rows)} spec scenario(s), {len(matrix.issues)} issue(s)"
    if matrix.issues:
        return failed(f"{detail}; first: {matrix.issues[0]}", matrix)
    return passed(detail, matrix)


def conformance_suite(ctx: VerifyContext) -> Outcome:
    """Run the conformance suite against the reference harness, in process.

    PASSED when every MUST requirement passed (a MUST scenario not run is a failure). The payload
    is the suite's result, for the reports.
    """
    del ctx
    adapter = InProcessAdapter(REFERENCE_IUT)
    try:
        result = run_suite(adapter)
    except (AdapterError, SuiteSetupError, CatalogueError) as exc:
        return failed(describe_error(exc))
    finally:
        adapter.close()
    requirements = requirements_from_suite(result)
    states = [s.status for r in requirements for s in r.scenarios]
    detail = (
        f"{len(states)} scenario(s): {states.count(Status.PASSED)} passed, "
        f"{states.count(Status.FAILED)} failed, {states.count(Status.NOT_TESTED)} not tested"
    )
    must = [r for r in requirements if normalize_level(r.level) == "MUST"]
    if all(r.status is Status.PASSED for r in must):
        return passed(detail, result)
    first = next(
        f"{r.requirement_id}/{s.scenario_id} {s.status.value}"
        for r in must
        for s in r.scenarios
        if s.status is not Status.PASSED
    )
    return failed(f"{detail}; first: {first}", result)


def mutant_selftest(ctx: VerifyContext) -> Outcome:
    """Run the mutant self-test: the suite must fail every broken harness."""
    run = optional_attr("conformance.selftest", "run_selftest")
    if run is None:
        return not_available("conformance.selftest.run_selftest")
    del ctx
    return not_available("conformance.selftest (integration pending)")
