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
    "accepted_sequence_counts_rejected",
    "agent_call_retried",
    "analysis_id_type_only",
    "analysis_ids_case_folded",
    "analysis_ids_unique_among_neighbours",
    "analysis_kind_case_folded",
    "answer_references_first_three",
    "argument_bounds_exclusive",
    "argument_lengths_in_utf16_units",
    "cancel_finishes_older_running_runs",
    "cancel_layers_after_finish",
    "cancel_waits_model_timeout",
    "cancel_waits_tool_timeout",
    "cancelled_tool_recorded_timeout",
    "classified_item_count_is_total",
    "conclusion_without_analyses_accepted",
    "confidence_case_folded",
    "create",
    "disconnect_not_noticed",
    "document_ids_beyond_max_items",
    "document_ids_case_folded",
    "document_position_accepted",
    "draft_bindings_first_five",
    "draft_member_names_accepted",
    "draft_text_bounds_exclusive",
    "draft_texts_checked_as_java_strings",
    "duplicate_after_failed_call_accepted",
    "duplicate_after_no_evidence_accepted",
    "duplicate_analysis_id_released",
    "duplicate_item_id_accepted",
    "duplicate_judged_per_tool",
    "duplicate_overwrites_invocation",
    "duplicates_in_recent_window",
    "duplicates_judged_across_runs",
    "edits_draft_after_partial_unsupported",
    "empty_answer_accepted",
    "empty_answer_excused_by_limitation",
    "end_frame_missing",
    "error_evidence_cited_accepted",
    "evidence_failure_mistyped",
    "extra_verdict_members_accepted",
    "fabricated_citation_published",
    "fabricated_reference_on_empty_lookup_accepted",
    "failed_lookup_named_accepted",
    "failed_review_attempt_unrecorded",
    "fallback_as_previous_turn",
    "fallback_end_frame_carries_draft",
    "fallback_lists_failed_calls",
    "fallback_lists_uncited_calls",
    "fallback_source_scope_from_draft",
    "fallback_sources_from_analyses_only",
    "fallback_sources_of_rejected_draft",
    "fallback_sources_per_citation",
    "finished_names_another_fallback",
    "fixed_output_released_after_cancel",
    "frames_after_disconnect",
    "harness_rewrites_draft",
    "id_case_folded",
    "id_keyed_by_prefix",
    "in_band_code_in_safe_message",
    "in_band_error_no_evidence",
    "inference_on_in_band_error_accepted",
    "inference_on_no_evidence_accepted",
    "intent_not_stored",
    "interrupt_before_new_work_prevented",
    "interrupt_twice",
    "invalid_arguments_recorded_failed",
    "invocation_arguments_normalized",
    "invocation_run_id_session",
    "invocations_resolved_process_wide",
    "item_ids_unique_among_neighbours",
    "item_text_cut_in_utf16_units",
    "item_text_not_cut",
    "item_without_references_as_schema_invalid",
    "knowledge_answer_released_sorted",
    "knowledge_fallback_without_sources",
    "knowledge_item_text_unbounded",
    "knowledge_query_sees_latest_run",
    "knowledge_run_selects_previous_turn",
    "large_result_unbounded",
    "late_discard_twice",
    "late_discard_wrong_index",
    "late_discard_wrong_purpose",
    "late_disconnect_released",
    "late_draft_validated",
    "late_result_never_discarded",
    "late_result_published",
    "late_tool_answer_classified",
    "limitation_bindings_unchecked",
    "limitation_error_citation_rejected",
    "lone_draft_entry_wrapped_in_list",
    "lone_entry_wrapped_in_list",
    "lone_id_wrapped_in_list",
    "lone_unsupported_id_wrapped_in_list",
    "long_id_cut",
    "lookalike_id_normalised",
    "lookup_id_matched_loosely",
    "lookup_item_ids_sorted",
    "max_items_ignored",
    "missing_id_executed",
    "missing_tool_call_ids_as_schema_invalid",
    "mixed_no_evidence_citation_accepted",
    "model_call_waits_past_timeout",
    "negative_on_found_evidence_accepted",
    "negative_scope_first_citation_only",
    "negative_scope_not_required",
    "negative_scope_start_unchecked",
    "negative_scope_target_case_folded",
    "negative_scope_tool_unchecked",
    "negative_scope_unbounded",
    "negative_scope_whole_seconds",
    "negative_start_ms_executed",
    "no_evidence_as_observation",
    "no_evidence_when_no_items",
    "numeric_id_stringified",
    "observation_scope_unvalidated",
    "only_first_reference_checked",
    "other_session_turn_in_context",
    "other_tool_counted_as_lookup",
    "padded_id_trimmed",
    "presented_id_not_json_text",
    "previous_turn_across_sessions",
    "previous_turn_by_creation_time",
    "previous_turn_scans_newest_four",
    "previous_turn_seq_as_text",
    "previous_turn_session_case_folded",
    "projecting_never_reported",
    "public_error_skips_release_gate",
    "raised_message_stored",
    "raising_backend_no_evidence",
    "raw_rows_reach_agent",
    "ready_invocations_rewritten_on_cancel",
    "reasoning_in_agent_context",
    "rejected_step_spends_no_budget",
    "rejected_tool_name_null",
    "released_strings_stripped",
    "repair_call_index_restart",
    "repair_executes_tool_calls",
    "repair_request_offers_tools",
    "repair_violations_first_only",
    "result_frame_after_run_finished",
    "retry_counted_as_new_call",
    "reversed_time_range_executed",
    "review_verdict_case_folded",
    "reviewer_offered_tools",
    "reviewer_sees_conversation",
    "router_call_uncancellable",
    "router_intent_case_folded",
    "router_json_intent_upper_cased",
    "row_rewritten_after_release",
    "run_id_from_seq",
    "run_started_seq_off",
    "running_run_as_previous_turn",
    "same_arguments_rejected_duplicate",
    "same_arguments_result_reused",
    "schema_invalid_draft_not_repaired",
    "sdk_retries_over_http",
    "sdk_retries_review",
    "second_review_new_snapshot",
    "semantic_fallback_without_sources",
    "semantic_review_uncancellable",
    "semantic_timeout_as_unsupported",
    "seq_from_low_word",
    "session_history_in_context",
    "set_intent_on_every_running_run",
    "set_ordered_parallel_calls",
    "set_ordered_skipped_runs",
    "set_ordered_violations",
    "several_lookups_accepted",
    "skip_reason_intent_first",
    "skip_report_holds_older_runs",
    "skip_report_oldest_first",
    "skip_report_omits_knowledge_runs",
    "skip_report_uncapped",
    "snapshot_digest_not_canonical",
    "snapshot_evidence_first_four",
    "snapshot_evidence_from_analyses_only",
    "snapshot_evidence_per_citation",
    "snapshot_holds_no_evidence",
    "snapshot_holds_uncited_evidence",
    "snapshot_leaves_out_no_evidence",
    "snapshot_rebuilt_after_unavailable",
    "sources_scope_from_arguments",
    "statement_length_unbounded",
    "status_events_not_streamed",
    "step_budget_plus_one",
    "structural_repair_uncancellable",
    "synthetic_verdict_on_unavailable",
    "three_review_attempts",
    "three_router_attempts",
    "timed_out_review_retried",
    "timed_out_tool_recorded_cancelled",
    "tool_path_cancel_layers_swapped",
    "tool_result_accepted_after_cancel",
    "tool_timeout_recorded_as_cancelled_work",
    "tool_work_cancelled_before_request",
    "tool_work_cancelled_twice",
    "tool_work_not_cancelled",
    "total_matched_ignores_backend",
    "total_matched_is_kept_count",
    "total_matched_trusts_backend",
    "truncated_at_char_bound",
    "truncated_at_item_bound",
    "truncated_ignores_cut_text",
    "unbound_analysis_beside_bound_accepted",
    "unbound_item_beside_bound_accepted",
    "unbound_plan_entry_beside_bound_accepted",
    "undeclared_router_retry",
    "undeclared_semantic_retry",
    "unknown_analysis_in_plan_accepted",
    "unknown_analysis_reference_accepted",
    "unknown_draft_members_ignored",
    "unknown_id_among_known_accepted",
    "unsupported_falls_back_unavailable",
    "user_message_cut_in_row",
    "user_message_stripped_in_row",
    "validation_kind_mislabelled",
    "verdict_member_name_accepted",
    "verdict_naming_unknown_analysis_taken",
    "verdict_repeated_ids_accepted",
    "zero_limits_read_as_unset",
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


