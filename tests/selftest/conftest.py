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
  judges the mutants of a process (a nested session costs ~0.1-0.2 CPU s, a mutant's kill ~0.1;
  nothing leaks between IUTs of a session: test_selftest_fast_path.py); the others read it. Each
  record is written, and its lock released, as soon as it is complete: a worker waiting for one
  waits for that mutant, not for the rest of the batch.
* ``scenario_run(key)``: one scenario (every example) alone on a fresh adapter, on a mutant or
  the reference, as a test module declared it at import (``declare_runs``): the slow path's unit
  for that probe. The declared runs are computed like ``judged``'s records, ``BATCH`` at a time in
  one nested session, shared by the workers (a nested session per test cost ~0.2 CPU s, more
  than most scenario runs).
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

import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from filelock import FileLock, Timeout

from conformance.adapters import AdapterError, InProcessAdapter, StdioAdapter
from conformance.anyfixture import drive
from conformance.anyfixture import property_settings as any_fixture_settings
from conformance.anyfixture._property import judge_any_fixture, pinned_any_fixtures
from conformance.bdd import scenario_identity
from conformance.checks import RULES
from conformance.hypothesis import scenario_fixtures
from conformance.properties import property_settings, run_invariants
from conformance.selftest import REFERENCE, MutantVerdict
from conformance.selftest._execute import execute_units
from conformance.selftest._plan import Probe, ProbeResult, Unit
from conformance.selftest._run import judge_many_probes, mutant_judge
from conformance.suite import split_example_ids
from conformance.suite._session import suite_session
from conformance.vocabulary import reached_by
from reference_harness.mutants import MUTANTS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from conformance.suite._session import SuiteSession

_RAM = Path("/dev/shm")  # noqa: S108 - RAM-backed; each Run still gets its own SQLite file

RULE_ID = re.compile(r"\[(R\d+\.[a-z0-9-]+)\]")
"""A rule id as a failure message names it: ``[R4.tool-call-bindings]``."""


def judge_forced_draws(
    iut: str, recipe: dict[str, Any], examples: int
) -> tuple[str, set[str], str]:
    """``iut`` judged by the any-fixture property on ``examples`` fixtures drawn with the
    choices of ``recipe`` forced (derandomized, no shrinking; the first failure stops it).

    Returns the outcome (``"passed"``/``"failed"``), the rule ids its message names, and the
    message.
    """
    adapter = InProcessAdapter(iut)

    def body(fixture: dict[str, Any]) -> None:
        _, results = judge_any_fixture(adapter, fixture, 1)
        for result in results:
            result.require()

    try:
        result = drive(
            "kind",
            scenario_fixtures(force=recipe),
            body,
            any_fixture_settings(examples, shrink=False),
        )
    finally:
        adapter.close()
    return result.outcome, set(RULE_ID.findall(result.message)), result.message


def pinned_fixture(name: str) -> dict[str, Any]:
    """The committed any-fixture pin named ``name`` (description ``pinned for NAME: ...``)."""
    marker = f"pinned for {name}:"
    return next(f for f in pinned_any_fixtures() if f["description"].startswith(marker))


def judge_pin(name: str, pin: str, *, broken_run_kills: bool = False) -> tuple[set[str], set[str]]:
    """The committed pin ``pin`` judged alone by the any-fixture property on the reference, then
    on mutant ``name``: ``(elements the reference's Run reached, rules the mutant's failures
    name)``. Asserts that the reference passes every check.

    ``broken_run_kills``: a Run the mutant cannot run, or whose observation is broken (the
    property raises), counts as its failure, naming the rules of the error's message; otherwise
    the error propagates.
    """
    fixture = pinned_fixture(pin)
    reference = InProcessAdapter(REFERENCE)
    try:
        observations, results = judge_any_fixture(reference, fixture, 1)
    finally:
        reference.close()
    assert all(r.passed for r in results), [str(r) for r in results if not r.passed]
    reached = reached_by(fixture, observations[0])
    mutant = InProcessAdapter(f"reference_harness.mutants:{name}")
    try:
        _, results = judge_any_fixture(mutant, fixture, 1)
    except AssertionError as failure:
        if not broken_run_kills:
            raise
        return reached, set(RULE_ID.findall(str(failure)))
    finally:
        mutant.close()
    return reached, {rule for r in results if not r.passed for rule in RULE_ID.findall(str(r))}


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


