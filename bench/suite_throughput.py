"""Benchmark 4: suite throughput, scenarios per second, in-process vs over stdio.

The fixtures are the spec scenario fixtures: every fixture the Gherkin suite runs
(``conformance.suite.run_suite`` through a recording adapter, see :mod:`bench._capture`). Each is
then replayed through ``InProcessAdapter("reference_harness.iut:create")`` and through
``StdioAdapter([python, "-m", "reference_harness.stdio", "--scripted"])`` (one child process,
started and greeted before timing; scripted model turns on both sides), alternating which adapter
goes first, fixture by fixture.

Both adapters validate the ``run`` message and the returned observation against the
adapter-message contract; the reference IUT validates the fixture and its observation again;
every Run opens a fresh SQLite file. Over stdio each message is also serialised to one NDJSON
line, piped, parsed and validated once more on the other side.

Also measured: the ratio with the child's start-up spread over one pass of the suite, the child's
CPU seconds (it works in parallel with this process), and this process's memory (tracemalloc
peak) while one stdio Run with the largest observation is read, next to that observation's size
and to the peak of a whole pass: memory bounded by one message means the pass peaks no higher
than its largest message does.
"""

from __future__ import annotations

import functools
import gc
import json
import resource
import sys
import time
import tracemalloc
from typing import TYPE_CHECKING, Any, Final

from bench._capture import IUT_SPEC, capture_suite
from bench._result import BenchResult, Target
from bench._stats import Summary, paired_ratios
from conformance.adapters import InProcessAdapter, StdioAdapter

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["MAX_STDIO_RATIO", "NAME", "STDIO_COMMAND", "measure", "run"]

NAME: Final = "suite"
MAX_STDIO_RATIO: Final = 1.3
"""Target: the stdio adapter costs at most 1.3x the in-process adapter per scenario."""
STDIO_COMMAND: Final = (sys.executable, "-m", "reference_harness.stdio", "--scripted")
"""The reference Harness over stdio on the fixture's scripted turns, as in process: without
``--scripted`` it declares ``MODEL_ENDPOINT`` and every Run's model calls become HTTP requests to
the kit's endpoint, which is no longer the same work as the in-process side."""


def _timed_run(
    adapter: InProcessAdapter | StdioAdapter, fixture: dict[str, Any]
) -> tuple[int, Any]:
    gc.collect()  # outside the timed region
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
        memory = _memory(stdio, chosen)
    finally:
        inprocess.close()
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        stdio.close()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu_s = (children.ru_utime + children.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    result = _report(len(chosen), rounds, times, startup_ns, agree=agree)
    _add_stdio_costs(
        result,
        count=len(chosen),
        times=times,
        startup_ns=startup_ns,
        child_cpu_s=child_cpu_s,
        memory=memory,
    )
    return result


def _peak(action: Any) -> int:  # noqa: ANN401 - a callable
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _run_each(stdio: StdioAdapter, fixtures: Sequence[dict[str, Any]]) -> None:
    """Run every fixture, keeping no observation (each is dropped before the next Run)."""
    for fixture in fixtures:
        stdio.run(fixture)


def _memory(stdio: StdioAdapter, fixtures: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Peak bytes for the largest-observation Run alone and for a whole pass, and its size."""
    sizes = [len(json.dumps(stdio.run(f), separators=(",", ":"))) for f in fixtures]
    largest = fixtures[max(range(len(fixtures)), key=sizes.__getitem__)]
    return {
        "largest_observation_bytes": max(sizes),
        "peak_largest_run_bytes": _peak(lambda: stdio.run(largest)),
        "peak_pass_bytes": _peak(functools.partial(_run_each, stdio, fixtures)),
    }


def _add_stdio_costs(  # noqa: PLR0913 - every number the report adds
    result: BenchResult,
    *,
    count: int,
    times: dict[str, list[float]],
    startup_ns: int,
    child_cpu_s: float,
    memory: dict[str, int],
) -> None:
    ratio = Summary.of(paired_ratios(times["stdio"], times["in-process"]))
    first_pass = {name: sum(values[:count]) for name, values in times.items()}
    with_startup = (first_pass["stdio"] + startup_ns) / first_pass["in-process"]
    met = ratio.median <= MAX_STDIO_RATIO
    result.targets.append(
        Target(
            goal=f"stdio <= {MAX_STDIO_RATIO}x in-process per scenario",
            measured=f"{ratio.median:.2f}x",
            met=met,
            margin=f"{MAX_STDIO_RATIO / ratio.median:.2f}x headroom"
            if met
            else f"missed by {ratio.median / MAX_STDIO_RATIO:.2f}x",
        )
    )
    pass_over_one = memory["peak_pass_bytes"] / max(memory["peak_largest_run_bytes"], 1)
    result.data["stdio_with_startup_over_inprocess"] = with_startup
    result.data["stdio_child_cpu_s"] = child_cpu_s
    result.data["memory"] = {**memory, "pass_over_largest_run": pass_over_one}
    result.notes.append(
        f"With the child's start-up ({startup_ns / 1e6:,.0f} ms) spread over one pass of "
        f"{count} scenarios, stdio costs {with_startup:.2f}x in-process. The child used "
        f"{child_cpu_s:.1f} CPU s in parallel (all passes and the memory runs)."
    )
    result.notes.append(
        "Memory in this process (tracemalloc peak): the Run with the largest observation "
        f"({memory['largest_observation_bytes'] / 1024:,.0f} KiB as JSON) peaks at "
        f"{memory['peak_largest_run_bytes'] / 1024:,.0f} KiB; a whole pass peaks at "
        f"{memory['peak_pass_bytes'] / 1024:,.0f} KiB ({pass_over_one:.2f}x)."
    )


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
