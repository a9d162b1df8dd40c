"""The sixth red team's one-keyword survivors are killed by the keyword-break rows, naming their
rule.

Each mutant skips one keyword of a frozen schema a model's output must meet
(docs/decisions/red-team-6.md, "One keyword of a frozen contract"). The generated outlines
(conformance.keywordbreaks) fail it on the rows breaking that keyword only; the reference passes
every row (tests/conformance/test_conf_gherkin_inprocess.py).
"""

from __future__ import annotations

import pytest

from reference_harness.mutants import MUTANTS
from reference_harness.mutants._keyword_specs import KEYWORD_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

_DRAFT = "a-draft-and-its-repair-each-break-one-keyword-of-the-diagnosis-draft-schema"

KILLING_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    "negative_scope_not_required": (_DRAFT, frozenset({21})),
    "statement_length_unbounded": (_DRAFT, frozenset({9})),
    "conclusion_without_analyses_accepted": (_DRAFT, frozenset({5})),
    "observation_scope_unvalidated": (_DRAFT, frozenset({13, 14, 15, 17})),
    "verdict_repeated_ids_accepted": (
        "two-semanticguard-answers-each-break-one-keyword-of-the-verdict-schema",
        frozenset({4}),
    ),
    "negative_start_ms_executed": (
        "two-tool-calls-each-break-one-keyword-of-the-arguments-schema",
        frozenset({3}),
    ),
    "knowledge_item_text_unbounded": (
        "a-knowledge-answer-and-its-repair-each-break-one-keyword-of-the-knowledge-answer-schema",
        frozenset({5}),
    ),
}
"""Mutant -> the outline and the rows (example numbers) that must fail it; the others pass."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, (scenario_id, _) in KILLING_ROWS.items()
}


def test_every_keyword_mutant_declares_a_registered_rule_of_its_requirement() -> None:
    """Each mutant is in the catalogue and names a rule of its own requirement."""
    assert_catalogued(KEYWORD_SPECS, KILLING_ROWS)


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_keyword_mutant_is_killed_by_its_rows_only_naming_its_rule(name, scenario_run):
    """The rows breaking the skipped keyword fail the mutant naming its rule; the other rows of
    the outline pass (the outline run alone on the mutant in process: ``scenario_run``,
    tests/selftest/conftest.py)."""
    rows = KILLING_ROWS[name][1]
    scenario_run(RUNS[name]).assert_killed_by(set(rows), MUTANTS[name].rule_id)
