"""Mutants of an event's or record's identity fields (red team 5).

Each keeps every decision of the reference (what is accepted, rejected, released) and names the
wrong thing in one field the contract defines (the Run an invocation belongs to, the tool a
rejected call presented, the interrupted call whose late result was discarded) or records twice
an event the contract records once (a late result's discard, a tool work's cancellation, the
agent loop's interruption). Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from reference_harness._harness import Harness
from reference_harness._trace import TraceRecorder
from reference_harness.mutants._frames_parts import changing_events
from reference_harness.mutants._iut import MutantSpec, Patch

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import DiagnosisRun
    from reference_harness._harness import RunJournal

__all__ = ["TRACEID_SPECS"]

_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R8 = "cancellation-shall-be-layered-and-observable"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_RECORDER = ("reference_harness._harness", "TraceRecorder")


class SessionRunIdHarness(Harness):
    """The reference Harness whose invocation records name the session as their Run."""

    async def run(
        self,
        session_id: str,
        user_message: str,
        *,
        journal: RunJournal | None = None,
        **kwargs: Any,  # noqa: ANN401 - passed through unchanged
    ) -> DiagnosisRun:
        """Run as the reference, then write the session id into every invocation's run_id."""
        try:
            return await super().run(session_id, user_message, journal=journal, **kwargs)
        finally:
            if journal is not None:
                for record in journal.invocations:
                    record["run_id"] = session_id


