"""The wrong-case and bounds mutants are killed by the rows added for their kind, naming their rule.

A third red team's faulty harnesses passed the default ``srdh run`` by accepting a closed value in
another case, by refusing values at a grammar bound, or by holding only an all-NO_EVIDENCE
citation to NEGATIVE_OBSERVATION; the kit closed the kinds with extension rows
(docs/decisions/wrong-case-and-bounds-rows.md). Each mutant here is the smallest wrong harness of
one kind: the rows of its outline written before those pass on it, the rows added for its kind
fail it, naming its rule. The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from reference_harness.mutants import MUTANTS
from reference_harness.mutants._bounds_specs import BOUNDS_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

KILLING_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    "router_json_intent_upper_cased": (
        "every-router-answer-gets-the-attempts-the-declared-policy-allows",
        frozenset({7, 8}),
    ),
    "verdict_member_name_accepted": (
        "the-semanticguard-s-last-allowed-answer-decides-the-fallback",
        frozenset({8, 9}),
    ),
    "draft_member_names_accepted": (
        "a-draft-breaks-its-contract-in-one-value-only",
        frozenset({5, 6}),
    ),
    "argument_bounds_exclusive": (
        "a-tool-call-whose-arguments-sit-at-the-grammar-bounds-is-executed",
        frozenset({1, 2, 3, 4, 5, 6}),
    ),
    "argument_lengths_in_utf16_units": (
        "a-tool-call-whose-arguments-sit-at-the-grammar-bounds-is-executed",
        frozenset({5, 6}),
    ),
    "invocation_arguments_normalized": (
        "a-tool-call-whose-arguments-carry-an-extra-member-keeps-them-as-presented",
        frozenset(),
    ),
    "draft_texts_checked_as_java_strings": (
        "a-draft-whose-texts-sit-at-their-schema-bounds-is-released",
        frozenset({3, 4}),
    ),
    "draft_text_bounds_exclusive": (
        "a-draft-whose-texts-sit-at-their-schema-bounds-is-released",
        frozenset({1, 2, 3, 5}),
    ),
    "mixed_no_evidence_citation_accepted": (
        "an-observation-cites-a-found-result-and-a-no-evidence-result",
        frozenset(),
    ),
}
"""Mutant -> the scenario and the outline rows (example numbers; none: a plain scenario) that
must fail it; every other row of that scenario passes on it."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, (scenario_id, _) in KILLING_ROWS.items()
}


def test_every_bounds_mutant_declares_a_registered_rule_of_its_requirement():
    """Each mutant is in the catalogue and names a rule of its own requirement."""
    assert_catalogued(BOUNDS_SPECS, KILLING_ROWS)


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_bounds_mutant_is_killed_by_its_rows_only_naming_its_rule(name, scenario_run):
    """The rows added for the mutant's kind fail it naming its rule; the other rows pass (the
    scenario run alone on the mutant in process, every row: ``scenario_run``,
    tests/selftest/conftest.py)."""
    rows = KILLING_ROWS[name][1]
    scenario_run(RUNS[name]).assert_killed_by(set(rows) or {0}, MUTANTS[name].rule_id)
