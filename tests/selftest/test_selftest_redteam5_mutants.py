"""The fifth red team's survivors are killed by the rows added for their kind, naming their rule.

A fifth red team's faulty harnesses passed the default ``srdh run``
(docs/decisions/red-team-5.md). Each mutant here is the smallest wrong harness of one kind: the
rows of its outline written before those pass on it, the rows added for its kind fail it, naming
its rule. The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.checks import RULES
from conformance.suite import run_suite
from reference_harness.mutants import MUTANTS

KILLING_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    "negative_scope_whole_seconds": (
        "a-negative-observation-is-wider-than-its-query",
        frozenset({9}),
    ),
    "skip_report_oldest_first": ("every-earlier-run-is-ineligible", frozenset()),
}
"""Mutant -> the scenario and the outline rows (example numbers; none: a plain scenario) that
must fail it; every other row of that scenario passes on it."""


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam5_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


def _example_number(scenario_id: str, example_id: str) -> int:
    """The row number of an outline example id (0 for a plain scenario's own id)."""
    return 0 if example_id == scenario_id else int(example_id.rsplit("-", 1)[1])


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam5_mutant_is_killed_by_its_rows_only_naming_its_rule(name):
    """The rows added for the mutant's kind fail it naming its rule; the other rows pass."""
    scenario_id, rows = KILLING_ROWS[name]
    adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
    try:
        result = run_suite(adapter, scenario_ids=[scenario_id])
    finally:
        adapter.close()
    (scenario,) = [s for s in result.scenarios if s.scenario_id == scenario_id]
    failed = {
        _example_number(scenario_id, e.example_id): e.rules
        for e in scenario.examples
        if e.outcome == "failed"
    }
    assert set(failed) == (rows or {0}), scenario.messages
    assert all(MUTANTS[name].rule_id in rules for rules in failed.values()), failed
