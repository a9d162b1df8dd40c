"""Checks of Requirement "Retry attempts SHALL be owned by Harness"."""

from __future__ import annotations

from typing import Any

from conformance.checks._fallback import check_fallback
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import events, model_attempts

__all__ = ["check_semantic_retry"]


def check_semantic_retry(observation: dict[str, Any], *, second_outcome: str) -> CheckResult:
    """Check an invalid first SemanticGuard answer led to one second attempt on the same snapshot.

    Exactly two SEMANTIC_REVIEW Attempt Records of one logical call (``call_index``), attempts 1
    and 2, the first INVALID_SCHEMA, the second ``second_outcome``, both with the same non-null
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
        (first.get("outcome"), second.get("outcome")) == ("INVALID_SCHEMA", second_outcome),
        f"outcomes {first.get('outcome')}, {second.get('outcome')}; "
        f"expected INVALID_SCHEMA, {second_outcome}",
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