def negative_scope_whole_seconds() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_whole_seconds`` (see :data:`MUTANTS`)."""
    return create("negative_scope_whole_seconds")


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


# -- evidence mutants (Requirements 1-6: ids, invocations, projections, guards, repair) --


def edits_draft_after_partial_unsupported() -> MutantIUT:
    """IUT factory of mutant ``edits_draft_after_partial_unsupported`` (see :data:`MUTANTS`)."""
    return create("edits_draft_after_partial_unsupported")


def limitation_error_citation_rejected() -> MutantIUT:
    """IUT factory of mutant ``limitation_error_citation_rejected`` (see :data:`MUTANTS`)."""
    return create("limitation_error_citation_rejected")


def padded_id_trimmed() -> MutantIUT:
    """IUT factory of mutant ``padded_id_trimmed`` (see :data:`MUTANTS`)."""
    return create("padded_id_trimmed")


def lookalike_id_normalised() -> MutantIUT:
    """IUT factory of mutant ``lookalike_id_normalised`` (see :data:`MUTANTS`)."""
    return create("lookalike_id_normalised")


def numeric_id_stringified() -> MutantIUT:
    """IUT factory of mutant ``numeric_id_stringified`` (see :data:`MUTANTS`)."""
    return create("numeric_id_stringified")


def long_id_cut() -> MutantIUT:
    """IUT factory of mutant ``long_id_cut`` (see :data:`MUTANTS`)."""
    return create("long_id_cut")


def id_case_folded() -> MutantIUT:
    """IUT factory of mutant ``id_case_folded`` (see :data:`MUTANTS`)."""
    return create("id_case_folded")


def duplicates_judged_across_runs() -> MutantIUT:
    """IUT factory of mutant ``duplicates_judged_across_runs`` (see :data:`MUTANTS`)."""
    return create("duplicates_judged_across_runs")


def raising_backend_no_evidence() -> MutantIUT:
    """IUT factory of mutant ``raising_backend_no_evidence`` (see :data:`MUTANTS`)."""
    return create("raising_backend_no_evidence")


def in_band_error_no_evidence() -> MutantIUT:
    """IUT factory of mutant ``in_band_error_no_evidence`` (see :data:`MUTANTS`)."""
    return create("in_band_error_no_evidence")


def projecting_never_reported() -> MutantIUT:
    """IUT factory of mutant ``projecting_never_reported`` (see :data:`MUTANTS`)."""
    return create("projecting_never_reported")


def negative_scope_first_citation_only() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_first_citation_only`` (see :data:`MUTANTS`)."""
    return create("negative_scope_first_citation_only")


def error_evidence_cited_accepted() -> MutantIUT:
    """IUT factory of mutant ``error_evidence_cited_accepted`` (see :data:`MUTANTS`)."""
    return create("error_evidence_cited_accepted")


def negative_on_found_evidence_accepted() -> MutantIUT:
    """IUT factory of mutant ``negative_on_found_evidence_accepted`` (see :data:`MUTANTS`)."""
    return create("negative_on_found_evidence_accepted")


def unknown_id_among_known_accepted() -> MutantIUT:
    """IUT factory of mutant ``unknown_id_among_known_accepted`` (see :data:`MUTANTS`)."""
    return create("unknown_id_among_known_accepted")


def limitation_bindings_unchecked() -> MutantIUT:
    """IUT factory of mutant ``limitation_bindings_unchecked`` (see :data:`MUTANTS`)."""
    return create("limitation_bindings_unchecked")


