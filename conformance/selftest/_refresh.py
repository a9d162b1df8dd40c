"""Refresh the kit's seed order (``python -m conformance.selftest``, maintainers only).

Judges every catalogued mutant by the fast path without any order and writes the probe that
killed each one to :data:`conformance.selftest._seed.SEED_FILE`. Kept apart from
:mod:`conformance.selftest._seed`, which the fast path reads, so that reading the seed never
imports the self-test runner (no import cycle).
"""

from __future__ import annotations

from conformance.selftest._execute import default_jobs, execute_units
from conformance.selftest._run import start_selftest
from conformance.selftest._seed import SEED_FILE, write_seed

__all__ = ["main"]


def _measure() -> dict[str, list[str]]:
    """Judge every catalogued mutant by the fast path without any order; return each one's kill."""
    pending = start_selftest(reference=False, fast=True, seed=False)
    pending.cancel()
    results = execute_units(pending.units, examples=pending.examples, jobs=default_jobs())
    killers: dict[str, list[str]] = {}
    for result in results:
        judge = pending.units[result.index].judge
        if result.results and result.results[-1].kills(judge):
            killers[judge.name] = [result.results[-1].probe.key]
    return killers


def main() -> None:
    """Measure every catalogued mutant's kill and rewrite :data:`SEED_FILE` (maintainers)."""
    measured = _measure()
    write_seed(measured)
    print(f"{SEED_FILE}: {len(measured)} mutants")  # noqa: T201 - the command's one line
