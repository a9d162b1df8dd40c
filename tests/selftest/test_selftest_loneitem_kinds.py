"""The keyword-break rows writing each array of a contract as its lone item kill the Harnesses
that coerce a lone item into a list, naming their rules (docs/decisions/lone-items-11.md).

Red team 9's copy ``r4_cite_string`` wrapped a bare string ``tool_call_ids`` into a list and
released the edited draft; the kind was closed by hand-written rows for the draft's id lists and
the Knowledge Answer's lists. The keyword-break walk (conformance.keywordbreaks) now writes every
array of the three model-written contracts with arrays as its one item, bare, at one cell per
array member path, after the other breaks: the last five rows of the draft outline, the last row
of the verdict outline, the last two of the answer outline. Each mutant coercing one family fails
exactly the rows whose cell writes a list of that family bare; the reference passes every row
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.keywordbreaks import base_documents, break_at
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._loneitem_specs import LONEITEM_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

_DRAFT = "a-draft-and-its-repair-each-break-one-keyword-of-the-diagnosis-draft-schema"
_VERDICT = "two-semanticguard-answers-each-break-one-keyword-of-the-verdict-schema"
_ANSWER = "a-knowledge-answer-and-its-repair-each-break-one-keyword-of-the-knowledge-answer-schema"

LONEITEM_ROWS: dict[str, tuple[str, frozenset[int]]] = {
    "lone_unsupported_id_wrapped_in_list": (_VERDICT, frozenset({7})),
    "lone_draft_entry_wrapped_in_list": (_DRAFT, frozenset({32, 33, 34, 35})),
}
"""The new mutants -> the outline and its rows that fail them: the verdict's lone
``unsupported_analysis_ids`` (row 7); a draft's ``action_plan``, ``recommendations``,
``limitations`` and ``analyses`` written as one entry (rows 32-35, each as one of its cells)."""

EARLIER_ROWS: dict[str, tuple[str, frozenset[int], frozenset[int]]] = {
    "lone_id_wrapped_in_list": (_DRAFT, frozenset({32, 33, 34, 35, 36}), frozenset()),
    "lone_entry_wrapped_in_list": (_ANSWER, frozenset({15, 16}), frozenset({3})),
}
"""Red team 9's lone-item mutants (killed first by their hand-written rows, red-team-9.md) ->
the outline, the lone-item rows that fail them too and the outline's rows that failed them
before: an analysis's, an action's, a recommendation's, the conclusion's and a limitation's id
list (rows 32-36, the first cell of each); an answer's items, an item's references and its
limitations (rows 15-16). Row 3 of the answer outline writes ``items`` as an object, ``{}``:
listed, its one item has no ``references`` and the mutant reports ITEM_WITHOUT_REFERENCES, not
SCHEMA_INVALID (R5.item-without-references-code)."""

RUNS = {
    name: declare_runs(name, rows[0], "in-process")
    for name, rows in {**LONEITEM_ROWS, **EARLIER_ROWS}.items()
}


def test_loneitem_mutants_are_catalogued_naming_a_rule_of_their_requirement() -> None:
    """The lone-item mutants are exactly the ones tried here, each in the catalogue under its
    name and naming a registered rule of its own requirement."""
    assert_catalogued(LONEITEM_SPECS, LONEITEM_ROWS)


@pytest.mark.parametrize("name", [*LONEITEM_ROWS, *EARLIER_ROWS])
def test_lone_item_mutant_is_killed_by_the_lone_item_rows_only(name, scenario_run) -> None:
    """The rows writing a list of the mutant's family as its one item fail it naming its rule
    (red team 9's: R6.evidence-validation-failed, the outline's); the outline's other rows,
    every other keyword broken, pass it (but the rows that failed red team 9's before)."""
    run = scenario_run(RUNS[name])
    if name in LONEITEM_ROWS:
        run.assert_killed_by(set(LONEITEM_ROWS[name][1]), MUTANTS[name].rule_id)
        return
    _, lone, before = EARLIER_ROWS[name]
    failed = run.failing_rows()
    assert set(failed) == lone | before, run.messages
    assert all("R6.evidence-validation-failed" in failed[row] for row in lone), failed


def test_the_verdict_row_names_one_analysis_bare() -> None:
    """Row 7's first answer is the UNSUPPORTED base verdict with its one id written bare: the
    mutant wrapping it reads the base verdict back, a valid answer."""
    bases = base_documents("semantic-verdict", {})
    verdict = break_at(
        "semantic-verdict", bases, "type", "/unsupported_analysis_ids", lone_item=True
    )
    assert verdict == {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": "a1"}
    assert {**verdict, "unsupported_analysis_ids": ["a1"]} in bases