def unknown_analysis_reference_accepted() -> MutantIUT:
    """IUT factory of mutant ``unknown_analysis_reference_accepted`` (see :data:`MUTANTS`)."""
    return create("unknown_analysis_reference_accepted")


def item_text_not_cut() -> MutantIUT:
    """IUT factory of mutant ``item_text_not_cut`` (see :data:`MUTANTS`)."""
    return create("item_text_not_cut")


def max_items_ignored() -> MutantIUT:
    """IUT factory of mutant ``max_items_ignored`` (see :data:`MUTANTS`)."""
    return create("max_items_ignored")


def truncated_ignores_cut_text() -> MutantIUT:
    """IUT factory of mutant ``truncated_ignores_cut_text`` (see :data:`MUTANTS`)."""
    return create("truncated_ignores_cut_text")


def total_matched_is_kept_count() -> MutantIUT:
    """IUT factory of mutant ``total_matched_is_kept_count`` (see :data:`MUTANTS`)."""
    return create("total_matched_is_kept_count")


def document_ids_case_folded() -> MutantIUT:
    """IUT factory of mutant ``document_ids_case_folded`` (see :data:`MUTANTS`)."""
    return create("document_ids_case_folded")


def document_position_accepted() -> MutantIUT:
    """IUT factory of mutant ``document_position_accepted`` (see :data:`MUTANTS`)."""
    return create("document_position_accepted")


def several_lookups_accepted() -> MutantIUT:
    """IUT factory of mutant ``several_lookups_accepted`` (see :data:`MUTANTS`)."""
    return create("several_lookups_accepted")


def empty_answer_accepted() -> MutantIUT:
    """IUT factory of mutant ``empty_answer_accepted`` (see :data:`MUTANTS`)."""
    return create("empty_answer_accepted")


def repair_executes_tool_calls() -> MutantIUT:
    """IUT factory of mutant ``repair_executes_tool_calls`` (see :data:`MUTANTS`)."""
    return create("repair_executes_tool_calls")


def unsupported_falls_back_unavailable() -> MutantIUT:
    """IUT factory of mutant ``unsupported_falls_back_unavailable`` (see :data:`MUTANTS`)."""
    return create("unsupported_falls_back_unavailable")


def snapshot_holds_uncited_evidence() -> MutantIUT:
    """IUT factory of mutant ``snapshot_holds_uncited_evidence`` (see :data:`MUTANTS`)."""
    return create("snapshot_holds_uncited_evidence")


def snapshot_holds_no_evidence() -> MutantIUT:
    """IUT factory of mutant ``snapshot_holds_no_evidence`` (see :data:`MUTANTS`)."""
    return create("snapshot_holds_no_evidence")


def semantic_fallback_without_sources() -> MutantIUT:
    """IUT factory of mutant ``semantic_fallback_without_sources`` (see :data:`MUTANTS`)."""
    return create("semantic_fallback_without_sources")


def fallback_lists_uncited_calls() -> MutantIUT:
    """IUT factory of mutant ``fallback_lists_uncited_calls`` (see :data:`MUTANTS`)."""
    return create("fallback_lists_uncited_calls")


def fallback_lists_failed_calls() -> MutantIUT:
    """IUT factory of mutant ``fallback_lists_failed_calls`` (see :data:`MUTANTS`)."""
    return create("fallback_lists_failed_calls")


def other_tool_counted_as_lookup() -> MutantIUT:
    """IUT factory of mutant ``other_tool_counted_as_lookup`` (see :data:`MUTANTS`)."""
    return create("other_tool_counted_as_lookup")


def failed_lookup_named_accepted() -> MutantIUT:
    """IUT factory of mutant ``failed_lookup_named_accepted`` (see :data:`MUTANTS`)."""
    return create("failed_lookup_named_accepted")


def document_ids_beyond_max_items() -> MutantIUT:
    """IUT factory of mutant ``document_ids_beyond_max_items`` (see :data:`MUTANTS`)."""
    return create("document_ids_beyond_max_items")


def unknown_analysis_in_plan_accepted() -> MutantIUT:
    """IUT factory of mutant ``unknown_analysis_in_plan_accepted`` (see :data:`MUTANTS`)."""
    return create("unknown_analysis_in_plan_accepted")


def inference_on_no_evidence_accepted() -> MutantIUT:
    """IUT factory of mutant ``inference_on_no_evidence_accepted`` (see :data:`MUTANTS`)."""
    return create("inference_on_no_evidence_accepted")


def negative_scope_tool_unchecked() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_tool_unchecked`` (see :data:`MUTANTS`)."""
    return create("negative_scope_tool_unchecked")


def negative_scope_start_unchecked() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_start_unchecked`` (see :data:`MUTANTS`)."""
    return create("negative_scope_start_unchecked")


def large_result_unbounded() -> MutantIUT:
    """IUT factory of mutant ``large_result_unbounded`` (see :data:`MUTANTS`)."""
    return create("large_result_unbounded")


def previous_turn_scans_newest_four() -> MutantIUT:
    """IUT factory of mutant ``previous_turn_scans_newest_four`` (see :data:`MUTANTS`)."""
    return create("previous_turn_scans_newest_four")


def skip_report_holds_older_runs() -> MutantIUT:
    """IUT factory of mutant ``skip_report_holds_older_runs`` (see :data:`MUTANTS`)."""
    return create("skip_report_holds_older_runs")


def skip_report_oldest_first() -> MutantIUT:
    """IUT factory of mutant ``skip_report_oldest_first`` (see :data:`MUTANTS`)."""
    return create("skip_report_oldest_first")


def skip_report_omits_knowledge_runs() -> MutantIUT:
    """IUT factory of mutant ``skip_report_omits_knowledge_runs`` (see :data:`MUTANTS`)."""
    return create("skip_report_omits_knowledge_runs")


def skip_reason_intent_first() -> MutantIUT:
    """IUT factory of mutant ``skip_reason_intent_first`` (see :data:`MUTANTS`)."""
    return create("skip_reason_intent_first")


def knowledge_query_sees_latest_run() -> MutantIUT:
    """IUT factory of mutant ``knowledge_query_sees_latest_run`` (see :data:`MUTANTS`)."""
    return create("knowledge_query_sees_latest_run")


