"""Red team 8's "bounded loop" survivors are killed by the long-list rows added for their kind.

Red team 8's faulty harnesses passed the default ``srdh run`` (docs/decisions/red-team-8.md,
"Long lists with the defect late"): a cap on a list the spec binds whole (duplicates judged
against the last 6 accepted ids, ids keyed by their first 64 characters, draft bindings checked
for the first 5 analyses, answer references for the first 3 items, a Verified Snapshot carrying
the evidence of the first 4 cited invocations). The default fixtures were
shorter than every cap. Each mutant here caps one list; the row putting the defect at the end of
a long list (past any cap a Harness could take for a memory or cost bound short of the list
itself) fails it naming its rule, and each passes the other kinds' rows (one fault each). The
process-wide invocation registry (a citation unknown to the Run resolves to an earlier Run's
call of the same IUT process) is killed by an outline whose second example cites the id only
the first example called. The reference passes the rows
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.bdd._shapes import presented_id, quoted
from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._scale8_parts import KEY_CHARS, WINDOW
from tests.selftest.conftest import declare_runs

KILLING_SCENARIOS: dict[str, str] = {
    "snapshot_evidence_first_four": (
        "semanticguard-reviews-a-draft-citing-a-hundred-invocations-and-finds-the-last-"
        "analysis-unsupported"
    ),
    "duplicates_in_recent_window": (
        "the-first-tool-call-id-is-presented-again-after-a-hundred-other-calls"
    ),
    "id_keyed_by_prefix": (
        "two-128-character-tool-call-ids-that-differ-only-in-their-last-character-are-two-calls"
    ),
    "invocations_resolved_process_wide": (
        "a-draft-cites-a-tool-call-id-that-only-an-earlier-run-of-the-iut-called"
    ),
    "draft_bindings_first_five": (
        "the-last-of-a-hundred-analyses-cites-a-tool-call-id-the-run-never-accepted"
    ),
    "answer_references_first_three": (
        "the-last-of-a-hundred-answer-items-cites-a-fabricated-document"
    ),
    "empty_answer_excused_by_limitation": (
        "a-knowledge-answer-has-zero-items-and-a-limitation-although-the-lookup-found-documents"
    ),
}
"""Mutant -> the (plain) scenario that must fail it, naming its rule."""

RUNS = {
    name: declare_runs(name, scenario_id, "in-process")
    for name, scenario_id in KILLING_SCENARIOS.items()
}
_ALSO_KILLED: frozenset[tuple[str, str]] = frozenset(
    {("snapshot_evidence_first_four", KILLING_SCENARIOS["draft_bindings_first_five"])}
)
"""The analyses row's repaired draft cites 99 calls and its Then judges the model inputs:
it kills the capped snapshot too (a second killer, not a false kill)."""

PASSING = {
    (name, scenario_id): declare_runs(name, scenario_id, "in-process")
    for name in KILLING_SCENARIOS
    for other, scenario_id in KILLING_SCENARIOS.items()
    if other != name and (name, scenario_id) not in _ALSO_KILLED
}
"""Each mutant passes the other kinds' long rows: each row judges one cap."""


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_scale8_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


@pytest.mark.parametrize("name", list(KILLING_SCENARIOS))
def test_scale8_mutant_is_killed_by_its_row_naming_its_rule(name, scenario_run):
    """The row of the mutant's kind fails it naming its rule (``scenario_run``,
    tests/selftest/conftest.py: the scenario run alone on the mutant in process, its examples in
    order on one IUT: the second example of the process-wide registry's outline cites the id
    only the first example's Run called)."""
    rows = {2} if name == "invocations_resolved_process_wide" else {0}
    scenario_run(RUNS[name]).assert_killed_by(rows, MUTANTS[name].rule_id)


@pytest.mark.parametrize("key", list(PASSING), ids=lambda k: f"{k[0]}-{k[1]}")
def test_scale8_mutant_passes_the_other_kinds_rows(key, scenario_run):
    """A Harness with one capped list passes the rows that lengthen another list."""
    scenario = scenario_run(PASSING[key])
    assert not scenario.failing_rows(), scenario.messages


def test_the_rows_vocabulary_spells_long_lists_and_long_ids():
    """A range stands for every numbered id; two long ids share all but their endings."""
    assert quoted('"call_1" through "call_3" and "call_99"') == [
        "call_1",
        "call_2",
        "call_3",
        "call_99",
    ]
    first, second = (
        presented_id('a 128-character ID ending "a"'),
        presented_id('a 128-character ID ending "b"'),
    )
    assert isinstance(first, str)
    assert isinstance(second, str)
    assert len(first) == len(second) == 128
    assert first[:-1] == second[:-1]
    assert first != second
    assert len(first[:-1]) > KEY_CHARS  # the shared prefix outruns the mutant's key
    assert WINDOW < 100  # the row's hundred other calls outrun the mutant's window
