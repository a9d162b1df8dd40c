"""The sixth red team's cancellation survivors are killed by the rows added for their kind.

A sixth red team's faulty harnesses passed the default ``srdh run``
(docs/decisions/red-team-6.md): a model call (SemanticGuard review, structural repair, Router)
not wired to the Run's cancellation, and the cancellation layers swapped when the cancellation
is noticed during tool work. Each mutant here is the smallest wrong harness of one kind: the
scenario added (or, for the layer order, the scenario the order rule now judges) fails it naming
its rule. The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

KILLING_SCENARIOS: dict[str, str] = {
    "semantic_review_uncancellable": (
        "the-client-disconnects-while-the-semanticguard-call-is-in-flight"
    ),
    "structural_repair_uncancellable": (
        "the-client-disconnects-while-the-structural-repair-call-is-in-flight"
    ),
    "router_call_uncancellable": "the-client-disconnects-while-the-router-call-is-in-flight",
    "tool_path_cancel_layers_swapped": "a-tool-answers-after-its-work-is-cancelled",
}
"""Mutant -> the (plain) scenario that must fail it, naming its rule."""

_UNWIRED = (
    "semantic_review_uncancellable",
    "structural_repair_uncancellable",
    "router_call_uncancellable",
)

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, scenario_id in KILLING_SCENARIOS.items()
}
PASSING = {
    (name, scenario_id): declare_runs(name, scenario_id, "in-process")
    for name in _UNWIRED
    for other, scenario_id in KILLING_SCENARIOS.items()
    if other in _UNWIRED and other != name
}
"""Each unwired-call mutant passes the rows of the other components' calls (one fault each)."""


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_redteam6_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_redteam6_mutant_is_killed_by_its_scenario_naming_its_rule(name, scenario_run):
    """The scenario of the mutant's kind fails it naming its rule (``scenario_run``,
    tests/selftest/conftest.py: the scenario run alone on the mutant in process)."""
    scenario_run(RUNS[name]).assert_killed_by({0}, MUTANTS[name].rule_id)


@pytest.mark.parametrize("key", list(PASSING), ids=lambda k: f"{k[0]}-{k[1]}")
def test_unwired_call_mutant_passes_the_other_calls_rows(key, scenario_run):
    """A Harness whose one unwired call is another component's passes that component's row:
    the check judges the call in flight at the disconnect, not the Run's other calls."""
    scenario = scenario_run(PASSING[key])
    assert not scenario.failing_rows(), scenario.messages
