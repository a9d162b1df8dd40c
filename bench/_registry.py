"""The benchmarks by CLI name, imported on first use (``--only store`` loads no pydantic-ai)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bench._result import BenchResult

__all__ = ["BENCHMARKS", "run_benchmark"]

BENCHMARKS: Final = {
    "harness": "bench.harness_overhead",
    "guard": "bench.evidence_guard",
    "validation": "bench.validation",
    "suite": "bench.suite_throughput",
    "store": "bench.run_store",
    "suite-wall": "bench.suite_wall",
    "verify": "bench.verify_wall",
    "startup": "bench.startup",
    "endpoint-run": "bench.endpoint_run",
}
"""CLI name -> module with ``run(*, quick: bool) -> BenchResult``, in report order."""


def run_benchmark(name: str, *, quick: bool) -> BenchResult:
    """Run the benchmark called ``name``.

    Raises:
        KeyError: ``name`` is not in :data:`BENCHMARKS`.
    """
    module = importlib.import_module(BENCHMARKS[name])
    result: BenchResult = module.run(quick=quick)
    return result
