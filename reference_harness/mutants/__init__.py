"""Mutants: broken copies of the reference Harness, each violating exactly one rule.

Every IUT mutant is a factory ``reference_harness.mutants:<name>`` for the kit's in-process adapter
(``InProcessAdapter("reference_harness.mutants:late_result_published")``), built by subclassing or
wrapping the reference Harness's classes (:data:`MUTANTS` says which rule each breaks).
:data:`CONTRACT_MUTANTS` are broken copies of the stage-zero contract data. The conformance suite
must fail every one (``conformance.selftest.run_selftest``).

A mutant that wraps a reference function patches it only while its own ``run`` executes, under a
process-wide lock: do not run a mutant concurrently with another Harness in the same process.
"""

from reference_harness.mutants._catalogue import CONTRACT_MUTANTS, MUTANTS, ContractMutant, create
from reference_harness.mutants._iut import MutantIUT, MutantSpec, Patch

__all__ = [
    "CONTRACT_MUTANTS",
    "MUTANTS",
    "ContractMutant",
    "MutantIUT",
    "MutantSpec",
    "Patch",
    "agent_call_retried",
    "create",
    "disconnect_not_noticed",
    "duplicate_analysis_id_released",
    "duplicate_overwrites_invocation",
    "evidence_failure_mistyped",
    "fabricated_citation_published",
    "fallback_as_previous_turn",
    "harness_rewrites_draft",
    "late_result_published",
    "missing_id_executed",
    "model_call_waits_past_timeout",
    "negative_scope_unbounded",
    "no_evidence_as_observation",
    "other_session_turn_in_context",
    "raw_rows_reach_agent",
    "reasoning_in_agent_context",
    "reviewer_offered_tools",
    "reviewer_sees_conversation",
    "sdk_retries_over_http",
    "sdk_retries_review",
    "second_review_new_snapshot",
    "session_history_in_context",
    "previous_turn_across_sessions",
    "previous_turn_by_creation_time",
    "running_run_as_previous_turn",
    "sdk_retries_review",
    "second_review_new_snapshot",
    "semantic_timeout_as_unsupported",
    "set_ordered_parallel_calls",
    "three_review_attempts",
    "three_router_attempts",
    "timed_out_review_retried",
    "tool_result_accepted_after_cancel",
    "tool_work_not_cancelled",
    "undeclared_router_retry",
    "undeclared_semantic_retry",
]


def harness_rewrites_draft() -> MutantIUT:
    """IUT factory of mutant ``harness_rewrites_draft`` (see :data:`MUTANTS`)."""
    return create("harness_rewrites_draft")


def duplicate_overwrites_invocation() -> MutantIUT:
    """IUT factory of mutant ``duplicate_overwrites_invocation`` (see :data:`MUTANTS`)."""
    return create("duplicate_overwrites_invocation")


def missing_id_executed() -> MutantIUT:
    """IUT factory of mutant ``missing_id_executed`` (see :data:`MUTANTS`)."""
    return create("missing_id_executed")


def no_evidence_as_observation() -> MutantIUT:
    """IUT factory of mutant ``no_evidence_as_observation`` (see :data:`MUTANTS`)."""
    return create("no_evidence_as_observation")