def _run_alone(pairs: list[tuple[str, Probe]]) -> tuple[ProbeResult, ...]:
    """Each ``(mutant, probe)`` alone on a fresh adapter, every example run; one nested session."""
    units = [Unit(judge(name), (probe,), stop_at_kill=False) for name, probe in pairs]
    results = execute_units(units, examples=PATH_EXAMPLES, jobs=1)
    errors = [r.error for r in results if r.error]
    assert errors == [], errors
    return tuple(r.results[0] for r in results)


def _fast_paths(
    names: list[str],
    *,
    suite_only: bool,
    on_result: Callable[[int, MutantVerdict, tuple[ProbeResult, ...]], None] | None = None,
) -> list[tuple[MutantVerdict, tuple[ProbeResult, ...]]]:
    """The fast path of ``judge_iut_probes`` for each mutant, one after the other in one session
    (as the self-test judges the mutants of a process); ``on_result`` as each one is judged."""
    return judge_many_probes(
        [judge(name) for name in names],
        examples=0 if suite_only else PATH_EXAMPLES,
        fast=True,
        on_result=on_result,
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


def _judge(names: list[str], publish: Callable[[str, str], None]) -> None:
    """``Judged`` of each mutant, handed to ``publish(name, JSON text)``: every phase of every
    mutant runs in one session per phase. A mutant whose fast path needs no later phase (its
    kill is a Gherkin scenario and its first probe: nothing to run again alone, no Gherkin-only
    path) is published as soon as its fast path ends, so that a worker waiting for it does not
    wait for the rest of the batch; its record is the one the later phases would have given it."""
    done: set[str] = set()

    def complete(index: int, verdict: MutantVerdict, probes: tuple[ProbeResult, ...]) -> None:
        name = names[index]
        if verdict.killing_scenarios and not _needs_alone(name, probes):
            killed = bool(probes) and probes[-1].kills(judge(name))
            publish(name, Judged(verdict, probes, verdict, probes[-1:] if killed else ()).to_json())
            done.add(name)

    judged = _fast_paths(names, suite_only=False, on_result=complete)
    fast = {name: paths for name, paths in zip(names, judged, strict=True) if name not in done}
    alone = _kills_alone({name: probes for name, (_, probes) in fast.items()})
    # killed by a property first: find the Gherkin kill too
    gherkin_only = [name for name, (verdict, _) in fast.items() if not verdict.killing_scenarios]
    gherkin = dict(zip(gherkin_only, _fast_paths(gherkin_only, suite_only=True), strict=True))
    gherkin_alone = _kills_alone({name: probes for name, (_, probes) in gherkin.items()})
    for name, (verdict, probes) in fast.items():
        paths = Judged(
            verdict,
            probes,
            gherkin[name][0] if name in gherkin else verdict,
            alone[name] + gherkin_alone.get(name, ()),
        )
        publish(name, paths.to_json())


BATCH = 16
"""Keys computed together (one nested session), by the worker that first needs one of them."""

Publish = Callable[[str, str], None]
"""``publish(key, JSON text)``: a computed record, written and its key's lock released at once."""


class _Shared:
    """Records computed once per test run, in batches, shared by the pytest-xdist workers.

    One JSON file per key in the run's common temporary folder, written under a file lock: the
    first worker to need a key computes it with the next ``BATCH - 1`` keys of ``order`` that no
    worker has computed or is computing (``compute(keys, publish)`` calls ``publish(key, JSON
    text)`` for each key as soon as its record is complete, in one nested session); a worker
    needing a key another worker is computing waits for that key's lock, which is released as
    soon as its record is written (not at the end of the batch).
    """

    def __init__(
        self, folder: Path, order: list[str], compute: Callable[[list[str], Publish], None]
    ) -> None:
        folder.mkdir(exist_ok=True)
        self.folder, self.order, self.compute = folder, order, compute
        self.seen: dict[str, str] = {}

    def _path(self, key: str, suffix: str) -> Path:
        return self.folder / (hashlib.sha256(key.encode()).hexdigest()[:32] + suffix)

    def _claim(self, key: str) -> dict[str, FileLock]:
        """Locks of ``key`` and of up to ``BATCH - 1`` keys after it nobody has computed or is
        computing; empty when another worker holds ``key``'s."""
        claimed: dict[str, FileLock] = {}
        for other in self.order[self.order.index(key) :]:
            if len(claimed) == BATCH:
                break
            lock = FileLock(self._path(other, ".lock"))
            try:
                lock.acquire(timeout=0)
            except Timeout:
                if other == key:
                    return {}
                continue
            if self._path(other, ".json").exists():
                lock.release()
            else:
                claimed[other] = lock
        return claimed

    def get(self, key: str) -> str:
        record = self._path(key, ".json")
        while key not in self.seen:
            if record.exists():
                self.seen[key] = record.read_text(encoding="utf-8")
                break
            claimed = self._claim(key)
            if not claimed:  # another worker is computing it: wait for its record
                with FileLock(self._path(key, ".lock")):
                    continue

            def publish(other: str, text: str, claimed: dict[str, FileLock] = claimed) -> None:
                partial = self._path(other, ".part")
                partial.write_text(text, encoding="utf-8")
                partial.replace(self._path(other, ".json"))
                claimed.pop(other).release()

            try:
                self.compute(list(claimed), publish)
            finally:  # a key left unwritten is computed again by whoever needs it
                for lock in claimed.values():
                    lock.release()
        return self.seen[key]


def _shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's root
    return shared / name


@pytest.fixture(scope="session")
def judged(tmp_path_factory):
    """``judged(name)`` -> :class:`Judged` of mutant ``name``, run once per test run (shared by
    the workers, judged ``BATCH`` mutants of the catalogue at a time)."""

    shared = _Shared(_shared_folder(tmp_path_factory, "selftest-judged"), list(MUTANTS), _judge)
    return lambda name: Judged.from_json(shared.get(name))


SCENARIO_RUNS: dict[str, tuple[str, str, str]] = {}
"""Scenario runs the test modules will ask for, declared at import (:func:`declare_runs`): key
-> (IUT: a mutant's name or ``reference``, scenario id, ``judge``/``in-process``/``stdio``)."""


def declare_runs(iut: str, scenario_id: str, transport: str = "judge") -> str:
    """Declare that a test will ask for ``scenario_id`` run alone on ``iut``; return its key.

    ``scenario_id`` may name one row of an outline (``<id>-example-<n>``): its outline runs and
    only that row is kept.

    ``transport``: ``judge`` runs a mutant as the self-test judges it (over stdio in fresh
    processes when cross-process, else in process), ``in-process`` or ``stdio`` force one.
    Declared runs are computed ``BATCH`` at a time in one nested session, each on a fresh adapter.
    """
    key = f"{iut}|{scenario_id}|{transport}"
    SCENARIO_RUNS[key] = (iut, scenario_id, transport)
    return key


def _adapter(iut: str, transport: str) -> InProcessAdapter | StdioAdapter:
    factory = REFERENCE if iut == "reference" else f"reference_harness.mutants:{iut}"
    command = judge(iut).command if transport == "judge" and iut != "reference" else None
    if transport == "stdio":
        command = (sys.executable, "-m", "reference_harness.stdio", "--mutant", iut)
    return InProcessAdapter(factory) if command is None else StdioAdapter(list(command))


def _whole(scenario_id: str, session: SuiteSession) -> str:
    """The scenario of ``scenario_id``: itself, or the outline of ``<outline id>-example-<n>``."""
    if scenario_id in session.items:
        return scenario_id
    return split_example_ids([scenario_id], set(session.items))[0][0]


def _scenario_runs(keys: list[str], publish: Publish) -> None:
    """Each declared run of ``keys``: every item's (example id, outcome, message, rules), or the
    error that kept the IUT from running, published as soon as it ran; one nested session, a
    fresh adapter per run. Two keys asking for rows of one outline on one IUT and transport read
    one run of that outline (each key's run was that whole outline on a fresh adapter)."""

    def work(session: SuiteSession) -> None:
        ran: dict[tuple[str, str, str], list[tuple[str, str, str, tuple[str, ...]]]] = {}
        for key in keys:
            iut, scenario_id, transport = SCENARIO_RUNS[key]
            whole = _whole(scenario_id, session)
            if (iut, whole, transport) not in ran:
                adapter = None
                try:
                    adapter = _adapter(iut, transport)
                    adapter.hello()
                    outcomes = session.run_scenario(adapter, whole)
                except AdapterError as error:
                    publish(key, json.dumps({"error": f"{type(error).__name__}: {error}"}))
                    continue
                finally:
                    if adapter is not None:
                        with contextlib.suppress(AdapterError):
                            adapter.close()
                ran[iut, whole, transport] = [
                    (scenario_identity(item)[2], o.outcome, o.message, o.rules)
                    for item, o in zip(session.items[whole], outcomes, strict=True)
                ]
            rows = ran[iut, whole, transport]
            if scenario_id not in session.items:  # one row asked for: the others are not read
                rows = [row for row in rows if row[0] == scenario_id]
            publish(key, json.dumps({"error": "", "rows": rows}))

    suite_session(work, property_examples=PATH_EXAMPLES)


@dataclass(frozen=True)
class ScenarioRun:
    """One scenario run alone on one IUT, every example: its items in order, each as
    ``(example id, outcome, message, rules named)``; ``example id`` is the scenario id for a
    plain scenario, ``<scenario id>-example-<n>`` for row ``n`` of an outline."""

    scenario_id: str
    rows: tuple[tuple[str, str, str, tuple[str, ...]], ...]

    @property
    def failed(self) -> bool:
        """Whether any item failed."""
        return any(outcome == "failed" for _, outcome, _, _ in self.rows)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids the failing items named, first-seen order."""
        named = (r for _, outcome, _, rules in self.rows if outcome == "failed" for r in rules)
        return tuple(dict.fromkeys(named))

    @property
    def messages(self) -> tuple[str, ...]:
        """Every failure message and skip reason, in item order."""
        return tuple(message for _, _, message, _ in self.rows if message)

    def failing_rows(self) -> dict[int, tuple[str, ...]]:
        """Row number -> rules named, for the failing items (row 0: a plain scenario)."""
        return {
            0 if example == self.scenario_id else int(example.rsplit("-", 1)[1]): rules
            for example, outcome, _, rules in self.rows
            if outcome == "failed"
        }

    def assert_killed_by(self, rows: set[int], rule_id: str) -> None:
        """Exactly ``rows`` fail (row 0: a plain scenario), each naming ``rule_id``; the
        messages are shown when the rows differ."""
        failed = self.failing_rows()
        assert set(failed) == rows, self.messages
        assert all(rule_id in rules for rules in failed.values()), failed


@pytest.fixture(scope="session")
def scenario_run(tmp_path_factory):
    """``scenario_run(key)`` -> :class:`ScenarioRun` of a run declared by :func:`declare_runs`
    (computed once per test run, shared by the workers, ``BATCH`` runs per nested session)."""
    folder = _shared_folder(tmp_path_factory, "selftest-scenario-runs")
    shared = _Shared(folder, list(SCENARIO_RUNS), _scenario_runs)

    def get(key: str) -> ScenarioRun:
        record = json.loads(shared.get(key))
        assert record["error"] == "", record["error"]
        rows = tuple((e, o, m, tuple(r)) for e, o, m, r in record["rows"])
        return ScenarioRun(SCENARIO_RUNS[key][1], rows)

    return get


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


def assert_catalogued(specs: tuple[Any, ...], tried: Iterable[str]) -> None:
    """The mutants of ``specs`` are exactly the ``tried`` ones, each in the catalogue under its
    name and naming a registered rule of its own requirement."""
    assert set(tried) == {spec.name for spec in specs}
    for spec in specs:
        assert MUTANTS[spec.name] is spec
        assert RULES[spec.rule_id].requirement_id == spec.requirement_id
