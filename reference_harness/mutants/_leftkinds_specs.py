"""The mutants of the survivor kinds closed in docs/decisions/left-kinds-8.md.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._leftkinds_parts import ToolWorkFirstContext, in_band_code_kept
from reference_harness.mutants._round3_parts import run_context_class

__all__ = ["LEFTKINDS_SPECS"]

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
)
"""The mutants, in docs/decisions/left-kinds-8.md's order."""
