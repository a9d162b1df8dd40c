"""The attacker-found runtime faults (late results, tool stops, durable intent, raised text, repair
tools, snapshot retries, set ordering) are killed by a failure naming the rule they break (the
reference passes the same scenarios over stdio and the kit's model endpoint:
tests/conformance/test_conf_gherkin_stdio.py)."""

from __future__ import annotations

import pytest

from conformance.checks import rule_ids_in
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._survivor_specs import SURVIVOR_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_SCENARIO = {
    "late_draft_validated": "the-model-adapter-swallows-the-first-cancellation",
    "cancelled_tool_recorded_timeout": "a-tool-answers-after-its-work-is-cancelled",
    "timed_out_tool_recorded_cancelled": "a-tool-blocks-past-its-timeout-and-answers-late",
    "late_tool_answer_classified": "a-tool-blocks-past-its-timeout-and-answers-late",
    "intent_not_stored": "latest-run-is-a-fallback",
    "raised_message_stored": "a-tool-s-raised-error-text-reaches-no-record-of-the-run",
    "repair_request_offers_tools": "evidence-validation-fails-twice",
    "snapshot_rebuilt_after_unavailable": "the-semanticguard-is-unavailable-once",
    "set_ordered_violations": (
        "four-parallel-calls-give-the-same-observation-in-every-fresh-process"
    ),
    "set_ordered_skipped_runs": (
        "four-parallel-calls-give-the-same-observation-in-every-fresh-process"
    ),
}
"""Mutant -> a Gherkin scenario that must kill it (the whole suite kills more)."""

RUNS = {name: declare_runs(name, scenario_id) for name, scenario_id in KILLING_SCENARIO.items()}


def test_every_survivor_mutant_declares_a_registered_rule_of_its_requirement():
    """Each attacker-found mutant is in the catalogue and names a rule of its requirement."""
    assert_catalogued(SURVIVOR_SPECS, KILLING_SCENARIO)


@pytest.mark.parametrize("name", list(KILLING_SCENARIO))
def test_survivor_mutant_is_killed_naming_its_rule(name, scenario_run):
    """The scenario fails the mutant with a failure line naming the mutant's rule id (run alone
    on the mutant, every example, over stdio for a cross-process mutant)."""
    scenario = scenario_run(RUNS[name])
    assert scenario.failed, f"mutant {name} survived {KILLING_SCENARIO[name]}"
    assert MUTANTS[name].rule_id in scenario.rules, scenario.messages
    assert all("SCRIPT_EXHAUSTED" not in m for m in scenario.messages)


@pytest.mark.parametrize("name", [spec.name for spec in SURVIVOR_SPECS if not spec.cross_process])
def test_survivor_mutant_is_killed_by_the_invariants_naming_its_rule(name, invariants_on):
    """The global invariants (pinned fixtures first) fail the mutant under its rule."""
    result = invariants_on(name)
    assert result.outcome == "failed"
    assert MUTANTS[name].rule_id in rule_ids_in(result.message), result.message


# The reference Harness passing these scenarios over stdio, its model calls over the kit's
# endpoint: tests/conformance/test_conf_gherkin_stdio.py runs every scenario that way.
