"""Checks of Requirement "Knowledge answers SHALL use exact RAG bindings"."""

from __future__ import annotations

from typing import Any

from conformance.checks._oracle import submissions
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import validations

__all__ = ["check_fabricated_citation_rejected", "returned_documents"]


def returned_documents(observation: dict[str, Any]) -> dict[str, set[str]]:
    """Return the document ids each ``lookup_documents`` invocation returned, by Tool Call ID."""
    return {
        i["tool_call_id"]: set((i.get("projection") or {}).get("document_ids", []))
        for i in observation.get("invocations", [])
        if i.get("tool_name") == "lookup_documents"
    }


def _fabricated(answer: Any, returned: dict[str, set[str]]) -> list[str]:  # noqa: ANN401 - JSON
    if not isinstance(answer, dict):
        return []
    cited: list[str] = []
    for item in answer.get("items", []) or []:
        for ref in item.get("references", []) or [] if isinstance(item, dict) else []:
            documents = returned.get(ref.get("tool_call_id"), set())
            if ref.get("document_id") not in documents:
                cited.append(str(ref.get("document_id")))
    return cited


def _binds_another_call(answer: Any, returned: dict[str, set[str]]) -> bool:  # noqa: ANN401 - JSON
    """Whether a reference citing a document not returned names a call other than the lookup."""
    if not isinstance(answer, dict):
        return False
    lookup = answer.get("lookup_tool_call_id")
    for item in answer.get("items", []) or []:
        for ref in item.get("references", []) or [] if isinstance(item, dict) else []:
            fabricated = ref.get("document_id") not in returned.get(ref.get("tool_call_id"), set())
            if fabricated and ref.get("tool_call_id") != lookup:
                return True
    return False


def _names_the_single_lookup(observation: dict[str, Any], answer: Any) -> bool:  # noqa: ANN401
    """Whether ``answer`` names the Run's one READY lookup: the spec's "the bounded lookup result".

    Requirement 5: references identify "the single lookup Tool Call"; the scenario's WHEN is "a
    document ID absent from the bounded lookup result". In a Run with no single READY lookup, or
    an answer naming another call, that result is not defined and LOOKUP_CALL_COUNT already
    rejects the answer (docs/decisions/java-example.md: a guard may stop there).
    """
    lookups = [
        i for i in observation.get("invocations", []) if i.get("tool_name") == "lookup_documents"
    ]
    ready = [i.get("tool_call_id") for i in lookups if i.get("status") == "READY"]
    named = answer.get("lookup_tool_call_id") if isinstance(answer, dict) else None
    # a Run that made another lookup call (even a failed one) may be judged by the stricter
    # reading of "the single lookup Tool Call": LOOKUP_CALL_COUNT alone (docs/decisions/latitude.md)
    return len(lookups) == 1 and len(ready) == 1 and named == ready[0]


def check_fabricated_citation_rejected(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check no fabricated citation is published.

    Every submitted answer that references a document id its lookup did not return fails
    EvidenceGuard with FABRICATED_DOCUMENT_ID (or, when it does not name the Run's single READY
    lookup, with LOOKUP_CALL_COUNT alone: then "the bounded lookup result" is not defined; or,
    when such a reference names another call than the answer's lookup, REFERENCE_OTHER_CALL
    alone: its binding is broken first); the
    published result and the client frames never carry such a reference. Fails when no
    submission fabricates one (the WHEN would not hold).
    """
    found = Findings(
        "a fabricated citation is rejected, never published", "R5.fabricated-citation-rejected"
    )
    returned = returned_documents(observation)
    checked = validations(observation)
    fabricating = [
        s
        for s in submissions(fixture)
        if s.kind == "knowledge_answer" and _fabricated(s.document, returned)
    ]
    found.expect(fabricating, "no submitted answer cites a document the lookup did not return")
    for submission in fabricating:
        verdict = checked.get(submission.attempt, {})
        codes = {v.get("code") for v in verdict.get("violations", [])}
        fitting = {"FABRICATED_DOCUMENT_ID"}
        if not _names_the_single_lookup(observation, submission.document):
            fitting.add("LOOKUP_CALL_COUNT")
        if _binds_another_call(submission.document, returned):
            # the reference names a call other than the answer's lookup: its binding is broken
            # first (knowledge-answer schema: "every reference names lookup_tool_call_id"), and
            # a guard may stop at REFERENCE_OTHER_CALL (false-kills-8, F11)
            fitting.add("REFERENCE_OTHER_CALL")
        found.expect(
            verdict.get("valid") is False and bool(codes & fitting),
            f"answer attempt {submission.attempt} cites "
            f"{_fabricated(submission.document, returned)} "
            f"but EVIDENCE_VALIDATION attempt {submission.attempt} is {verdict or 'missing'}",
        )
    published = (observation.get("published_result") or {}).get("knowledge_answer")
    found.expect(
        not _fabricated(published, returned),
        f"the published answer cites {_fabricated(published, returned)}, not returned by lookup",
    )
    for frame in observation.get("client_frames", []):
        if frame.get("event") == "result":
            sent = (frame.get("data") or {}).get("knowledge_answer")
            found.expect(
                not _fabricated(sent, returned), "a result frame carries a fabricated citation"
            )
    return found.result()
