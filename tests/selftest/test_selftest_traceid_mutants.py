"""Identity-field faults of red team 5 (decisions right, one field names the wrong Run or tool)
are killed by a failure naming the rule they break."""

from __future__ import annotations

import pytest

from reference_harness.mutants import MUTANTS
from reference_harness.mutants._traceid_specs import TRACEID_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_SCENARIO = {
    "invocation_run_id_session": "duplicate-tool-call-id-is-proposed",
    "rejected_tool_name_null": "duplicate-tool-call-id-is-proposed",
    "late_discard_wrong_index": "client-disconnects-during-a-model-call",
    "late_discard_wrong_purpose": "client-disconnects-during-a-model-call",
    "late_discard_twice": "client-disconnects-during-a-model-call",
    "tool_work_cancelled_twice": "the-client-disconnects-at-any-event-of-the-run",
    "interrupt_twice": "client-disconnects-during-a-model-call",
    "repair_violations_first_only": "evidence-validation-fails-twice",
    "repair_call_index_restart": "no-evidence-result-is-cited",
    "synthetic_verdict_on_unavailable": "semanticguard-returns-an-invalid-schema",
}
"""Mutant -> a Gherkin scenario (or outline) that must kill it (the whole suite kills more)."""

RUNS = {name: declare_runs(name, scenario_id) for name, scenario_id in KILLING_SCENARIO.items()}


def test_every_traceid_mutant_declares_a_registered_rule_of_its_requirement():
    """Each mutant is in the catalogue and names a rule of its requirement."""
    assert_catalogued(TRACEID_SPECS, KILLING_SCENARIO)


@pytest.mark.parametrize("name", list(KILLING_SCENARIO))
def test_traceid_mutant_is_killed_naming_its_rule(name, scenario_run):
    """The scenario fails the mutant with a failure line naming the mutant's rule id."""
    scenario = scenario_run(RUNS[name])
    assert scenario.failed, f"mutant {name} survived {KILLING_SCENARIO[name]}"
    assert MUTANTS[name].rule_id in scenario.rules, scenario.messages
