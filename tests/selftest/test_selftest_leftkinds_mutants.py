"""The survivor kinds closed in docs/decisions/left-kinds-8.md: each mutant is killed by a row
of the default run, naming its rule.

Each mutant is the smallest wrong harness of one kind: an in-band backend error's code copied
into the invocation's safe message (R6), tool work cancelled and recorded before the
cancellation request (R8). The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

_ORDER = "a-released-knowledge-answer-keeps-the-order-of-its-items-and-references"

KILLING_SCENARIOS: dict[str, str] = {
    "in_band_code_in_safe_message": "a-backend-answers-with-an-in-band-error",
    "tool_work_cancelled_before_request": "a-tool-answers-after-its-work-is-cancelled",
    "tool_timeout_recorded_as_cancelled_work": "a-tool-blocks-past-its-timeout-and-answers-late",
    "knowledge_answer_released_sorted": _ORDER,
    "lookup_item_ids_sorted": _ORDER,
}
"""Mutant -> the (plain) scenario that must fail it, naming its rule."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, scenario_id in KILLING_SCENARIOS.items()
}


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_leftkinds_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


KILLING_ROWS: dict[str, set[int]] = {
    "knowledge_answer_released_sorted": {2, 3},  # row 1's items are in item_id order
    "lookup_item_ids_sorted": {1, 2, 3},
}
"""The outline rows that fail a mutant (row 0: a plain scenario)."""


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_leftkinds_mutant_is_killed_by_its_scenario_naming_its_rule(name, scenario_run):
    """The scenario of the mutant's kind fails it naming its rule (``scenario_run``,
    tests/selftest/conftest.py: the scenario run alone on the mutant in process)."""
    rows = KILLING_ROWS.get(name, {0})
    scenario_run(RUNS[name]).assert_killed_by(rows, MUTANTS[name].rule_id)
