"""Parts of the mutants of the kinds closed in docs/decisions/red-team-8.md by misc8.

* :class:`LowWordSeqStore`: the next ``seq`` of a session computed from the low 32 bits of its
  greatest ``seq`` (an unsigned 32-bit column or variable), red team 8, S14.
* :class:`SilentDiscardRecorder`: a late model result is dropped without its
  ``LATE_RESULT_DISCARDED`` record, red team 8, S10.
* :func:`core_arguments_valid` and :func:`sources_scope_from_arguments`: a Harness that executes
  a call whose arguments carry extra members (latitude) and builds a Safe Fallback source's
  ``query_scope`` from the call's arguments as presented, red team 8, S15.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import update

from reference_harness._trace import TraceRecorder
from reference_harness.store import RunStore
from reference_harness.store._table import diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import DiagnosisRun

__all__ = [
    "LowWordSeqStore",
    "SilentDiscardRecorder",
    "core_arguments_valid",
    "silent_discard",
    "sources_scope_from_arguments",
]

_SCOPE: Final = ("target", "time_range", "query")

_WORD: Final = 2**32


class LowWordSeqStore(RunStore):
    """Numbers a new Run ``1 + (greatest seq mod 2**32)``: past 32 bits the seq falls back."""

    def create_run(
        self, *, run_id: str, session_id: str, user_message: str, now_ms: int
    ) -> DiagnosisRun:
        """Create the Run as the reference does, then renumber it from the low word."""
        greatest = max((run.seq for run in self.list_session(session_id)), default=0)
        created = super().create_run(
            run_id=run_id, session_id=session_id, user_message=user_message, now_ms=now_ms
        )
        narrow = greatest % _WORD + 1
        if narrow == created.seq:
            return created
        with self._write() as connection:
            connection.execute(
                update(diagnosis_run).where(diagnosis_run.c.run_id == run_id).values(seq=narrow)
            )
        return created.model_copy(update={"seq": narrow})


class SilentDiscardRecorder(TraceRecorder):
    """Records every event but ``LATE_RESULT_DISCARDED``: the late result is dropped silently."""

    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Emit as the reference does, except a late-result record (returned, never recorded)."""
        if event_type == "LATE_RESULT_DISCARDED":
            return {"type": event_type, "data": dict(data)}
        return super().emit(event_type, data)


def silent_discard(_original: type[TraceRecorder]) -> type[TraceRecorder]:
    """A ``Patch`` wrap putting :class:`SilentDiscardRecorder` in place of the recorder."""
    return SilentDiscardRecorder


def core_arguments_valid(original: Callable[[object], bool]) -> Callable[[object], bool]:
    """Wrap ``valid_arguments``: extra members are ignored, so the call is executed (latitude)."""

    def valid(arguments: object) -> bool:
        if not isinstance(arguments, dict):
            return original(arguments)
        core = {k: v for k, v in arguments.items() if k in _SCOPE}
        window = core.get("time_range")
        if isinstance(window, dict):
            core["time_range"] = {k: v for k, v in window.items() if k in {"start_ms", "end_ms"}}
        return original(core)

    return valid


def sources_scope_from_arguments(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``verified_sources_for``: each source's scope is ``{tool}`` + the call's arguments."""

    def sources(document: Any, invocations: Mapping[str, Any], **kwargs: Any) -> Any:  # noqa: ANN401 - the reference's types
        listed = original(document, invocations, **kwargs)
        for source in listed:
            call = invocations.get(str(source["tool_call_id"]))
            if call is not None:
                source["query_scope"] = {"tool": source["tool_name"], **dict(call.arguments)}
        return listed

    return sources
