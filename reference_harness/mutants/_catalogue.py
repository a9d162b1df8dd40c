"""The mutant catalogue: every broken harness, and broken copies of the stage-zero contract data.

IUT mutants (:data:`MUTANTS`) each break exactly one rule of one requirement and are factories
``reference_harness.mutants:<name>``. Contract mutants (:data:`CONTRACT_MUTANTS`) break the rule of
a requirement whose scenario reads contract data rather than a Run (component registry, phase
plan). The conformance suite must fail every one of them (``conformance.selftest``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from reference_harness._retry import RetryPolicy
from reference_harness.mutants._bounds_specs import BOUNDS_SPECS
from reference_harness.mutants._cancel8_specs import CANCEL8_SPECS
from reference_harness.mutants._citation_parts import (
    FirstDraftSourcesHarness,
    IntentFirstStore,
    KnowledgeContextHarness,
    NewestFewStore,
    OlderSkippedStore,
    OldestFirstSkippedStore,
    StatesOnlySkippedStore,
    UnboundedDocumentIds,
    cited_sources_any_status,
    every_ready_source,
    evidence_of_every_ready_call,
    evidence_removed,
    in_plan_or_recommendation,
    inference_on_no_evidence,
    large_result_unbounded,
    lookup_counted_by,
    no_sources_on_semantic_fallback,
    scope_within_ignoring,
    with_knowledge_context,
)
from reference_harness.mutants._contract_specs import CONTRACT_DETAIL_SPECS
from reference_harness.mutants._evidence_parts import (
    FailureAsNoEvidenceHarness,
    InBandAsNoEvidenceHarness,
    PartialEditingHarness,
    RewritingIdAgent,
    SessionWideIdHarness,
    SilentProjectingHarness,
    case_folded_document,
    case_folded_duplicates,
    codes,
    document_by_position,
    dropping,
    executing_repair,
    in_limitation,
    limitation_error_rejected,
    no_item_cut,
    no_item_limit,
    projection_with,
    remembering_loop,
    scope_checked_on_first_citation,
    total_is_kept_count,
    truncated_by_count_only,
    unchanged,
    unknown_among_known,
    unsupported_as_unavailable,
)
from reference_harness.mutants._frames_specs import FRAMES_SPECS
from reference_harness.mutants._iut import MutantIUT, MutantSpec, Patch
from reference_harness.mutants._keyword_specs import KEYWORD_SPECS
from reference_harness.mutants._leftkinds_specs import LEFTKINDS_SPECS
from reference_harness.mutants._loneitem_specs import LONEITEM_SPECS
from reference_harness.mutants._misc8_specs import MISC8_SPECS
from reference_harness.mutants._model_input_parts import (
    ConversationToReviewer,
    RawRows,
    SeqOnlyStore,
    SessionHistoryStore,
    reasoning_echoed,
    retrying_chat_client,
    tools_for_reviewer,
    with_session_history,
)
from reference_harness.mutants._parts import (
    FallbackTolerantStore,
    GateLeakingHarness,
    IdInventingAgent,
    OverwritingHarness,
    RewritingHarness,
    SdkRetryingReviewer,
    ignoring,
    resnapshotting_retry,
    retyping_fallback,
)
from reference_harness.mutants._reach8_specs import REACH8_SPECS
from reference_harness.mutants._reach_parts import (
    AllRunningIntentStore,
    KnowledgeSelectingHarness,
    after_first_reference,
    backend_total_ignored,
    extra_members_ignored,
    inference_on_in_band_error,
    items_only_evidence_status,
    no_evidence_left_out,
    released_strings_stripped,
    reversed_time_range_accepted,
    schema_invalid_stops,
    skipping_repair_pipeline,
    target_case_folded,
    utf16_cut,
)
from reference_harness.mutants._redteam2_specs import REDTEAM2_SPECS
from reference_harness.mutants._redteam6_idrag_specs import REDTEAM6_IDRAG_SPECS
from reference_harness.mutants._redteam6_specs import REDTEAM6_SPECS
from reference_harness.mutants._redteam9_specs import REDTEAM9_SPECS
from reference_harness.mutants._redteam11_specs import REDTEAM11_SPECS
from reference_harness.mutants._redteam_specs import REDTEAM_SPECS
from reference_harness.mutants._round3_specs import ROUND3_SPECS
from reference_harness.mutants._runtime_specs import RUNTIME_SPECS
from reference_harness.mutants._scale8_specs import SCALE8_SPECS
from reference_harness.mutants._survivor_specs import SURVIVOR_SPECS
from reference_harness.mutants._traceid_specs import TRACEID_SPECS

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["CONTRACT_MUTANTS", "MUTANTS", "ContractMutant", "create"]

_RELEASE = "reference_harness._release"

_SPECS: Final = (
    MutantSpec(
        "harness_rewrites_draft",
        "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning",
        "the Harness rewrites the conclusion of the draft it releases",
        rule_id="R1.released-is-agent-authored",
        harness_class=RewritingHarness,
    ),
    MutantSpec(
        "duplicate_overwrites_invocation",
        "tool-invocation-identity-shall-use-the-framework-tool-call-id",
        "a duplicate Tool Call ID is executed and overwrites the first canonical invocation",
        rule_id="R2.tool-call-identity",
        harness_class=OverwritingHarness,
    ),
    MutantSpec(
        "missing_id_executed",
        "tool-invocation-identity-shall-use-the-framework-tool-call-id",
        "a call with a missing Tool Call ID gets an invented id and is executed",
        rule_id="R2.tool-call-identity",
        agent=IdInventingAgent,
    ),
    MutantSpec(
        "no_evidence_as_observation",
        "invocation-status-and-evidence-status-shall-be-independent",
        "EvidenceGuard accepts a NO_EVIDENCE result cited by a non-NEGATIVE_OBSERVATION analysis",
        rule_id="R3.no-evidence-citation",
        patches=(
            Patch(
                _RELEASE,
                "check_draft",
                ignoring("NO_EVIDENCE_NOT_NEGATIVE", "OBSERVATION_WITHOUT_EVIDENCE"),
            ),
        ),
    ),
    MutantSpec(
        "negative_scope_unbounded",
        "invocation-status-and-evidence-status-shall-be-independent",
        "EvidenceGuard accepts a NEGATIVE_OBSERVATION wider than its query scope",
        rule_id="R3.no-evidence-citation",
        patches=(Patch(_RELEASE, "check_draft", ignoring("NEGATIVE_SCOPE_TOO_WIDE")),),
    ),
    MutantSpec(
        "duplicate_analysis_id_released",
        "diagnosis-draft-shall-expose-typed-report-structure",
        "EvidenceGuard accepts a draft whose analysis ids are not unique",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", ignoring("DUPLICATE_ANALYSIS_ID")),),
    ),
    MutantSpec(
        "fabricated_citation_published",
        "knowledge-answers-shall-use-exact-rag-bindings",
        "EvidenceGuard accepts an answer citing a document the lookup did not return",
        rule_id="R5.fabricated-citation-rejected",
        patches=(Patch(_RELEASE, "check_knowledge_answer", ignoring("FABRICATED_DOCUMENT_ID")),),
    ),
    MutantSpec(
        "evidence_failure_mistyped",
        "safe-fallback-shall-use-a-fixed-schema",
        "a draft failing validation twice falls back as SEMANTIC_UNAVAILABLE",
        rule_id="R6.evidence-validation-failed",
        patches=(Patch(_RELEASE, "safe_fallback", retyping_fallback),),
    ),
    MutantSpec(
        "fallback_as_previous_turn",
        "previous-turn-shall-come-from-a-safe-durable-run-result",
        "a Run that ended FALLBACK is selected as the Diagnosis previous turn",
        rule_id="R7.previous-turn-selection",
        store_class=FallbackTolerantStore,
    ),
    MutantSpec(
        "late_result_published",
        "cancellation-shall-be-layered-and-observable",
        "cancellation never closes the release gate: the late model result is used and published",
        rule_id="R8.cancelled-releases-nothing",
        harness_class=GateLeakingHarness,
    ),
    MutantSpec(
        "sdk_retries_review",
        "retry-attempts-shall-be-owned-by-harness",
        "the SemanticGuard client retries an invalid answer itself, unseen by the Harness",
        rule_id="R9.semantic-retry-same-snapshot",
        reviewer=SdkRetryingReviewer,
    ),
    MutantSpec(
        "second_review_new_snapshot",
        "retry-attempts-shall-be-owned-by-harness",
        "the second SemanticGuard attempt is made on a re-built snapshot with another digest",
        rule_id="R9.semantic-retry-same-snapshot",
        patches=(Patch(_RELEASE, "call_with_retry", resnapshotting_retry),),
    ),
    MutantSpec(
        "three_review_attempts",
        "retry-attempts-shall-be-owned-by-harness",
        "the Harness allows SemanticGuard three attempts instead of two",
        rule_id="R9.attempts-bounded",
        retry=RetryPolicy(
            max_attempts=MappingProxyType({"ROUTER": 2, "DIAGNOSIS_AGENT": 1, "SEMANTIC_GUARD": 3})
        ),
    ),
)

_R1: Final = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R2: Final = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R3: Final = "invocation-status-and-evidence-status-shall-be-independent"
_R4: Final = "diagnosis-draft-shall-expose-typed-report-structure"
_R5: Final = "knowledge-answers-shall-use-exact-rag-bindings"
_R6: Final = "safe-fallback-shall-use-a-fixed-schema"
_HARNESS: Final = "reference_harness._harness"
_TOOL_EXECUTION: Final = "reference_harness._tool_execution"


def _draft_guard(wrap: Callable[[Any], Any]) -> tuple[Patch, ...]:
    return (Patch(_RELEASE, "check_draft", wrap),)


def _answer_guard(wrap: Callable[[Any], Any]) -> tuple[Patch, ...]:
    return (Patch(_RELEASE, "check_knowledge_answer", wrap),)


def _projection(wrap: Callable[[Any], Any]) -> tuple[Patch, ...]:
    return (Patch(_TOOL_EXECUTION, "project", wrap),)


_EVIDENCE_SPECS: Final = (
    # -- Requirement 1: "Diagnosis Agent as the only diagnosis report author" -------------------
    MutantSpec(
        "edits_draft_after_partial_unsupported",
        _R1,
        "after an UNSUPPORTED verdict naming some analyses, the Harness releases the draft "
        "without them (the Harness edits the report)",
        rule_id="R1.released-is-agent-authored",
        harness_class=PartialEditingHarness,
        patches=(Patch(_HARNESS, "AgentLoop", remembering_loop),),
    ),
    MutantSpec(
        "limitation_error_citation_rejected",
        _R1,
        "EvidenceGuard rejects a limitation citing ERROR evidence, which the rules allow "
        '("EvidenceGuard as deterministic evidence validation" of the contract\'s rules only)',
        rule_id="R1.evidence-guard-verdict",
        patches=_draft_guard(limitation_error_rejected),
    ),
    # -- Requirement 2: "reject missing, invalid, or duplicate IDs within a Run" ----------------
    MutantSpec(
        "padded_id_trimmed",
        _R2,
        'a padded Tool Call ID (" call_1 ") is trimmed, accepted and executed instead of '
        "rejected as INVALID_ID",
        rule_id="R2.tool-call-identity",
        agent=RewritingIdAgent.trimming,
    ),
    MutantSpec(
        "lookalike_id_normalised",
        _R2,
        "a Tool Call ID of Unicode look-alikes is NFKC-normalised and accepted instead of "
        "rejected as INVALID_ID",
        rule_id="R2.tool-call-identity",
        agent=RewritingIdAgent.nfkc,
    ),
    MutantSpec(
        "numeric_id_stringified",
        _R2,
        "a numeric Tool Call ID is turned into a string and accepted instead of rejected as "
        "INVALID_ID",
        rule_id="R2.tool-call-identity",
        agent=RewritingIdAgent.stringifying,
    ),
    MutantSpec(
        "long_id_cut",
        _R2,
        "a Tool Call ID longer than 128 characters is cut to 128 and accepted instead of "
        "rejected as INVALID_ID",
        rule_id="R2.tool-call-identity",
        agent=RewritingIdAgent.cutting,
    ),
    MutantSpec(
        "id_case_folded",
        _R2,
        "Tool Call IDs are compared case-insensitively: a distinct id differing only in case is "
        "rejected as DUPLICATE_ID",
        rule_id="R2.tool-call-identity",
        patches=(
            Patch("reference_harness._agent_loop", "classify_tool_call_id", case_folded_duplicates),
        ),
    ),
    MutantSpec(
        "duplicates_judged_across_runs",
        _R2,
        "a Tool Call ID an earlier Run of the session cited is rejected as DUPLICATE_ID "
        "(duplicates are judged within one Run)",
        rule_id="R2.tool-call-identity",
        harness_class=SessionWideIdHarness,
    ),
    # -- Requirement 3: "PROJECTING/READY/ERROR as invocation lifecycle states" ------------------
    MutantSpec(
        "raising_backend_no_evidence",
        _R3,
        "a tool backend that raises ends READY / NO_EVIDENCE instead of ERROR / ERROR",
        rule_id="R3.invocation-outcome",
        harness_class=FailureAsNoEvidenceHarness,
    ),
    MutantSpec(
        "in_band_error_no_evidence",
        _R3,
        "a backend's in-band error ends READY / NO_EVIDENCE instead of READY / ERROR",
        rule_id="R3.invocation-outcome",
        harness_class=InBandAsNoEvidenceHarness,
    ),
    MutantSpec(
        "projecting_never_reported",
        _R3,
        "an invocation is never observed PROJECTING: only its terminal state is reported",
        rule_id="R3.invocation-lifecycle",
        harness_class=SilentProjectingHarness,
    ),
    MutantSpec(
        "negative_scope_first_citation_only",
        _R3,
        "a NEGATIVE_OBSERVATION's scope is checked against its first cited query only, so a "
        "claim wider than a later cited call's scope is released",
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(scope_checked_on_first_citation)),
    ),
    MutantSpec(
        "error_evidence_cited_accepted",
        _R3,
        "EvidenceGuard accepts an analysis citing ERROR evidence",
        rule_id="R3.evidence-citation",
        patches=_draft_guard(dropping(codes("ERROR_EVIDENCE_CITED"))),
    ),
    MutantSpec(
        "negative_on_found_evidence_accepted",
        _R3,
        "EvidenceGuard accepts a NEGATIVE_OBSERVATION citing an EVIDENCE_FOUND result",
        rule_id="R3.evidence-citation",
        patches=_draft_guard(dropping(codes("NEGATIVE_WITHOUT_NO_EVIDENCE"))),
    ),
    # -- Requirement 4: "limitations and Tool Call bindings without exposing ... raw payloads" ---
    MutantSpec(
        "unknown_id_among_known_accepted",
        _R4,
        "EvidenceGuard rejects an unknown Tool Call ID only when every id of the analysis is "
        "unknown, so [call_1, call_9] passes",
        rule_id="R4.tool-call-bindings",
        patches=_draft_guard(dropping(unknown_among_known)),
    ),
    MutantSpec(
        "limitation_bindings_unchecked",
        _R4,
        "EvidenceGuard does not check the Tool Call IDs of limitations",
        rule_id="R4.tool-call-bindings",
        patches=_draft_guard(dropping(in_limitation)),
    ),
    MutantSpec(
        "unknown_analysis_reference_accepted",
        _R4,
        "EvidenceGuard accepts a conclusion, action or recommendation naming an unknown analysis",
        rule_id="R4.tool-call-bindings",
        patches=_draft_guard(dropping(codes("UNKNOWN_ANALYSIS_ID"))),
    ),
    MutantSpec(
        "item_text_not_cut",
        _R4,
        "projected item texts are not cut to max_item_chars (raw payload beyond the bound)",
        rule_id="R4.bounded-projection",
        patches=_projection(projection_with(limits=no_item_cut, after=unchanged)),
    ),
    MutantSpec(
        "max_items_ignored",
        _R4,
        "a projection keeps every backend row instead of at most max_items",
        rule_id="R4.bounded-projection",
        patches=_projection(projection_with(limits=no_item_limit, after=unchanged)),
    ),
    MutantSpec(
        "truncated_ignores_cut_text",
        _R4,
        "a projection whose item text was cut is not marked truncated",
        rule_id="R4.bounded-projection",
        patches=_projection(projection_with(after=truncated_by_count_only)),
    ),
    MutantSpec(
        "total_matched_is_kept_count",
        _R4,
        "a projection reports the kept items as total_matched instead of what the backend matched",
        rule_id="R4.bounded-projection",
        patches=_projection(projection_with(after=total_is_kept_count)),
    ),
    # -- Requirement 5: "references identify the single lookup Tool Call and returned document IDs"
    MutantSpec(
        "document_ids_case_folded",
        _R5,
        'EvidenceGuard matches document ids case-insensitively: citing "D1" when the lookup '
        'returned "d1" passes',
        rule_id="R5.fabricated-citation-rejected",
        patches=_answer_guard(dropping(case_folded_document)),
    ),
    MutantSpec(
        "document_position_accepted",
        _R5,
        'EvidenceGuard accepts a document cited by its position ("1") instead of its id',
        rule_id="R5.fabricated-citation-rejected",
        patches=_answer_guard(dropping(document_by_position)),
    ),
    MutantSpec(
        "several_lookups_accepted",
        _R5,
        "EvidenceGuard accepts an answer although the Run made more than one lookup call",
        rule_id="R5.exact-rag-bindings",
        patches=_answer_guard(dropping(codes("LOOKUP_CALL_COUNT"))),
    ),
    MutantSpec(
        "empty_answer_accepted",
        _R5,
        "EvidenceGuard accepts an answer with zero items although the lookup found documents",
        rule_id="R5.exact-rag-bindings",
        patches=_answer_guard(dropping(codes("EMPTY_ANSWER_WITH_DOCUMENTS"))),
    ),
    # -- Requirement 6: "the single no-Tool structural repair" / stable fallback types ----------
    MutantSpec(
        "repair_executes_tool_calls",
        _R6,
        "the structural repair executes the tool calls it is answered with and asks again, "
        "instead of counting them as a failed repair",
        rule_id="R6.repair-offers-no-tools",
        patches=(Patch(_HARNESS, "AgentLoop", executing_repair),),
    ),
    MutantSpec(
        "unsupported_falls_back_unavailable",
        _R6,
        "an UNSUPPORTED verdict falls back as SEMANTIC_UNAVAILABLE instead of SEMANTIC_UNSUPPORTED",
        rule_id="R6.release-outcome",
        patches=(Patch(_RELEASE, "safe_fallback", unsupported_as_unavailable),),
    ),
)

_MODEL_INPUT = "reference_harness._model_input"
_CONVERSATION_TO_REVIEWER = ConversationToReviewer()
_RAW_ROWS = RawRows()
_R1_ID = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R7_ID = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R4_ID = "diagnosis-draft-shall-expose-typed-report-structure"

_MODEL_INPUT_SPECS: Final = (
    MutantSpec(
        "reviewer_sees_conversation",
        _R1_ID,
        "the SemanticGuard is sent the agent's conversation before the verified snapshot",
        rule_id="R1.reviewer-isolated-single-turn",
        patches=(
            Patch(_MODEL_INPUT, "agent_messages", _CONVERSATION_TO_REVIEWER.remember),
            Patch(_MODEL_INPUT, "review_messages", _CONVERSATION_TO_REVIEWER.prepend),
        ),
    ),
    MutantSpec(
        "reviewer_offered_tools",
        _R1_ID,
        "the SemanticGuard is offered the Diagnosis Agent's tools",
        rule_id="R1.reviewer-isolated-single-turn",
        patches=(Patch(_MODEL_INPUT, "review_tools", tools_for_reviewer),),
    ),
    MutantSpec(
        "session_history_in_context",
        _R7_ID,
        "every earlier Run of the session (failed, cancelled, fallback) reaches the agent as chat "
        "history, although the previous-turn selection is right",
        rule_id="R7.previous-turn-context-only",
        store_class=SessionHistoryStore,
        patches=(Patch("reference_harness._harness", "opening_messages", with_session_history),),
    ),
    MutantSpec(
        "other_session_turn_in_context",
        _R7_ID,
        "the selected previous turn is fetched by seq alone: another session's Run fills the "
        "agent's context",
        rule_id="R7.previous-turn-context-only",
        store_class=SeqOnlyStore,
    ),
    MutantSpec(
        "raw_rows_reach_agent",
        _R4_ID,
        "the agent's tool messages carry the backend's raw rows beyond the bounded projection",
        rule_id="R4.no-raw-payload-to-model",
        patches=(
            Patch("reference_harness._tool_execution", "project", _RAW_ROWS.keep),
            Patch("reference_harness._agent_loop", "tool_step_messages", _RAW_ROWS.leak),
        ),
    ),
    MutantSpec(
        "reasoning_in_agent_context",
        _R4_ID,
        "assistant messages go back to the agent with their reasoning_content (chain-of-thought)",
        rule_id="R4.no-chain-of-thought",
        patches=(Patch(_MODEL_INPUT, "agent_messages", reasoning_echoed),),
    ),
    MutantSpec(
        "sdk_retries_over_http",
        "retry-attempts-shall-be-owned-by-harness",
        "the OpenAI SDK keeps its default two retries: one model-call attempt makes up to three "
        "HTTP requests (seen only over the kit's model endpoint)",
        rule_id="R9.one-http-attempt-per-model-attempt",
        endpoint_client=retrying_chat_client,
    ),
)

_LOOKUP: Final = "lookup_documents"
_UNBOUNDED_DOCUMENTS = UnboundedDocumentIds()
_KNOWLEDGE_GUARD: Final = "reference_harness.guards._knowledge"


def _lookup_rule(
    is_lookup: Callable[[Any], bool], may_name: Callable[[Any], bool]
) -> tuple[Patch, ...]:
    return (Patch(_KNOWLEDGE_GUARD, "_the_lookup", lookup_counted_by(is_lookup, may_name)),)


def _ready_lookup(view: Any) -> bool:  # noqa: ANN401 - an InvocationView
    return bool(view.tool_name == _LOOKUP and view.status == "READY")


_CITATION_SPECS: Final = (
    # -- Requirement 1: the Verified Snapshot SemanticGuard reviews (contract verified-snapshot) --
    MutantSpec(
        "snapshot_holds_uncited_evidence",
        _R1,
        "the Verified Snapshot holds the projections of every READY invocation of the Run, not "
        "only those the validated body cites",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch(_RELEASE, "build_snapshot", evidence_of_every_ready_call),),
    ),
    MutantSpec(
        "snapshot_holds_no_evidence",
        _R1,
        "the Verified Snapshot holds the validated body but no evidence at all",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch(_RELEASE, "build_snapshot", evidence_removed),),
    ),
    # -- Requirement 6: the verified sources of a semantic fallback ------------------------------
    MutantSpec(
        "semantic_fallback_without_sources",
        _R6,
        "a SEMANTIC_UNSUPPORTED or SEMANTIC_UNAVAILABLE fallback lists no verified sources",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "safe_fallback", no_sources_on_semantic_fallback),),
    ),
    MutantSpec(
        "fallback_lists_uncited_calls",
        _R6,
        "a semantic fallback lists every READY invocation of the Run, cited or not",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "verified_sources_for", every_ready_source),),
    ),
    MutantSpec(
        "fallback_lists_failed_calls",
        _R6,
        "a semantic fallback lists every invocation the body cites, failed (ERROR) ones included",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "verified_sources_for", cited_sources_any_status),),
    ),
    MutantSpec(
        "fallback_sources_of_rejected_draft",
        _R6,
        "after a structural repair, a semantic fallback lists the READY calls the first, "
        "rejected draft cited instead of the validated repair's",
        rule_id="R6.fallback-verified-sources",
        harness_class=FirstDraftSourcesHarness,
        patches=(Patch(_HARNESS, "AgentLoop", remembering_loop),),
    ),
    # -- Requirement 5: "references identify the single lookup Tool Call" ------------------------
    MutantSpec(
        "other_tool_counted_as_lookup",
        _R1,
        "EvidenceGuard counts a READY search_logs call as a second lookup and rejects a valid "
        "answer (tool names compared with >=)",
        rule_id="R1.evidence-guard-verdict",
        patches=_lookup_rule(
            lambda v: v.tool_name >= _LOOKUP and v.status == "READY", _ready_lookup
        ),
    ),
    # "failed_lookup_counted" (a failed lookup counted as a lookup) is no mutant: it is the
    # stricter reading of "the single lookup Tool Call", latitude variant
    # reference_harness.variants:single_lookup_call_strict (suite-gaps K3)
    MutantSpec(
        "failed_lookup_named_accepted",
        _R5,
        "EvidenceGuard accepts an answer naming a failed (ERROR) lookup beside the READY one",
        rule_id="R5.exact-rag-bindings",
        patches=_lookup_rule(_ready_lookup, lambda v: v.tool_name == _LOOKUP),
    ),
    MutantSpec(
        "document_ids_beyond_max_items",
        _R5,
        "EvidenceGuard matches references against every document the backend returned, so an "
        "answer citing a document left out of the bounded lookup result (beyond max_items) passes",
        rule_id="R5.fabricated-citation-rejected",
        patches=(
            *_projection(_UNBOUNDED_DOCUMENTS.keep),
            *_answer_guard(dropping(_UNBOUNDED_DOCUMENTS.drop)),
        ),
    ),
    # -- Requirements 3 and 4: the draft rules the first evidence mutants left open --------------
    MutantSpec(
        "unknown_analysis_in_plan_accepted",
        _R4,
        "EvidenceGuard checks the analysis ids of the conclusion only: an action or a "
        "recommendation naming an unknown analysis passes",
        rule_id="R4.tool-call-bindings",
        patches=_draft_guard(dropping(in_plan_or_recommendation)),
    ),
    MutantSpec(
        "inference_on_no_evidence_accepted",
        _R3,
        "EvidenceGuard holds only an OBSERVATION to the NO_EVIDENCE kind rule: an INFERENCE "
        "citing only NO_EVIDENCE passes",
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(inference_on_no_evidence)),
    ),
    MutantSpec(
        "negative_scope_tool_unchecked",
        _R3,
        "a NEGATIVE_OBSERVATION's scope is compared without its tool: a claim about another tool "
        "passes",
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(scope_within_ignoring("tool"))),
    ),
    MutantSpec(
        "negative_scope_start_unchecked",
        _R3,
        "a NEGATIVE_OBSERVATION's time range is checked at its end only: a claim starting before "
        "the query passes",
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(scope_within_ignoring("start"))),
    ),
    MutantSpec(
        "negative_scope_whole_seconds",
        _R3,
        "a NEGATIVE_OBSERVATION's time range is compared with its query's at whole seconds: a "
        "claim ending 1 ms after the query passes (within iff B.start_ms <= A.start_ms <= "
        "A.end_ms <= B.end_ms)",
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(scope_within_ignoring("seconds"))),
    ),
    MutantSpec(
        "large_result_unbounded",
        _R4,
        "a backend result of many rows (an oversize payload) is projected without max_items and "
        "max_item_chars",
        rule_id="R4.bounded-projection",
        patches=_projection(large_result_unbounded),
    ),
    # -- Requirement 7: the previous-turn scan and its skip report ------------------------------
    MutantSpec(
        "previous_turn_scans_newest_four",
        _R7_ID,
        "previous-turn selection looks at the 4 newest earlier Runs only: an eligible Run behind "
        "more ineligible ones is never selected",
        rule_id="R7.previous-turn-selection",
        store_class=NewestFewStore,
    ),
    MutantSpec(
        "skip_report_holds_older_runs",
        _R7_ID,
        "the skip report lists every ineligible earlier Run, older ones than the selected "
        "previous turn included",
        rule_id="R7.previous-turn-selection",
        store_class=OlderSkippedStore,
    ),
    MutantSpec(
        "skip_report_oldest_first",
        _R7_ID,
        "the skip report lists the right Runs with the right reasons, oldest first (the design "
        "freeze: 'Skipped Runs are listed newest first, at most 100')",
        rule_id="R7.previous-turn-selection",
        store_class=OldestFirstSkippedStore,
    ),
    MutantSpec(
        "skip_report_omits_knowledge_runs",
        _R7_ID,
        "the skip report leaves out the KNOWLEDGE_QUERY Runs passed over",
        rule_id="R7.previous-turn-selection",
        store_class=StatesOnlySkippedStore,
    ),
    MutantSpec(
        "skip_reason_intent_first",
        _R7_ID,
        "a KNOWLEDGE_QUERY Run that did not succeed is skipped as INTENT_KNOWLEDGE_QUERY, not by "
        "its state",
        rule_id="R7.previous-turn-selection",
        store_class=IntentFirstStore,
    ),
    MutantSpec(
        "knowledge_query_sees_latest_run",
        _R7_ID,
        "a KNOWLEDGE_QUERY Run gets the session's newest earlier Run (failed, fallback …) as its "
        "previous turn in the agent's context",
        rule_id="R7.previous-turn-context-only",
        harness_class=KnowledgeContextHarness,
        patches=(Patch(_HARNESS, "opening_messages", with_knowledge_context),),
    ),
)

# Faults only fixtures of a particular shape reach (attack2 survivors S2-S16, S25).
_REACH_SPECS: Final = (
    MutantSpec(
        "item_text_cut_in_utf16_units",
        _R4,
        "item texts are cut to max_item_chars UTF-16 code units, not characters: an astral "
        "character counts twice",
        rule_id="R4.bounded-projection",
        patches=_projection(utf16_cut),
    ),
    MutantSpec(
        "total_matched_ignores_backend",
        _R4,
        "total_matched is the number of rows returned, ignoring the backend's larger count",
        rule_id="R4.bounded-projection",
        patches=_projection(backend_total_ignored),
    ),
    MutantSpec(
        "no_evidence_when_no_items",
        _R3,
        "evidence status is NO_EVIDENCE whenever the projection has no items, although the "
        "backend reported matches",
        rule_id="R3.invocation-outcome",
        sends_broken_observation=True,
        patches=(
            Patch(
                "reference_harness._invocations", "evidence_status_of", items_only_evidence_status
            ),
        ),
    ),
    MutantSpec(
        "reversed_time_range_executed",
        _R3,
        "a tool call whose time range ends before it starts is executed instead of ending ERROR "
        "with INVALID_ARGUMENTS",
        rule_id="R3.invocation-outcome",
        sends_broken_observation=True,
        patches=(
            Patch("reference_harness._agent_loop", "valid_arguments", reversed_time_range_accepted),
        ),
    ),
    MutantSpec(
        "negative_scope_target_case_folded",
        _R3,
        "a NEGATIVE_OBSERVATION's target is compared case-insensitively: a claim about "
        '"Checkout" passes for a query of "checkout"',
        rule_id="R3.no-evidence-citation",
        patches=_draft_guard(dropping(target_case_folded)),
    ),
    MutantSpec(
        "unknown_draft_members_ignored",
        _R4,
        "EvidenceGuard drops the members the Diagnosis Draft contract does not define (e.g. a "
        "reasoning member) instead of rejecting the draft",
        rule_id="R4.rejected-then-repaired",
        patches=_draft_guard(extra_members_ignored),
    ),
    MutantSpec(
        "inference_on_in_band_error_accepted",
        _R3,
        "EvidenceGuard lets an INFERENCE cite an in-band error (READY with evidence status ERROR)",
        rule_id="R3.evidence-citation",
        patches=_draft_guard(dropping(inference_on_in_band_error)),
    ),
    MutantSpec(
        "only_first_reference_checked",
        _R5,
        "EvidenceGuard checks only the first reference of each answer item against the bounded "
        "lookup result",
        rule_id="R5.fabricated-citation-rejected",
        patches=_answer_guard(dropping(after_first_reference)),
    ),
    MutantSpec(
        "schema_invalid_draft_not_repaired",
        _R6,
        "a SCHEMA_INVALID first draft falls back with EVIDENCE_VALIDATION_FAILED without the "
        "structural repair",
        rule_id="R6.one-structural-repair",
        patches=(
            Patch(_RELEASE, "_validate", schema_invalid_stops),
            Patch(_HARNESS, "release_pipeline", skipping_repair_pipeline),
        ),
    ),
    MutantSpec(
        "set_intent_on_every_running_run",
        "previous-turn-shall-come-from-a-safe-durable-run-result",
        "the routed intent is written to every RUNNING Run of the session, not only the new one",
        rule_id="R7.prior-runs-untouched",
        store_class=AllRunningIntentStore,
    ),
    MutantSpec(
        "knowledge_run_selects_previous_turn",
        "previous-turn-shall-come-from-a-safe-durable-run-result",
        "a KNOWLEDGE_QUERY Run's PREVIOUS_TURN_SELECTED (a selection it may record) names the "
        "newest prior Run whatever its state, skipping none: 'SHALL exclude fallback, failed and "
        "cancelled Runs from Diagnosis previous-turn selection'",
        rule_id="R7.previous-turn-selection",
        harness_class=KnowledgeSelectingHarness,
    ),
    MutantSpec(
        "released_strings_stripped",
        _R1,
        "the released body's strings are stripped of surrounding whitespace",
        rule_id="R1.released-is-agent-authored",
        patches=(Patch(_RELEASE, "success", released_strings_stripped),),
    ),
    MutantSpec(
        "snapshot_leaves_out_no_evidence",
        _R1,
        "the Verified Snapshot leaves out the projections of the NO_EVIDENCE invocations the body "
        "cites",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch(_RELEASE, "build_snapshot", no_evidence_left_out),),
    ),
)

MUTANTS: Final[Mapping[str, MutantSpec]] = MappingProxyType(
    {
        s.name: s
        for s in (
            *_SPECS,
            *_EVIDENCE_SPECS,
            *_MODEL_INPUT_SPECS,
            *RUNTIME_SPECS,
            *_CITATION_SPECS,
            *SURVIVOR_SPECS,
            *CONTRACT_DETAIL_SPECS,
            *FRAMES_SPECS,
            *_REACH_SPECS,
            *ROUND3_SPECS,
            *REDTEAM_SPECS,
            *REDTEAM2_SPECS,
            *BOUNDS_SPECS,
            *TRACEID_SPECS,
            *REDTEAM6_SPECS,
            *REDTEAM6_IDRAG_SPECS,
            *KEYWORD_SPECS,
            *LEFTKINDS_SPECS,
            *CANCEL8_SPECS,
            *REACH8_SPECS,
            *MISC8_SPECS,
            *SCALE8_SPECS,
            *REDTEAM9_SPECS,
            *LONEITEM_SPECS,
            *REDTEAM11_SPECS,
        )
    }
)
"""Every IUT mutant by factory name."""


def create(name: str) -> MutantIUT:
    """Return the IUT of mutant ``name``.

    Raises:
        KeyError: no mutant has that name.
    """
    return MutantIUT(MUTANTS[name])


@dataclass(frozen=True)
class ContractMutant:
    """Stage-zero contract data with one rule broken.

    Attributes:
        name: the mutant's name.
        requirement_id: the requirement whose rule it breaks.
        scenario_id: the spec scenario that reads this contract.
        contract: ``component-registry`` or ``phase-plan``.
        rule: the rule it breaks.
        mutate: returns a broken copy of the stage-zero document.
        rule_id: the conformance check rule id (``R<n>.<slug>``) a kill must name.
    """

    name: str
    requirement_id: str
    scenario_id: str
    contract: str
    rule: str
    mutate: Callable[[dict[str, Any]], dict[str, Any]]
    rule_id: str = ""


def _harness_plans(registry: dict[str, Any]) -> dict[str, Any]:
    broken = copy.deepcopy(registry)
    for component in broken["components"]:
        if component["component"] == "HARNESS":
            component["owns"] = [*component["owns"], "PLANNING"]
            component["never"] = [r for r in component["never"] if r != "PLANNING"]
    return broken


def _stage(plan: dict[str, Any], stage: str) -> dict[str, Any]:
    return next(c for c in plan["changes"] if c["stage"] == stage)


def _guards_cut_over(plan: dict[str, Any]) -> dict[str, Any]:
    broken = copy.deepcopy(plan)
    _stage(broken, "5")["public_entry"] = "SINGLE_REACT"
    return broken


def _cutover_before_guards(plan: dict[str, Any]) -> dict[str, Any]:
    broken = copy.deepcopy(plan)
    five, cutover = _stage(broken, "5"), _stage(broken, "6B")
    five["order"], cutover["order"] = cutover["order"], five["order"]
    return broken


_CONTRACTS: Final = (
    ContractMutant(
        "registry_harness_plans",
        "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning",
        "contract-ownership-is-inspected",
        "component-registry",
        "the component registry assigns PLANNING to the Harness",
        _harness_plans,
        rule_id="R1.harness-holds-no-forbidden-responsibility",
    ),
    ContractMutant(
        "plan_guards_stage_cuts_over",
        "phase-gates-shall-remain-serial",
        "stage-4-completes-internal-agent-tests",
        "phase-plan",
        "the public Chat entry leaves the legacy path at stage 5, before 6B",
        _guards_cut_over,
        rule_id="R10.serial-cutover",
    ),
    ContractMutant(
        "plan_cutover_before_guards",
        "phase-gates-shall-remain-serial",
        "stage-4-completes-internal-agent-tests",
        "phase-plan",
        "stage 6B is ordered before stage 5 (cutover allowed before the Guards)",
        _cutover_before_guards,
        rule_id="R10.serial-cutover",
    ),
)

CONTRACT_MUTANTS: Final[Mapping[str, ContractMutant]] = MappingProxyType(
    {m.name: m for m in _CONTRACTS}
)
"""Every contract-data mutant by name."""
