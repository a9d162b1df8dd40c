"""The kit's seed order: the probe that killed each catalogued mutant when it was last measured.

A fresh clone has no order cache (:mod:`conformance.selftest._cache`), so without a seed the fast
path tries each mutant's own requirement's scenarios first and finds some kills only after 30 to
40 probes. ``killers.json`` beside this module records, per mutant of
:mod:`reference_harness.mutants`, the probe key that killed it (``scenario:<id>`` or
``property:<id>``), in the order cache's format. Like the cache it only orders probes, never
decides a verdict: an entry naming a probe that no longer exists, or no longer kills, costs time
and nothing else; the user's own cache, when present, comes first.

Refresh it after changing the catalogue or the suite (the project's tests fail when an entry no
longer kills its mutant first; :mod:`conformance.selftest._refresh` measures it)::

    python -m conformance.selftest
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.selftest._cache import read_killers

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["SEED_FILE", "order", "read_seed", "write_seed"]

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