def negative_scope_unbounded() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_unbounded`` (see :data:`MUTANTS`)."""
    return create("negative_scope_unbounded")


def duplicate_analysis_id_released() -> MutantIUT:
    """IUT factory of mutant ``duplicate_analysis_id_released`` (see :data:`MUTANTS`)."""
    return create("duplicate_analysis_id_released")


def fabricated_citation_published() -> MutantIUT:
    """IUT factory of mutant ``fabricated_citation_published`` (see :data:`MUTANTS`)."""
    return create("fabricated_citation_published")


def evidence_failure_mistyped() -> MutantIUT:
    """IUT factory of mutant ``evidence_failure_mistyped`` (see :data:`MUTANTS`)."""
    return create("evidence_failure_mistyped")


def fallback_as_previous_turn() -> MutantIUT:
    """IUT factory of mutant ``fallback_as_previous_turn`` (see :data:`MUTANTS`)."""
    return create("fallback_as_previous_turn")


def late_result_published() -> MutantIUT:
    """IUT factory of mutant ``late_result_published`` (see :data:`MUTANTS`)."""
    return create("late_result_published")


def sdk_retries_review() -> MutantIUT:
    """IUT factory of mutant ``sdk_retries_review`` (see :data:`MUTANTS`)."""
    return create("sdk_retries_review")


def second_review_new_snapshot() -> MutantIUT:
    """IUT factory of mutant ``second_review_new_snapshot`` (see :data:`MUTANTS`)."""
    return create("second_review_new_snapshot")


def three_review_attempts() -> MutantIUT:
    """IUT factory of mutant ``three_review_attempts`` (see :data:`MUTANTS`)."""
    return create("three_review_attempts")


def reviewer_sees_conversation() -> MutantIUT:
    """IUT factory of mutant ``reviewer_sees_conversation`` (see :data:`MUTANTS`)."""
    return create("reviewer_sees_conversation")


def reviewer_offered_tools() -> MutantIUT:
    """IUT factory of mutant ``reviewer_offered_tools`` (see :data:`MUTANTS`)."""
    return create("reviewer_offered_tools")


def session_history_in_context() -> MutantIUT:
    """IUT factory of mutant ``session_history_in_context`` (see :data:`MUTANTS`)."""
    return create("session_history_in_context")


def other_session_turn_in_context() -> MutantIUT:
    """IUT factory of mutant ``other_session_turn_in_context`` (see :data:`MUTANTS`)."""
    return create("other_session_turn_in_context")


def raw_rows_reach_agent() -> MutantIUT:
    """IUT factory of mutant ``raw_rows_reach_agent`` (see :data:`MUTANTS`)."""
    return create("raw_rows_reach_agent")


def reasoning_in_agent_context() -> MutantIUT:
    """IUT factory of mutant ``reasoning_in_agent_context`` (see :data:`MUTANTS`)."""
    return create("reasoning_in_agent_context")


def sdk_retries_over_http() -> MutantIUT:
    """IUT factory of mutant ``sdk_retries_over_http`` (see :data:`MUTANTS`)."""
    return create("sdk_retries_over_http")
def semantic_timeout_as_unsupported() -> MutantIUT:
    """IUT factory of mutant ``semantic_timeout_as_unsupported`` (see :data:`MUTANTS`)."""
    return create("semantic_timeout_as_unsupported")


def running_run_as_previous_turn() -> MutantIUT:
    """IUT factory of mutant ``running_run_as_previous_turn`` (see :data:`MUTANTS`)."""
    return create("running_run_as_previous_turn")


def previous_turn_across_sessions() -> MutantIUT:
    """IUT factory of mutant ``previous_turn_across_sessions`` (see :data:`MUTANTS`)."""
    return create("previous_turn_across_sessions")


def previous_turn_by_creation_time() -> MutantIUT:
    """IUT factory of mutant ``previous_turn_by_creation_time`` (see :data:`MUTANTS`)."""
    return create("previous_turn_by_creation_time")


def tool_work_not_cancelled() -> MutantIUT:
    """IUT factory of mutant ``tool_work_not_cancelled`` (see :data:`MUTANTS`)."""
    return create("tool_work_not_cancelled")


def tool_result_accepted_after_cancel() -> MutantIUT:
    """IUT factory of mutant ``tool_result_accepted_after_cancel`` (see :data:`MUTANTS`)."""
    return create("tool_result_accepted_after_cancel")


def model_call_waits_past_timeout() -> MutantIUT:
    """IUT factory of mutant ``model_call_waits_past_timeout`` (see :data:`MUTANTS`)."""
    return create("model_call_waits_past_timeout")


def disconnect_not_noticed() -> MutantIUT:
    """IUT factory of mutant ``disconnect_not_noticed`` (see :data:`MUTANTS`)."""
    return create("disconnect_not_noticed")


def three_router_attempts() -> MutantIUT:
    """IUT factory of mutant ``three_router_attempts`` (see :data:`MUTANTS`)."""
    return create("three_router_attempts")


def agent_call_retried() -> MutantIUT:
    """IUT factory of mutant ``agent_call_retried`` (see :data:`MUTANTS`)."""
    return create("agent_call_retried")


def timed_out_review_retried() -> MutantIUT:
    """IUT factory of mutant ``timed_out_review_retried`` (see :data:`MUTANTS`)."""
    return create("timed_out_review_retried")


def undeclared_semantic_retry() -> MutantIUT:
    """IUT factory of mutant ``undeclared_semantic_retry`` (see :data:`MUTANTS`)."""
    return create("undeclared_semantic_retry")


def undeclared_router_retry() -> MutantIUT:
    """IUT factory of mutant ``undeclared_router_retry`` (see :data:`MUTANTS`)."""
    return create("undeclared_router_retry")


def set_ordered_parallel_calls() -> MutantIUT:
    """IUT factory of mutant ``set_ordered_parallel_calls`` (see :data:`MUTANTS`)."""
    return create("set_ordered_parallel_calls")
