"""Checks of Requirement "Retry attempts SHALL be owned by Harness"."""

from __future__ import annotations

from typing import Any

from conformance.checks._fallback import check_fallback
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import events, model_attempts

__all__ = ["check_semantic_retry", "semantic_snapshot_findings"]


def check_semantic_retry(
    observation: dict[str, Any], *, second_outcome: str, first_outcome: str = "INVALID_SCHEMA"
) -> CheckResult:
    """Check a failed first SemanticGuard answer led to one second attempt on the same snapshot.

    Exactly two SEMANTIC_REVIEW Attempt Records of one logical call (``call_index``), attempts 1
    and 2, the first ``first_outcome`` (INVALID_SCHEMA or UNAVAILABLE, the outcomes a retry
    follows), the second ``second_outcome``, both with the same non-null
    ``snapshot_digest`` (and the SEMANTIC_VERDICT, if any, on that digest). A VALID second attempt
    must lead to a release; any other to the SEMANTIC_UNAVAILABLE fallback.
    """
    found = Findings(
        "SemanticGuard retry on the same verified snapshot", "R9.semantic-retry-same-snapshot"
    )
    attempts = model_attempts(observation, "SEMANTIC_GUARD")
    summary = [(a.get("call_index"), a.get("attempt"), a.get("outcome")) for a in attempts]
    if not found.expect(len(attempts) == 2, f"expected 2 SemanticGuard attempts, got {summary}"):  # noqa: PLR2004
        return found.result()
    first, second = attempts
    found.expect(
        first.get("call_index") == second.get("call_index")
        and (first.get("attempt"), second.get("attempt")) == (1, 2),
        f"attempts should be 1 and 2 of one call, got {summary}",
    )
    found.expect(
        (first.get("outcome"), second.get("outcome")) == (first_outcome, second_outcome),
        f"outcomes {first.get('outcome')}, {second.get('outcome')}; "
        f"expected {first_outcome}, {second_outcome}",
    )
    digest = first.get("snapshot_digest")
    found.expect(
        digest is not None and second.get("snapshot_digest") == digest,
        f"snapshot digests differ or are missing: {digest} / {second.get('snapshot_digest')}",
    )
    for verdict in events(observation, "SEMANTIC_VERDICT"):
        found.expect(
            verdict["data"].get("snapshot_digest") == digest,
            "the SEMANTIC_VERDICT names another snapshot than the attempts",
        )
    if second_outcome == "VALID":
        kinds = [e["data"].get("kind") for e in events(observation, "RESULT_RELEASED")]
        found.expect(kinds == ["DIAGNOSIS_DRAFT"], f"expected the draft released, got {kinds}")
    else:
        outcome = check_fallback(observation, "SEMANTIC_UNAVAILABLE")
        if not outcome.passed:
            found.add(outcome.message)
    return found.result()


def semantic_snapshot_findings(found: Findings, observation: dict[str, Any]) -> None:
    """Record every SemanticGuard call whose attempts name more than one snapshot digest.

    Whatever ended the first attempt (INVALID_SCHEMA, UNAVAILABLE), every attempt of one logical
    SemanticGuard call (``call_index``) reviews the same verified snapshot: every
    ``MODEL_CALL_STARTED`` and ``MODEL_CALL_FINISHED`` of the call names one digest, and a
    ``SEMANTIC_VERDICT`` names the digest of a reviewed call (rule
    ``R9.semantic-retry-same-snapshot``, a global invariant).
    """
    digests: dict[Any, list[tuple[Any, Any, Any]]] = {}
    for event in observation.get("trace", []):
        data = event.get("data") or {}
        if event.get("type") in {"MODEL_CALL_STARTED", "MODEL_CALL_FINISHED"} and (
            data.get("component") == "SEMANTIC_GUARD"
        ):
            digests.setdefault(data.get("call_index"), []).append(
                (data.get("attempt"), data.get("outcome"), data.get("snapshot_digest"))
            )
    for call_index, seen in digests.items():
        distinct = list(dict.fromkeys(digest for _, _, digest in seen))
        if len(distinct) > 1:
            after = [outcome for _, outcome, _ in seen if outcome is not None][:1]
            found.add(
                f"SemanticGuard call {call_index}: its attempts review different snapshots "
                f"{[str(d)[:12] for d in distinct]}"
                + (f" (the retry after {after[0]})" if after else "")
                + ": a second attempt reuses the same verified snapshot",
                rule="R9.semantic-retry-same-snapshot",
            )
    reviewed = {digest for seen in digests.values() for _, _, digest in seen}
    for verdict in events(observation, "SEMANTIC_VERDICT"):
        digest = (verdict.get("data") or {}).get("snapshot_digest")
        found.expect(
            digest in reviewed,
            f"SEMANTIC_VERDICT names snapshot {str(digest)[:12]}, which no SemanticGuard attempt "
            "reviewed",
            rule="R9.semantic-retry-same-snapshot",
        )
