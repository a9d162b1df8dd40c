"""Refresh the kit's seed order (``python -m conformance.selftest [NAME ...]``, maintainers only).

Judges catalogued mutants by the fast path without any order and writes the probe that killed
each one to :data:`conformance.selftest._seed.SEED_FILE`: every mutant, or only the ones named
(their entries replaced, the others kept; entries of mutants no longer catalogued are dropped).
The latitude variants are not judged: they pass, so they have no killer to record. Kept apart
from :mod:`conformance.selftest._seed`, which the fast path reads, so that reading the seed never
imports the self-test runner (no import cycle).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from conformance.selftest._execute import default_jobs, execute_units
from conformance.selftest._run import start_selftest
from conformance.selftest._seed import SEED_FILE, read_seed, write_seed

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main"]


def _measure(names: Sequence[str] | None) -> dict[str, list[str]]:
    """Judge the mutants ``names`` (``None``: all) by the fast path, unordered; their kills.

    Raises:
        KeyError: an unknown mutant name.
    """
    pending = start_selftest(mutants=names, reference=False, fast=True, seed=False, variants=False)
    pending.cancel()
    results = execute_units(pending.units, examples=pending.examples, jobs=default_jobs())
    killers: dict[str, list[str]] = {}
    for result in results:
        judge = pending.units[result.index].judge
        if result.results and result.results[-1].kills(judge):
            killers[judge.name] = [result.results[-1].probe.key]
    return killers


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the named mutants' kills (none named: every mutant) and rewrite :data:`SEED_FILE`.

    Exits 2 naming the unknown names when a name is not a catalogued IUT mutant.
    """
    from reference_harness.mutants import MUTANTS  # noqa: PLC0415 - optional

    names = list(sys.argv[1:] if argv is None else argv)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        print(f"unknown mutant(s): {', '.join(unknown)}", file=sys.stderr)  # noqa: T201
        raise SystemExit(2)
    measured = _measure(names or None)
    kept = (
        {n: k for n, k in read_seed().items() if n in MUTANTS and n not in names} if names else {}
    )
    write_seed({**kept, **measured})
    print(f"{SEED_FILE}: {len(measured)} mutants measured, {len(kept)} kept")  # noqa: T201 - the command's one line
