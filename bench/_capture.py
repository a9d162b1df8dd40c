"""Capture the spec scenario fixtures by running the Gherkin suite through a recording adapter.

``run_suite`` (``conformance.suite``) drives every scenario of ``features/`` through an adapter;
the recorder passes each call to the in-process adapter of the reference Harness and keeps a copy
of every fixture. The run is timed (wall and CPU seconds), so one suite run serves both the suite
wall-time benchmark and, through its fixtures, the adapter-throughput benchmark.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from conformance.adapters import InProcessAdapter, RecordingAdapter
from conformance.suite import run_suite

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["IUT_SPEC", "SuiteCapture", "capture_suite"]

IUT_SPEC: Final = "reference_harness.iut:create"


@dataclass(frozen=True, slots=True)
class SuiteCapture:
    """One in-process suite run.

    Attributes:
        wall_s: wall-clock seconds of ``run_suite``.
        cpu_s: CPU seconds of this process during it (all threads).
        scenarios: scenario results by outcome (``passed``, ``failed``, ...).
        fixtures: every fixture the suite ran, in order.
        exit_code: the nested pytest session's exit code.
        failures: ``"<nodeid>: <first line of the message>"`` of every failed example.
    """

    wall_s: float
    cpu_s: float
    scenarios: dict[str, int]
    fixtures: tuple[dict[str, Any], ...]
    exit_code: int
    failures: tuple[str, ...] = ()


def _outcomes(outcomes: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


@functools.lru_cache(maxsize=1)
def capture_suite() -> SuiteCapture:
    """Run the whole Gherkin suite in-process once (cached for this process) and time it.

    Raises:
        conformance.suite.SuiteSetupError: the suite could not start.
    """
    recorder = RecordingAdapter(InProcessAdapter(IUT_SPEC))
    try:
        wall_start, cpu_start = time.perf_counter_ns(), time.process_time_ns()
        result = run_suite(recorder)
        wall_ns = time.perf_counter_ns() - wall_start
        cpu_ns = time.process_time_ns() - cpu_start
    finally:
        recorder.close()
    examples = [
        example
        for requirement in result.requirements.values()
        for scenario in requirement.scenarios.values()
        for example in scenario.examples
    ]
    failures = tuple(
        f"{example.nodeid}: {(example.message.splitlines() or [''])[0][:300]}"
        for example in examples
        if example.outcome == "failed"
    )
    return SuiteCapture(
        wall_s=wall_ns / 1e9,
        cpu_s=cpu_ns / 1e9,
        scenarios=_outcomes(example.outcome for example in examples),
        fixtures=tuple(recorder.fixtures),
        exit_code=result.exit_code,
        failures=failures,
    )
