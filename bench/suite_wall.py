"""Benchmark 6: wall time of the whole Gherkin suite against the in-process reference Harness.

``conformance.suite.run_suite(InProcessAdapter("reference_harness.iut:create"))``, once per process
(a nested pytest session; see :mod:`bench._capture`), with the CPU seconds of this process next to
the wall seconds: the gap is time spent waiting (SQLite ``fsync``, threads, other processes).
"""

from __future__ import annotations

import os
from typing import Final

from bench._capture import capture_suite
from bench._result import BenchResult, Target

__all__ = ["NAME", "TARGET_S", "measure", "run"]

NAME: Final = "suite-wall"
TARGET_S: Final = 60.0
"""Target: the in-process suite runs in under 60 s on 2 cores."""


def measure() -> BenchResult:
    """Time one in-process suite run (cached per process) and judge it against 60 s."""
    capture = capture_suite()
    outcomes = ", ".join(f"{count} {name}" for name, count in sorted(capture.scenarios.items()))
    result = BenchResult(
        name=NAME,
        title="In-process Gherkin suite wall time (run_suite against the reference Harness)",
        columns=["scenario examples", "outcomes", "fixtures run", "wall s", "CPU s", "CPU / wall"],
        rows=[
            [
                str(sum(capture.scenarios.values())),
                outcomes,
                str(len(capture.fixtures)),
                f"{capture.wall_s:.1f}",
                f"{capture.cpu_s:.1f}",
                f"{capture.cpu_s / capture.wall_s:.0%}",
            ]
        ],
        data={
            "wall_s": capture.wall_s,
            "cpu_s": capture.cpu_s,
            "scenarios": capture.scenarios,
            "fixtures": len(capture.fixtures),
            "exit_code": capture.exit_code,
            "failures": list(capture.failures),
            "cpus": len(os.sched_getaffinity(0)),
        },
        verdicts_agree=capture.exit_code == 0,
    )
    result.notes.extend(f"failed: {failure}" for failure in capture.failures)
    met = capture.wall_s < TARGET_S
    result.targets.append(
        Target(
            goal=f"in-process suite < {TARGET_S:g} s on 2 cores",
            measured=f"{capture.wall_s:.1f} s",
            met=met,
            margin=(
                f"met with {TARGET_S - capture.wall_s:.1f} s to spare"
                if met
                else f"missed by {capture.wall_s - TARGET_S:.1f} s"
            ),
        )
    )
    return result


def run(*, quick: bool) -> BenchResult:  # noqa: ARG001 - one suite run either way
    """Run the benchmark (the suite runs once in either mode)."""
    return measure()
