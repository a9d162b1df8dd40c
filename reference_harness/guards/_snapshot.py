"""The verified snapshot SemanticGuard reviews."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contracts import VerifiedSnapshot, digest

from ._body import body_json, cited_ids, result_kind
from ._invocations import views_of_run

if TYPE_CHECKING:
    from collections.abc import Mapping

    from contracts import DiagnosisDraft, KnowledgeAnswer, ToolInvocation


def build_snapshot(
    *,
    run_id: str,
    document: DiagnosisDraft | KnowledgeAnswer,
    invocations: Mapping[str, ToolInvocation],
) -> VerifiedSnapshot:
    """Return the VerifiedSnapshot of a body EvidenceGuard accepted.

    The snapshot holds the body under its result kind and the projections of exactly the
    invocations the body cites that have one (READY), ordered by invocation `sequence`;
    `digest` is the SHA-256 hex of the RFC 8785 canonical JSON of the snapshot without `digest`.
    Deterministic: the same body and invocations always give the same digest.

    Raises:
        ValueError: the body cites a Tool Call ID that is not an invocation of Run `run_id`
            (the body was not accepted by `check_draft`/`check_knowledge_answer` for this Run).

    Implements Requirement "Retry attempts SHALL be owned by Harness" (the same snapshot is
    reviewed on every SemanticGuard attempt).
    """
    views = views_of_run(invocations, run_id)
    cited = cited_ids(document)
    unknown = [tool_call_id for tool_call_id in cited if tool_call_id not in views]
    if unknown:
        msg = f"body cites Tool Call IDs that are not invocations of Run {run_id!r}: {unknown!r}"
        raise ValueError(msg)
    evidence = [
        {
            "tool_call_id": view.tool_call_id,
            "tool_name": view.tool_name,
            "evidence_status": view.evidence_status,
            "projection": view.projection,
        }
        for view in sorted((views[c] for c in cited), key=lambda view: view.sequence)
        if view.projection is not None
    ]
    kind = result_kind(document)
    body_key = "diagnosis_draft" if kind == "DIAGNOSIS_DRAFT" else "knowledge_answer"
    unsigned = {
        "run_id": run_id,
        "result_kind": kind,
        body_key: body_json(document),
        "evidence": evidence,
    }
    return VerifiedSnapshot.model_validate({**unsigned, "digest": digest(unsigned)})


def snapshot_digest_of(snapshot: VerifiedSnapshot) -> str:
    """Recompute the digest of `snapshot` from its content (without its `digest` property)."""
    unsigned = body_json(snapshot)
    unsigned.pop("digest", None)
    return str(digest(unsigned))
