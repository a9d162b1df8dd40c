"""Shared set-up of the self-test's tests.

* The self-test runs many Harness Runs: their SQLite files go to RAM when it is available.
* ``judged(name)``: mutant ``name`` judged by the self-test's fast path (the plan
  :func:`conformance.selftest._plan.mutant_probes` makes: the kit's seed order, then its own
  requirement's scenarios, its properties, the other scenarios, the invariants; stopping at the
  first kill), with its kill as a run alone: the killing probe is run again alone, on a fresh
  adapter with every example (the slow path's unit for it, ``stop_at_kill=False``), when other
  probes ran before it; a kill by the first probe already ran alone on a fresh adapter. When no
  Gherkin scenario is among the killers, the suite alone (no properties) is also judged by the
  fast path, so that every mutant has a Gherkin kill to show. Run **once per test run**, read by
  every test that asks about that mutant. Under pytest-xdist the workers share it through a file
  per mutant in the run's common temporary folder, written under a file lock: the first worker
  to need a mutant judges it together with the next ``BATCH - 1`` mutants of the catalogue nobody
  has judged yet, one unit (fresh adapter) per mutant in one nested session, as ``srdh verify``
  judges the mutants of a process (a nested session costs ~0.2 CPU s, a mutant's kill ~0.1;
  nothing leaks between IUTs of a session: test_selftest_fast_path.py); the others read it.
* ``scenario_alone(name, scenario_id)``: one scenario (every example) on mutant ``name``, alone
  on a fresh adapter (the slow path's unit for that probe).
* ``failing_rows(name, scenario_id)``: which rows of one scenario fail mutant ``name`` and the
  rules each names (``run_suite`` in process, every row).
* ``invariants_on(name)``: the global invariants (3 examples, no shrinking) on mutant ``name``
  in process.

Why the kill runs alone and not every probe of every mutant (docs/decisions/test-speed.md): a
probe's outcome depends only on the IUT and the probe, and the fast path is the slow path's
probe list cut after its first kill. Fast "killed" implies slow "killed" exactly when the killing
probe fails without the probes before it and with every example run, which is what the re-run
checks, mutant by mutant; the probes after the cut cannot change a verdict that is already
"killed". Every catalogued mutant is killed, so the slow path's other probes decide nothing the
tests assert. The whole slow path is still compared with the fast path on a sample chosen to
cover the fast path's mechanisms (test_selftest_mutants.py::SLOW_PATH_SAMPLE).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from conformance.adapters import InProcessAdapter
from conformance.properties import property_settings, run_invariants
from conformance.selftest import MutantVerdict
from conformance.selftest._execute import execute_units
from conformance.selftest._plan import Probe, ProbeResult, Unit
from conformance.selftest._run import judge_many_probes, mutant_judge
from conformance.suite import run_suite
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
    """One mutant judged by the fast path, and the probe that killed it run again alone.

    Attributes:
        fast: the fast path's verdict (suite, properties and invariants at ``PATH_EXAMPLES``).
        probes: every probe the fast path ran, in order (the last one is its kill).
        gherkin: the fast path's verdict on the Gherkin suite alone (no properties), when the
            fast path's kill was not a scenario; else ``fast`` itself.
        alone: the killing probe of ``fast`` (and of ``gherkin``) run again alone, every example.
    """

    fast: MutantVerdict
    probes: tuple[ProbeResult, ...]
    gherkin: MutantVerdict
    alone: tuple[ProbeResult, ...]

    def killing_scenarios_alone(self) -> tuple[ProbeResult, ...]:
        """The killing Gherkin scenarios, each run alone."""
        return tuple(p for p in self.alone if p.probe.kind == "scenario")

    def scenario_rules(self) -> set[str]:
        """The rule ids named by the killing Gherkin scenarios, each run alone."""
        return {r for p in self.killing_scenarios_alone() if p.failed for r in p.rules}

    def to_json(self) -> str:
        return json.dumps(
            {
                "fast": asdict(self.fast),
                "probes": [asdict(p) for p in self.probes],
                "gherkin": asdict(self.gherkin),
                "alone": [asdict(p) for p in self.alone],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Judged:
        data = json.loads(text)
        return cls(
            _verdict(data["fast"]),
            tuple(_probe_result(p) for p in data["probes"]),
            _verdict(data["gherkin"]),
            tuple(_probe_result(p) for p in data["alone"]),
        )


def _probe_result(data: dict) -> ProbeResult:
    return ProbeResult(
        Probe(**data["probe"]),
        data["failed"],
        tuple(data["rules"]),
        data["message"],
        tuple(data["messages"]),
    )


def _verdict(data: dict) -> MutantVerdict:
    return MutantVerdict(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


judge = mutant_judge
"""The self-test's judge of a mutant: its factory, rule id, and stdio when cross-process."""


def run_alone(name: str, probes: tuple[Probe, ...]) -> tuple[ProbeResult, ...]:
    """Each of ``probes`` on mutant ``name``, each alone on a fresh adapter, every example run."""
    return _run_alone([(name, probe) for probe in probes])


def _run_alone(pairs: list[tuple[str, Probe]]) -> tuple[ProbeResult, ...]:
    """Each ``(mutant, probe)`` alone on a fresh adapter, every example run; one nested session."""
    units = [Unit(judge(name), (probe,), stop_at_kill=False) for name, probe in pairs]
    results = execute_units(units, examples=PATH_EXAMPLES, jobs=1)
    errors = [r.error for r in results if r.error]
    assert errors == [], errors
    return tuple(r.results[0] for r in results)


