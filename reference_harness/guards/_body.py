"""The JSON of a validated body and the Tool Call IDs it cites."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pydantic

from contracts import DiagnosisDraft, canonical_json

if TYPE_CHECKING:
    from contracts import KnowledgeAnswer


def body_json(document: pydantic.BaseModel) -> dict[str, Any]:
    """Return the JSON object of a contract model exactly as the schema spells it.

    Absent optional properties stay absent (no contract body has a nullable property).
    """
    return document.model_dump(mode="json", by_alias=True, exclude_none=True)


def result_kind(document: DiagnosisDraft | KnowledgeAnswer) -> str:
    """Return the result kind (`DIAGNOSIS_DRAFT` or `KNOWLEDGE_ANSWER`) of a validated body."""
    return "DIAGNOSIS_DRAFT" if isinstance(document, DiagnosisDraft) else "KNOWLEDGE_ANSWER"


def cited_ids(document: DiagnosisDraft | KnowledgeAnswer) -> list[str]:
    """Return the distinct Tool Call IDs a validated body cites, in document order.

    A draft cites through its analyses and limitations; a knowledge answer through
    `lookup_tool_call_id` and its references.
    """
    body = body_json(document)
    found: list[str] = []
    if isinstance(document, DiagnosisDraft):
        for section in ("analyses", "limitations"):
            for entry in body[section]:
                found.extend(entry["tool_call_ids"])
    else:
        found.append(body["lookup_tool_call_id"])
        for item in body["items"]:
            found.extend(reference["tool_call_id"] for reference in item["references"])
    return list(dict.fromkeys(found))


def canonical_release(document: object) -> bytes:
    """Return the RFC 8785 canonical JSON bytes of a body, model or raw JSON value.

    The Harness compares `canonical_release(submitted_json) == canonical_release(released)` to
    prove a released body is byte-identical to what the Diagnosis Agent submitted (DESIGN
    section 2). Raises `ValueError` (rfc8785's CanonicalizationError) for a value RFC 8785 cannot
    encode; a body EvidenceGuard accepted never does.
    """
    if isinstance(document, pydantic.BaseModel):
        return bytes(canonical_json(body_json(document)))
    return bytes(canonical_json(document))
