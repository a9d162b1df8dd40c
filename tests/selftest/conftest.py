"""Shared set-up of the self-test's tests.

* The self-test runs many Harness Runs: their SQLite files go to RAM when it is available.
* ``judged(name)``: the self-test's slow path (:func:`conformance.selftest.judge_iut_probes`
  with ``fast=False``: every scenario, every example, the requirement's properties and the global
  invariants at 5 examples) on mutant ``name``, then its fast path (``fast=True``), one after the
  other in one process as the fast-vs-slow comparison always ran them, **once per test run**,
  read by every test that asks about that mutant (the fast-vs-slow comparison, the evidence,
  runtime and model-input kill tests). Under pytest-xdist the workers share it through a file in
  the run's common temporary folder, written under a file lock (the first worker to need a mutant
  runs it, the other reads it), so each mutant costs one slow path however the tests are
  distributed. A scenario probe's outcome depends only on the IUT and the scenario (hermetic
  Runs on fixed fixtures), so reading a recorded run proves what running it again would; the two
  paths are compared within the process that ran both, since generated property inputs can
  depend on the modules a process has loaded (docs/decisions/speed.md).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from filelock import FileLock

from conformance.selftest import MutantVerdict, judge_iut, judge_iut_probes
from conformance.selftest._plan import Probe, ProbeResult
from reference_harness.mutants import MUTANTS

_RAM = Path("/dev/shm")  # noqa: S108 - RAM-backed; each Run still gets its own mkdtemp folder

PATH_EXAMPLES = 5
"""Generated examples per property on both paths (the self-test's default)."""


@pytest.fixture(autouse=True, scope="module")
def _ram_tempdir():
    previous = tempfile.tempdir
    if _RAM.is_dir() and os.access(_RAM, os.W_OK):
        tempfile.tempdir = str(_RAM)
    yield
    tempfile.tempdir = previous


@dataclass(frozen=True)
class Judged:
    """One mutant judged by the slow path (its verdict and each probe's result), then the fast."""

    slow: MutantVerdict
    probes: tuple[ProbeResult, ...]
    fast: MutantVerdict

    def scenario(self, scenario_id: str) -> ProbeResult:
        """The result of the Gherkin scenario ``scenario_id`` (every example of it)."""
        (found,) = [p for p in self.probes if p.probe == Probe("scenario", scenario_id)]
        return found

    def scenario_rules(self) -> set[str]:
        """The rule ids named by the failures of the Gherkin scenarios that failed."""
        return {r for p in self.probes if p.probe.kind == "scenario" and p.failed for r in p.rules}

    def to_json(self) -> str:
        return json.dumps(
            {
                "slow": asdict(self.slow),
                "probes": [asdict(p) for p in self.probes],
                "fast": asdict(self.fast),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Judged:
        data = json.loads(text)
        probes = tuple(
            ProbeResult(
                Probe(**p["probe"]),
                p["failed"],
                tuple(p["rules"]),
                p["message"],
                tuple(p["messages"]),
            )
            for p in data["probes"]
        )
        return cls(_verdict(data["slow"]), probes, _verdict(data["fast"]))


def _verdict(data: dict) -> MutantVerdict:
    return MutantVerdict(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


def _judge_both_ways(name: str) -> Judged:
    spec = MUTANTS[name]
    options = {
        "name": name,
        "requirement_id": spec.requirement_id,
        "rule": spec.rule,
        "rule_id": spec.rule_id,
        "examples": PATH_EXAMPLES,
    }
    if spec.cross_process:  # its fault shows only across fresh processes: judged over stdio
        options["command"] = [sys.executable, "-m", "reference_harness.stdio", "--mutant", name]
    factory = f"reference_harness.mutants:{name}"
    slow, probes = judge_iut_probes(factory, fast=False, **options)
    fast = judge_iut(factory, fast=True, **options)
    return Judged(slow, probes, fast)


@pytest.fixture(scope="session")
def judged(tmp_path_factory):
    """``judged(name)`` -> :class:`Judged` of mutant ``name``, run once per test run."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's root
    folder = shared / "selftest-judged"
    folder.mkdir(exist_ok=True)
    seen: dict[str, Judged] = {}

    def get(name: str) -> Judged:
        if name not in seen:
            record = folder / f"{name}.json"
            with FileLock(folder / f"{name}.lock"):
                if record.exists():
                    seen[name] = Judged.from_json(record.read_text(encoding="utf-8"))
                else:
                    seen[name] = _judge_both_ways(name)
                    partial = record.with_suffix(".part")
                    partial.write_text(seen[name].to_json(), encoding="utf-8")
                    partial.replace(record)
        return seen[name]

    return get
