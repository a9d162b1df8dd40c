"""Red team 6's identity and RAG-binding survivors are killed by the rows added for their kind.

The sixth red team's faulty harnesses passed the default ``srdh run``
(docs/decisions/red-team-6.md): a Tool Call ID reused after a call that did not succeed, a
fabricated reference against an empty lookup result, a lookup Tool Call ID matched ignoring case,
a Knowledge Answer's semantic fallback without verified sources. Each mutant here is the smallest
wrong harness of one kind: the rows written for its kind fail it naming its rule, every other
row of that scenario passes on it. The reference passes the same scenarios
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from reference_harness.mutants import MUTANTS
from reference_harness.mutants._redteam6_idrag_specs import REDTEAM6_IDRAG_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

_REUSED = "a-tool-call-id-is-presented-again-after-its-first-call-did-not-succeed"

KILLING_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    # rows 1-6: TOOL_FAILED, INVALID_ARGUMENTS, TOOL_TIMEOUT (same step, later step)
    "duplicate_after_failed_call_accepted": (_REUSED, frozenset(range(1, 7))),
    # rows 7-10 add BACKEND_ERROR (READY/ERROR) and NO_EVIDENCE
    "duplicate_after_no_evidence_accepted": (_REUSED, frozenset(range(1, 11))),
    "fabricated_reference_on_empty_lookup_accepted": (
        "a-knowledge-answer-cites-documents-of-a-lookup-that-returned-none",
        frozenset({1, 2, 3}),
    ),
    # rows 3, 4 and 7 are not Tool Call IDs at all (SCHEMA_INVALID even for a loose matcher)
    "lookup_id_matched_loosely": (
        "a-knowledge-answer-names-the-lookup-tool-call-id-in-another-spelling",
        frozenset({1, 2, 5, 6}),
    ),
    "knowledge_fallback_without_sources": (
        "the-semantic-fallback-of-a-knowledge-answer-lists-the-ready-lookup-it-cites",
        frozenset({1, 2, 3}),
    ),
}
"""Mutant -> the scenario and the outline rows (example numbers) that must fail it; every other
row of that scenario passes on it."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, (scenario_id, _) in KILLING_ROWS.items()
}


def test_every_redteam6_idrag_mutant_has_killing_rows():
    """Each mutant of the module is in the catalogue, names a rule of its requirement, is tried."""
    assert_catalogued(REDTEAM6_IDRAG_SPECS, KILLING_ROWS)


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam6_idrag_mutant_is_killed_by_its_rows_only_naming_its_rule(name, scenario_run):
    """The rows written for the mutant's kind fail it naming its rule; the other rows pass."""
    rows = KILLING_ROWS[name][1]
    scenario_run(RUNS[name]).assert_killed_by(set(rows), MUTANTS[name].rule_id)
