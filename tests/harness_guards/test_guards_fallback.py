"""The fixed Safe Fallback catalogue, verified sources and the structural repair request."""

from __future__ import annotations

import pytest

from reference_harness.guards import (
    FALLBACK_CATALOGUE,
    Violation,
    canonical_release,
    check_draft,
    repair_request,
    safe_fallback,
    verified_sources_for,
)

RUN = "run-1"
DRAFT_MARKER = "DRAFT_MARKER-DRAFT-TEXT-7f3a"


@pytest.mark.parametrize(
    ("fallback_type", "message_code"),
    [
        ("EVIDENCE_VALIDATION_FAILED", "EVIDENCE_NOT_VERIFIED"),
        ("SEMANTIC_UNSUPPORTED", "CLAIMS_NOT_SUPPORTED"),
        ("SEMANTIC_UNAVAILABLE", "REVIEW_UNAVAILABLE"),
    ],
)
def test_each_fallback_type_has_its_fixed_message_code(fallback_type, message_code):
    """The catalogue maps each fallback type to the message code of the contract sheet."""
    fallback = safe_fallback(fallback_type)
    body = fallback.model_dump(mode="json")
    assert body == {
        "fallback_type": fallback_type,
        "message_code": message_code,
        "verified_sources": [],
    }
    assert FALLBACK_CATALOGUE[fallback_type] == message_code


@pytest.fixture
def invocations(build):
    return build.by_id(
        build.invocation("call_2", sequence=1, evidence="NO_EVIDENCE"),
        build.invocation("call_1", sequence=2),
        build.invocation("call_e", sequence=3, status="ERROR", evidence="ERROR"),
        build.invocation("call_uncited", sequence=4),
    )


@pytest.fixture
def document(build, invocations):
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"),
        build.analysis("a2", "NEGATIVE_OBSERVATION", "call_2", the_scope=build.scope()),
        limitations=[{"text": "a tool failed", "tool_call_ids": ["call_e"]}],
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert verdict.valid, verdict.violations
    return verdict.document


def test_verified_sources_are_the_cited_ready_invocations_in_sequence(build, invocations, document):
    """Sources list each cited READY invocation once, by sequence; failed and uncited ones never."""
    sources = verified_sources_for(document, invocations, run_id=RUN)
    assert sources == [
        {
            "tool_call_id": "call_2",
            "tool_name": "search_logs",
            "query_scope": build.scope(),
            "evidence_status": "NO_EVIDENCE",
        },
        {
            "tool_call_id": "call_1",
            "tool_name": "search_logs",
            "query_scope": build.scope(),
            "evidence_status": "EVIDENCE_FOUND",
        },
    ]
    fallback = safe_fallback("SEMANTIC_UNSUPPORTED", verified_sources=sources)
    assert fallback.model_dump(mode="json")["verified_sources"] == sources


def test_evidence_validation_failed_never_has_sources(invocations, document):
    """EVIDENCE_VALIDATION_FAILED has empty verified sources whatever the caller passes."""
    sources = verified_sources_for(document, invocations, run_id=RUN)
    assert sources
    fallback = safe_fallback("EVIDENCE_VALIDATION_FAILED", verified_sources=sources)
    assert fallback.model_dump(mode="json")["verified_sources"] == []


def test_a_fallback_never_contains_draft_text(build, invocations):
    """A fallback after a rejected draft carries none of the draft's text."""
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_missing"))
    submitted["conclusion"]["summary"] = DRAFT_MARKER
    submitted["analyses"][0]["statement"] = DRAFT_MARKER
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert not verdict.valid
    for fallback_type in FALLBACK_CATALOGUE:
        released = canonical_release(safe_fallback(fallback_type))
        assert DRAFT_MARKER.encode() not in released
        assert b"statement" not in released


def test_an_unknown_fallback_type_is_a_caller_error():
    """A fallback type outside the catalogue raises ValueError naming the allowed types."""
    with pytest.raises(ValueError, match="EVIDENCE_VALIDATION_FAILED"):
        safe_fallback("OOPS")


def test_the_repair_request_carries_only_codes_and_pointers(build, invocations):
    """The structural repair request holds the violations' codes and pointers, nothing else."""
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_missing"))
    submitted["analyses"][0]["statement"] = DRAFT_MARKER
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    request = repair_request(verdict.violations)
    assert request == {
        "violations": [
            {"code": "UNKNOWN_TOOL_CALL_ID", "pointer": "/analyses/0/tool_call_ids/0"},
            {"code": "OBSERVATION_WITHOUT_EVIDENCE", "pointer": "/analyses/0/tool_call_ids"},
        ]
    }
    assert DRAFT_MARKER not in repr(request)
    assert repair_request([Violation("SCHEMA_INVALID", "")]) == {
        "violations": [{"code": "SCHEMA_INVALID", "pointer": ""}]
    }