def fallback_sources_of_rejected_draft() -> MutantIUT:
    """IUT factory of mutant ``fallback_sources_of_rejected_draft`` (see :data:`MUTANTS`)."""
    return create("fallback_sources_of_rejected_draft")


# -- attacker-found mutants (late results, tool stops, intent, ordering) --


def late_draft_validated() -> MutantIUT:
    """IUT factory of mutant ``late_draft_validated`` (see :data:`MUTANTS`)."""
    return create("late_draft_validated")


def cancelled_tool_recorded_timeout() -> MutantIUT:
    """IUT factory of mutant ``cancelled_tool_recorded_timeout`` (see :data:`MUTANTS`)."""
    return create("cancelled_tool_recorded_timeout")


def timed_out_tool_recorded_cancelled() -> MutantIUT:
    """IUT factory of mutant ``timed_out_tool_recorded_cancelled`` (see :data:`MUTANTS`)."""
    return create("timed_out_tool_recorded_cancelled")


def late_tool_answer_classified() -> MutantIUT:
    """IUT factory of mutant ``late_tool_answer_classified`` (see :data:`MUTANTS`)."""
    return create("late_tool_answer_classified")


def intent_not_stored() -> MutantIUT:
    """IUT factory of mutant ``intent_not_stored`` (see :data:`MUTANTS`)."""
    return create("intent_not_stored")


def raised_message_stored() -> MutantIUT:
    """IUT factory of mutant ``raised_message_stored`` (see :data:`MUTANTS`)."""
    return create("raised_message_stored")


def repair_request_offers_tools() -> MutantIUT:
    """IUT factory of mutant ``repair_request_offers_tools`` (see :data:`MUTANTS`)."""
    return create("repair_request_offers_tools")


def snapshot_rebuilt_after_unavailable() -> MutantIUT:
    """IUT factory of mutant ``snapshot_rebuilt_after_unavailable`` (see :data:`MUTANTS`)."""
    return create("snapshot_rebuilt_after_unavailable")


def set_ordered_violations() -> MutantIUT:
    """IUT factory of mutant ``set_ordered_violations`` (see :data:`MUTANTS`)."""
    return create("set_ordered_violations")


def set_ordered_skipped_runs() -> MutantIUT:
    """IUT factory of mutant ``set_ordered_skipped_runs`` (see :data:`MUTANTS`)."""
    return create("set_ordered_skipped_runs")


def presented_id_not_json_text() -> MutantIUT:
    """IUT factory of mutant ``presented_id_not_json_text`` (see :data:`MUTANTS`)."""
    return create("presented_id_not_json_text")


def validation_kind_mislabelled() -> MutantIUT:
    """IUT factory of mutant ``validation_kind_mislabelled`` (see :data:`MUTANTS`)."""
    return create("validation_kind_mislabelled")


def missing_tool_call_ids_as_schema_invalid() -> MutantIUT:
    """IUT factory of mutant ``missing_tool_call_ids_as_schema_invalid`` (see :data:`MUTANTS`)."""
    return create("missing_tool_call_ids_as_schema_invalid")


def item_without_references_as_schema_invalid() -> MutantIUT:
    """IUT factory of mutant ``item_without_references_as_schema_invalid`` (see :data:`MUTANTS`)."""
    return create("item_without_references_as_schema_invalid")


def skip_report_uncapped() -> MutantIUT:
    """IUT factory of mutant ``skip_report_uncapped`` (see :data:`MUTANTS`)."""
    return create("skip_report_uncapped")


# -- trace fields and client frames (helper "frames") --


def accepted_sequence_counts_rejected() -> MutantIUT:
    """IUT factory of mutant ``accepted_sequence_counts_rejected`` (see :data:`MUTANTS`)."""
    return create("accepted_sequence_counts_rejected")


def classified_item_count_is_total() -> MutantIUT:
    """IUT factory of mutant ``classified_item_count_is_total`` (see :data:`MUTANTS`)."""
    return create("classified_item_count_is_total")


def invalid_arguments_recorded_failed() -> MutantIUT:
    """IUT factory of mutant ``invalid_arguments_recorded_failed`` (see :data:`MUTANTS`)."""
    return create("invalid_arguments_recorded_failed")


def run_started_seq_off() -> MutantIUT:
    """IUT factory of mutant ``run_started_seq_off`` (see :data:`MUTANTS`)."""
    return create("run_started_seq_off")


def result_frame_after_run_finished() -> MutantIUT:
    """IUT factory of mutant ``result_frame_after_run_finished`` (see :data:`MUTANTS`)."""
    return create("result_frame_after_run_finished")


def end_frame_missing() -> MutantIUT:
    """IUT factory of mutant ``end_frame_missing`` (see :data:`MUTANTS`)."""
    return create("end_frame_missing")


def status_events_not_streamed() -> MutantIUT:
    """IUT factory of mutant ``status_events_not_streamed`` (see :data:`MUTANTS`)."""
    return create("status_events_not_streamed")


def frames_after_disconnect() -> MutantIUT:
    """IUT factory of mutant ``frames_after_disconnect`` (see :data:`MUTANTS`)."""
    return create("frames_after_disconnect")


def finished_names_another_fallback() -> MutantIUT:
    """IUT factory of mutant ``finished_names_another_fallback`` (see :data:`MUTANTS`)."""
    return create("finished_names_another_fallback")


def item_text_cut_in_utf16_units() -> MutantIUT:
    """IUT factory of mutant ``item_text_cut_in_utf16_units`` (see :data:`MUTANTS`)."""
    return create("item_text_cut_in_utf16_units")


def total_matched_ignores_backend() -> MutantIUT:
    """IUT factory of mutant ``total_matched_ignores_backend`` (see :data:`MUTANTS`)."""
    return create("total_matched_ignores_backend")


def no_evidence_when_no_items() -> MutantIUT:
    """IUT factory of mutant ``no_evidence_when_no_items`` (see :data:`MUTANTS`)."""
    return create("no_evidence_when_no_items")


