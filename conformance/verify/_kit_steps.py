"""Verify steps backed by the kit's larger parts: traceability, suite, mutant self-test.

A part that cannot run (a module it reads is missing, the reference harness breaks the adapter
protocol) makes its step FAILED with one line saying why, never a silent pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.adapters import AdapterError, InProcessAdapter, RecordingAdapter
from conformance.bdd import ThenRegistryError
from conformance.openspec import ParseError
from conformance.reports import Status, normalize_level
from conformance.selftest import CACHE_DIR, PendingSelftest, SelftestResult, start_selftest
from conformance.strategies import StrategyNotRegisteredError
from conformance.suite import CatalogueError, SuiteSetupError, run_suite
from conformance.traceability import build_matrix
from conformance.verify._outcome import Outcome, failed, passed
from conformance.verify._sources import features_for
from conformance.verify._suite_results import describe_error, requirements_from_suite
from conformance.verify._vocabulary_step import RUNS_KEY

if TYPE_CHECKING:
    from conformance.verify._outcome import VerifyContext

__all__ = [
    "REFERENCE_IUT",
    "SELFTEST_KEY",
    "conformance_suite",
    "mutant_selftest",
    "selftest_detail",
    "start_mutant_selftest",
    "traceability",
]

REFERENCE_IUT = "reference_harness.iut:create"
"""The in-process factory of the reference harness."""

_REFERENCE_SUITE = "reference suite result"


def traceability(ctx: VerifyContext) -> Outcome:
    """Build the traceability matrix of ``<repo>/openspec`` and ``<repo>/features``.

    The mirror is ``<repo>/features``, or the kit's own features when the repository has none
    (``srdh verify`` has checked that a repository's copy is the kit's; see ``_sources``).
    PASSED when the matrix is complete (every spec Scenario mirrored, its steps bound, a property
    test registered; every MUST/SHALL sentence quoted by a check rule, every rule fragment in
    exactly one sentence). The payload is the :class:`~conformance.traceability.Matrix`.
    """
    try:
        matrix = build_matrix(ctx.repo, features=str(features_for(ctx.repo)))
    except ParseError as exc:
        return failed(str(exc))
    except ImportError as exc:  # a part the matrix reads (e.g. the property registry) is missing
        return failed(f"not available: {exc}")
    except StrategyNotRegisteredError as exc:  # a property names a scenario with no strategy
        return failed(str(exc))
    normative = sum(1 for row in matrix.sentences if row.sentence.normative)
    detail = (
        f"{len(matrix.rows)} spec scenario(s), {normative} normative sentence(s), "
        f"{len(matrix.issues)} issue(s)"
    )
    if matrix.issues:
        return failed(f"{detail}; first: {matrix.issues[0]}", matrix)
    return passed(detail, matrix)


def conformance_suite(ctx: VerifyContext) -> Outcome:
    """Run the conformance suite against the reference harness, in process.

    PASSED when every MUST requirement passed (a MUST scenario not run is a failure). The payload
    is the suite's result, for the reports; every Run it made is left in ``ctx.shared`` under
    :data:`~conformance.verify._vocabulary_step.RUNS_KEY` for the vocabulary coverage step.
    """
    adapter = RecordingAdapter(InProcessAdapter(REFERENCE_IUT))
    try:
        result = run_suite(adapter)
        ctx.shared[_REFERENCE_SUITE] = result
        ctx.shared[RUNS_KEY] = adapter.runs  # for the vocabulary coverage step
    except (AdapterError, SuiteSetupError, CatalogueError, ThenRegistryError) as exc:
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


def selftest_detail(result: SelftestResult) -> str:
    """One line: how many mutants were killed, survivors and reference failures named."""
    mutants = [m for m in result.mutants if m.kind != "variant"]
    variants = [m for m in result.mutants if m.kind == "variant"]
    killed = sum(m.killed for m in mutants)
    detail = f"{killed}/{len(mutants)} mutants killed"
    if variants:
        passing = sum(m.as_expected for m in variants)
        detail += f", {passing}/{len(variants)} latitude variants passed"
    if result.survivors:
        detail += f"; survivors: {', '.join(m.name for m in result.survivors)}"
    if result.false_kills:
        detail += f"; false kills: {', '.join(m.name for m in result.false_kills)}"
    if result.reference_failures:
        detail += f"; reference failed: {', '.join(result.reference_failures)}"
    return detail


SELFTEST_KEY = "mutant self-test"
"""Where :func:`start_mutant_selftest` leaves the running self-test in ``ctx.shared``."""


def start_mutant_selftest(ctx: VerifyContext) -> PendingSelftest:
    """Start the self-test's workers now (they use the other core during earlier steps).

    The reference's Gherkin scenarios are left to the conformance-suite step, whose result
    :func:`mutant_selftest` hands over; the order cache is ``<repo>/.srdh_cache``.
    """
    return start_selftest(
        cache=ctx.repo / CACHE_DIR / "selftest.json",
        reference_suite_later=True,
        variants=False,  # the latitude variants are `srdh selftest`'s (docs/decisions/latitude.md)
    )


def mutant_selftest(ctx: VerifyContext) -> Outcome:
    """Run the mutant self-test: the reference passes, the suite fails every broken harness.

    The reference Harness's suite result of the conformance-suite step, when it ran, is reused
    (the suite is not run on it twice); the order cache lives in ``<repo>/.srdh_cache``. The
    payload is the :class:`~conformance.selftest.SelftestResult`.
    """
    try:
        pending = ctx.shared.pop(SELFTEST_KEY, None) or start_mutant_selftest(ctx)
        try:
            result = pending.result(reference_suite=ctx.shared.get(_REFERENCE_SUITE))
        finally:
            pending.cancel()
    except (AdapterError, SuiteSetupError, CatalogueError, ThenRegistryError) as exc:
        return failed(describe_error(exc))
    if result.passed:
        return passed(selftest_detail(result), result)
    return failed(selftest_detail(result), result)
