"""The suite fails every mutant, names what killed it, and passes the reference Harness."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter
from conformance.checks import RULES
from conformance.openspec import load_tree
from conformance.properties import INVARIANTS, PROPERTIES
from conformance.selftest import (
    REFERENCE,
    SelftestResult,
    judge_iut,
    judge_iut_probes,
    run_selftest,
)
from conformance.selftest._plan import mutant_probes
from conformance.selftest._run import _scenarios
from conformance.selftest._seed import read_seed
from reference_harness.mutants import CONTRACT_MUTANTS, MUTANTS
from tests._profile import depth
from tests.selftest.conftest import PATH_EXAMPLES, judge

REPO = Path(__file__).resolve().parents[2]
KNOWN = set(PROPERTIES) | {INVARIANTS}


def test_selftest_catalogue_covers_every_requirement():
    """Every requirement of the spec has at least one mutant breaking one of its rules."""
    tree = load_tree(REPO)
    requirements = {r.id for spec in tree.specs.values() for r in spec.requirements}
    broken = {m.requirement_id for m in MUTANTS.values()}
    broken |= {m.requirement_id for m in CONTRACT_MUTANTS.values()}
    assert broken == requirements


def test_selftest_every_mutant_names_a_registered_rule_of_its_requirement():
    """Each mutant declares the check rule id its kill must name, of the requirement it breaks."""
    specs = [(m.name, m.requirement_id, m.rule_id) for m in MUTANTS.values()]
    specs += [(m.name, m.requirement_id, m.rule_id) for m in CONTRACT_MUTANTS.values()]
    wrong = [
        (name, rule_id)
        for name, requirement_id, rule_id in specs
        if rule_id not in RULES or RULES[rule_id].requirement_id != requirement_id
    ]
    assert wrong == []


@pytest.mark.parametrize("name", list(MUTANTS))
def test_selftest_mutant_is_an_iut_factory(name):
    """Each mutant is reachable as ``reference_harness.mutants:<name>`` and says who it is."""
    adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
    try:
        hello = adapter.hello()
    finally:
        adapter.close()
    assert hello["implementation"]["name"] == f"srdh-mutant-{name}"


PROPERTY_KILLED = [n for n, m in MUTANTS.items() if m.rule_id and not m.cross_process][:13]
"""The first catalogue's mutants, which their requirement's properties are built to reach; every
mutant is killed by the Gherkin suite naming its rule (the slow-path test below)."""


@pytest.mark.parametrize("name", PROPERTY_KILLED)
def test_selftest_properties_kill_mutant(name):
    """A few generated examples of the properties fail the mutant, naming the property."""
    # 20, not 5: Hypothesis mixes constants mined from every loaded project module into its
    # (derandomized) inputs, so with 5 examples whether this property kills a mutant depends on
    # which modules the process has imported (missing_id_executed: killed at 5 before the
    # self-test gained modules, at 20 in any state seen); the suite kills every mutant anyway.
    result = run_selftest(mutants=[name], suite=False, examples=20, reference=False, jobs=1)
    (verdict,) = result.mutants
    assert verdict.error == ""
    assert verdict.killed, f"mutant {name} survived the properties"
    assert set(verdict.killing_properties) <= KNOWN
    assert not result.survivors


@pytest.mark.parametrize("name", list(MUTANTS))
def test_selftest_fast_path_kill_holds_on_the_slow_path(name, judged):
    """The fast path kills the mutant naming its rule, a Gherkin scenario kills it, and the
    killing probe kills it again alone with every example run (the slow path's unit for that
    probe). Only the kill is asserted again: a failure that does not name the mutant's rule may
    come and go for a mutant whose fault is a race or a hash seed (late_result_published named
    R0.model-input-reported once; set_ordered_parallel_calls fails the same-process determinism
    scenario only when two fresh processes order a set differently).

    The fast path ran a prefix of the slow path's probe list (same plan: the kit's seed order,
    conformance/selftest/killers.json, then the catalogue order; the seed's probe must kill it
    first, or the seed is stale), so the slow path's verdict holds the fast path's kill exactly
    when the killing probe fails without the probes before it: shown here mutant by mutant
    (``judged``, tests/selftest/conftest.py, once per test run). A cross-process mutant is judged
    over stdio on both.
    """
    spec = MUTANTS[name]
    paths = judged(name)
    fast, gherkin = paths.fast, paths.gherkin
    assert fast.error == gherkin.error == ""
    assert fast.killed, f"mutant {name} survived the fast path"
    assert spec.rule_id in fast.killing_rules, f"no failure on mutant {name} names its rule"
    assert gherkin.killing_scenarios, f"mutant {name} survived the Gherkin suite"
    assert spec.rule_id in gherkin.killing_rules
    assert set(fast.killing_properties) <= KNOWN
    plan = mutant_probes(
        judge(name), _scenarios(), suite=True, examples=5, invariants=True, killers=read_seed()
    )
    ran = [p.probe for p in paths.probes]
    assert ran == plan[: len(ran)], "the fast path did not run a prefix of the slow path's plan"
    assert len(ran) == 1, (
        f"the seed order is stale for {name}: run python -m conformance.selftest {name}"
    )
    assert paths.probes[-1].kills(judge(name)), "the fast path did not stop at its kill"
    alone = {p.probe: p for p in paths.alone}
    assert alone[paths.probes[-1].probe].kills(judge(name)), "the kill did not hold alone"
    assert any(p.kills(judge(name)) for p in paths.killing_scenarios_alone())


SLOW_PATH_SAMPLE = "other_tool_counted_as_lookup"
"""The mutant whose whole slow path (every probe, every example) is compared with the fast path,
both judged over stdio in fresh processes (:data:`SLOW_PATH_COMMAND`): it covers both mechanisms
the comparison is about, a kill far down the catalogue order (the slow path's) and the stdio
judge (``Judge.command``: the adapter the cross-process mutants are judged with). The fast and
the slow path differ only in the plan's order and cut (``stop_at_kill``), never in how a probe
runs, so one IUT transport does not need a sample of its own (in process, every mutant's kill is
run again alone: test_selftest_fast_path_kill_holds_on_the_slow_path)."""

SLOW_PATH_COMMAND = [sys.executable, "-m", "reference_harness.stdio", "--mutant", SLOW_PATH_SAMPLE]


def test_slow_path_sample_covers_the_fast_paths_mechanisms(judged):
    """The sample is judged over stdio, and its kill, without the seed order, comes after at
    least 30 probes of the catalogue order."""
    assert SLOW_PATH_COMMAND[-2:] == ["--mutant", SLOW_PATH_SAMPLE]
    plan = mutant_probes(
        judge(SLOW_PATH_SAMPLE), _scenarios(), suite=True, examples=5, invariants=True
    )
    assert plan.index(judged(SLOW_PATH_SAMPLE).probes[-1].probe) >= 30


@pytest.mark.slow
def test_selftest_fast_path_agrees_with_the_whole_slow_path():
    """The fast path gives the slow path's verdict (every probe run, every killer listed), with
    killers the slow path also found, and a kill naming the mutant's rule exactly when the slow
    path's does (:data:`SLOW_PATH_SAMPLE`, over stdio)."""
    name = SLOW_PATH_SAMPLE
    spec = MUTANTS[name]
    arguments = {
        "name": name,
        "requirement_id": spec.requirement_id,
        "rule": spec.rule,
        "rule_id": spec.rule_id,
        "examples": PATH_EXAMPLES,
        "command": SLOW_PATH_COMMAND,
    }
    factory = f"reference_harness.mutants:{name}"
    fast, probes = judge_iut_probes(factory, fast=True, **arguments)
    slow = judge_iut(factory, **arguments)
    assert slow.error == fast.error == ""
    assert fast.killed
    assert [p.probe.key for p in probes] == read_seed()[name]  # seeded: its first probe kills
    assert slow.killing_scenarios, f"mutant {name} survived the Gherkin suite"
    assert spec.rule_id in slow.killing_rules, f"no failure on mutant {name} names its rule"
    assert set(slow.killing_properties) <= KNOWN
    assert fast.killed == slow.killed
    assert set(fast.killing_scenarios) <= set(slow.killing_scenarios)
    assert set(fast.killing_properties) <= set(slow.killing_properties)
    assert (spec.rule_id in fast.killing_rules) == (spec.rule_id in slow.killing_rules)
    assert len(slow.killing_scenarios) + len(slow.killing_properties) >= len(
        fast.killing_scenarios
    ) + len(fast.killing_properties)


@pytest.mark.parametrize("name", list(CONTRACT_MUTANTS))
def test_selftest_contract_mutant_is_killed_by_its_scenario(name):
    """Broken contract data fails the Then check of the spec scenario that reads it."""
    result = run_selftest(mutants=[name], reference=False)
    (verdict,) = result.mutants
    assert verdict.kind == "contract"
    assert verdict.killing_scenarios == (CONTRACT_MUTANTS[name].scenario_id,)


@pytest.mark.slow
def test_selftest_reference_passes_everything():
    """The reference Harness passes the Gherkin suite, every property and the invariants: every
    probe of the self-test's reference check, through the self-test's machinery (one process;
    that two give the same verdicts is test_selftest_fast_path.py's; the properties' pins and one
    generated example each here, 100 examples each in tests/properties)."""
    result = run_selftest(mutants=[], suite=True, examples=1, jobs=1)
    assert result.reference_failures == ()
    assert result.passed


def test_selftest_reports_a_surviving_mutant():
    """An 'mutant' that breaks nothing survives, and a self-test with a survivor fails."""
    verdict = judge_iut(
        REFERENCE,
        name="not-a-mutant",
        requirement_id="retry-attempts-shall-be-owned-by-harness",
        rule="none",
        suite=False,
        examples=depth(ci=3, dev=1),  # depth: a count above 0 plans the same properties
        invariants=False,  # its requirement's properties are enough to judge it
    )
    assert verdict.error == ""
    assert not verdict.killed
    result = SelftestResult(reference_failures=(), mutants=(verdict,))
    assert result.survivors == (verdict,)
    assert not result.passed


def test_selftest_rejects_an_unknown_mutant():
    """Asking for a mutant that does not exist is an error naming it and every known one."""
    with pytest.raises(KeyError, match="no-such-mutant") as raised:
        run_selftest(mutants=["no-such-mutant"], reference=False)
    assert "known: " in str(raised.value)
    assert all(name in str(raised.value) for name in [*MUTANTS, *CONTRACT_MUTANTS])
