"""The release pipeline: EvidenceGuard, one structural repair, SemanticGuard (DESIGN section 5).

```
submission ─► EvidenceGuard ─ok─► SemanticGuard ─SUPPORTED─► release the submitted body (SUCCESS)
                 │ fail              │ UNSUPPORTED ─► fallback SEMANTIC_UNSUPPORTED
                 ▼                   │ INVALID_SCHEMA ─► one more attempt, same snapshot
   one no-Tool structural repair     │ 2nd invalid / unavailable / timeout ─► SEMANTIC_UNAVAILABLE
                 │ fail again ─► fallback EVIDENCE_VALIDATION_FAILED (verified_sources = [])
```

The released body is the JSON the agent submitted, unchanged (its RFC 8785 canonical form is
byte-identical). SemanticGuard sees only the verified snapshot: single turn, no tools, no history.
Knowledge answers take the same path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from contracts import ToolInvocation, json_copy
from reference_harness._model_calls import call_with_retry
from reference_harness._outcome import Outcome, fallback, success
from reference_harness.guards import (
    GuardVerdict,
    Violation,
    build_snapshot,
    check_draft,
    check_knowledge_answer,
    parse_verdict,
    repair_request,
    safe_fallback,
    verified_sources_for,
)
from reference_harness.ports import ReviewAnswer, ReviewRequest

if TYPE_CHECKING:
    from contracts import SemanticVerdict, VerifiedSnapshot
    from reference_harness._agent_loop import AgentLoop, Submission
    from reference_harness._retry import RetryPolicy
    from reference_harness._run_context import RunContext
    from reference_harness.ports import Intent, ReviewerPort

__all__ = ["release_pipeline"]

_FAILED_REPAIR = GuardVerdict(
    valid=False, violations=(Violation(code="SCHEMA_INVALID", pointer=""),), document=None
)
"""Verdict of a repair answer that proposed tools instead of a document."""


def _violations(verdict: GuardVerdict) -> list[dict[str, str]]:
    return [{"code": str(v.code), "pointer": v.pointer} for v in verdict.violations]


class _InvocationModels(Mapping[str, ToolInvocation]):
    """The Run's canonical invocations as ``ToolInvocation`` models, validated on first access.

    The guards look up only the Tool Call IDs a body cites, so a Run of many invocations pays
    for the cited ones, not for every one at each validation. Iterating validates them all.
    """

    def __init__(self, ctx: RunContext) -> None:
        self._records = ctx.ledger.accepted_ids
        self._models: dict[str, ToolInvocation] = {}

    def __getitem__(self, key: str) -> ToolInvocation:
        model = self._models.get(key)
        if model is None:
            model = ToolInvocation.model_validate(json_copy(self._records[key]))
            self._models[key] = model
        return model

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


def _invocation_models(ctx: RunContext) -> Mapping[str, ToolInvocation]:
    return _InvocationModels(ctx)


def _validate(
    ctx: RunContext, intent: Intent, submission: Submission, attempt: int
) -> GuardVerdict:
    result_kind = "DIAGNOSIS_DRAFT" if intent == "DIAGNOSIS" else "KNOWLEDGE_ANSWER"
    ctx.trace.emit("DRAFT_SUBMITTED", {"attempt": attempt, "result_kind": result_kind})
    if submission.tool_calls:
        verdict = _FAILED_REPAIR
    else:
        check = check_draft if intent == "DIAGNOSIS" else check_knowledge_answer
        verdict = check(submission.content, run_id=ctx.run_id, invocations=_invocation_models(ctx))
    ctx.trace.emit(
        "EVIDENCE_VALIDATION",
        {
            "attempt": attempt,
            "result_kind": result_kind,
            "valid": verdict.valid,
            "violations": _violations(verdict),
        },
    )
    return verdict


async def release_pipeline(  # noqa: PLR0913 - the pipeline's collaborators
    ctx: RunContext,
    *,
    loop: AgentLoop,
    reviewer: ReviewerPort,
    policy: RetryPolicy,
    intent: Intent,
    submission: Submission,
) -> Outcome:
    """Validate, repair once if needed, review, and decide what the Run publishes.

    Raises:
        RunFailedError: ``AGENT_UNAVAILABLE`` during the repair call.
        RunCancelledError: the Run was cancelled.
        PortCrashedError: a port raised an unexpected exception.
    """
    verdict = _validate(ctx, intent, submission, attempt=1)
    if not verdict.valid:
        ctx.check_open()
        ctx.trace.emit("STRUCTURAL_REPAIR_REQUESTED", {"violations": _violations(verdict)})
        submission = await loop.repair(repair_request(verdict.violations))
        verdict = _validate(ctx, intent, submission, attempt=2)
        if not verdict.valid:
            return fallback(safe_fallback("EVIDENCE_VALIDATION_FAILED"))
    document = verdict.document
    if document is None:  # pragma: no cover - a valid verdict always carries its model
        msg = "a valid GuardVerdict carries its document"
        raise AssertionError(msg)
    invocations = _invocation_models(ctx)
    sources = verified_sources_for(document, invocations, run_id=ctx.run_id)
    snapshot = build_snapshot(run_id=ctx.run_id, document=document, invocations=invocations)
    review = await _review(ctx, policy, reviewer, snapshot)
    if review is None:
        return fallback(safe_fallback("SEMANTIC_UNAVAILABLE", verified_sources=sources))
    if review["verdict"] == "SUPPORTED":
        result_kind = "DIAGNOSIS_DRAFT" if intent == "DIAGNOSIS" else "KNOWLEDGE_ANSWER"
        return success(result_kind, submission.content)
    return fallback(safe_fallback("SEMANTIC_UNSUPPORTED", verified_sources=sources))


async def _review(
    ctx: RunContext, policy: RetryPolicy, reviewer: ReviewerPort, snapshot: VerifiedSnapshot
) -> dict[str, Any] | None:
    request = ReviewRequest(snapshot=snapshot)
    snapshot_digest = str(snapshot.digest)

    def check(answer: object) -> SemanticVerdict | None:
        if not isinstance(answer, ReviewAnswer):
            return None
        return parse_verdict(answer.content, snapshot=snapshot)

    result = await call_with_retry(
        ctx,
        policy,
        component="SEMANTIC_GUARD",
        purpose="SEMANTIC_REVIEW",
        invoke=lambda interrupt: reviewer.review(request, interrupt),
        check=check,
        snapshot_digest=snapshot_digest,
    )
    verdict = result.value
    if verdict is None:
        return None
    data: dict[str, Any] = verdict.model_dump(mode="json")
    event = {
        "snapshot_digest": snapshot_digest,
        "verdict": data["verdict"],
        "unsupported_analysis_ids": data["unsupported_analysis_ids"],
    }
    ctx.trace.emit("SEMANTIC_VERDICT", event)
    return event
