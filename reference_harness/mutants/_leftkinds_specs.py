"""The mutants of the survivor kinds closed in docs/decisions/left-kinds-8.md.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._leftkinds_parts import (
    ToolWorkFirstContext,
    in_band_code_kept,
    item_document_ids_sorted,
    sorted_knowledge_release,
    timeout_recorded_as_cancelled_work,
)
from reference_harness.mutants._round3_parts import run_context_class

__all__ = ["LEFTKINDS_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R8 = "cancellation-shall-be-layered-and-observable"

LEFTKINDS_SPECS: Final = (
    MutantSpec(
        "in_band_code_in_safe_message",
        _R6,
        "SHALL exclude internal errors: an invocation whose backend answered with an in-band "
        "error keeps the backend's error code in its safe_message",
        rule_id="R6.in-band-error-excluded",
        patches=(Patch("reference_harness._agent_loop", "execute_tool", in_band_code_kept),),
    ),
    MutantSpec(
        "tool_work_cancelled_before_request",
        _R8,
        "layered cancellation: the tool work in flight is cancelled and recorded "
        "(TOOL_WORK_CANCELLED) before the cancellation request (CANCEL_REQUESTED)",
        rule_id="R8.layered-cancellation",
        patches=(
            Patch(
                "reference_harness._harness", "RunContext", run_context_class(ToolWorkFirstContext)
            ),
        ),
    ),
    MutantSpec(
        "tool_timeout_recorded_as_cancelled_work",
        _R8,
        "distinguish cancellable Tool work and timeouts: a tool stopped by its own timeout "
        "(invocation TOOL_TIMEOUT) is also recorded TOOL_WORK_CANCELLED in a Run never cancelled",
        rule_id="R8.tool-stop-recorded",
        patches=(
            Patch(
                "reference_harness._agent_loop", "execute_tool", timeout_recorded_as_cancelled_work
            ),
        ),
    ),
    MutantSpec(
        "knowledge_answer_released_sorted",
        _R1,
        "Diagnosis Agent as the only report author: a Knowledge Answer is released with its items "
        "sorted by item_id and each item's references by document_id, not as the agent wrote it",
        rule_id="R1.released-is-agent-authored",
        patches=(Patch("reference_harness._release", "success", sorted_knowledge_release),),
    ),
    MutantSpec(
        "lookup_item_ids_sorted",
        _R4,
        "bounded projection of the tool result: a lookup projection's item document ids are "
        "sorted while the texts keep the rows' order (an item names another row's document)",
        rule_id="R4.bounded-projection",
        patches=(Patch("reference_harness._tool_execution", "project", item_document_ids_sorted),),
    ),
)
"""The mutants, in docs/decisions/left-kinds-8.md's order."""
