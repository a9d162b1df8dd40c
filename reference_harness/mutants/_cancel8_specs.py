"""The mutants of the cancellation kinds closed in docs/decisions/red-team-8.md.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._cancel8_parts import ToolWaitingContext, deaf_chat_client
from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._round3_parts import run_context_class

__all__ = ["CANCEL8_SPECS"]

_R8 = "cancellation-shall-be-layered-and-observable"

CANCEL8_SPECS: Final = (
    MutantSpec(
        "cancel_waits_model_timeout",
        _R8,
        "requests interruption: on a client disconnect the blocked model call is not interrupted; "
        "the Harness waits for its HTTP answer until the call's own timeout and only then records "
        "the attempt CANCELLED (seen only over the kit's model endpoint)",
        rule_id="R8.layered-cancellation",
        endpoint_client=deaf_chat_client,
    ),
    MutantSpec(
        "cancel_waits_tool_timeout",
        _R8,
        "cancellable Tool work: on a client disconnect the tool work in flight is not stopped; "
        "the Harness waits for it until tool_timeout_ms and only then stops it and records it "
        "cancelled (TOOL_WORK_CANCELLED, invocation ERROR CANCELLED)",
        rule_id="R8.tool-work-cancelled",
        patches=(
            Patch(
                "reference_harness._harness", "RunContext", run_context_class(ToolWaitingContext)
            ),
        ),
    ),
)
