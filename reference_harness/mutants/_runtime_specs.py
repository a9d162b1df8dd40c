"""The runtime mutants: retries, timeouts, cancellation, previous turn and ordering.

Each is the smallest wrong Harness for one spec sentence, named by the sentence it breaks, with
the rule id (:mod:`conformance.checks` registry) whose failure must kill it. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from reference_harness._retry import RetryPolicy
from reference_harness.iut import CAPABILITIES
from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._runtime_parts import (
    CrossSessionStore,
    DisconnectDeafHarness,
    RunningTolerantStore,
    SetOrderingAgent,
    TimeOrderedStore,
    accepting_settle,
    any_time,
    late_tool_context,
    recording_review_outcome,
    timeout_as_unsupported,
    tool_uncancelling_context,
    tracking_execute,
    unbounded_wait,
)

__all__ = ["RUNTIME_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_RELEASE = "reference_harness._release"
_HARNESS = "reference_harness._harness"


def _policy(
    router: int = 2, agent: int = 1, review: int = 2, *, timeout: bool = False
) -> RetryPolicy:
    retry_on = {"INVALID_SCHEMA", "UNAVAILABLE", *(("TIMEOUT",) if timeout else ())}
    return RetryPolicy(
        max_attempts=MappingProxyType(
            {"ROUTER": router, "DIAGNOSIS_AGENT": agent, "SEMANTIC_GUARD": review}
        ),
        retry_on=frozenset(retry_on),
    )


def _without(capability: str) -> tuple[str, ...]:
    return tuple(c for c in CAPABILITIES if c != capability)


RUNTIME_SPECS: Final = (
    MutantSpec(
        "semantic_timeout_as_unsupported",
        _R6,
        "semantic unavailable outcomes: a SemanticGuard call that times out falls back as "
        "SEMANTIC_UNSUPPORTED instead of SEMANTIC_UNAVAILABLE",
        rule_id="R6.semantic-outcome-fallback",
        patches=(
            Patch(_RELEASE, "call_with_retry", recording_review_outcome),
            Patch(_RELEASE, "safe_fallback", timeout_as_unsupported),
        ),
    ),
    MutantSpec(
        "running_run_as_previous_turn",
        _R7,
        "latest eligible DIAGNOSIS + SUCCESS Run: a DIAGNOSIS Run still RUNNING is selected as "
        "the previous turn",
        rule_id="R7.previous-turn-selection",
        store_class=RunningTolerantStore,
    ),
    MutantSpec(
        "previous_turn_across_sessions",
        _R7,
        "the latest same-session Run: previous-turn selection ignores the session and takes "
        "another session's newer Run",
        rule_id="R7.same-session-selection",
        store_class=CrossSessionStore,
    ),
    MutantSpec(
        "previous_turn_by_creation_time",
        _R7,
        "the latest eligible Run: the previous turn is the newest by creation time, not by seq",
        rule_id="R7.previous-turn-selection",
        store_class=TimeOrderedStore,
    ),
    MutantSpec(
        "tool_work_not_cancelled",
        _R8,
        "cancellable Tool work: a disconnect leaves the tool work in flight running and "
        "unrecorded (no TOOL_WORK_CANCELLED)",
        rule_id="R8.tool-work-cancelled",
        patches=(Patch(_HARNESS, "RunContext", tool_uncancelling_context),),
    ),
    MutantSpec(
        "tool_result_accepted_after_cancel",
        _R8,
        "cancellable Tool work: a tool answer arriving after the cancellation is projected READY "
        "in the CANCELLED Run",
        rule_id="R8.tool-work-cancelled",
        patches=(
            Patch(_HARNESS, "RunContext", late_tool_context),
            Patch("reference_harness._agent_loop", "execute_tool", tracking_execute),
            Patch("reference_harness._tool_execution", "_settle", accepting_settle),
        ),
    ),
    MutantSpec(
        "model_call_waits_past_timeout",
        _R8,
        "HTTP timeout for already-blocking synchronous model calls: the Harness waits for a "
        "blocked model call past model_call_timeout_ms and uses its late answer",
        rule_id="R8.model-call-timeout",
        patches=(
            Patch("reference_harness._model_calls", "_wait_first", unbounded_wait),
            Patch("reference_harness._model_calls", "_in_time", any_time),
        ),
    ),
    MutantSpec(
        "disconnect_not_noticed",
        _R8,
        "distinguish cancellation request: the Harness never hears the client disconnect and "
        "runs on",
        rule_id="R8.disconnect-noticed",
        harness_class=DisconnectDeafHarness,
    ),
    MutantSpec(
        "three_router_attempts",
        _R9,
        "Harness explicitly owns any allowed Router retry: the Router gets three attempts "
        "instead of two",
        rule_id="R9.attempts-bounded",
        retry=_policy(router=3),
    ),
    MutantSpec(
        "agent_call_retried",
        _R9,
        "any allowed Router or SemanticGuard retry: the Diagnosis Agent call, which no retry "
        "allows, is retried",
        rule_id="R9.attempts-bounded",
        retry=_policy(agent=2),
    ),
    MutantSpec(
        "timed_out_review_retried",
        _R9,
        "any allowed Router or SemanticGuard retry: a SemanticGuard attempt that timed out is "
        "retried (the policy retries only INVALID_SCHEMA or UNAVAILABLE)",
        rule_id="R9.retry-as-declared",
        retry=_policy(timeout=True),
    ),
    MutantSpec(
        "undeclared_semantic_retry",
        _R9,
        "Harness may execute one second attempt: the Harness declares no SEMANTIC_RETRY yet "
        "retries the SemanticGuard",
        rule_id="R9.retry-as-declared",
        capabilities=_without("SEMANTIC_RETRY"),
    ),
    MutantSpec(
        "undeclared_router_retry",
        _R9,
        "any allowed Router retry: the Harness declares no ROUTER_RETRY yet retries the Router",
        rule_id="R9.retry-as-declared",
        capabilities=_without("ROUTER_RETRY"),
    ),
    MutantSpec(
        "set_ordered_parallel_calls",
        _R1,
        "Harness as deterministic execution control: the calls of one step run in hash-set "
        "order, which changes from one process to the next",
        rule_id="R1.deterministic-control",
        agent=SetOrderingAgent,
        cross_process=True,
    ),
)
"""The runtime mutants, in requirement order."""
