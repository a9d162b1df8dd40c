"""The ``vocabulary coverage`` step of ``srdh verify``: the default suite run reaches every element.

The conformance-suite step runs the reference Harness through a
:class:`~conformance.adapters.RecordingAdapter` and leaves every ``(fixture, observation)`` pair
it ran in :data:`RUNS_KEY` (the any-fixture scenario's pinned and drawn fixtures included). This
step measures them with :class:`~conformance.vocabulary.VocabularyMeter`: PASSED only when every
reachable element of the fixture vocabulary was reached (issue 19 item 3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conformance.verify._outcome import Outcome, failed, passed
from conformance.vocabulary import VocabularyMeter

if TYPE_CHECKING:
    from conformance.verify._outcome import VerifyContext

__all__ = ["RUNS_KEY", "coverage_detail", "vocabulary_coverage"]

RUNS_KEY: Final = "reference suite runs"
"""Where the conformance-suite step leaves the Runs it made, in ``ctx.shared``."""

_SHOWN: Final = 8


def coverage_detail(meter: VocabularyMeter) -> str:
    """One line: the percentage, the counts and the first unreached elements."""
    coverage = meter.coverage()
    counted = len(coverage.counted)
    reached = counted - len(coverage.missing)
    unreachable = len(coverage.elements) - counted
    detail = (
        f"{coverage.percent:.1f} % of the fixture vocabulary reached: {reached}/{counted} "
        f"elements by {coverage.runs} Run(s) ({unreachable} listed unreachable)"
    )
    if coverage.missing:
        names = [e.name for e in coverage.missing]
        more = f" (+{len(names) - _SHOWN} more)" if len(names) > _SHOWN else ""
        detail += f"; never reached: {', '.join(names[:_SHOWN])}{more}"
    return detail


def vocabulary_coverage(ctx: VerifyContext) -> Outcome:
    """Measure the Runs of the conformance-suite step; FAILED when an element is never reached.

    The payload is the :class:`~conformance.vocabulary.Coverage`.
    """
    runs = ctx.shared.get(RUNS_KEY)
    if runs is None:
        return failed("not available: the conformance suite step recorded no Runs")
    meter = VocabularyMeter()
    meter.add_all(runs)
    coverage = meter.coverage()
    detail = coverage_detail(meter)
    return (passed if not coverage.missing else failed)(detail, coverage)
