"""Trace-field and client-frame faults (records right, a derived field or a frame wrong) are killed
by a failure naming the rule they break; the reference passes the same scenarios over stdio and
over the kit's model endpoint."""

from __future__ import annotations

import pytest

from conformance.checks import rule_ids_in
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._frames_specs import FRAMES_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_SCENARIO = {
    "accepted_sequence_counts_rejected": (
        "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed"
    ),
    "classified_item_count_is_total": "raw-rows-beyond-the-bounded-projection-never-reach-a-model",
    "invalid_arguments_recorded_failed": (
        "a-tool-call-whose-time-range-ends-before-it-starts-is-never-executed"
    ),
    "run_started_seq_off": "latest-run-is-a-fallback",
    "finished_names_another_fallback": "evidence-validation-fails-twice",
    "result_frame_after_run_finished": "latest-run-is-a-fallback",
    "end_frame_missing": "latest-run-is-a-fallback",
    "status_events_not_streamed": "successful-query-returns-no-evidence",
    "frames_after_disconnect": "client-disconnects-during-a-model-call",
}
"""Mutant -> a Gherkin scenario (or outline) that must kill it (the whole suite kills more)."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, scenario_id in KILLING_SCENARIO.items()
}


def test_every_frames_mutant_declares_a_registered_rule_of_its_requirement():
    """Each mutant is in the catalogue and names a rule of its requirement."""
    assert_catalogued(FRAMES_SPECS, KILLING_SCENARIO)


@pytest.mark.parametrize("name", list(KILLING_SCENARIO))
def test_frames_mutant_is_killed_naming_its_rule(name, scenario_run):
    """The scenario fails the mutant with a failure line naming the mutant's rule id (run alone
    on the mutant in process, every example: ``scenario_run``, tests/selftest/conftest.py)."""
    scenario = scenario_run(RUNS[name])
    assert scenario.failed, f"mutant {name} survived {KILLING_SCENARIO[name]}"
    named = {rule for message in scenario.messages for rule in rule_ids_in(message)}
    assert MUTANTS[name].rule_id in named, scenario.messages


# The reference Harness passing these scenarios over stdio, its model calls over the kit's
# endpoint: tests/conformance/test_conf_gherkin_stdio.py runs every scenario that way.
