"""The faults the second red team (faulty copies of ``examples/java``) kept conformant are killed
by a failure naming the rule they break; the reference passes the same scenarios (every scenario
runs on it in tests/conformance/test_conf_gherkin_inprocess.py and _stdio.py)."""

from __future__ import annotations

import pytest

from reference_harness.mutants import MUTANTS
from reference_harness.mutants._redteam2_specs import REDTEAM2_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_SCENARIO = {
    "analysis_ids_case_folded": "analysis-ids-that-differ-only-in-case-are-two-unique-analysis-ids",
    "fallback_source_scope_from_draft": (
        "a-semantic-fallback-lists-a-narrowed-negative-observation-s-call-with-the-call-s-own-"
        "query-scope"
    ),
    "extra_verdict_members_accepted": (
        "a-semanticguard-answer-breaking-one-rule-of-the-verdict-schema-is-an-invalid-structured-"
        "result"
    ),
}
"""Mutant -> the Gherkin scenario added to kill it."""

RUNS = {name: declare_runs(name, scenario_id) for name, scenario_id in KILLING_SCENARIO.items()}


def test_every_redteam2_mutant_declares_a_registered_rule_of_its_requirement():
    """Each mutant is in the catalogue and names a rule of its own requirement."""
    assert_catalogued(REDTEAM2_SPECS, KILLING_SCENARIO)


@pytest.mark.parametrize("name", list(KILLING_SCENARIO))
def test_redteam2_mutant_is_killed_naming_its_rule(name, scenario_run):
    """The scenario fails the mutant with a failure line naming the mutant's rule id."""
    scenario = scenario_run(RUNS[name])
    assert scenario.failed, f"mutant {name} survived {KILLING_SCENARIO[name]}"
    assert MUTANTS[name].rule_id in scenario.rules, scenario.messages
    assert all("SCRIPT_EXHAUSTED" not in m for m in scenario.messages)
