"""The strategies generate valid Scenario Fixtures that satisfy their scenario's WHEN."""

from __future__ import annotations

import pytest
from hypothesis import given

from conformance.checks import expected_identity, expected_response, submissions
from conformance.strategies import (
    SCENARIO_STRATEGIES,
    any_fixtures,
    phase_plan_variants,
    registry_variants,
)
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


@pytest.mark.parametrize("scenario_id", list(SCENARIO_STRATEGIES))
def test_prop_strategy_satisfies_when(scenario_id, property_config):
    """Every generated fixture is a valid ScenarioFixture and satisfies the scenario's WHEN."""

    @property_config
    @given(SCENARIO_STRATEGIES[scenario_id]())
    def check(fixture):
        assert validate_document(fixture, "scenario-fixture") == []
        assert WHEN[scenario_id](fixture), fixture

    check()


def test_prop_faulted_mix_is_valid(property_config):
    """Fixtures with random extra faults stay valid ScenarioFixtures and name their faults."""

    @property_config
    @given(any_fixtures(list(SCENARIO_STRATEGIES.values())))
    def check(fixture):
        assert validate_document(fixture, "scenario-fixture") == []
        assert fixture["description"].startswith("faults: ")

    check()


def test_prop_contract_variants_change_what_they_say(property_config):
    """A variant that keeps the rule changes only the order; a breaking one changes content."""

    @property_config
    @given(registry_variants(), phase_plan_variants())
    def check(registry, plan):
        for variant in (registry, plan):
            assert (variant.change in {"none", "components reordered"}) == variant.keeps_rule

    check()