def _fast_paths(
    names: list[str], *, suite_only: bool
) -> list[tuple[MutantVerdict, tuple[ProbeResult, ...]]]:
    """The fast path of ``judge_iut_probes`` for each mutant, one after the other in one session
    (as the self-test judges the mutants of a process)."""
    return judge_many_probes(
        [judge(name) for name in names],
        examples=0 if suite_only else PATH_EXAMPLES,
        fast=True,
    )


def _needs_alone(name: str, probes: tuple[ProbeResult, ...]) -> bool:
    """Whether the fast path's kill must run again alone: it came after other probes (a kill by
    the first probe already ran alone on a fresh adapter, and the examples it left unrun cannot
    undo a failed one). No kill: nothing to run."""
    return len(probes) > 1 and probes[-1].kills(judge(name))


def _kills_alone(found: dict[str, tuple[ProbeResult, ...]]) -> dict[str, tuple[ProbeResult, ...]]:
    """Per mutant, the fast path's kill as a run alone (see :func:`_needs_alone`); the re-runs
    share one session."""
    again = [name for name, probes in found.items() if _needs_alone(name, probes)]
    rerun = _run_alone([(name, found[name][-1].probe) for name in again])
    alone = {name: (result,) for name, result in zip(again, rerun, strict=True)}
    for name, probes in found.items():
        if name not in alone:
            killed = bool(probes) and probes[-1].kills(judge(name))
            alone[name] = probes[-1:] if killed else ()
    return alone


def _judge(names: list[str]) -> dict[str, Judged]:
    """``Judged`` of each mutant: every phase of every mutant runs in one session per phase."""
    fast = dict(zip(names, _fast_paths(names, suite_only=False), strict=True))
    alone = _kills_alone({name: probes for name, (_, probes) in fast.items()})
    # killed by a property first: find the Gherkin kill too
    gherkin_only = [name for name, (verdict, _) in fast.items() if not verdict.killing_scenarios]
    gherkin = dict(zip(gherkin_only, _fast_paths(gherkin_only, suite_only=True), strict=True))
    gherkin_alone = _kills_alone({name: probes for name, (_, probes) in gherkin.items()})
    return {
        name: Judged(
            verdict,
            probes,
            gherkin[name][0] if name in gherkin else verdict,
            alone[name] + gherkin_alone.get(name, ()),
        )
        for name, (verdict, probes) in fast.items()
    }


BATCH = 16
"""Mutants judged together, in one nested session, by the worker that first needs one of them."""


def _claim(folder: Path, name: str) -> dict[str, FileLock]:
    """Locks of ``name`` and of up to ``BATCH - 1`` mutants after it in catalogue order that no
    worker has judged or is judging; empty when another worker holds ``name``'s."""
    names = list(MUTANTS)
    claimed: dict[str, FileLock] = {}
    for other in names[names.index(name) :]:
        if len(claimed) == BATCH:
            break
        lock = FileLock(folder / f"{other}.lock")
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if other == name:
                return {}
            continue
        if (folder / f"{other}.json").exists():
            lock.release()
        else:
            claimed[other] = lock
    return claimed


@pytest.fixture(scope="session")
def judged(tmp_path_factory):
    """``judged(name)`` -> :class:`Judged` of mutant ``name``, run once per test run.

    The first worker to need a mutant judges it with the next ``BATCH - 1`` mutants of the
    catalogue that nobody has judged yet, in one session, and writes each one's record; a worker
    needing a mutant another worker is judging waits for its lock, then reads the record.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's root
    folder = shared / "selftest-judged"
    folder.mkdir(exist_ok=True)
    seen: dict[str, Judged] = {}

    def get(name: str) -> Judged:
        record = folder / f"{name}.json"
        while name not in seen:
            if record.exists():
                seen[name] = Judged.from_json(record.read_text(encoding="utf-8"))
                break
            claimed = _claim(folder, name)
            if not claimed:  # another worker is judging it: wait for its record
                with FileLock(folder / f"{name}.lock"):
                    continue
            try:
                for other, paths in _judge(list(claimed)).items():
                    partial = folder / f"{other}.part"
                    partial.write_text(paths.to_json(), encoding="utf-8")
                    partial.replace(folder / f"{other}.json")
            finally:
                for lock in claimed.values():
                    lock.release()
        return seen[name]

    return get


@pytest.fixture
def scenario_alone():
    """``scenario_alone(name, scenario_id)`` -> the scenario's result on mutant ``name``."""

    def run(name: str, scenario_id: str) -> ProbeResult:
        (result,) = run_alone(name, (Probe("scenario", scenario_id),))
        return result

    return run


@pytest.fixture
def failing_rows():
    """``failing_rows(name, scenario_id)`` -> (row number -> rules named, the scenario's messages)
    for the examples of ``scenario_id`` that fail mutant ``name`` (run in process, every row;
    row 0 stands for a plain scenario's own id)."""

    def run(name: str, scenario_id: str) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
        adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
        try:
            result = run_suite(adapter, scenario_ids=[scenario_id])
        finally:
            adapter.close()
        (scenario,) = [s for s in result.scenarios if s.scenario_id == scenario_id]
        failed = {
            0 if e.example_id == scenario_id else int(e.example_id.rsplit("-", 1)[1]): e.rules
            for e in scenario.examples
            if e.outcome == "failed"
        }
        return failed, tuple(scenario.messages)

    return run


@pytest.fixture
def invariants_on():
    """``invariants_on(name)`` -> the global invariants' result on mutant ``name``, in process."""

    def run(name: str):
        adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
        try:
            return run_invariants(adapter, config=property_settings(3, shrink=False))
        finally:
            adapter.close()

    return run
