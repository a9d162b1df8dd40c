"""Conforming behaviour red team 6 showed the kit failing (F2-F4): each passes now, and the faulty
behaviour next to it still fails naming its rule (docs/decisions/red-team-6.md)."""

from __future__ import annotations

import copy

from conformance import checks
from tests.conformance.test_conf_false_kills import _failing_rules, _fixture, _run

KNOWLEDGE_AFTER_FAILURES = "a-knowledge-question-follows-failed-and-fallback-runs"
UNKNOWN_ID_THEN_SUPPORTED = "the-semanticguard-s-last-allowed-answer-decides-the-fallback-example-7"


# -- F2: instructions with role developer ---------------------------------------------------


def test_f2_developer_role_instructions_are_conforming():
    """Every component's instructions sent as ``developer``: the reviewer is still isolated."""
    fixture = _fixture("draft-contains-an-analysis-item")
    observation = _run(fixture, "reference_harness.variants:developer_role_instructions")
    reviews = [r for r in observation["model_requests"] if r["component"] == "SEMANTIC_GUARD"]
    assert reviews
    assert [m["role"] for m in reviews[0]["messages"]] == ["developer", "user"]
    checks.check_global_invariants(observation, fixture).require()
    checks.check_model_inputs(observation, fixture).require()


def test_f2_history_beside_developer_instructions_still_fails():
    """An assistant turn beside the developer instructions is a conversation: R1 fails."""
    fixture = _fixture("draft-contains-an-analysis-item")
    observation = _run(fixture, "reference_harness.variants:developer_role_instructions")
    tampered = copy.deepcopy(observation)
    review = next(r for r in tampered["model_requests"] if r["component"] == "SEMANTIC_GUARD")
    review["messages"].insert(1, {"role": "assistant", "content": "Earlier I said it was fine."})
    rules = _failing_rules(checks.check_model_inputs(tampered, fixture))
    assert "R1.reviewer-isolated-single-turn" in rules


# -- F3: a KNOWLEDGE_QUERY Run records a previous-turn selection --------------------------------


def test_f3_knowledge_query_run_recording_the_selection_is_conforming():
    """A KNOWLEDGE_QUERY Run's PREVIOUS_TURN_SELECTED by the rules passes (it is not demanded)."""
    fixture = _fixture(KNOWLEDGE_AFTER_FAILURES)
    observation = _run(fixture, "reference_harness.variants:knowledge_query_selects_previous_turn")
    (selected,) = [e for e in observation["trace"] if e["type"] == "PREVIOUS_TURN_SELECTED"]
    assert selected["data"]["skipped"], "the fixture's failed and fallback Runs are skipped"
    checks.check_global_invariants(observation, fixture).require()
    checks.check_model_inputs(observation, fixture).require()


def test_f3_knowledge_query_selection_against_the_rules_still_fails():
    """A KNOWLEDGE_QUERY Run naming the newest Run (a failed or fallback one) fails R7."""
    fixture = _fixture(KNOWLEDGE_AFTER_FAILURES)
    observation = _run(fixture, "reference_harness.mutants:knowledge_run_selects_previous_turn")
    rules = _failing_rules(checks.check_global_invariants(observation, fixture))
    assert "R7.previous-turn-selection" in rules


# -- F4: a valid verdict naming an analysis the snapshot lacks ----------------------------------


def test_f4_unknown_id_verdict_taken_as_unsupported_is_conforming():
    """Taken as UNSUPPORTED: one VALID attempt, SEMANTIC_UNSUPPORTED, the retry's turn left."""
    fixture = _fixture(UNKNOWN_ID_THEN_SUPPORTED)
    observation = _run(fixture, "reference_harness.variants:unknown_verdict_id_unsupported")
    assert observation["published_result"]["safe_fallback"]["fallback_type"] == (
        "SEMANTIC_UNSUPPORTED"
    )
    checks.check_global_invariants(observation, fixture).require()
    checks.check_model_calls(observation, fixture).require()


def test_f4_the_kits_reading_still_passes():
    """The reference's reading (INVALID_SCHEMA, the declared retry, SUPPORTED) still passes."""
    fixture = _fixture(UNKNOWN_ID_THEN_SUPPORTED)
    observation = _run(fixture, "reference_harness.iut:create")
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    checks.check_global_invariants(observation, fixture).require()


def test_f4_unknown_ids_dropped_and_released_still_fails():
    """Neither reading releases: dropping the unknown ids and releasing fails R9."""
    fixture = _fixture(UNKNOWN_ID_THEN_SUPPORTED)
    observation = _run(fixture, "reference_harness.mutants:verdict_naming_unknown_analysis_taken")
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    rules = _failing_rules(checks.check_global_invariants(observation, fixture))
    assert "R9.model-call-outcome" in rules


def test_f4_lenient_reading_with_the_wrong_fallback_still_fails():
    """The lenient reading's VALID attempt must fall back SEMANTIC_UNSUPPORTED, not UNAVAILABLE."""
    fixture = _fixture(UNKNOWN_ID_THEN_SUPPORTED)
    observation = _run(fixture, "reference_harness.variants:unknown_verdict_id_unsupported")
    tampered = copy.deepcopy(observation)
    for row in tampered["runs"]:
        if row["run_id"] == tampered["run_id"]:
            row["fallback_type"] = "SEMANTIC_UNAVAILABLE"
    tampered["published_result"]["safe_fallback"]["fallback_type"] = "SEMANTIC_UNAVAILABLE"
    result = checks.check_model_calls(tampered, fixture)
    assert not result.passed
