"""The runtime mutants (retries, timeouts, cancellation, previous turn, ordering) are killed by
a failure naming the rule they break (the reference passes the same scenarios over stdio:
tests/conformance/test_conf_gherkin_stdio.py)."""

from __future__ import annotations

import pytest

from conformance.checks import rule_ids_in
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._runtime_specs import RUNTIME_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_SCENARIO = {
    "semantic_timeout_as_unsupported": (
        "the-semanticguard-s-last-allowed-answer-decides-the-fallback"
    ),
    "running_run_as_previous_turn": "a-newer-run-is-still-running",
    "previous_turn_across_sessions": "another-session-has-newer-runs",
    "previous_turn_by_creation_time": "creation-times-disagree-with-seq",
    "tool_work_not_cancelled": "a-tool-answers-after-its-work-is-cancelled",
    "tool_result_accepted_after_cancel": "a-tool-answers-after-its-work-is-cancelled",
    "model_call_waits_past_timeout": (
        "a-model-call-blocks-past-its-timeout-and-no-client-disconnects"
    ),
    "disconnect_not_noticed": "the-client-disconnects-at-any-event-of-the-run",
    "three_router_attempts": "the-router-is-unavailable",
    "agent_call_retried": "the-diagnosis-agent-is-unavailable",
    "timed_out_review_retried": "the-semanticguard-s-last-allowed-answer-decides-the-fallback",
    "undeclared_semantic_retry": "semanticguard-returns-an-invalid-schema",
    "undeclared_router_retry": "the-router-answers-with-an-invalid-intent-once",
    "set_ordered_parallel_calls": (
        "four-parallel-calls-give-the-same-observation-in-every-fresh-process"
    ),
}
"""Mutant -> a Gherkin scenario that must kill it (the whole suite kills more)."""

RUNS = {name: declare_runs(name, scenario_id) for name, scenario_id in KILLING_SCENARIO.items()}


def test_runtime_catalogue_has_twelve_or_more_named_mutants():
    """At least 12 runtime mutants, each declaring a registered rule of its requirement."""
    assert len(RUNTIME_SPECS) >= 12
    assert_catalogued(RUNTIME_SPECS, KILLING_SCENARIO)


@pytest.mark.parametrize("name", list(KILLING_SCENARIO))
def test_runtime_mutant_is_killed_naming_its_rule(name, scenario_run):
    """The scenario fails the mutant with a failure line naming the mutant's rule id.

    The scenario runs alone on the mutant, every example (``scenario_run``,
    tests/selftest/conftest.py: the slow path's unit for that probe, in process or over stdio
    for a cross-process mutant).
    """
    scenario = scenario_run(RUNS[name])
    assert scenario.failed, f"mutant {name} survived {KILLING_SCENARIO[name]}"
    assert MUTANTS[name].rule_id in scenario.rules, scenario.messages
    assert all("SCRIPT_EXHAUSTED" not in m or "[R" in m for m in scenario.messages)


@pytest.mark.parametrize("name", [spec.name for spec in RUNTIME_SPECS if not spec.cross_process])
def test_runtime_mutant_is_killed_by_the_invariants_naming_its_rule(name, invariants_on):
    """The global invariants (pinned runtime fixtures first) fail the mutant under its rule."""
    result = invariants_on(name)
    assert result.outcome == "failed"
    assert MUTANTS[name].rule_id in rule_ids_in(result.message), result.message


# The reference Harness passing these scenarios over stdio, its model calls over the kit's
# endpoint: tests/conformance/test_conf_gherkin_stdio.py runs every scenario that way.
