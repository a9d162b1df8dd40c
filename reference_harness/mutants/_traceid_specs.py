"""Mutants of an event's or record's identity fields (red team 5).

Each keeps every decision of the reference (what is accepted, rejected, released) and names the
wrong thing in one field the contract defines: the Run an invocation belongs to, the tool a
rejected call presented. Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from reference_harness._harness import Harness
from reference_harness.mutants._frames_parts import changing_events
from reference_harness.mutants._iut import MutantSpec, Patch

if TYPE_CHECKING:
    from reference_harness._harness import RunJournal
    from reference_harness.store import DiagnosisRun

__all__ = ["TRACEID_SPECS"]

_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
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
)
"""The identity-field mutants of red team 5."""
