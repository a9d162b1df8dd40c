"""Each model-input mutant is killed by a failure naming its rule (targeted scenarios, fast)."""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.suite import run_suite
from reference_harness.mutants import MUTANTS

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


@pytest.mark.parametrize("name", sorted(KILLING_SCENARIO))
def test_model_input_mutant_is_killed_through_its_rule(name, scenario_alone):
    """The scenario fails on the mutant and the failure names the mutant's rule id.

    The scenario runs alone on the mutant, every example (``scenario_alone``,
    tests/selftest/conftest.py: the slow path's unit for that probe).
    """
    spec = MUTANTS[name]
    scenario = scenario_alone(name, KILLING_SCENARIO[name])
    assert scenario.failed
    messages = "\n".join(scenario.messages)
    assert f"[{spec.rule_id}]" in messages


def test_model_input_mutants_pass_where_their_fault_cannot_show():
    """The suite does not blame them elsewhere: a Run without earlier Runs keeps R7 for both."""
    for name in ("session_history_in_context", "other_session_turn_in_context"):
        adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
        try:
            result = run_suite(adapter, scenario_ids=["duplicate-tool-call-id-is-proposed"])
        finally:
            adapter.close()
        assert [s.outcome for s in result.scenarios] == ["passed"]


def test_the_retrying_sdk_mutant_runs_over_the_model_endpoint():
    """Only the endpoint makes SDK retries visible: the mutant declares MODEL_ENDPOINT."""
    adapter = InProcessAdapter("reference_harness.mutants:sdk_retries_over_http")
    try:
        assert "MODEL_ENDPOINT" in adapter.capabilities
    finally:
        adapter.close()
