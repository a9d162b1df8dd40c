"""Mutants of the round-3 kinds (suite-gaps S17-S21) and their siblings, one sentence each.

Each is the smallest wrong Harness of one kind, named by the sentence it breaks, with the rule id
(:mod:`conformance.checks` registry) whose failure must kill it. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._round3_parts import (
    ArgumentIdentityLoop,
    CancelAfterFinishHarness,
    CancelAllRunningStore,
    FixedOutputsBypassGateHarness,
    ReadyRewritingContext,
    ResultReusingLoop,
    RowRewritingHarness,
    ToolKeyedIdentityLoop,
    case_folded_confidence,
    case_folded_intent,
    case_folded_kind,
    case_folded_review,
    forgiving_check,
    late_cancel_context,
    loop_class,
    no_release_point,
    run_context_class,
    unbound_analysis_dropped,
    unbound_item_dropped,
    unbound_plan_entry_dropped,
)

__all__ = ["ROUND3_SPECS"]

_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R3 = "invocation-status-and-evidence-status-shall-be-independent"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_HARNESS = "reference_harness._harness"
_RELEASE = "reference_harness._release"

ROUND3_SPECS: Final = (
    # -- S17: identity is the Tool Call ID, not the arguments --------------------------------
    MutantSpec(
        "same_arguments_rejected_duplicate",
        _R2,
        "the framework tool_call_id as the sole Tool invocation reference: a call repeating an "
        "accepted call's tool and byte-identical arguments under a new id is rejected "
        "DUPLICATE_ID",
        rule_id="R2.tool-call-identity",
        patches=(Patch(_HARNESS, "AgentLoop", loop_class(ArgumentIdentityLoop)),),
    ),
    MutantSpec(
        "same_arguments_result_reused",
        _R2,
        "the framework tool_call_id as the sole Tool invocation reference: a call repeating an "
        "accepted call's tool and arguments is not executed, it reuses that call's result",
        rule_id="R2.tool-call-identity",
        patches=(Patch(_HARNESS, "AgentLoop", loop_class(ResultReusingLoop)),),
    ),
    MutantSpec(
        "duplicate_judged_per_tool",
        _R2,
        "reject duplicate IDs within a Run: an id is a duplicate only when the same tool used it, "
        "so another tool presenting an accepted id is taken for a new call",
        rule_id="R2.tool-call-identity",
        patches=(Patch(_HARNESS, "AgentLoop", loop_class(ToolKeyedIdentityLoop)),),
    ),
    # -- S18: a disconnect before the release closes the gate --------------------------------
    MutantSpec(
        "late_disconnect_released",
        _R8,
        "prevents later Draft release: a disconnect delivered after the last verdict (on "
        "SEMANTIC_VERDICT) is not looked for before the release gate, and the draft is released",
        rule_id="R8.disconnect-noticed",
        patches=(Patch(_HARNESS, "_release_point", no_release_point),),
    ),
    MutantSpec(
        "fixed_output_released_after_cancel",
        _R8,
        "a cancelled Run releases nothing: a Safe Fallback or public error decided before the "
        "cancel is still published after it",
        rule_id="R8.cancelled-releases-nothing",
        harness_class=FixedOutputsBypassGateHarness,
    ),
    # -- S19: terminal states are immutable --------------------------------------------------
    MutantSpec(
        "row_rewritten_after_release",
        _R7,
        "diagnosis_run as the durable source of the release outcome (terminal states are "
        "immutable): a disconnect after the release rewrites the finished row to CANCELLED",
        rule_id="R7.durable-run-outcome",
        harness_class=RowRewritingHarness,
    ),
    MutantSpec(
        "cancel_layers_after_finish",
        _R8,
        "a cancel that arrives after the Run released its result changes nothing: its layers are "
        "still recorded, after RUN_FINISHED",
        rule_id="R8.layered-cancellation",
        harness_class=CancelAfterFinishHarness,
        patches=(Patch(_HARNESS, "RunContext", late_cancel_context),),
    ),
    MutantSpec(
        "ready_invocations_rewritten_on_cancel",
        _R3,
        "terminal invocation states (READY, ERROR) are immutable: a cancel rewrites the READY "
        "invocations of the Run to ERROR/CANCELLED",
        rule_id="R3.invocation-lifecycle",
        patches=(Patch(_HARNESS, "RunContext", run_context_class(ReadyRewritingContext)),),
    ),
    MutantSpec(
        "cancel_finishes_older_running_runs",
        _R7,
        "earlier Runs stay as they were: cancelling a Run also finishes the session's older "
        "RUNNING Runs as CANCELLED",
        rule_id="R7.prior-runs-untouched",
        store_class=CancelAllRunningStore,
    ),
    # -- S20: every closed vocabulary is exact -----------------------------------------------
    MutantSpec(
        "analysis_kind_case_folded",
        _R4,
        "a fixed Analysis kind: EvidenceGuard reads the kind case-insensitively (and trimmed), "
        "accepting 'observation' as OBSERVATION",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", forgiving_check(case_folded_kind)),),
    ),
    MutantSpec(
        "confidence_case_folded",
        _R4,
        "typed report structure: EvidenceGuard reads the conclusion's confidence "
        "case-insensitively, accepting 'high' as HIGH",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", forgiving_check(case_folded_confidence)),),
    ),
    MutantSpec(
        "router_intent_case_folded",
        _R9,
        "an invalid Router answer is an INVALID_SCHEMA attempt: the Router's 'diagnosis' is "
        "accepted as the intent DIAGNOSIS",
        rule_id="R9.model-call-outcome",
        patches=(Patch(_HARNESS, "_route_check", case_folded_intent),),
    ),
    MutantSpec(
        "review_verdict_case_folded",
        _R9,
        "an invalid SemanticGuard answer is an INVALID_SCHEMA attempt: the verdict 'supported' is "
        "accepted as SUPPORTED",
        rule_id="R9.model-call-outcome",
        patches=(Patch(_RELEASE, "parse_verdict", case_folded_review),),
    ),
    # -- S21: every per-item rule holds for each item ----------------------------------------
    MutantSpec(
        "unbound_analysis_beside_bound_accepted",
        _R4,
        "every Analysis has at least one Tool Call ID: an analysis with no Tool Call ID is "
        "accepted when another analysis has one (the rule checked for all analyses at once)",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", forgiving_check(unbound_analysis_dropped)),),
    ),
    MutantSpec(
        "unbound_item_beside_bound_accepted",
        _R5,
        "answer items whose references identify the lookup: an item with no reference is accepted "
        "when another item has one",
        rule_id="R5.exact-rag-bindings",
        patches=(Patch(_RELEASE, "check_knowledge_answer", forgiving_check(unbound_item_dropped)),),
    ),
    MutantSpec(
        "unbound_plan_entry_beside_bound_accepted",
        _R4,
        "typed report structure: an action-plan entry naming no analysis is accepted when another "
        "entry names one",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", forgiving_check(unbound_plan_entry_dropped)),),
    ),
)
"""The round-3 kinds, in the order of the case file, each kind followed by its siblings."""
