"""Scenario Fixtures: the builders, and the committed JSON files the Given steps produce."""

import json
from pathlib import Path

import pytest

from conformance.bdd import StepVocabularyError, document_for, presented_id
from conformance.fixtures import (
    ABSENT,
    FixtureBuilder,
    FixtureBuildError,
    diagnosis_fixture,
    draft_turn,
    knowledge_fixture,
    prior_run,
    supported_turn,
    tool_call,
)
from conformance.suite import FixtureRecorder, export_fixtures
from contracts import Capability, capability_vocabulary, validate_document

FIXTURE_DIR = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
COMMITTED = sorted(FIXTURE_DIR.glob("*.json"))


def test_committed_fixtures_match_the_given_steps(tmp_path):
    """Regenerating the fixtures from the Gherkin Given steps reproduces every committed file."""
    exported = {p.name: p.read_text(encoding="utf-8") for p in export_fixtures(tmp_path)}
    committed = {p.name: p.read_text(encoding="utf-8") for p in COMMITTED}
    assert sorted(exported) == sorted(committed), "run `python -m conformance.fixtures`"
    for name, text in exported.items():
        assert committed[name] == text, f"{name} drifted; run `python -m conformance.fixtures`"


@pytest.mark.parametrize("path", COMMITTED, ids=[p.stem for p in COMMITTED])
def test_committed_fixture_is_valid(path):
    """Each committed fixture is a valid ScenarioFixture whose id is its file name."""
    fixture = json.loads(path.read_text(encoding="utf-8"))
    assert validate_document(fixture, "scenario-fixture") == []
    assert fixture["fixture_id"] == path.stem


def test_builders_compose_valid_fixtures():
    """The pure builders compose diagnosis and knowledge fixtures valid against the schema."""
    diagnosis = diagnosis_fixture(
        "pure-diagnosis",
        steps=[[tool_call("call_1"), tool_call(ABSENT)]],
        draft={"not": "a draft"},
        reviews=[supported_turn()],
        prior_runs=[
            prior_run(seq, state=state)
            for seq, state in enumerate(
                ["SUCCESS", "FALLBACK", "FAILED", "CANCELLED", "RUNNING"], start=1
            )
        ],
    )
    knowledge = knowledge_fixture("pure-knowledge", answer={"items": []})
    for fixture in (diagnosis, knowledge):
        assert validate_document(fixture, "scenario-fixture") == []
    assert "id" not in diagnosis["agent"][0]["tool_calls"][1]
    assert diagnosis["agent"][1] == draft_turn({"not": "a draft"})
    assert knowledge["router"] == [{"kind": "intent", "intent": "KNOWLEDGE_QUERY"}]


def test_line_scripts_hold_one_response_per_accepted_call():
    """A tool's scripted lines cover exactly the calls the contract accepts (not duplicates)."""
    builder = FixtureBuilder()
    builder.add_call(1, "search_logs", "call_1")
    builder.add_call(1, "search_logs", "call_1")
    builder.add_call(2, "search_logs", "")
    builder.add_call(2, "search_logs", "call_2")
    builder.returns_lines("search_logs")
    fixture = builder.build("lines")
    texts = [r["items"][0]["text"] for r in fixture["tools"]["search_logs"]["responses"]]
    assert texts == ["search_logs line 1", "search_logs line 2"]


def test_builder_rejects_gaps_and_unknown_names():
    """Bad builder input is one clear FixtureBuildError."""
    builder = FixtureBuilder()
    builder.add_call(2, "search_logs", "call_1")
    with pytest.raises(FixtureBuildError, match=r"numbered 1\.\.N without gaps, got \[2\]"):
        builder.build("gap")
    with pytest.raises(FixtureBuildError, match="unknown SemanticGuard script 'maybe'"):
        builder.review("maybe")
    with pytest.raises(FixtureBuildError, match="no tool call presents"):
        builder.scope_of("call_9")
    with pytest.raises(FixtureBuildError, match="cannot widen"):
        builder.negative_draft("call_1", widen=["galaxy"])


def test_disconnect_counts_the_router_call():
    """The client disconnects at the agent's submission call: after the Router and each step."""
    builder = FixtureBuilder()
    builder.add_call(1, "search_logs", "call_1")
    builder.wrap_submission("block", builder.observing_draft(["call_1"]))
    builder.disconnect_during_submission()
    fixture = builder.build("disconnect")
    assert fixture["client"]["disconnect_on"] == {
        "event_type": "MODEL_CALL_STARTED",
        "occurrence": 3,
    }
    assert fixture["agent"][1]["kind"] == "block_until_cancelled"


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ('""', ""),
        ("null", None),
        ('"   "', "   "),
        ('"call\\u0000x"', "call\u0000x"),
        ("a 300-character ID", "a" * 300),
        ('"functions.get_weather:0"', "functions.get_weather:0"),
    ],
)
def test_presented_id_words(words, value):
    """Gherkin id literals mean what the field cases say."""
    assert presented_id(words) == value


def test_presented_id_absent_and_unknown():
    """``absent`` is a missing key; anything else that is not JSON is refused clearly."""
    assert presented_id("absent") is ABSENT
    with pytest.raises(StepVocabularyError, match="must be 'absent'"):
        presented_id("call one")


def test_unknown_draft_words_list_the_vocabulary():
    """An unknown draft description names the shapes the steps know."""
    with pytest.raises(StepVocabularyError, match=r"known shapes: .*a draft observing"):
        document_for(FixtureBuilder(), "a poem")


def test_the_fixture_recorder_claims_the_contract_capability_vocabulary_in_order():
    """The exporter's recorder claims every capability of adapter-message's vocabulary (read from
    the schema, the generated enum's source), in the contract's order, so no scenario is skipped."""
    recorder = FixtureRecorder()
    assert recorder.hello()["capabilities"] == [c.value for c in Capability]
    assert recorder.capabilities == frozenset(c.value for c in Capability)
    assert validate_document(recorder.hello(), "adapter-message") == []


def test_the_capability_vocabulary_read_from_the_schema_is_the_generated_enum():
    """``contracts.capability_vocabulary`` (the schema's ``$defs/Capability``, read without the
    models) is the generated enum's values, in order: the exporter, the runtime oracle and the
    reference Harness's hello all use it."""
    assert capability_vocabulary() == tuple(c.value for c in Capability)
