"""R5.fabricated-citation-rejected where "the bounded lookup result" is not one result.

Found by the Java example (docs/decisions/java-example.md): in a Run with two READY lookups, a
guard that rejects an answer citing a fabricated document with LOOKUP_CALL_COUNT alone (the
answer cannot name "the single lookup Tool Call") rejects it, as the scenario's THEN says; the
check demanded FABRICATED_DOCUMENT_ID as well. With a single lookup the code is still required.
"""

import copy

import pytest

from conformance import checks
from conformance.adapters import InProcessAdapter
from conformance.fixtures import FixtureBuilder


@pytest.fixture(scope="module")
def observe():
    adapter = InProcessAdapter("reference_harness.iut:create")
    yield adapter.run
    adapter.close()


def _fixture(lookups: list[str]) -> dict:
    b = FixtureBuilder()
    b.ask("How do I rotate the key?", "KNOWLEDGE_QUERY")
    for lookup in lookups:
        b.add_call(1, "lookup_documents", lookup)
    b.returns_documents(["d1", "d2"])
    b.submit(b.answer("lookup_1", ["d1", "d9"]), every_time=True)
    return b.build(f"fabricated-{len(lookups)}-lookups")


def _only_lookup_count(observation: dict) -> dict:
    """The observation with every EVIDENCE_VALIDATION naming LOOKUP_CALL_COUNT alone."""
    changed = copy.deepcopy(observation)
    for event in changed["trace"]:
        if event["type"] == "EVIDENCE_VALIDATION":
            event["data"]["violations"] = [
                {"code": "LOOKUP_CALL_COUNT", "pointer": "/lookup_tool_call_id"}
            ]
            event["data"]["valid"] = False
    return changed


def test_two_lookups_lookup_call_count_alone_rejects_the_answer(observe) -> None:
    fixture = _fixture(["lookup_1", "lookup_2"])
    observation = observe(fixture)
    checks.check_fabricated_citation_rejected(observation, fixture).require()
    checks.check_fabricated_citation_rejected(_only_lookup_count(observation), fixture).require()


def test_single_lookup_still_needs_the_fabricated_code(observe) -> None:
    fixture = _fixture(["lookup_1"])
    observation = observe(fixture)
    checks.check_fabricated_citation_rejected(observation, fixture).require()
    result = checks.check_fabricated_citation_rejected(_only_lookup_count(observation), fixture)
    assert not result.passed
    assert "cites ['d9'] but EVIDENCE_VALIDATION attempt 1" in result.message


def test_two_lookups_an_accepted_fabrication_still_fails(observe) -> None:
    fixture = _fixture(["lookup_1", "lookup_2"])
    observation = copy.deepcopy(observe(fixture))
    for event in observation["trace"]:
        if event["type"] == "EVIDENCE_VALIDATION":
            event["data"].update(valid=True, violations=[])
    result = checks.check_fabricated_citation_rejected(observation, fixture)
    assert not result.passed
