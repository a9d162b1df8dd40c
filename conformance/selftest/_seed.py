"""The kit's seed order: the probe that killed each catalogued mutant when it was last measured.

A fresh clone has no order cache (:mod:`conformance.selftest._cache`), so without a seed the fast
path tries each mutant's own requirement's scenarios first and finds some kills only after 30 to
40 probes. ``killers.json`` beside this module records, per mutant of
:mod:`reference_harness.mutants`, the probe key that killed it (``scenario:<id>`` or
``property:<id>``), in the order cache's format. Like the cache it only orders probes, never
decides a verdict: an entry naming a probe that no longer exists, or no longer kills, costs time
and nothing else; the user's own cache, when present, comes first.

Refresh it after changing the catalogue or the suite (the project's tests fail when an entry no
longer kills its mutant first)::

    python -m conformance.selftest
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.selftest._cache import read_killers

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["SEED_FILE", "main", "order", "read_seed", "write_seed"]

SEED_FILE = Path(__file__).with_name("killers.json")
"""The seed order, shipped with the kit (package data)."""


def read_seed() -> dict[str, list[str]]:
    """Mutant name → the probe keys to try first (``{}`` if the seed is missing or unusable)."""
    return read_killers(SEED_FILE)


def order(cache: Path | None) -> dict[str, list[str]]:
    """The probe keys to try first per mutant: the user's cache, then the kit's seed."""
    seeded = read_seed()
    cached = read_killers(cache)
    return {n: [*cached.get(n, []), *seeded.get(n, [])] for n in {*seeded, *cached}}


def write_seed(killers: Mapping[str, Sequence[str]], path: Path = SEED_FILE) -> None:
    """Write ``killers`` (mutant → probe keys) as the seed, sorted, one entry per line."""
    document = {"version": 1, "killers": {n: list(killers[n]) for n in sorted(killers)}}
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _measure() -> dict[str, list[str]]:
    """Judge every catalogued mutant by the fast path without any order; return each one's kill."""
    from conformance.selftest._execute import default_jobs, execute_units  # noqa: PLC0415
    from conformance.selftest._run import start_selftest  # noqa: PLC0415

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
