"""The broken parts mutants are built from: subclasses and wrappers of reference Harness classes.

Each part breaks one rule and nothing else; :mod:`reference_harness.mutants._catalogue` combines
each with the reference Harness into one mutant.
"""

from __future__ import annotations

import copy
import hashlib
from typing import TYPE_CHECKING, Any

from contracts import DiagnosisDraft, KnowledgeAnswer
from reference_harness._harness import Harness
from reference_harness._invocations import InvocationLedger
from reference_harness._model_calls import CallResult, _attempt
from reference_harness._outcome import Outcome, success
from reference_harness._run_context import RunContext
from reference_harness.guards import GuardVerdict, parse_verdict
from reference_harness.ports import MISSING, ProposedToolCall, ReviewAnswer, ToolCallsAnswer
from reference_harness.store import RunStore
from reference_harness.store._selection import PreviousTurnSelection, SkippedRun, skip_reason

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Mapping

    from reference_harness.ports import (
        AgentAnswer,
        AgentPort,
        AgentRequest,
        ReviewerPort,
        ReviewRequest,
    )

__all__ = [
    "FallbackTolerantStore",
    "GateLeakingHarness",
    "IdInventingAgent",
    "OverwritingHarness",
    "RewritingHarness",
    "SdkRetryingReviewer",
    "ignoring",
    "rebuilt_snapshot_after",
    "resnapshotting_retry",
    "retyping_fallback",
]


class RewritingHarness(Harness):
    """Rewrites the conclusion of every released Diagnosis Draft (Harness writes report text)."""

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        outcome = await super()._work(ctx, session_id, user_message, run_seq)
        if outcome.state == "SUCCESS" and outcome.kind == "DIAGNOSIS_DRAFT":
            draft = copy.deepcopy(outcome.published["diagnosis_draft"])
            draft["conclusion"]["summary"] = f"[Harness summary] {draft['conclusion']['summary']}"
            return success("DIAGNOSIS_DRAFT", draft)
        return outcome


class _OverwritingLedger(InvocationLedger):
    """Forgets accepted ids when classifying, and overwrites a record on re-acceptance."""

    @property
    def accepted_ids(self) -> Mapping[str, Any]:
        return {}

    def accept(
        self, tool_call_id: str, tool_name: str, arguments: Mapping[str, Any], step: int
    ) -> dict[str, Any]:
        self._records.pop(tool_call_id, None)
        return super().accept(tool_call_id, tool_name, arguments, step)


class OverwritingHarness(Harness):
    """Accepts a duplicate Tool Call ID, executes it and overwrites the first invocation."""

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        ctx.ledger.__class__ = _OverwritingLedger
        return await super()._work(ctx, session_id, user_message, run_seq)


class _LeakyGateContext(RunContext):
    """Records the cancellation layers but never closes the release gate."""

    @property
    def gate_closed(self) -> bool:
        return False

    def check_open(self) -> None:
        return

    def pass_release_gate(self) -> bool:
        self._released = True
        return True


class GateLeakingHarness(Harness):
    """Keeps working and publishes after a cancellation (the late model result is used)."""

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        ctx.__class__ = _LeakyGateContext
        return await super()._work(ctx, session_id, user_message, run_seq)


class FallbackTolerantStore(RunStore):
    """Selects the latest DIAGNOSIS Run that ended SUCCESS *or FALLBACK* as the previous turn."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        earlier = [r for r in self.list_session(session_id) if r.seq < before_seq]
        skipped: list[SkippedRun] = []
        for run in sorted(earlier, key=lambda r: r.seq, reverse=True):
            if run.intent == "DIAGNOSIS" and run.state in {"SUCCESS", "FALLBACK"}:
                return PreviousTurnSelection(selected=run, skipped=tuple(skipped))
            reason = skip_reason(run.intent, run.state)
            if reason is not None:
                skipped.append(SkippedRun(run.run_id, reason))
        return super().select_previous_turn(session_id, before_seq)


class IdInventingAgent:
    """Wraps the agent port and gives every call with a missing id a made-up id.

    The Harness then executes calls whose framework Tool Call ID was missing (history repair).
    """

    def __init__(self, inner: AgentPort) -> None:
        """Wrap ``inner``."""
        self._inner = inner
        self._invented = 0

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer like the inner port, with invented ids where the model sent none."""
        answer = self._inner.step(request, interrupt)
        if not isinstance(answer, ToolCallsAnswer):
            return answer
        calls = []
        for call in answer.calls:
            if call.id is MISSING or call.id is None or call.id == "":
                self._invented += 1
                call = ProposedToolCall(  # noqa: PLW2901 - the repaired call replaces it
                    id=f"invented_{self._invented}", name=call.name, arguments=call.arguments
                )
            calls.append(call)
        return ToolCallsAnswer(calls=tuple(calls))


