"""Benchmark 4: suite throughput, scenarios per second, in-process vs over stdio.

The fixtures are the spec scenario fixtures: every fixture the Gherkin suite runs
(``conformance.suite.run_suite`` through a recording adapter, see :mod:`bench._capture`). Each is
then replayed through ``InProcessAdapter("reference_harness.iut:create")`` and through
``StdioAdapter([python, "-m", "reference_harness.stdio"])`` (one child process, started and
greeted before timing), alternating which adapter goes first, fixture by fixture.

Both adapters validate the ``run`` message and the returned observation against the
adapter-message contract (python-jsonschema); the reference IUT validates the fixture and its
observation again; every Run opens a fresh SQLite file. Over stdio each message is also
serialised to one NDJSON line, piped, parsed and validated once more on the other side.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Final

from bench._capture import IUT_SPEC, capture_suite
from bench._result import BenchResult, Target
from bench._stats import Summary, paired_ratios
from conformance.adapters import InProcessAdapter, StdioAdapter

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["NAME", "STDIO_COMMAND", "measure", "run"]

NAME: Final = "suite"
STDIO_COMMAND: Final = (sys.executable, "-m", "reference_harness.stdio")


def _timed_run(
    adapter: InProcessAdapter | StdioAdapter, fixture: dict[str, Any]
) -> tuple[int, Any]:
    start = time.perf_counter_ns()
    observation = adapter.run(fixture)
    return time.perf_counter_ns() - start, observation


def _normalized(observation: dict[str, Any]) -> dict[str, Any]:
    trace = [
        {key: value for key, value in event.items() if key != "ts_ms"}
        for event in observation["trace"]
    ]
    return {"trace": trace, "published_result": observation["published_result"]}


def measure(fixtures: Sequence[dict[str, Any]] | None = None, *, rounds: int = 2) -> BenchResult:
    """Replay ``fixtures`` (default: the captured suite fixtures) through both adapters.

    Args:
        fixtures: Scenario Fixture documents; ``None`` captures the suite's own.
        rounds: passes over the fixtures; each fixture runs once per adapter per pass.

    Returns:
        A :class:`BenchResult`: scenarios/s per adapter, per-fixture median milliseconds, the
        paired stdio / in-process ratio, and whether both adapters observed the same trace
        (``ts_ms`` dropped) and published result for every fixture.
    """
    chosen = list(capture_suite().fixtures if fixtures is None else fixtures)
    inprocess = InProcessAdapter(IUT_SPEC)
    stdio = StdioAdapter(list(STDIO_COMMAND))
    try:
        inprocess.hello()
        start = time.perf_counter_ns()
        stdio.hello()
        startup_ns = time.perf_counter_ns() - start
        times: dict[str, list[float]] = {"in-process": [], "stdio": []}
        agree = True
        for round_index in range(rounds):
            for index, fixture in enumerate(chosen):
                order: list[tuple[str, InProcessAdapter | StdioAdapter]] = [
                    ("in-process", inprocess),
                    ("stdio", stdio),
                ]
                if (round_index + index) % 2:
                    order.reverse()
                seen = []
                for name, adapter in order:
                    elapsed, observation = _timed_run(adapter, fixture)
                    times[name].append(float(elapsed))
                    seen.append(_normalized(observation))
                agree = agree and seen[0] == seen[1]
    finally:
        inprocess.close()
        stdio.close()
    return _report(len(chosen), rounds, times, startup_ns, agree=agree)


def _report(
    count: int, rounds: int, times: dict[str, list[float]], startup_ns: int, *, agree: bool
) -> BenchResult:
    result = BenchResult(
        name=NAME,
        title=f"Suite throughput over {count} spec scenario fixtures x {rounds} passes",
        columns=["adapter", "scenarios/s", "ms per scenario (median, IQR)", "stdio / in-process"],
        verdicts_agree=agree,
    )
    ratio = Summary.of(paired_ratios(times["stdio"], times["in-process"]))
    data: dict[str, Any] = {
        "fixtures": count,
        "rounds": rounds,
        "stdio_startup_ms": startup_ns / 1e6,
    }
    for name, values in times.items():
        per_pass = [sum(values[i * count : (i + 1) * count]) for i in range(rounds)]
        throughput = Summary.of([count / (total / 1e9) for total in per_pass])
        each = Summary.of(values).scaled(1e-6)
        result.rows.append(
            [
                name,
                throughput.text(2),
                each.text(1),
                "-" if name == "in-process" else f"{ratio.median:.2f}x (IQR {ratio.iqr:.2f})",
            ]
        )
        data[name] = {"scenarios_per_s": throughput.as_dict(), "ms_per_scenario": each.as_dict()}
    data["stdio_over_inprocess"] = ratio.as_dict()
    result.data = data
    result.targets.append(
        Target(
            goal="both adapters observe the same normalized trace and result on every fixture",
            measured="same" if agree else "DIFFERENT",
            met=agree,
            margin="-",
        )
    )
    result.notes.append(
        f"The stdio child took {startup_ns / 1e6:,.0f} ms from spawn to hello (not in the "
        "per-scenario times). No throughput target is set by the issue."
    )
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: the first 12 fixtures, one pass)."""
    if quick:
        return measure(capture_suite().fixtures[:12], rounds=1)
    return measure(rounds=2)
