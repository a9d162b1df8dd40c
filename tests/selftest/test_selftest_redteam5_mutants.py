"""The fifth red team's survivors are killed by the rows added for their kind, naming their rule.

A fifth red team's faulty harnesses passed the default ``srdh run``
(docs/decisions/red-team-5.md). Each mutant here is the smallest wrong harness of one kind: the
rows of its outline written before those pass on it, the rows added for its kind fail it, naming
its rule. The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

KILLING_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    "negative_scope_whole_seconds": (
        "a-negative-observation-is-wider-than-its-query",
        frozenset({9}),
    ),
    "skip_report_oldest_first": ("every-earlier-run-is-ineligible", frozenset()),
}
"""Mutant -> the scenario and the outline rows (example numbers; none: a plain scenario) that
must fail it; every other row of that scenario passes on it."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, (scenario_id, _) in KILLING_ROWS.items()
}


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam5_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam5_mutant_is_killed_by_its_rows_only_naming_its_rule(name, scenario_run):
    """The rows added for the mutant's kind fail it naming its rule; the other rows pass (the
    scenario run alone on the mutant in process, every row: ``scenario_run``,
    tests/selftest/conftest.py)."""
    rows = KILLING_ROWS[name][1]
    scenario_run(RUNS[name]).assert_killed_by(set(rows) or {0}, MUTANTS[name].rule_id)
