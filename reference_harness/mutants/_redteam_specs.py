"""Red-team mutants: one-sentence faults written from the spec and the implementer docs alone.

Kinds the catalogue did not hold before (``bench/RESULTS.md``, "Round-3 mutants and the red
team", says which the suite first let pass and what now kills each). Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._redteam_parts import (
    BudgetPlusOneLoop,
    CaseFoldedSessionStore,
    CutMessageStore,
    DraftInEndFrameHarness,
    InterruptFirstContext,
    RememberingLoop,
    SeqAsTextStore,
    StrippedMessageStore,
    duplicate_items_renumbered,
    failed_review_attempt_dropped,
    json_dumps_digest,
    retry_as_new_call,
    truncated_at_char_bound,
    truncated_at_item_bound,
    unknown_verdict_ids_dropped,
    zero_limits_unset,
)
from reference_harness.mutants._round3_parts import forgiving_check, loop_class, run_context_class

__all__ = ["REDTEAM_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_HARNESS = "reference_harness._harness"
_TOOLS = "reference_harness._tool_execution"
_CALLS = "reference_harness._model_calls"

REDTEAM_SPECS: Final = (
    MutantSpec(
        "truncated_at_item_bound",
        _R4,
        "marked truncated iff it left something out: a result of exactly max_items rows is "
        "marked truncated",
        rule_id="R4.bounded-projection",
        patches=(Patch(_TOOLS, "project", truncated_at_item_bound),),
    ),
    MutantSpec(
        "truncated_at_char_bound",
        _R4,
        "marked truncated iff it left something out: a row of exactly max_item_chars characters "
        "is marked truncated",
        rule_id="R4.bounded-projection",
        patches=(Patch(_TOOLS, "project", truncated_at_char_bound),),
    ),
    MutantSpec(
        "zero_limits_read_as_unset",
        _R4,
        "a projection keeps at most max_items items of at most max_item_chars characters: a "
        "limit of 0 (in range) is read as unset and the defaults apply",
        rule_id="R4.bounded-projection",
        patches=(Patch("reference_harness._fixture_iut", "Limits", zero_limits_unset),),
    ),
    MutantSpec(
        "user_message_stripped_in_row",
        _R7,
        "diagnosis_run as the durable source: the row stores the user message with its "
        "surrounding whitespace cut",
        rule_id="R7.durable-run-intent",
        store_class=StrippedMessageStore,
    ),
    MutantSpec(
        "user_message_cut_in_row",
        _R7,
        "diagnosis_run as the durable source: the row keeps at most 4,000 characters of a user "
        "message the contract allows up to 16,000",
        rule_id="R7.durable-run-intent",
        store_class=CutMessageStore,
    ),
    MutantSpec(
        "previous_turn_seq_as_text",
        _R7,
        "the latest eligible DIAGNOSIS + SUCCESS Run: seq is ordered as text, so seq 9 is taken "
        "for newer than seq 10",
        rule_id="R7.previous-turn-selection",
        store_class=SeqAsTextStore,
    ),
    MutantSpec(
        "previous_turn_session_case_folded",
        _R7,
        "the latest same-session Run: a Run of a session whose id differs only in case is taken "
        "for the same session",
        rule_id="R7.same-session-selection",
        store_class=CaseFoldedSessionStore,
    ),
    MutantSpec(
        "duplicate_item_id_accepted",
        _R5,
        "answer items identified exactly: a knowledge answer repeating an item id is accepted",
        rule_id="R5.exact-rag-bindings",
        patches=(
            Patch(
                "reference_harness._release",
                "check_knowledge_answer",
                forgiving_check(duplicate_items_renumbered),
            ),
        ),
    ),
    MutantSpec(
        "verdict_naming_unknown_analysis_taken",
        _R9,
        "an invalid SemanticGuard answer is an INVALID_SCHEMA attempt: an UNSUPPORTED verdict "
        "naming an analysis the snapshot does not hold is taken with those ids dropped, for "
        "SUPPORTED when none is left, and the draft is released (taking it for UNSUPPORTED is a "
        "latitude: docs/decisions/red-team-6.md, F4)",
        rule_id="R9.model-call-outcome",
        patches=(
            Patch("reference_harness._release", "parse_verdict", unknown_verdict_ids_dropped),
        ),
    ),
    MutantSpec(
        "fallback_end_frame_carries_draft",
        _R6,
        "exclude unvalidated Draft content: the end frame of a fallback carries the rejected "
        "draft's conclusion",
        rule_id="R6.fallback-fixed-schema",
        harness_class=DraftInEndFrameHarness,
        patches=(Patch(_HARNESS, "AgentLoop", loop_class(RememberingLoop)),),
    ),
    MutantSpec(
        "interrupt_before_new_work_prevented",
        _R8,
        "layered cancellation in order: the agent is interrupted before new work is prevented",
        rule_id="R8.layered-cancellation",
        patches=(Patch(_HARNESS, "RunContext", run_context_class(InterruptFirstContext)),),
    ),
    MutantSpec(
        "snapshot_digest_not_canonical",
        _R1,
        "the snapshot digest is SHA-256 of the RFC 8785 canonical JSON: it is taken over "
        "json.dumps(sort_keys=True) instead",
        rule_id="R1.reviewer-isolated-single-turn",
        patches=(Patch("reference_harness.guards._snapshot", "digest", json_dumps_digest),),
    ),
    MutantSpec(
        "retry_counted_as_new_call",
        _R9,
        "Harness explicitly owns any allowed retry, recorded as attempt 2 of the same call: the "
        "second attempt is recorded as attempt 1 of a new logical call",
        rule_id="R9.retry-as-declared",
        patches=(Patch(_CALLS, "_attempt", retry_as_new_call),),
    ),
    MutantSpec(
        "failed_review_attempt_unrecorded",
        _R9,
        "records both attempts: a failed first SemanticGuard attempt leaves no record and the "
        "retry is numbered attempt 1",
        rule_id="R9.semantic-retry-same-snapshot",
        patches=(Patch(_CALLS, "_attempt", failed_review_attempt_dropped),),
    ),
    MutantSpec(
        "step_budget_plus_one",
        _R1,
        "Harness as deterministic execution control (its step budget): the agent gets "
        "max_steps + 1 tool steps",
        rule_id="R1.step-budget",
        patches=(Patch(_HARNESS, "AgentLoop", loop_class(BudgetPlusOneLoop)),),
    ),
)
"""The red team's kinds (see the module docstring)."""
