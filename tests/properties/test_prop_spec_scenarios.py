"""Every spec Scenario under Hypothesis, against the reference Harness in process.

Each fixture a ``run`` property draws is also checked, before it runs, to be a valid
ScenarioFixture that satisfies the scenario's WHEN (``WHEN`` below): the strategies are judged on
the very fixtures the properties judge the reference with.
"""

from __future__ import annotations

import dataclasses

import pytest

from conformance.checks import expected_identity, expected_response, submissions
from conformance.properties import PROPERTIES, run_property
from contracts import validate_document


def _duplicate(fixture):
    _, rejected = expected_identity(fixture)
    return any(reason == "DUPLICATE_ID" for _, reason in rejected)


def _zero_match(fixture):
    accepted, _ = expected_identity(fixture)
    responses = [expected_response(fixture, call) for call in accepted]
    return any(r and r["kind"] == "rows" and not r["items"] for r in responses)


def _empty_ids(fixture):
    accepted, _ = expected_identity(fixture)
    return {
        c.value
        for c in accepted
        if (r := expected_response(fixture, c)) and r["kind"] == "rows" and not r["items"]
    }


def _cites_no_evidence(fixture):
    empty = _empty_ids(fixture)
    return any(
        set(a.get("tool_call_ids", [])) & empty
        for s in submissions(fixture)
        if isinstance(s.document, dict)
        for a in s.document.get("analyses", [])
    )


def _emits_draft(fixture):
    return any(s.kind == "draft" for s in submissions(fixture))


def _fabricates(fixture):
    accepted, _ = expected_identity(fixture)
    returned = {
        item["document_id"]
        for c in accepted
        for item in (expected_response(fixture, c) or {}).get("items", [])
    }
    first = submissions(fixture)[0].document
    cited = {r["document_id"] for i in first["items"] for r in i["references"]}
    return bool(cited - returned)


def _two_submissions_no_review(fixture):
    tail = [t for t in fixture["agent"] if t["kind"] != "tool_calls"]
    return len(fixture["agent"]) - len(tail) >= 1 and not fixture["semantic_guard"]


def _latest_fallback(fixture):
    same = [r for r in fixture["prior_runs"] if r["session_id"] == fixture["session_id"]]
    latest = max(same, key=lambda r: r["seq"])
    return latest["state"] == "FALLBACK"


def _blocked_at_disconnect(fixture):
    occurrence = fixture["client"]["disconnect_on"]["occurrence"]
    turn = fixture["agent"][occurrence - 1 - len(fixture["router"])]
    return turn["kind"] == "block_until_cancelled" and turn is fixture["agent"][-1]


def _invalid_first_review(fixture):
    first = fixture["semantic_guard"][0]
    return first["kind"] != "verdict" or bool(
        validate_document(first["verdict"], "semantic-verdict")
    )


WHEN = {
    "duplicate-tool-call-id-is-proposed": _duplicate,
    "successful-query-returns-no-evidence": _zero_match,
    "no-evidence-result-is-cited": _cites_no_evidence,
    "draft-contains-an-analysis-item": _emits_draft,
    "knowledge-answer-cites-an-unknown-document": _fabricates,
    "evidence-validation-fails-twice": _two_submissions_no_review,
    "latest-run-is-a-fallback": _latest_fallback,
    "client-disconnects-during-a-model-call": _blocked_at_disconnect,
    "semanticguard-returns-an-invalid-schema": _invalid_first_review,
}


def _when_checked(prop):
    """``prop`` whose strategy fails a drawn fixture that is invalid or misses the WHEN."""
    if prop.kind != "run":
        return prop
    when = WHEN[prop.scenario_id]

    def checked(fixture):
        problems = validate_document(fixture, "scenario-fixture")
        assert problems == [], f"the strategy drew an invalid fixture: {problems}"
        assert when(fixture), f"the strategy drew a fixture missing the WHEN: {fixture}"
        return fixture

    return dataclasses.replace(prop, strategy=lambda: prop.strategy().map(checked))


def test_every_run_property_has_its_when():
    """Each ``run`` property's drawn fixtures are checked against a WHEN predicate."""
    assert set(WHEN) == {k for k, p in PROPERTIES.items() if p.kind == "run"}


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("scenario_id", list(PROPERTIES))
def test_prop_spec_scenario(scenario_id, reference_iut, property_config):
    """Every generated fixture is valid and satisfies the WHEN; the scenario's THEN holds on it."""
    result = run_property(
        _when_checked(PROPERTIES[scenario_id]), reference_iut, config=property_config
    )
    assert result.outcome == "passed", f"{result.message}\nfixture: {result.fixture}"
    assert result.examples >= property_config.max_examples