def _rejected_tool_name_null(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """TOOL_CALL_REJECTED records no tool name, though the rejected call presented one."""
    if event_type == "TOOL_CALL_REJECTED":
        return {**data, "tool_name": None}
    return data


def _late_discard_next_index(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """LATE_RESULT_DISCARDED names the call after the interrupted one."""
    if event_type == "LATE_RESULT_DISCARDED":
        return {**data, "call_index": data["call_index"] + 1}
    return data


def _late_discard_other_purpose(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """LATE_RESULT_DISCARDED of the Diagnosis Agent names the other purpose of its calls."""
    if event_type == "LATE_RESULT_DISCARDED" and data["component"] == "DIAGNOSIS_AGENT":
        other = {"AGENT_STEP": "STRUCTURAL_REPAIR", "STRUCTURAL_REPAIR": "AGENT_STEP"}
        return {**data, "purpose": other.get(data["purpose"], data["purpose"])}
    return data


def _repair_first_violation_only(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """STRUCTURAL_REPAIR_REQUESTED records only the first of the validation's violations."""
    if event_type == "STRUCTURAL_REPAIR_REQUESTED":
        return {**data, "violations": data["violations"][:1]}
    return data


def _repair_call_index_one(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """The structural repair's model-call events number it call 1 (a count per purpose)."""
    if (
        event_type in {"MODEL_CALL_STARTED", "MODEL_CALL_FINISHED", "LATE_RESULT_DISCARDED"}
        and data.get("purpose") == "STRUCTURAL_REPAIR"
    ):
        return {**data, "call_index": 1}
    return data


def repeating(event_type: str) -> Callable[[type[TraceRecorder]], type[TraceRecorder]]:
    """Return a ``Patch`` wrap of the ``TraceRecorder`` that records ``event_type`` twice."""

    class _RepeatingRecorder(TraceRecorder):
        def emit(self, emitted: str, data: Mapping[str, Any]) -> dict[str, Any]:
            event = super().emit(emitted, data)
            if emitted == event_type:
                super().emit(emitted, data)
            return event

    def wrap(_original: type[TraceRecorder]) -> type[TraceRecorder]:
        return _RepeatingRecorder

    return wrap


class _VerdictOnFailedReview(TraceRecorder):
    """Records an UNSUPPORTED SEMANTIC_VERDICT after every SemanticGuard attempt not VALID."""

    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        event = super().emit(event_type, data)
        if (
            event_type == "MODEL_CALL_FINISHED"
            and data.get("component") == "SEMANTIC_GUARD"
            and data.get("outcome") != "VALID"
            and data.get("snapshot_digest") is not None
        ):
            verdict = {
                "snapshot_digest": data["snapshot_digest"],
                "verdict": "UNSUPPORTED",
                "unsupported_analysis_ids": ["a1"],
            }
            super().emit("SEMANTIC_VERDICT", verdict)
        return event


def _verdict_on_failed_review(_original: type[TraceRecorder]) -> type[TraceRecorder]:
    return _VerdictOnFailedReview


TRACEID_SPECS: Final = (
    MutantSpec(
        "invocation_run_id_session",
        _R2,
        'every canonical invocation names the session id as its run_id ("The Run this '
        'invocation belongs to.")',
        rule_id="R2.invocation-run-id",
        harness_class=SessionRunIdHarness,
    ),
    MutantSpec(
        "rejected_tool_name_null",
        _R2,
        'TOOL_CALL_REJECTED.tool_name is null though the rejected call named a tool ("The '
        'presented tool name, or null.")',
        rule_id="R2.rejected-tool-name",
        patches=(Patch(*_RECORDER, changing_events(_rejected_tool_name_null)),),
    ),
    MutantSpec(
        "late_discard_wrong_index",
        _R8,
        "LATE_RESULT_DISCARDED names the call_index after the interrupted call's",
        rule_id="R8.late-result-discarded",
        patches=(Patch(*_RECORDER, changing_events(_late_discard_next_index)),),
    ),
    MutantSpec(
        "late_discard_wrong_purpose",
        _R8,
        "LATE_RESULT_DISCARDED of the Diagnosis Agent names the other purpose (AGENT_STEP for a "
        "STRUCTURAL_REPAIR call and back)",
        rule_id="R8.late-result-discarded",
        patches=(Patch(*_RECORDER, changing_events(_late_discard_other_purpose)),),
    ),
    MutantSpec(
        "late_discard_twice",
        _R8,
        "the one late result is recorded LATE_RESULT_DISCARDED twice",
        rule_id="R8.late-result-discarded",
        patches=(Patch(*_RECORDER, repeating("LATE_RESULT_DISCARDED")),),
    ),
    MutantSpec(
        "tool_work_cancelled_twice",
        _R8,
        "each cancelled tool work is recorded TOOL_WORK_CANCELLED twice",
        rule_id="R8.tool-work-cancelled",
        patches=(Patch(*_RECORDER, repeating("TOOL_WORK_CANCELLED")),),
    ),
    MutantSpec(
        "interrupt_twice",
        _R8,
        "the agent loop's interruption is recorded INTERRUPT_REQUESTED twice",
        rule_id="R8.layered-cancellation",
        patches=(Patch(*_RECORDER, repeating("INTERRUPT_REQUESTED")),),
    ),
    MutantSpec(
        "repair_violations_first_only",
        _R6,
        "STRUCTURAL_REPAIR_REQUESTED.violations holds only the first of the failed validation's "
        "violations",
        rule_id="R6.repair-sends-violations",
        patches=(Patch(*_RECORDER, changing_events(_repair_first_violation_only)),),
    ),
    MutantSpec(
        "repair_call_index_restart",
        _R9,
        "the structural repair's model call is numbered call_index 1 (counted per purpose, not "
        "as the agent's next logical call)",
        rule_id="R9.call-index-per-component",
        patches=(Patch(*_RECORDER, changing_events(_repair_call_index_one)),),
    ),
    MutantSpec(
        "synthetic_verdict_on_unavailable",
        _R9,
        "a SEMANTIC_VERDICT (UNSUPPORTED) is recorded after a SemanticGuard attempt that ended "
        "UNAVAILABLE or INVALID_SCHEMA",
        rule_id="R9.verdict-after-valid-review",
        patches=(Patch(*_RECORDER, _verdict_on_failed_review),),
    ),
)
"""The identity-field mutants of red team 5."""
