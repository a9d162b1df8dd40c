"""The fast self-test (one session per process, both cores, order cache) changes no verdict."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter
from conformance.anyfixture import pinned_any_fixtures
from conformance.selftest import REFERENCE, _execute, _refresh, _run, _seed, run_selftest
from conformance.selftest._cache import read_killers, write_killers
from conformance.selftest._execute import _Worker, execute_units
from conformance.selftest._plan import (
    ANY_FIXTURE_SCENARIO,
    Judge,
    Probe,
    Unit,
    mutant_probes,
    reference_probes,
)
from conformance.selftest._run import _scenarios
from conformance.selftest._seed import order, read_seed, write_seed
from conformance.suite import run_suite
from conformance.suite._session import suite_session
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import _Shared, _shared_folder

IUTS = Path(__file__).resolve().parent / "iuts"
SCENARIOS = [("s-own", "req-a"), ("s-other", "req-b"), ("s-own-2", "req-a")]


SESSION_MUTANT = "missing_id_executed"
SESSION_SAMPLE = (
    "two-parallel-calls-both-present-an-empty-tool-call-id",
    "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed",
    "the-client-disconnects-at-any-event-of-the-run",
    "the-semanticguard-s-last-allowed-answer-decides-the-fallback",
    "four-parallel-calls-give-the-same-observation-in-every-fresh-process",
    "a-newer-run-is-still-running",
    "contract-ownership-is-inspected",
)
"""The scenarios on which one session is compared with ``run_suite``, chosen to cover how an item
can run: a plain scenario and Scenario Outline rows that fail on the mutant and rows that pass, a
runtime outline (a client disconnect at every event: cancellation, threads), real model-call
timeouts, Runs in fresh processes, the durable previous-turn store, and a scenario reading the
kit's contract data (no Run). Both sides run every item through pytest's run-test protocol; what
differs is only the session (collected once, items re-run against another adapter), so a sample
of each kind of item proves what the whole suite did (every scenario passes on the reference in
one session: test_selftest_mutants.py::test_selftest_reference_passes_everything). The
any-fixture scenario, the one item that reads the examples per property, is left out: both
sides run it on the same fixtures, the pins then ``N`` drawn, each twice (``run_suite``:
tests/properties/test_prop_any_fixture.py; a session:
test_suite_session_hands_the_examples_per_property_to_the_any_fixture_scenario), through the
same steps."""


def test_suite_session_sample_covers_how_items_run():
    """The sample has a fresh-process scenario and scenarios of at least five requirements (an
    outline with failing and passing rows on the mutant: the next test)."""
    requirements = dict(_scenarios())
    assert "four-parallel-calls-give-the-same-observation-in-every-fresh-process" in SESSION_SAMPLE
    assert len({requirements[s] for s in SESSION_SAMPLE}) >= 5
    assert set(SESSION_SAMPLE) <= set(requirements)


def test_suite_session_gives_run_suite_outcomes_for_several_iuts_in_one_session():
    """Scenarios run one by one in one reused session give run_suite's outcome for every item,
    for a mutant and then the reference judged one after the other (nothing leaks between IUTs),
    on :data:`SESSION_SAMPLE`.

    A differing item's messages are shown.
    """
    factories = [f"reference_harness.mutants:{SESSION_MUTANT}", REFERENCE]
    adapter = InProcessAdapter(factories[0])
    try:
        result = run_suite(adapter, scenario_ids=list(SESSION_SAMPLE), property_examples=0)
    finally:
        adapter.close()
    mutant = {e.nodeid: e.outcome for s in result.scenarios for e in s.examples}
    # run_suite on the reference passes every item (tests/conformance run each scenario on it)
    expected = [mutant, dict.fromkeys(mutant, "passed")]
    seen: list[dict[str, str]] = []
    messages: dict[str, str] = {}

    def work(session):
        for factory in factories:
            adapter = InProcessAdapter(factory)
            outcomes = {}
            for scenario_id in SESSION_SAMPLE:
                for item in session.run_scenario(adapter, scenario_id):
                    name = item.nodeid.rsplit("::", 1)[-1]
                    outcomes[name] = item.outcome
                    messages[f"{factory} {name}"] = item.message
            seen.append(outcomes)
            adapter.close()

    suite_session(work, property_examples=0)
    short = [{k.rsplit("::", 1)[-1]: v for k, v in e.items()} for e in expected]
    differing = {
        f"{factory} {name}": (outcome, messages.get(f"{factory} {name}", "")[:2000])
        for factory, got, want in zip(factories, seen, short, strict=True)
        for name, outcome in got.items()
        if want.get(name) != outcome
    }
    assert seen == short, differing
    assert len(seen[0]) > len(SESSION_SAMPLE)  # the outlines ran row by row
    assert {"failed", "passed"} <= set(seen[0].values())
    assert set(seen[1].values()) == {"passed"}


def test_suite_session_hands_the_examples_per_property_to_the_any_fixture_scenario():
    """``suite_session(property_examples=N)``: the any-fixture scenario draws N fixtures after its
    pins, as ``srdh run --examples N`` does (the self-test's examples reach it; it used to draw
    the default 10 whatever the self-test's count)."""
    runs: dict[int, int] = {}

    class Counting(InProcessAdapter):
        def run(self, fixture, *args, **kwargs):
            self.count += 1
            return super().run(fixture, *args, **kwargs)

    for examples in (0, 1):
        adapter = Counting(REFERENCE)
        adapter.count = 0

        def work(session, adapter=adapter):
            outcomes = session.run_scenario(adapter, ANY_FIXTURE_SCENARIO)
            assert [o.outcome for o in outcomes] == ["passed"]

        try:
            suite_session(work, property_examples=examples)
        finally:
            adapter.close()
        runs[examples] = adapter.count
    pins = len(pinned_any_fixtures())
    assert runs[0] == pins  # each pin runs once
    assert runs[1] == pins + 2  # one drawn fixture, run twice


PROCESS_MUTANTS = ("harness_rewrites_draft", "three_review_attempts", "late_result_published")
PROCESS_SAMPLE = (
    "a-released-diagnosis-draft-is-the-agent-s-own-draft",
    "the-second-semanticguard-attempt-also-fails",
    "client-disconnects-during-a-model-call",
    "the-client-disconnects-at-any-event-of-the-run",
    "four-parallel-calls-give-the-same-observation-in-every-fresh-process",
    ANY_FIXTURE_SCENARIO,
)
"""The suite scenarios of the two-process self-test: each mutant's seeded killer, a runtime
Scenario Outline, Runs in fresh processes, and the any-fixture scenario (which draws the
self-test's examples in each process's own session). Every ``run`` property and the invariants
run too (1 example). What two processes change is where a unit runs (a spawned worker with its
own session and imports, or this process) and how its result comes back, the same for every unit
whatever its probe."""


def test_selftest_on_two_processes_equals_one_process(tmp_path, monkeypatch):
    """Spreading the reference's probes and the mutants over two processes changes nothing
    (the suite cut to :data:`PROCESS_SAMPLE`: the units are planned here, the workers run them).

    The one-process verdicts are known from the tests that run them in one process: the
    reference passes every probe of the whole suite and every property at 1 example
    (test_selftest_mutants.py::test_selftest_reference_passes_everything), and each mutant is
    killed by its seeded killer naming its rule (``judged`` in
    test_selftest_mutants.py::test_selftest_fast_path_kill_holds_on_the_slow_path); two processes
    must give exactly those.
    """
    sample = [(s, r) for s, r in _scenarios() if s in PROCESS_SAMPLE]
    assert [s for s, _ in sample] == [s for s in dict(_scenarios()) if s in PROCESS_SAMPLE]
    assert len(sample) == len(PROCESS_SAMPLE)
    monkeypatch.setattr(_run, "_scenarios", lambda: sample)
    names = list(PROCESS_MUTANTS)
    two = run_selftest(mutants=names, examples=1, jobs=2, cache=tmp_path / "cache.json")
    one_process = (True, (), [(name, True, True, "") for name in names])
    assert _verdicts(two) == one_process
    assert all(m.killing_scenarios for m in two.mutants)  # the seeded killers are in the sample


def _verdicts(result):
    """What must not depend on the process count: each verdict and whether its kill names the
    mutant's rule (which probe kills first, and what else it names, may differ with timing)."""
    rules = {m.name: m.rule_id for m in MUTANTS.values()}
    return (
        result.passed,
        result.reference_failures,
        [(v.name, v.killed, rules[v.name] in v.killing_rules, v.error) for v in result.mutants],
    )


ORDER_MUTANTS = ["negative_scope_unbounded", "fallback_as_previous_turn"]
"""The mutants on which a cache or a seed is shown to change no verdict."""


@pytest.fixture(scope="session")
def seeded_kills(tmp_path_factory):
    """Whether each of :data:`ORDER_MUTANTS` is killed by the self-test with the kit's seed and
    no cache (``run_selftest(mutants=ORDER_MUTANTS, reference=False, examples=1, jobs=1)``, the
    run both order tests compare with): run once per test run, shared by the workers."""

    def compute(keys, publish):
        result = run_selftest(mutants=ORDER_MUTANTS, reference=False, examples=1, jobs=1)
        publish(keys[0], json.dumps([m.killed for m in result.mutants]))

    folder = _shared_folder(tmp_path_factory, "selftest-seeded-kills")
    return json.loads(_Shared(folder, ["seeded"], compute).get("seeded"))


def test_order_cache_never_changes_a_verdict(tmp_path, seeded_kills):
    """A corrupt cache, a cache naming unknown probes, or last run's killers: same verdicts."""
    names = ORDER_MUTANTS
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{not json", encoding="utf-8")
    odd = tmp_path / "odd.json"
    passing_first = {n: ["scenario:the-router-is-unavailable", "scenario:nope"] for n in names}
    write_killers(odd, passing_first)
    for cache in (corrupt, odd, odd):  # the second run on ``odd`` reads what the first wrote
        cached = run_selftest(mutants=names, reference=False, examples=1, jobs=1, cache=cache)
        assert [m.killed for m in cached.mutants] == seeded_kills
        assert all(m.killed for m in cached.mutants)
    learnt = read_killers(odd)
    assert set(learnt) == set(names)
    assert all(keys for keys in learnt.values())


def test_order_cache_folder_is_ignored_by_git(tmp_path):
    """The cache folder ignores itself, so that verifying a repository never dirties it."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # noqa: S603, S607 - fixed argv
    write_killers(tmp_path / ".srdh_cache" / "selftest.json", {"m": ["scenario:s"]})
    status = subprocess.run(  # noqa: S603 - fixed git arguments
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""
    assert json.loads((tmp_path / ".srdh_cache" / "selftest.json").read_text())["killers"] == {
        "m": ["scenario:s"]
    }


def test_mutant_probes_try_last_killers_then_own_requirement_first():
    """The probe order: cached killers, own scenarios, own properties, others, invariants."""
    judge = Judge("m", "x:y", "req-a")
    default = mutant_probes(judge, SCENARIOS, suite=True, examples=0, invariants=True)
    assert default == [
        Probe("scenario", "s-own"),
        Probe("scenario", "s-own-2"),
        Probe("scenario", "s-other"),
    ]
    cached = mutant_probes(
        judge,
        SCENARIOS,
        suite=True,
        examples=0,
        invariants=True,
        killers={"m": ["scenario:s-other", "scenario:unknown"]},
    )
    assert cached == [
        Probe("scenario", "s-other"),
        Probe("scenario", "s-own"),
        Probe("scenario", "s-own-2"),
    ]
    assert set(reference_probes(SCENARIOS, suite=True, examples=0, invariants=True)) == set(default)


def test_seed_order_names_catalogued_mutants_and_probes_of_the_suite():
    """Every entry of the kit's seed order is a catalogued mutant and one probe of its plan."""
    seed = read_seed()
    assert set(seed) == set(MUTANTS)
    scenarios = _scenarios()
    for name, keys in seed.items():
        judge = Judge(name, "x:y", MUTANTS[name].requirement_id)
        plan = {
            p.key for p in mutant_probes(judge, scenarios, suite=True, examples=5, invariants=True)
        }
        assert len(keys) == 1
        assert keys[0] in plan, (name, keys)


def test_order_tries_the_cache_then_the_seed(tmp_path, monkeypatch):
    """The user's cache comes first, the seed after it; an unusable seed is no seed."""
    seed = tmp_path / "killers.json"
    write_seed({"m": ["scenario:seeded"], "n": ["scenario:only-seeded"]}, seed)
    monkeypatch.setattr(_seed, "SEED_FILE", seed)
    cache = tmp_path / "cache.json"
    write_killers(cache, {"m": ["scenario:cached"]})
    assert order(cache) == {
        "m": ["scenario:cached", "scenario:seeded"],
        "n": ["scenario:only-seeded"],
    }
    seed.write_text("{not json", encoding="utf-8")
    assert order(cache) == {"m": ["scenario:cached"]}
    assert order(None) == {}


def test_refreshing_named_mutants_replaces_their_entries_and_keeps_the_others(monkeypatch):
    """``python -m conformance.selftest NAME`` measures only NAME (unordered, no variant): its
    entry is replaced, the other catalogued mutants' entries are kept, uncatalogued ones dropped;
    an unknown name is refused before anything is measured."""
    first, second = list(MUTANTS)[:2]
    asked: list[object] = []
    written: dict[str, list[str]] = {}
    monkeypatch.setattr(
        _refresh, "_measure", lambda names: asked.append(names) or {first: ["scenario:new"]}
    )
    monkeypatch.setattr(
        _refresh,
        "read_seed",
        lambda: {first: ["scenario:old"], second: ["scenario:kept"], "gone": ["scenario:x"]},
    )
    monkeypatch.setattr(_refresh, "write_seed", written.update)
    _refresh.main([first])
    assert asked == [[first]]
    assert written == {first: ["scenario:new"], second: ["scenario:kept"]}
    with pytest.raises(SystemExit) as refused:
        _refresh.main(["no-such-mutant"])
    assert refused.value.code == 2
    assert asked == [[first]]


def test_a_wrong_seed_never_changes_a_verdict(tmp_path, monkeypatch, seeded_kills):
    """A seed naming passing or unknown probes first gives the verdicts of the kit's seed."""
    names = ORDER_MUTANTS
    wrong = tmp_path / "killers.json"
    write_seed({n: ["scenario:the-router-is-unavailable", "scenario:nope"] for n in names}, wrong)
    monkeypatch.setattr(_seed, "SEED_FILE", wrong)
    unseeded = run_selftest(mutants=names, reference=False, examples=1, jobs=1)
    assert [m.killed for m in unseeded.mutants] == seeded_kills
    assert all(m.killed for m in unseeded.mutants)


def test_a_worker_that_dies_leaves_its_claimed_unit_to_the_caller(monkeypatch):
    """A worker process that dies mid-unit is noticed; the unit it claimed is handed back."""
    monkeypatch.syspath_prepend(str(IUTS))
    context = multiprocessing.get_context("spawn")
    counter = context.Value("i", 0)
    judge = Judge("dying", "dying_iut:create")
    units = [Unit(judge, (Probe("property", "no-evidence-result-is-cited"),), stop_at_kill=True)]
    worker = _Worker(context, (units, 1, counter))
    delivered = []
    left = worker.finish(delivered.append)
    assert left == {0}
    assert delivered == []
    assert worker.process.exitcode == 3
    (result,) = execute_units(units, examples=1, jobs=1)  # in this process it runs normally
    assert result.error == ""
    assert [r.failed for r in result.results] == [False]


@pytest.mark.parametrize("fast", [True, False])
def test_a_mutant_that_cannot_start_is_an_error_not_a_kill(monkeypatch, fast):
    """An IUT whose hello fails is reported with its error on both paths, never as killed."""
    monkeypatch.syspath_prepend(str(IUTS.parent.parent / "conformance" / "iuts"))
    judge = Judge("bad", "broken_factories:bad_hello")
    (result,) = execute_units(
        [Unit(judge, (Probe("property", "no-evidence-result-is-cited"),), stop_at_kill=fast)],
        examples=1,
        jobs=1,
    )
    assert "schema-invalid hello" in result.error
    assert result.results == ()


def test_judge_many_probes_reports_each_judge_as_soon_as_it_is_judged():
    """``on_result`` gets each judge's verdict and probe results, in order, one call per judge,
    each before the next judge's unit starts; they are what the returned list holds."""
    names = ["negative_scope_unbounded", "fallback_as_previous_turn"]
    calls: list[tuple[int, object, object]] = []
    started: list[int] = []
    real = _execute.run_unit

    def spy(index, unit, session, examples):
        started.append(len(calls))  # how many results were reported when this unit started
        return real(index, unit, session, examples)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_execute, "run_unit", spy)
        judged = _run.judge_many_probes(
            [_run.mutant_judge(n) for n in names],
            suite=False,
            examples=1,
            invariants=False,
            fast=True,
            on_result=lambda i, verdict, probes: calls.append((i, verdict, probes)),
        )
    assert calls == [(i, verdict, probes) for i, (verdict, probes) in enumerate(judged)]
    assert started == [0, 1]
    assert [verdict.name for verdict, _ in judged] == names
