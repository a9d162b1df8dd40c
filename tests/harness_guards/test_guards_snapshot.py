"""The verified snapshot (content, order, RFC 8785 digest) and SemanticGuard verdict parsing."""

from __future__ import annotations

import hashlib
import json

import pytest
import rfc8785

from reference_harness.guards import (
    build_snapshot,
    check_draft,
    check_knowledge_answer,
    parse_verdict,
)

RUN = "run-1"


def reversed_keys(value):
    """The same JSON value with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {k: reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(v) for v in value]
    return value


@pytest.fixture
def invocations(build):
    """Three invocations accepted in order call_3 (seq 1), call_1 (seq 2), call_2 (seq 3)."""
    return build.by_id(
        build.invocation("call_3", sequence=1),
        build.invocation("call_1", sequence=2, evidence="NO_EVIDENCE"),
        build.invocation("call_2", sequence=3),
        build.invocation("call_uncited", sequence=4),
    )


@pytest.fixture
def submitted(build):
    """A draft citing call_2, call_1 and call_3 in that document order."""
    return build.draft(
        build.analysis("a1", "OBSERVATION", "call_2"),
        build.analysis("a2", "NEGATIVE_OBSERVATION", "call_1", the_scope=build.scope()),
        build.analysis("a3", "INFERENCE", "call_3", "call_2"),
    )


def accepted(submitted, invocations):
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert verdict.valid, verdict.violations
    return verdict.document


def test_the_snapshot_holds_the_cited_projections_in_sequence_order(submitted, invocations):
    """Evidence lists exactly the cited invocations, ordered by sequence, with projections."""
    snapshot = build_snapshot(
        run_id=RUN, document=accepted(submitted, invocations), invocations=invocations
    )
    body = snapshot.model_dump(mode="json", exclude_none=True)
    assert body["result_kind"] == "DIAGNOSIS_DRAFT"
    assert body["diagnosis_draft"] == submitted
    assert [e["tool_call_id"] for e in body["evidence"]] == ["call_3", "call_1", "call_2"]
    assert body["evidence"][1]["evidence_status"] == "NO_EVIDENCE"
    assert body["evidence"][1]["projection"]["items"] == []


def test_the_digest_is_sha256_of_the_canonical_snapshot_without_digest(submitted, invocations):
    """digest == SHA-256 hex of RFC 8785 JSON of the snapshot minus its digest property."""
    snapshot = build_snapshot(
        run_id=RUN, document=accepted(submitted, invocations), invocations=invocations
    )
    unsigned = snapshot.model_dump(mode="json", exclude_none=True)
    claimed = unsigned.pop("digest")
    assert claimed == hashlib.sha256(rfc8785.dumps(unsigned)).hexdigest()


def test_the_digest_is_stable_across_key_order(submitted, invocations):
    """The same draft submitted with every object's keys reordered gets the same digest."""
    first = build_snapshot(
        run_id=RUN, document=accepted(submitted, invocations), invocations=invocations
    )
    reordered = reversed_keys(submitted)
    assert json.dumps(reordered) != json.dumps(submitted)
    second = build_snapshot(
        run_id=RUN, document=accepted(reordered, invocations), invocations=invocations
    )
    assert first.digest == second.digest


def test_the_digest_changes_with_the_content(submitted, invocations):
    """A different statement gives a different digest."""
    changed = json.loads(json.dumps(submitted))
    changed["analyses"][0]["statement"] = "another statement"
    first = build_snapshot(
        run_id=RUN, document=accepted(submitted, invocations), invocations=invocations
    )
    second = build_snapshot(
        run_id=RUN, document=accepted(changed, invocations), invocations=invocations
    )
    assert first.digest != second.digest


def test_a_body_citing_another_runs_invocation_cannot_be_snapshotted(submitted, invocations):
    """build_snapshot refuses a body that was not accepted for this Run."""
    document = accepted(submitted, invocations)
    with pytest.raises(ValueError, match="run-2"):
        build_snapshot(run_id="run-2", document=document, invocations=invocations)


@pytest.fixture
def snapshot(submitted, invocations):
    return build_snapshot(
        run_id=RUN, document=accepted(submitted, invocations), invocations=invocations
    )


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"verdict": "SUPPORTED", "unsupported_analysis_ids": []}, id="parsed"),
        pytest.param('{"verdict": "SUPPORTED", "unsupported_analysis_ids": []}', id="json-text"),
        pytest.param({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a3"]}, id="unsupp"),
    ],
)
def test_a_valid_verdict_is_parsed(snapshot, raw):
    """A SemanticVerdict naming only analysis ids of the snapshot is returned as the model."""
    verdict = parse_verdict(raw, snapshot=snapshot)
    assert verdict is not None
    expected = json.loads(raw) if isinstance(raw, str) else raw
    assert verdict.model_dump(mode="json") == expected


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("SUPPORTED", id="bare-word"),
        pytest.param('{"verdict": "SUPPORTED"', id="broken-json"),
        pytest.param({"verdict": "MAYBE", "unsupported_analysis_ids": []}, id="other-verdict"),
        pytest.param({"verdict": "SUPPORTED", "unsupported_analysis_ids": ["a1"]}, id="supp-ids"),
        pytest.param({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": []}, id="unsupp-none"),
        pytest.param({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a9"]}, id="unknown"),
        pytest.param(
            {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a1", "a1"]}, id="repeated"
        ),
        pytest.param(
            {"verdict": "SUPPORTED", "unsupported_analysis_ids": [], "why": "x"}, id="extra"
        ),
        pytest.param(["SUPPORTED"], id="list"),
        pytest.param(None, id="null"),
        pytest.param("[" * 100_000, id="deep-text"),
    ],
)
def test_anything_else_is_invalid_schema(snapshot, raw):
    """Everything that is not a valid verdict about this snapshot is None (INVALID_SCHEMA)."""
    assert parse_verdict(raw, snapshot=snapshot) is None


def test_knowledge_verdicts_name_item_ids(build):
    """For a knowledge answer the unsupported ids are item ids, not analysis ids."""
    invocations = build.by_id(build.lookup("call_1", "d1"))
    verdict = check_knowledge_answer(
        build.answer("call_1", ("i1", [("call_1", "d1")])), run_id=RUN, invocations=invocations
    )
    snapshot = build_snapshot(run_id=RUN, document=verdict.document, invocations=invocations)
    assert snapshot.result_kind == "KNOWLEDGE_ANSWER" or snapshot.result_kind.value == (
        "KNOWLEDGE_ANSWER"
    )
    named_item = {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["i1"]}
    named_other = {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a1"]}
    assert parse_verdict(named_item, snapshot=snapshot) is not None
    assert parse_verdict(named_other, snapshot=snapshot) is None
