"""Red team 8's "bounded loop" mutants: a cap on a list the spec binds whole.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue
(docs/decisions/red-team-8.md, "Long lists with the defect late").
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._scale8_parts import (
    capped_violations,
    empty_answer_excused_by_limitation,
    id_key_prefix,
    process_wide_invocations,
    recent_ids_only,
    snapshot_evidence_capped,
)

__all__ = ["SCALE8_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_LOOP = "reference_harness._agent_loop"

SCALE8_SPECS: Final = (
    MutantSpec(
        "snapshot_evidence_first_four",
        _R1,
        "the Verified Snapshot carries the evidence of the first 4 cited READY invocations only "
        "(a prompt-size cap): the SemanticGuard reviews claims citing later calls without their "
        "evidence",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch("reference_harness._release", "build_snapshot", snapshot_evidence_capped),),
    ),
    MutantSpec(
        "duplicates_in_recent_window",
        _R2,
        "the seen-id set remembers the last 6 accepted Tool Call IDs only: an id presented again "
        "after 6 other accepted calls is accepted again instead of rejected as DUPLICATE_ID",
        rule_id="R2.tool-call-identity",
        patches=(Patch(_LOOP, "classify_tool_call_id", recent_ids_only),),
    ),
    MutantSpec(
        "id_keyed_by_prefix",
        _R2,
        "a Tool Call ID is keyed by its first 64 characters: a distinct id sharing them with an "
        "accepted one is rejected as DUPLICATE_ID and never executed",
        rule_id="R2.tool-call-identity",
        patches=(Patch(_LOOP, "classify_tool_call_id", id_key_prefix),),
    ),
    MutantSpec(
        "invocations_resolved_process_wide",
        _R4,
        "the invocation registry is process-wide, keyed by Tool Call ID alone: a draft citing an "
        "id the Run never called binds the invocation an earlier Run of the process accepted",
        rule_id="R4.tool-call-bindings",
        patches=(
            Patch("reference_harness._release", "_invocation_models", process_wide_invocations),
        ),
    ),
    MutantSpec(
        "draft_bindings_first_five",
        _R4,
        "the Tool Call bindings of a draft are checked for its first 5 analyses only: a later "
        "analysis citing a Tool Call ID the Run never accepted is released",
        rule_id="R4.tool-call-bindings",
        patches=(
            Patch(
                "reference_harness.guards._draft",
                "draft_binding_violations",
                capped_violations("analyses", 5),
            ),
        ),
    ),
    MutantSpec(
        "answer_references_first_three",
        _R5,
        "the references of a Knowledge Answer are checked for its first 3 items only: a later "
        "item citing a document the lookup never returned is published",
        rule_id="R5.fabricated-citation-rejected",
        patches=(
            Patch(
                "reference_harness.guards._knowledge",
                "knowledge_binding_violations",
                capped_violations("items", 3),
            ),
        ),
    ),
    MutantSpec(
        "empty_answer_excused_by_limitation",
        _R5,
        "a Knowledge Answer with zero items is accepted when it carries a limitation, although "
        "the lookup returned documents (EMPTY_ANSWER_WITH_DOCUMENTS has no such exception)",
        rule_id="R5.exact-rag-bindings",
        patches=(
            Patch(
                "reference_harness.guards._knowledge",
                "knowledge_binding_violations",
                empty_answer_excused_by_limitation,
            ),
        ),
    ),
)
"""The mutants, in docs/decisions/red-team-8.md's order."""
