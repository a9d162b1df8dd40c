"""Each model-input mutant is killed by a failure naming its rule (targeted scenarios, fast)."""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

KILLING_SCENARIO = {
    "reviewer_sees_conversation": "a-released-diagnosis-draft-is-the-agent-s-own-draft",
    "reviewer_offered_tools": "a-released-diagnosis-draft-is-the-agent-s-own-draft",
    "session_history_in_context": "latest-run-is-a-fallback",
    "other_session_turn_in_context": "only-the-selected-previous-turn-reaches-the-diagnosis-agent",
    "raw_rows_reach_agent": "raw-rows-beyond-the-bounded-projection-never-reach-a-model",
    "reasoning_in_agent_context": "duplicate-tool-call-id-is-proposed",
    "sdk_retries_over_http": "the-router-is-unavailable",
}
"""One scenario per mutant that kills it; the full self-test runs every scenario."""

RUNS = {name: declare_runs(name, scenario_id) for name, scenario_id in KILLING_SCENARIO.items()}
PASSING = {
    name: declare_runs(name, "duplicate-tool-call-id-is-proposed", "in-process")
    for name in ("session_history_in_context", "other_session_turn_in_context")
}


@pytest.mark.parametrize("name", sorted(KILLING_SCENARIO))
def test_model_input_mutant_is_killed_through_its_rule(name, scenario_run):
    """The scenario fails on the mutant and the failure names the mutant's rule id.

    The scenario runs alone on the mutant, every example (``scenario_run``,
    tests/selftest/conftest.py: the slow path's unit for that probe).
    """
    spec = MUTANTS[name]
    scenario = scenario_run(RUNS[name])
    assert scenario.failed
    messages = "\n".join(scenario.messages)
    assert f"[{spec.rule_id}]" in messages


def test_model_input_mutants_pass_where_their_fault_cannot_show(scenario_run):
    """The suite does not blame them elsewhere: a Run without earlier Runs keeps R7 for both."""
    for key in PASSING.values():
        scenario = scenario_run(key)
        assert scenario.rows
        assert {outcome for _, outcome, _, _ in scenario.rows} == {"passed"}


def test_the_retrying_sdk_mutant_runs_over_the_model_endpoint():
    """Only the endpoint makes SDK retries visible: the mutant declares MODEL_ENDPOINT."""
    adapter = InProcessAdapter("reference_harness.mutants:sdk_retries_over_http")
    try:
        assert "MODEL_ENDPOINT" in adapter.capabilities
    finally:
        adapter.close()
