"""EvidenceGuard on Knowledge Answers: exact RAG bindings, one test per rule, field case 7."""

from __future__ import annotations

import pytest

from contracts import KnowledgeAnswer
from reference_harness.guards import (
    canonical_release,
    check_knowledge_answer,
    repair_request,
    safe_fallback,
)

RUN = "run-1"


def codes(verdict):
    return [(v.code, v.pointer) for v in verdict.violations]


def test_an_answer_bound_to_the_lookup_is_valid(build):
    """Items citing documents the single lookup returned pass, with the model."""
    invocations = build.by_id(build.lookup("call_1", "d1", "d2"))
    submitted = build.answer("call_1", ("i1", [("call_1", "d1")]), ("i2", [("call_1", "d2")]))
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert verdict.valid
    assert isinstance(verdict.document, KnowledgeAnswer)
    assert canonical_release(verdict.document) == canonical_release(submitted)


def test_field_case_7_a_fabricated_document_id_is_rejected(build):
    """The lookup returned d1 and d2; an answer citing d1 and d9 is rejected at d9."""
    invocations = build.by_id(build.lookup("call_1", "d1", "d2"))
    submitted = build.answer("call_1", ("i1", [("call_1", "d1"), ("call_1", "d9")]))
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert not verdict.valid
    assert verdict.document is None
    assert codes(verdict) == [("FABRICATED_DOCUMENT_ID", "/items/0/references/1/document_id")]


def test_field_case_7_a_repair_still_citing_d9_ends_in_a_sourceless_fallback(build):
    """Initial answer and its repair both cite d9: both rejected, fallback has no sources."""
    invocations = build.by_id(build.lookup("call_1", "d1", "d2"))
    first = build.answer("call_1", ("i1", [("call_1", "d1"), ("call_1", "d9")]))
    repaired = build.answer("call_1", ("i1", [("call_1", "d9")]), ("i2", [("call_1", "d2")]))
    verdicts = [
        check_knowledge_answer(body, run_id=RUN, invocations=invocations)
        for body in (first, repaired)
    ]
    assert [codes(v) for v in verdicts] == [
        [("FABRICATED_DOCUMENT_ID", "/items/0/references/1/document_id")],
        [("FABRICATED_DOCUMENT_ID", "/items/0/references/0/document_id")],
    ]
    assert repair_request(verdicts[0].violations) == {
        "violations": [
            {"code": "FABRICATED_DOCUMENT_ID", "pointer": "/items/0/references/1/document_id"}
        ]
    }
    fallback = safe_fallback("EVIDENCE_VALIDATION_FAILED").model_dump(mode="json")
    assert fallback["verified_sources"] == []
    assert fallback["message_code"] == "EVIDENCE_NOT_VERIFIED"


@pytest.mark.parametrize(
    "case",
    ["no-lookup", "two-ready-lookups", "names-a-log-search", "names-unknown", "other-runs-lookup"],
)
def test_not_exactly_one_named_ready_lookup_is_lookup_call_count(build, case):
    """The Run must hold exactly one READY lookup and the answer must name it."""
    search = build.invocation("call_s", sequence=3)
    invocations = {
        "no-lookup": build.by_id(search),
        "two-ready-lookups": build.by_id(
            build.lookup("call_1", "d1"), build.lookup("call_2", "d1", sequence=2)
        ),
        "names-a-log-search": build.by_id(build.lookup("call_1", "d1"), search),
        "names-unknown": build.by_id(build.lookup("call_1", "d1")),
        "other-runs-lookup": {
            "call_1": build.invocation(
                "call_1",
                run_id="run-2",
                query_scope=build.scope(tool="lookup_documents"),
                document_ids=("d1",),
            )
        },
    }[case]
    named = {"names-a-log-search": "call_s", "names-unknown": "call_9"}.get(case, "call_1")
    submitted = build.answer(named, ("i1", [(named, "d1")]))
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert [v.code for v in verdict.violations][:1] == ["LOOKUP_CALL_COUNT"]
    assert verdict.violations[0].pointer == "/lookup_tool_call_id"


def test_a_failed_earlier_lookup_does_not_count(build):
    """Only READY lookups count: a failed lookup before the good one leaves exactly one."""
    invocations = build.by_id(
        build.invocation(
            "call_0",
            status="ERROR",
            evidence="ERROR",
            query_scope=build.scope(tool="lookup_documents"),
        ),
        build.lookup("call_1", "d1", sequence=2),
    )
    submitted = build.answer("call_1", ("i1", [("call_1", "d1")]))
    assert check_knowledge_answer(submitted, run_id=RUN, invocations=invocations).valid


def test_a_reference_to_another_call_is_rejected(build):
    """A reference naming a call other than lookup_tool_call_id is REFERENCE_OTHER_CALL."""
    invocations = build.by_id(build.lookup("call_1", "d1"), build.invocation("call_2", sequence=2))
    submitted = build.answer("call_1", ("i1", [("call_1", "d1"), ("call_2", "d1")]))
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("REFERENCE_OTHER_CALL", "/items/0/references/1/tool_call_id")]


@pytest.mark.parametrize("shape", ["empty list", "key absent"])
def test_an_item_without_references_is_rejected(build, shape):
    """An item with no references is ITEM_WITHOUT_REFERENCES at its references."""
    invocations = build.by_id(build.lookup("call_1", "d1"))
    submitted = build.answer("call_1", ("i1", [("call_1", "d1")]), ("i2", []))
    if shape == "key absent":
        del submitted["items"][1]["references"]
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("ITEM_WITHOUT_REFERENCES", "/items/1/references")]


def test_an_empty_answer_while_documents_were_found_is_rejected(build):
    """Zero items while the lookup returned documents is EMPTY_ANSWER_WITH_DOCUMENTS."""
    invocations = build.by_id(build.lookup("call_1", "d1"))
    verdict = check_knowledge_answer(build.answer("call_1"), run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("EMPTY_ANSWER_WITH_DOCUMENTS", "/items")]


def test_an_empty_answer_is_valid_when_nothing_was_found(build):
    """Zero items after a lookup that found nothing is an honest answer."""
    invocations = build.by_id(build.lookup("call_1"))
    assert check_knowledge_answer(build.answer("call_1"), run_id=RUN, invocations=invocations).valid


def test_a_duplicate_item_id_is_rejected(build):
    """A second item reusing an id is DUPLICATE_ITEM_ID at its item_id."""
    invocations = build.by_id(build.lookup("call_1", "d1"))
    submitted = build.answer("call_1", ("i1", [("call_1", "d1")]), ("i1", [("call_1", "d1")]))
    verdict = check_knowledge_answer(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("DUPLICATE_ITEM_ID", "/items/1/item_id")]


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param("y" * 10_000_000, id="10MB-string"),
        pytest.param({"lookup_tool_call_id": "call\u00001"}, id="NUL-in-id"),
        pytest.param([{"items": [[[]]]}], id="nested-garbage"),
    ],
)
def test_garbage_is_schema_invalid_without_raising(garbage):
    """Any non-answer value gives SCHEMA_INVALID violations and no exception."""
    verdict = check_knowledge_answer(garbage, run_id=RUN, invocations={})
    assert verdict.violations
    assert {v.code for v in verdict.violations} == {"SCHEMA_INVALID"}
