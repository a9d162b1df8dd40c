"""The fixed Safe Fallback catalogue and its verified sources."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from contracts import SafeFallback

from ._body import cited_ids
from ._invocations import READY, views_of_run

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from contracts import DiagnosisDraft, KnowledgeAnswer, ToolInvocation

EVIDENCE_VALIDATION_FAILED: Final = "EVIDENCE_VALIDATION_FAILED"

FALLBACK_CATALOGUE: Final[Mapping[str, str]] = MappingProxyType(
    {
        EVIDENCE_VALIDATION_FAILED: "EVIDENCE_NOT_VERIFIED",
        "SEMANTIC_UNSUPPORTED": "CLAIMS_NOT_SUPPORTED",
        "SEMANTIC_UNAVAILABLE": "REVIEW_UNAVAILABLE",
    }
)
"""Fallback type -> its fixed message code (contract sheet, safe-fallback)."""


def safe_fallback(
    fallback_type: str, *, verified_sources: Sequence[Mapping[str, Any]] = ()
) -> SafeFallback:
    """Return the catalogue Safe Fallback for `fallback_type`.

    `verified_sources` are entries `{tool_call_id, tool_name, query_scope, evidence_status}` (build
    them with `verified_sources_for`); they are dropped for EVIDENCE_VALIDATION_FAILED, whose
    `verified_sources` is always `[]`. The fallback carries no free text at all.

    Raises:
        ValueError: `fallback_type` is not a fallback type of the contract sheet, or a source
            is not a valid verified source (both are caller mistakes, not run outcomes).

    Implements Requirement "Safe fallback SHALL use a fixed schema".
    """
    message_code = FALLBACK_CATALOGUE.get(fallback_type)
    if message_code is None:
        msg = (
            f"unknown fallback type {fallback_type!r}; expected one of {sorted(FALLBACK_CATALOGUE)}"
        )
        raise ValueError(msg)
    sources = (
        [] if fallback_type == EVIDENCE_VALIDATION_FAILED else [dict(s) for s in verified_sources]
    )
    return SafeFallback.model_validate(
        {"fallback_type": fallback_type, "message_code": message_code, "verified_sources": sources}
    )


def verified_sources_for(
    document: DiagnosisDraft | KnowledgeAnswer,
    invocations: Mapping[str, ToolInvocation],
    *,
    run_id: str | None = None,
) -> list[dict[str, Any]]:
    """Return the verified sources of a body EvidenceGuard accepted, in invocation sequence order.

    One entry `{tool_call_id, tool_name, query_scope, evidence_status}` per READY invocation the
    body cites (each once). With `run_id`, invocations of other Runs are ignored.
    """
    views = views_of_run(invocations, run_id)
    ready = [views[c] for c in cited_ids(document) if c in views and views[c].status == READY]
    return [
        {
            "tool_call_id": view.tool_call_id,
            "tool_name": view.tool_name,
            "query_scope": view.query_scope,
            "evidence_status": view.evidence_status,
        }
        for view in sorted(ready, key=lambda view: view.sequence)
    ]
