"""Mutants whose trace fields or client frames disagree with the records (issue 10, part B).

Each keeps every record right (invocations, projections, run rows, published result) and gets
one derived field or one frame wrong: the smallest wrong Harness of its kind, named by the
contract sentence it breaks, with the rule id whose failure must kill it. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._frames_parts import (
    changing_events,
    changing_frames,
    count_rejected_in_sequence,
    drop_end_frame,
    drop_status_frames,
    hold_result_until_finished,
    item_count_is_total,
    listening_after_disconnect,
    other_fallback_finished,
    run_seq_plus_one,
)
from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._survivor_parts import code_swapping_ledger

__all__ = ["FRAMES_SPECS"]

_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R3 = "invocation-status-and-evidence-status-shall-be-independent"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"
_RECORDER = ("reference_harness._harness", "TraceRecorder")
_LEDGER = ("reference_harness._run_context", "InvocationLedger")

FRAMES_SPECS: Final = (
    MutantSpec(
        "accepted_sequence_counts_rejected",
        _R2,
        "Acceptance order within the Run, from 1: TOOL_CALL_ACCEPTED.sequence counts the rejected "
        "calls too (the invocation keeps the acceptance order)",
        rule_id="R2.accepted-call-recorded",
        patches=(Patch(*_RECORDER, changing_events(count_rejected_in_sequence)),),
    ),
    MutantSpec(
        "classified_item_count_is_total",
        _R3,
        "Number of projected items: EVIDENCE_CLASSIFIED.item_count reports the backend's "
        "total_matched",
        rule_id="R3.classified-as-projected",
        patches=(Patch(*_RECORDER, changing_events(item_count_is_total)),),
    ),
    MutantSpec(
        "invalid_arguments_recorded_failed",
        _R3,
        "Malformed arguments end the invocation ERROR/ERROR INVALID_ARGUMENTS: they are recorded "
        "TOOL_FAILED",
        rule_id="R3.malformed-arguments-error",
        patches=(Patch(*_LEDGER, code_swapping_ledger({"INVALID_ARGUMENTS": "TOOL_FAILED"})),),
    ),
    MutantSpec(
        "run_started_seq_off",
        _R7,
        "diagnosis_run as the durable source: RUN_STARTED announces a run_seq one more than the "
        "seq the row stores",
        rule_id="R7.durable-run-intent",
        patches=(Patch(*_RECORDER, changing_events(run_seq_plus_one)),),
    ),
    MutantSpec(
        "finished_names_another_fallback",
        _R7,
        "Fallback type of a FALLBACK Run: RUN_FINISHED names another fallback type than the "
        "diagnosis_run row and the published Safe Fallback",
        rule_id="R7.trace-agrees-with-run",
        patches=(Patch(*_RECORDER, changing_events(other_fallback_finished)),),
    ),
    MutantSpec(
        "result_frame_after_run_finished",
        _R7,
        "RESULT_RELEASED → result frame → RUN_FINISHED → end: the result frame is sent after the "
        "RUN_FINISHED event's frame",
        rule_id="R7.client-stream",
        patches=(Patch(*_RECORDER, changing_frames(hold_result_until_finished)),),
    ),
    MutantSpec(
        "end_frame_missing",
        _R7,
        "`end` carries {state}: no end frame is sent",
        rule_id="R7.client-stream",
        patches=(Patch(*_RECORDER, changing_frames(drop_end_frame)),),
    ),
    MutantSpec(
        "status_events_not_streamed",
        _R7,
        "`run_event` carries a RunTraceEvent: INVOCATION_STATUS_CHANGED events are kept in the "
        "trace but never streamed",
        rule_id="R7.client-stream",
        patches=(Patch(*_RECORDER, changing_frames(drop_status_frames)),),
    ),
    MutantSpec(
        "frames_after_disconnect",
        _R8,
        "an SSE client disconnects: the client still receives the frames that follow its "
        "disconnect",
        rule_id="R8.nothing-after-disconnect",
        patches=(
            Patch("reference_harness._fixture_iut", "SimulatedClient", listening_after_disconnect),
        ),
    ),
)
"""The trace-field and frame mutants, in requirement order of the fault they carry."""