class SdkRetryingReviewer:
    """Wraps the SemanticGuard port with an SDK-level retry the Harness never sees."""

    def __init__(self, inner: ReviewerPort) -> None:
        """Wrap ``inner``."""
        self._inner = inner

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        """Ask again, inside the same Harness attempt, when the first answer is invalid."""
        answer = self._inner.review(request, interrupt)
        if parse_verdict(answer.content, snapshot=request.snapshot) is None:
            answer = self._inner.review(request, interrupt)
        return answer


def ignoring(*codes: str) -> Callable[[Callable[..., GuardVerdict]], Callable[..., GuardVerdict]]:
    """Wrap an EvidenceGuard check so that a document whose only violations are ``codes`` passes."""
    ignored = frozenset(codes)

    def wrap(original: Callable[..., GuardVerdict]) -> Callable[..., GuardVerdict]:
        def check(document: object, **kwargs: Any) -> GuardVerdict:  # noqa: ANN401 - guard kwargs
            verdict = original(document, **kwargs)
            codes_found = {str(v.code) for v in verdict.violations}
            if verdict.valid or not codes_found <= ignored:
                return verdict
            model: type[DiagnosisDraft | KnowledgeAnswer] = (
                KnowledgeAnswer
                if isinstance(document, dict) and "lookup_tool_call_id" in document
                else DiagnosisDraft
            )
            return GuardVerdict(valid=True, violations=(), document=model.model_validate(document))

        return check

    return wrap


def retyping_fallback(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``safe_fallback``: an evidence validation failure falls back as SEMANTIC_UNAVAILABLE."""

    def build(fallback_type: str, **kwargs: Any) -> Any:  # noqa: ANN401 - a SafeFallback
        if fallback_type == "EVIDENCE_VALIDATION_FAILED":
            fallback_type = "SEMANTIC_UNAVAILABLE"
        return original(fallback_type, **kwargs)

    return build


def rebuilt_snapshot_after(
    outcome: str | None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Return a wrap of ``call_with_retry``: a SemanticGuard retry reviews a re-built snapshot.

    The snapshot (its digest) is re-built for a retry after ``outcome``, or after any outcome
    when ``outcome`` is ``None``; a retry after another outcome keeps it. Other components keep
    the reference retry loop.
    """

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        async def call(  # noqa: PLR0913 - the signature of call_with_retry
            ctx: RunContext,
            policy: Any,  # noqa: ANN401 - a RetryPolicy
            *,
            component: Any,  # noqa: ANN401 - a Component
            purpose: str,
            invoke: Callable[..., Any],
            check: Callable[..., Any],
            snapshot_digest: str | None = None,
        ) -> CallResult[Any]:
            if component != "SEMANTIC_GUARD" or snapshot_digest is None:
                return await original(  # type: ignore[no-any-return]  # the wrapped reference
                    ctx,
                    policy,
                    component=component,
                    purpose=purpose,
                    invoke=invoke,
                    check=check,
                    snapshot_digest=snapshot_digest,
                )
            call_index = ctx.next_call_index(component)
            digest, attempt = snapshot_digest, 1
            while True:
                ended, value = await _attempt(
                    ctx,
                    component=component,
                    purpose=purpose,
                    call_index=call_index,
                    attempt=attempt,
                    snapshot_digest=digest,
                    invoke=invoke,
                    check=check,
                )
                if ended == "VALID" or not policy.should_retry(component, attempt, ended):
                    return CallResult(outcome=ended, value=value, attempts=attempt)
                attempt += 1
                if outcome is None or ended == outcome:
                    digest = hashlib.sha256(f"{digest}:rebuilt".encode()).hexdigest()

        return call

    return wrap


resnapshotting_retry = rebuilt_snapshot_after(None)
"""Wrap of ``call_with_retry``: every SemanticGuard retry reviews a re-built, different snapshot."""
