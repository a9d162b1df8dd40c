"""Red team 11's survivor kinds are killed by the rows added for them, naming their rules.

Four Java example copies passed the default ``srdh run`` (docs/decisions/red-team-11.md):

* an analysis ID compared with the previous analysis's only: every duplicate-id draft put the
  two ids next to each other. The rows repeating the second analysis ID (the second item ID of a
  Knowledge Answer) after a hundred distinct ones fail the mutants judging uniqueness among
  neighbours; the adjacent rows ("A draft repeats an analysis ID", "A knowledge answer repeats
  an item ID") pass them, so only the new rows kill them;
* a semantic fallback's ``verified_sources`` built from the analyses only, or one entry per
  citation: rows 3-4 of "A semantic fallback lists exactly the READY calls the draft cites" cite
  a READY call from a limitation only, rows 5-6 cite one call from two places; the same rows
  judge the Verified Snapshot the SemanticGuard reviews (built from the same citations);
* an agent step of rejected calls only not counted toward ``max_steps``: the rows presenting a
  step of rejected calls within the budget and a valid call after it.

The reference passes every row (tests/conformance/test_conf_gherkin_inprocess.py runs every
scenario on it).
"""

from __future__ import annotations

import pytest

from conformance.bdd._shapes import document_for
from conformance.builders import FixtureBuilder
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._redteam11_specs import REDTEAM11_SPECS
from tests.selftest.conftest import assert_catalogued, declare_runs

_SOURCES = "a-semantic-fallback-lists-exactly-the-ready-calls-the-draft-cites"
_REJECTED_STEP = "a-step-whose-every-call-is-rejected-still-spends-the-step-budget"
_DUPLICATE_STEP = "a-step-presenting-only-a-duplicate-tool-call-id-still-spends-the-step-budget"

KILLED: dict[str, dict[str, set[int]]] = {
    "analysis_ids_unique_among_neighbours": {
        "a-draft-repeats-its-second-analysis-id-after-a-hundred-distinct-ones": {0},
        "a-draft-repeats-an-analysis-id": set(),
    },
    "item_ids_unique_among_neighbours": {
        "a-knowledge-answer-repeats-its-second-item-id-after-a-hundred-distinct-ones": {0},
        "a-knowledge-answer-repeats-an-item-id": set(),
    },
    "fallback_sources_from_analyses_only": {_SOURCES: {3, 4}},
    "fallback_sources_per_citation": {_SOURCES: {5, 6}},
    "snapshot_evidence_from_analyses_only": {_SOURCES: {3, 4}},
    "snapshot_evidence_per_citation": {_SOURCES: {5, 6}},
    "rejected_step_spends_no_budget": {
        _REJECTED_STEP: {1, 2},
        _DUPLICATE_STEP: {0},
        "the-agent-asks-for-more-tool-steps-than-its-budget": set(),
    },
}
"""Mutant -> scenario -> the rows that fail it (0: a plain scenario; empty: it passes)."""

RUNS = {
    (name, scenario): declare_runs(name, scenario, "in-process")
    for name, scenarios in KILLED.items()
    for scenario in scenarios
}


def test_redteam11_mutants_are_catalogued_naming_a_rule_of_their_requirement():
    """The red-team-11 mutants are exactly the ones tried here, each in the catalogue under its
    name and naming a registered rule of its own requirement."""
    assert_catalogued(REDTEAM11_SPECS, KILLED)


@pytest.mark.parametrize(("name", "scenario"), list(RUNS))
def test_redteam11_mutant_is_killed_by_its_rows_only(name, scenario, scenario_run):
    """The new rows fail the mutant naming its rule; the older rows of its kind pass it."""
    scenario_run(RUNS[name, scenario]).assert_killed_by(
        KILLED[name][scenario], MUTANTS[name].rule_id
    )


def test_the_repeated_analysis_id_is_late_and_away_from_its_neighbour():
    """The row's draft repeats "a2" only, after a hundred distinct IDs, far from the first."""
    draft = document_for(
        FixtureBuilder(),
        'a draft whose analyses "a1" through "a100" and "a2" each observe "call_1"',
    )
    ids = [a["analysis_id"] for a in draft["analyses"]]
    assert ids == [f"a{n}" for n in range(1, 101)] + ["a2"]
    assert all(ids[i] != ids[i - 1] for i in range(1, len(ids)))


def test_the_repeated_item_id_is_late_and_away_from_its_neighbour():
    """The row's answer repeats "i2" only, after a hundred distinct item IDs."""
    answer = document_for(
        FixtureBuilder(),
        'an answer whose items "i1" through "i100" and "i2" cite the documents "doc-1" through '
        '"doc-101" from "lookup_1"',
    )
    ids = [i["item_id"] for i in answer["items"]]
    assert ids == [f"i{n}" for n in range(1, 101)] + ["i2"]
    assert all(ids[i] != ids[i - 1] for i in range(1, len(ids)))
