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
    "create",
    "duplicate_analysis_id_released",
    "duplicate_overwrites_invocation",
    "evidence_failure_mistyped",
    "fabricated_citation_published",
    "fallback_as_previous_turn",
    "harness_rewrites_draft",
    "late_result_published",
    "missing_id_executed",
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
    "three_review_attempts",
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
