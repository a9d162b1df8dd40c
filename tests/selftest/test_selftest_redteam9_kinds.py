"""Red team 9's survivor kind is killed by the rows added for it, naming its rule.

The Java example copy ``r4_analysis_id_unchecked`` passed the default ``srdh run``
(docs/decisions/red-team-9.md): its analysis IDs were checked for their type only. The
keyword-break rows broke the id of an analysis the conclusion names, so the orphaned reference
rejected the draft anyway. The rows of "A draft breaks its contract in one value only" whose
draft carries an analysis no other member names, with an ID breaking the pattern ("a 2") or the
length (129 characters), fail the mutant; the reference passes every row
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

from conformance.bdd._shapes import document_for
from conformance.builders import FixtureBuilder
from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

_NAME = "analysis_id_type_only"
_OUTLINE = "a-draft-breaks-its-contract-in-one-value-only"
_KILLING_ROWS = {7, 8}
"""The outline's examples (1-based) whose draft carries an unnamed analysis with a broken ID."""

RUN = declare_runs(_NAME, _OUTLINE, "in-process")


def test_redteam9_mutant_names_a_registered_rule_of_its_requirement():
    """The mutant is in the catalogue and names a rule of its own requirement."""
    spec = MUTANTS[_NAME]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


def test_redteam9_mutant_is_killed_by_the_unnamed_analysis_rows_only(scenario_run):
    """The two rows fail the mutant naming R4.rejected-then-repaired (a released draft breaking
    its contract); the outline's other rows pass it."""
    scenario_run(RUN).assert_killed_by(_KILLING_ROWS, MUTANTS[_NAME].rule_id)


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
