"""Red team 9's survivor kinds are killed by the rows added for them, naming their rules.

The Java example copy ``r4_analysis_id_unchecked`` passed the default ``srdh run``
(docs/decisions/red-team-9.md): its analysis IDs were checked for their type only. The
keyword-break rows broke the id of an analysis the conclusion names, so the orphaned reference
rejected the draft anyway. The rows of "A draft breaks its contract in one value only" whose
draft carries an analysis no other member names, with an ID breaking the pattern ("a 2") or the
length (129 characters), fail the mutant; the reference passes every row
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).

The copy ``r4_cite_string`` wrapped an analysis's bare string ``tool_call_ids`` into a list and
released the edited draft. The rows writing each id list of a draft (an analysis's, the
conclusion's, an action's, a recommendation's, a limitation's) as its one id, bare, fail the
mutant wrapping any of them; the rows of "A knowledge answer writes one of its lists as its one
entry" (its items, an item's references, its limitations) fail the mutant doing so in an answer.
"""

from __future__ import annotations

import pytest

from conformance.bdd._shapes import document_for
from conformance.builders import FixtureBuilder
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._redteam9_specs import REDTEAM9_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

_OUTLINE = "a-draft-breaks-its-contract-in-one-value-only"
KILLING_ROWS: dict[str, set[int]] = {
    "analysis_id_type_only": {7, 8},
    "lone_id_wrapped_in_list": {9, 10, 11, 12, 13},
}
"""Mutant -> the outline's examples (1-based) that fail it: an unnamed analysis with a broken ID;
each id list of a draft written as one bare id."""

_ANSWER_OUTLINE = "a-knowledge-answer-writes-one-of-its-lists-as-its-one-entry"
_OUTLINES = {"lone_entry_wrapped_in_list": _ANSWER_OUTLINE}
KILLING_ROWS["lone_entry_wrapped_in_list"] = {1, 2, 3}

RUNS = {
    name: declare_runs(name, _OUTLINES.get(name, _OUTLINE), "in-process") for name in KILLING_ROWS
}


def test_redteam9_mutants_are_catalogued_naming_a_rule_of_their_requirement():
    """The red-team-9 mutants are exactly the ones tried here, each in the catalogue under its
    name and naming a registered rule of its own requirement."""
    assert_catalogued(REDTEAM9_SPECS, KILLING_ROWS)


@pytest.mark.parametrize("name", list(KILLING_ROWS))
def test_redteam9_mutant_is_killed_by_its_rows_only(name, scenario_run):
    """Its rows fail the mutant naming R4.rejected-then-repaired (a draft breaking its contract
    released, as given or edited); the outline's other rows pass it."""
    scenario_run(RUNS[name]).assert_killed_by(KILLING_ROWS[name], MUTANTS[name].rule_id)


def test_the_unnamed_analysis_is_named_by_nothing_else():
    """Only the analysis ID's own grammar can reject the row's draft."""
    draft = document_for(
        FixtureBuilder(),
        'a draft observing "call_1" beside an analysis named by nothing whose ID is "a 2"',
    )
    assert [a["analysis_id"] for a in draft["analyses"]] == ["a1", "a 2"]
    named = [
        *draft["conclusion"]["analysis_ids"],
        *(i for e in draft["action_plan"] for i in e["analysis_ids"]),
        *(i for e in draft["recommendations"] for i in e["analysis_ids"]),
    ]
    assert "a 2" not in named


@pytest.mark.parametrize(
    "where", ["analysis", "conclusion", "action", "recommendation", "limitation"]
)
def test_each_lone_id_row_breaks_one_list_only(where):
    """The row's draft writes exactly one id list as a bare string; every other list is a list."""
    draft = document_for(
        FixtureBuilder(), f'a draft observing "call_1" whose {where} list is written as its one ID'
    )
    lists = [
        draft["conclusion"]["analysis_ids"],
        *(
            e[k]
            for m, k in (
                ("analyses", "tool_call_ids"),
                ("action_plan", "analysis_ids"),
                ("recommendations", "analysis_ids"),
                ("limitations", "tool_call_ids"),
            )
            for e in draft[m]
        ),
    ]
    assert sum(isinstance(ids, str) for ids in lists) == 1
    assert all(isinstance(ids, (str, list)) for ids in lists)