def reversed_time_range_executed() -> MutantIUT:
    """IUT factory of mutant ``reversed_time_range_executed`` (see :data:`MUTANTS`)."""
    return create("reversed_time_range_executed")


def negative_scope_target_case_folded() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_target_case_folded`` (see :data:`MUTANTS`)."""
    return create("negative_scope_target_case_folded")


def unknown_draft_members_ignored() -> MutantIUT:
    """IUT factory of mutant ``unknown_draft_members_ignored`` (see :data:`MUTANTS`)."""
    return create("unknown_draft_members_ignored")


def inference_on_in_band_error_accepted() -> MutantIUT:
    """IUT factory of mutant ``inference_on_in_band_error_accepted`` (see :data:`MUTANTS`)."""
    return create("inference_on_in_band_error_accepted")


def only_first_reference_checked() -> MutantIUT:
    """IUT factory of mutant ``only_first_reference_checked`` (see :data:`MUTANTS`)."""
    return create("only_first_reference_checked")


def schema_invalid_draft_not_repaired() -> MutantIUT:
    """IUT factory of mutant ``schema_invalid_draft_not_repaired`` (see :data:`MUTANTS`)."""
    return create("schema_invalid_draft_not_repaired")


def set_intent_on_every_running_run() -> MutantIUT:
    """IUT factory of mutant ``set_intent_on_every_running_run`` (see :data:`MUTANTS`)."""
    return create("set_intent_on_every_running_run")


def released_strings_stripped() -> MutantIUT:
    """IUT factory of mutant ``released_strings_stripped`` (see :data:`MUTANTS`)."""
    return create("released_strings_stripped")


def snapshot_leaves_out_no_evidence() -> MutantIUT:
    """IUT factory of mutant ``snapshot_leaves_out_no_evidence`` (see :data:`MUTANTS`)."""
    return create("snapshot_leaves_out_no_evidence")


def knowledge_run_selects_previous_turn() -> MutantIUT:
    """IUT factory of mutant ``knowledge_run_selects_previous_turn`` (see :data:`MUTANTS`)."""
    return create("knowledge_run_selects_previous_turn")


# -- round-3 kinds (suite-gaps S17-S21) and their siblings --


def same_arguments_rejected_duplicate() -> MutantIUT:
    """IUT factory of mutant ``same_arguments_rejected_duplicate`` (see :data:`MUTANTS`)."""
    return create("same_arguments_rejected_duplicate")


def same_arguments_result_reused() -> MutantIUT:
    """IUT factory of mutant ``same_arguments_result_reused`` (see :data:`MUTANTS`)."""
    return create("same_arguments_result_reused")


def duplicate_judged_per_tool() -> MutantIUT:
    """IUT factory of mutant ``duplicate_judged_per_tool`` (see :data:`MUTANTS`)."""
    return create("duplicate_judged_per_tool")


def late_disconnect_released() -> MutantIUT:
    """IUT factory of mutant ``late_disconnect_released`` (see :data:`MUTANTS`)."""
    return create("late_disconnect_released")


def fixed_output_released_after_cancel() -> MutantIUT:
    """IUT factory of mutant ``fixed_output_released_after_cancel`` (see :data:`MUTANTS`)."""
    return create("fixed_output_released_after_cancel")


def row_rewritten_after_release() -> MutantIUT:
    """IUT factory of mutant ``row_rewritten_after_release`` (see :data:`MUTANTS`)."""
    return create("row_rewritten_after_release")


def cancel_layers_after_finish() -> MutantIUT:
    """IUT factory of mutant ``cancel_layers_after_finish`` (see :data:`MUTANTS`)."""
    return create("cancel_layers_after_finish")


def ready_invocations_rewritten_on_cancel() -> MutantIUT:
    """IUT factory of mutant ``ready_invocations_rewritten_on_cancel`` (see :data:`MUTANTS`)."""
    return create("ready_invocations_rewritten_on_cancel")


def cancel_finishes_older_running_runs() -> MutantIUT:
    """IUT factory of mutant ``cancel_finishes_older_running_runs`` (see :data:`MUTANTS`)."""
    return create("cancel_finishes_older_running_runs")


def analysis_kind_case_folded() -> MutantIUT:
    """IUT factory of mutant ``analysis_kind_case_folded`` (see :data:`MUTANTS`)."""
    return create("analysis_kind_case_folded")


def confidence_case_folded() -> MutantIUT:
    """IUT factory of mutant ``confidence_case_folded`` (see :data:`MUTANTS`)."""
    return create("confidence_case_folded")


def router_intent_case_folded() -> MutantIUT:
    """IUT factory of mutant ``router_intent_case_folded`` (see :data:`MUTANTS`)."""
    return create("router_intent_case_folded")


def review_verdict_case_folded() -> MutantIUT:
    """IUT factory of mutant ``review_verdict_case_folded`` (see :data:`MUTANTS`)."""
    return create("review_verdict_case_folded")


def unbound_analysis_beside_bound_accepted() -> MutantIUT:
    """IUT factory of mutant ``unbound_analysis_beside_bound_accepted`` (see :data:`MUTANTS`)."""
    return create("unbound_analysis_beside_bound_accepted")


def unbound_item_beside_bound_accepted() -> MutantIUT:
    """IUT factory of mutant ``unbound_item_beside_bound_accepted`` (see :data:`MUTANTS`)."""
    return create("unbound_item_beside_bound_accepted")


def unbound_plan_entry_beside_bound_accepted() -> MutantIUT:
    """IUT factory of mutant ``unbound_plan_entry_beside_bound_accepted`` (see :data:`MUTANTS`)."""
    return create("unbound_plan_entry_beside_bound_accepted")


# -- red team: kinds written from the spec and the implementer docs alone --


def truncated_at_item_bound() -> MutantIUT:
    """IUT factory of mutant ``truncated_at_item_bound`` (see :data:`MUTANTS`)."""
    return create("truncated_at_item_bound")


def truncated_at_char_bound() -> MutantIUT:
    """IUT factory of mutant ``truncated_at_char_bound`` (see :data:`MUTANTS`)."""
    return create("truncated_at_char_bound")


def user_message_stripped_in_row() -> MutantIUT:
    """IUT factory of mutant ``user_message_stripped_in_row`` (see :data:`MUTANTS`)."""
    return create("user_message_stripped_in_row")


def user_message_cut_in_row() -> MutantIUT:
    """IUT factory of mutant ``user_message_cut_in_row`` (see :data:`MUTANTS`)."""
    return create("user_message_cut_in_row")


def previous_turn_seq_as_text() -> MutantIUT:
    """IUT factory of mutant ``previous_turn_seq_as_text`` (see :data:`MUTANTS`)."""
    return create("previous_turn_seq_as_text")


def previous_turn_session_case_folded() -> MutantIUT:
    """IUT factory of mutant ``previous_turn_session_case_folded`` (see :data:`MUTANTS`)."""
    return create("previous_turn_session_case_folded")


def duplicate_item_id_accepted() -> MutantIUT:
    """IUT factory of mutant ``duplicate_item_id_accepted`` (see :data:`MUTANTS`)."""
    return create("duplicate_item_id_accepted")


def verdict_naming_unknown_analysis_taken() -> MutantIUT:
    """IUT factory of mutant ``verdict_naming_unknown_analysis_taken`` (see :data:`MUTANTS`)."""
    return create("verdict_naming_unknown_analysis_taken")


def fallback_end_frame_carries_draft() -> MutantIUT:
    """IUT factory of mutant ``fallback_end_frame_carries_draft`` (see :data:`MUTANTS`)."""
    return create("fallback_end_frame_carries_draft")


def interrupt_before_new_work_prevented() -> MutantIUT:
    """IUT factory of mutant ``interrupt_before_new_work_prevented`` (see :data:`MUTANTS`)."""
    return create("interrupt_before_new_work_prevented")


def snapshot_digest_not_canonical() -> MutantIUT:
    """IUT factory of mutant ``snapshot_digest_not_canonical`` (see :data:`MUTANTS`)."""
    return create("snapshot_digest_not_canonical")


def retry_counted_as_new_call() -> MutantIUT:
    """IUT factory of mutant ``retry_counted_as_new_call`` (see :data:`MUTANTS`)."""
    return create("retry_counted_as_new_call")


def failed_review_attempt_unrecorded() -> MutantIUT:
    """IUT factory of mutant ``failed_review_attempt_unrecorded`` (see :data:`MUTANTS`)."""
    return create("failed_review_attempt_unrecorded")


def step_budget_plus_one() -> MutantIUT:
    """IUT factory of mutant ``step_budget_plus_one`` (see :data:`MUTANTS`)."""
    return create("step_budget_plus_one")


# -- red team, limits at their bounds --


def zero_limits_read_as_unset() -> MutantIUT:
    """IUT factory of mutant ``zero_limits_read_as_unset`` (see :data:`MUTANTS`)."""
    return create("zero_limits_read_as_unset")


def fallback_source_scope_from_draft() -> MutantIUT:
    """IUT factory of mutant ``fallback_source_scope_from_draft`` (see :data:`MUTANTS`)."""
    return create("fallback_source_scope_from_draft")


def analysis_ids_case_folded() -> MutantIUT:
    """IUT factory of mutant ``analysis_ids_case_folded`` (see :data:`MUTANTS`)."""
    return create("analysis_ids_case_folded")


def extra_verdict_members_accepted() -> MutantIUT:
    """IUT factory of mutant ``extra_verdict_members_accepted`` (see :data:`MUTANTS`)."""
    return create("extra_verdict_members_accepted")


# -- red team 3: closed values in another case, values at their bounds --


def router_json_intent_upper_cased() -> MutantIUT:
    """IUT factory of mutant ``router_json_intent_upper_cased`` (see :data:`MUTANTS`)."""
    return create("router_json_intent_upper_cased")


def verdict_member_name_accepted() -> MutantIUT:
    """IUT factory of mutant ``verdict_member_name_accepted`` (see :data:`MUTANTS`)."""
    return create("verdict_member_name_accepted")


def draft_member_names_accepted() -> MutantIUT:
    """IUT factory of mutant ``draft_member_names_accepted`` (see :data:`MUTANTS`)."""
    return create("draft_member_names_accepted")


def argument_bounds_exclusive() -> MutantIUT:
    """IUT factory of mutant ``argument_bounds_exclusive`` (see :data:`MUTANTS`)."""
    return create("argument_bounds_exclusive")


def argument_lengths_in_utf16_units() -> MutantIUT:
    """IUT factory of mutant ``argument_lengths_in_utf16_units`` (see :data:`MUTANTS`)."""
    return create("argument_lengths_in_utf16_units")


def invocation_arguments_normalized() -> MutantIUT:
    """IUT factory of mutant ``invocation_arguments_normalized`` (see :data:`MUTANTS`)."""
    return create("invocation_arguments_normalized")


def draft_texts_checked_as_java_strings() -> MutantIUT:
    """IUT factory of mutant ``draft_texts_checked_as_java_strings`` (see :data:`MUTANTS`)."""
    return create("draft_texts_checked_as_java_strings")


def draft_text_bounds_exclusive() -> MutantIUT:
    """IUT factory of mutant ``draft_text_bounds_exclusive`` (see :data:`MUTANTS`)."""
    return create("draft_text_bounds_exclusive")


def mixed_no_evidence_citation_accepted() -> MutantIUT:
    """IUT factory of mutant ``mixed_no_evidence_citation_accepted`` (see :data:`MUTANTS`)."""
    return create("mixed_no_evidence_citation_accepted")


# -- red team 5: identity fields --


def invocation_run_id_session() -> MutantIUT:
    """IUT factory of mutant ``invocation_run_id_session`` (see :data:`MUTANTS`)."""
    return create("invocation_run_id_session")


def rejected_tool_name_null() -> MutantIUT:
    """IUT factory of mutant ``rejected_tool_name_null`` (see :data:`MUTANTS`)."""
    return create("rejected_tool_name_null")


def late_discard_wrong_index() -> MutantIUT:
    """IUT factory of mutant ``late_discard_wrong_index`` (see :data:`MUTANTS`)."""
    return create("late_discard_wrong_index")


def late_discard_wrong_purpose() -> MutantIUT:
    """IUT factory of mutant ``late_discard_wrong_purpose`` (see :data:`MUTANTS`)."""
    return create("late_discard_wrong_purpose")


def late_discard_twice() -> MutantIUT:
    """IUT factory of mutant ``late_discard_twice`` (see :data:`MUTANTS`)."""
    return create("late_discard_twice")


def tool_work_cancelled_twice() -> MutantIUT:
    """IUT factory of mutant ``tool_work_cancelled_twice`` (see :data:`MUTANTS`)."""
    return create("tool_work_cancelled_twice")


def interrupt_twice() -> MutantIUT:
    """IUT factory of mutant ``interrupt_twice`` (see :data:`MUTANTS`)."""
    return create("interrupt_twice")


def repair_violations_first_only() -> MutantIUT:
    """IUT factory of mutant ``repair_violations_first_only`` (see :data:`MUTANTS`)."""
    return create("repair_violations_first_only")


def repair_call_index_restart() -> MutantIUT:
    """IUT factory of mutant ``repair_call_index_restart`` (see :data:`MUTANTS`)."""
    return create("repair_call_index_restart")


def synthetic_verdict_on_unavailable() -> MutantIUT:
    """IUT factory of mutant ``synthetic_verdict_on_unavailable`` (see :data:`MUTANTS`)."""
    return create("synthetic_verdict_on_unavailable")


def semantic_review_uncancellable() -> MutantIUT:
    """IUT factory of mutant ``semantic_review_uncancellable`` (see :data:`MUTANTS`)."""
    return create("semantic_review_uncancellable")


def structural_repair_uncancellable() -> MutantIUT:
    """IUT factory of mutant ``structural_repair_uncancellable`` (see :data:`MUTANTS`)."""
    return create("structural_repair_uncancellable")


def router_call_uncancellable() -> MutantIUT:
    """IUT factory of mutant ``router_call_uncancellable`` (see :data:`MUTANTS`)."""
    return create("router_call_uncancellable")


def tool_path_cancel_layers_swapped() -> MutantIUT:
    """IUT factory of mutant ``tool_path_cancel_layers_swapped`` (see :data:`MUTANTS`)."""
    return create("tool_path_cancel_layers_swapped")


# -- red team 6: identity after a failed call, RAG bindings, knowledge fallback sources --


def duplicate_after_failed_call_accepted() -> MutantIUT:
    """IUT factory of mutant ``duplicate_after_failed_call_accepted`` (see :data:`MUTANTS`)."""
    return create("duplicate_after_failed_call_accepted")


def duplicate_after_no_evidence_accepted() -> MutantIUT:
    """IUT factory of mutant ``duplicate_after_no_evidence_accepted`` (see :data:`MUTANTS`)."""
    return create("duplicate_after_no_evidence_accepted")


def fabricated_reference_on_empty_lookup_accepted() -> MutantIUT:
    """IUT factory of ``fabricated_reference_on_empty_lookup_accepted`` (see :data:`MUTANTS`)."""
    return create("fabricated_reference_on_empty_lookup_accepted")


def lookup_id_matched_loosely() -> MutantIUT:
    """IUT factory of mutant ``lookup_id_matched_loosely`` (see :data:`MUTANTS`)."""
    return create("lookup_id_matched_loosely")


def knowledge_fallback_without_sources() -> MutantIUT:
    """IUT factory of mutant ``knowledge_fallback_without_sources`` (see :data:`MUTANTS`)."""
    return create("knowledge_fallback_without_sources")


def negative_scope_not_required() -> MutantIUT:
    """IUT factory of mutant ``negative_scope_not_required`` (see :data:`MUTANTS`)."""
    return create("negative_scope_not_required")


def knowledge_item_text_unbounded() -> MutantIUT:
    """IUT factory of mutant ``knowledge_item_text_unbounded`` (see :data:`MUTANTS`)."""
    return create("knowledge_item_text_unbounded")


def statement_length_unbounded() -> MutantIUT:
    """IUT factory of mutant ``statement_length_unbounded`` (see :data:`MUTANTS`)."""
    return create("statement_length_unbounded")


def conclusion_without_analyses_accepted() -> MutantIUT:
    """IUT factory of mutant ``conclusion_without_analyses_accepted`` (see :data:`MUTANTS`)."""
    return create("conclusion_without_analyses_accepted")


def observation_scope_unvalidated() -> MutantIUT:
    """IUT factory of mutant ``observation_scope_unvalidated`` (see :data:`MUTANTS`)."""
    return create("observation_scope_unvalidated")


def verdict_repeated_ids_accepted() -> MutantIUT:
    """IUT factory of mutant ``verdict_repeated_ids_accepted`` (see :data:`MUTANTS`)."""
    return create("verdict_repeated_ids_accepted")


def negative_start_ms_executed() -> MutantIUT:
    """IUT factory of mutant ``negative_start_ms_executed`` (see :data:`MUTANTS`)."""
    return create("negative_start_ms_executed")


def in_band_code_in_safe_message() -> MutantIUT:
    """IUT factory of mutant ``in_band_code_in_safe_message`` (see :data:`MUTANTS`)."""
    return create("in_band_code_in_safe_message")


def tool_work_cancelled_before_request() -> MutantIUT:
    """IUT factory of mutant ``tool_work_cancelled_before_request`` (see :data:`MUTANTS`)."""
    return create("tool_work_cancelled_before_request")


def knowledge_answer_released_sorted() -> MutantIUT:
    """IUT factory of mutant ``knowledge_answer_released_sorted`` (see :data:`MUTANTS`)."""
    return create("knowledge_answer_released_sorted")


def lookup_item_ids_sorted() -> MutantIUT:
    """IUT factory of mutant ``lookup_item_ids_sorted`` (see :data:`MUTANTS`)."""
    return create("lookup_item_ids_sorted")


def tool_timeout_recorded_as_cancelled_work() -> MutantIUT:
    """IUT factory of mutant ``tool_timeout_recorded_as_cancelled_work`` (see :data:`MUTANTS`)."""
    return create("tool_timeout_recorded_as_cancelled_work")


def cancel_waits_model_timeout() -> MutantIUT:
    """IUT factory of mutant ``cancel_waits_model_timeout`` (see :data:`MUTANTS`)."""
    return create("cancel_waits_model_timeout")


def total_matched_trusts_backend() -> MutantIUT:
    """IUT factory of mutant ``total_matched_trusts_backend`` (see :data:`MUTANTS`)."""
    return create("total_matched_trusts_backend")


def run_id_from_seq() -> MutantIUT:
    """IUT factory of mutant ``run_id_from_seq`` (see :data:`MUTANTS`)."""
    return create("run_id_from_seq")


def public_error_skips_release_gate() -> MutantIUT:
    """IUT factory of mutant ``public_error_skips_release_gate`` (see :data:`MUTANTS`)."""
    return create("public_error_skips_release_gate")


def cancel_waits_tool_timeout() -> MutantIUT:
    """IUT factory of mutant ``cancel_waits_tool_timeout`` (see :data:`MUTANTS`)."""
    return create("cancel_waits_tool_timeout")


def seq_from_low_word() -> MutantIUT:
    """IUT factory of mutant ``seq_from_low_word`` (see :data:`MUTANTS`)."""
    return create("seq_from_low_word")


def late_result_never_discarded() -> MutantIUT:
    """IUT factory of mutant ``late_result_never_discarded`` (see :data:`MUTANTS`)."""
    return create("late_result_never_discarded")


def sources_scope_from_arguments() -> MutantIUT:
    """IUT factory of mutant ``sources_scope_from_arguments`` (see :data:`MUTANTS`)."""
    return create("sources_scope_from_arguments")


def duplicates_in_recent_window() -> MutantIUT:
    """IUT factory of mutant ``duplicates_in_recent_window`` (see :data:`MUTANTS`)."""
    return create("duplicates_in_recent_window")


def id_keyed_by_prefix() -> MutantIUT:
    """IUT factory of mutant ``id_keyed_by_prefix`` (see :data:`MUTANTS`)."""
    return create("id_keyed_by_prefix")


def draft_bindings_first_five() -> MutantIUT:
    """IUT factory of mutant ``draft_bindings_first_five`` (see :data:`MUTANTS`)."""
    return create("draft_bindings_first_five")


def answer_references_first_three() -> MutantIUT:
    """IUT factory of mutant ``answer_references_first_three`` (see :data:`MUTANTS`)."""
    return create("answer_references_first_three")


def snapshot_evidence_first_four() -> MutantIUT:
    """IUT factory of mutant ``snapshot_evidence_first_four`` (see :data:`MUTANTS`)."""
    return create("snapshot_evidence_first_four")


def invocations_resolved_process_wide() -> MutantIUT:
    """IUT factory of mutant ``invocations_resolved_process_wide`` (see :data:`MUTANTS`)."""
    return create("invocations_resolved_process_wide")


def empty_answer_excused_by_limitation() -> MutantIUT:
    """IUT factory of mutant ``empty_answer_excused_by_limitation`` (see :data:`MUTANTS`)."""
    return create("empty_answer_excused_by_limitation")


def analysis_id_type_only() -> MutantIUT:
    """IUT factory of mutant ``analysis_id_type_only`` (see :data:`MUTANTS`)."""
    return create("analysis_id_type_only")


def lone_id_wrapped_in_list() -> MutantIUT:
    """IUT factory of mutant ``lone_id_wrapped_in_list`` (see :data:`MUTANTS`)."""
    return create("lone_id_wrapped_in_list")


def lone_entry_wrapped_in_list() -> MutantIUT:
    """IUT factory of mutant ``lone_entry_wrapped_in_list`` (see :data:`MUTANTS`)."""
    return create("lone_entry_wrapped_in_list")


def lone_unsupported_id_wrapped_in_list() -> MutantIUT:
    """IUT factory of mutant ``lone_unsupported_id_wrapped_in_list`` (see :data:`MUTANTS`)."""
    return create("lone_unsupported_id_wrapped_in_list")


def lone_draft_entry_wrapped_in_list() -> MutantIUT:
    """IUT factory of mutant ``lone_draft_entry_wrapped_in_list`` (see :data:`MUTANTS`)."""
    return create("lone_draft_entry_wrapped_in_list")


def analysis_ids_unique_among_neighbours() -> MutantIUT:
    """IUT factory of mutant ``analysis_ids_unique_among_neighbours`` (see :data:`MUTANTS`)."""
    return create("analysis_ids_unique_among_neighbours")


def item_ids_unique_among_neighbours() -> MutantIUT:
    """IUT factory of mutant ``item_ids_unique_among_neighbours`` (see :data:`MUTANTS`)."""
    return create("item_ids_unique_among_neighbours")


def fallback_sources_from_analyses_only() -> MutantIUT:
    """IUT factory of mutant ``fallback_sources_from_analyses_only`` (see :data:`MUTANTS`)."""
    return create("fallback_sources_from_analyses_only")


def fallback_sources_per_citation() -> MutantIUT:
    """IUT factory of mutant ``fallback_sources_per_citation`` (see :data:`MUTANTS`)."""
    return create("fallback_sources_per_citation")


def rejected_step_spends_no_budget() -> MutantIUT:
    """IUT factory of mutant ``rejected_step_spends_no_budget`` (see :data:`MUTANTS`)."""
    return create("rejected_step_spends_no_budget")


def snapshot_evidence_from_analyses_only() -> MutantIUT:
    """IUT factory of mutant ``snapshot_evidence_from_analyses_only`` (see :data:`MUTANTS`)."""
    return create("snapshot_evidence_from_analyses_only")


def snapshot_evidence_per_citation() -> MutantIUT:
    """IUT factory of mutant ``snapshot_evidence_per_citation`` (see :data:`MUTANTS`)."""
    return create("snapshot_evidence_per_citation")
