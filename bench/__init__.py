"""Benchmarks of the SRDH conformance kit (issue 7), run as ``python -m bench``.

Every cost is measured as a ratio against a baseline run side by side in the same process,
interleaved (A/B, then B/A) so machine noise hits both; results are medians with inter-quartile
ranges. One module per benchmark, each with ``run(*, quick) -> BenchResult`` and a sized
``measure(...)`` for smoke tests:

- ``harness`` (:mod:`bench.harness_overhead`): Harness vs pydantic-ai agent loop, us per step
  at 10, 50, 200 and 1,000 steps;
- ``guard`` (:mod:`bench.evidence_guard`): EvidenceGuard scaling vs python-jsonschema;
- ``validation`` (:mod:`bench.validation`): documents/s of four validation paths, same verdicts;
- ``suite`` (:mod:`bench.suite_throughput`): scenarios/s in-process vs stdio, stdio memory;
- ``store`` (:mod:`bench.run_store`): previous-turn selection and inserts at 10k..1M Runs;
- ``suite-wall`` (:mod:`bench.suite_wall`): in-process suite wall time;
- ``verify`` (:mod:`bench.verify_wall`): ``srdh verify .`` vs one in-process suite run;
- ``startup`` (:mod:`bench.startup`): ``srdh --help`` and ``srdh validate`` start-up;
- ``endpoint-run`` (:mod:`bench.endpoint_run`): a plain ``srdh run`` of the reference over stdio
  with the kit's model endpoint vs in process, against the declared-wait floor
  (:mod:`bench.declared_wait`).

Public names: :data:`BENCHMARKS`, :func:`run_benchmark`, :class:`BenchResult`, :class:`Target`,
:class:`Summary`, :func:`interleave`, :func:`paired_ratios`, :func:`timed_ns`, :func:`main`.
"""

from bench._cli import main
from bench._registry import BENCHMARKS, run_benchmark
from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios, timed_ns

__all__ = [
    "BENCHMARKS",
    "BenchResult",
    "Summary",
    "Target",
    "interleave",
    "main",
    "paired_ratios",
    "run_benchmark",
    "timed_ns",
]
