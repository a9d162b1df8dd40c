"""Broken parts whose records are right but whose trace fields or client frames say otherwise.

Each part changes what one trace event restates about another record, or what the simulated SSE
client receives, and nothing else; :mod:`reference_harness.mutants._frames_specs` combines each
with the reference Harness. They are the faults an independent attacker found conformant because
no check compared the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_harness._client import SimulatedClient
from reference_harness._trace import TraceRecorder

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from reference_harness._trace import Frame

__all__ = [
    "changing_events",
    "changing_frames",
    "count_rejected_in_sequence",
    "drop_end_frame",
    "drop_status_frames",
    "hold_result_until_finished",
    "item_count_is_total",
    "listening_after_disconnect",
    "other_fallback_finished",
    "run_seq_plus_one",
]


def changing_events(
    change: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]],
) -> Callable[[type[TraceRecorder]], type[TraceRecorder]]:
    """Return a ``Patch`` wrap of the Harness's ``TraceRecorder``: ``change`` rewrites each data."""

    class _ChangingRecorder(TraceRecorder):
        def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
            state: dict[str, Any] = self.__dict__.setdefault("_mutant_state", {})
            return super().emit(event_type, change(state, event_type, dict(data)))

    def wrap(_original: type[TraceRecorder]) -> type[TraceRecorder]:
        return _ChangingRecorder

    return wrap


def changing_frames(
    change: Callable[[dict[str, Any], Frame], list[Frame]],
) -> Callable[[type[TraceRecorder]], type[TraceRecorder]]:
    """Return a ``Patch`` wrap of the Harness's ``TraceRecorder``: ``change`` decides each frame."""

    class _ChangingDelivery(TraceRecorder):
        def deliver(self, frame: Frame) -> None:
            state: dict[str, Any] = self.__dict__.setdefault("_mutant_state", {})
            for sent in change(state, frame):
                super().deliver(sent)

    def wrap(_original: type[TraceRecorder]) -> type[TraceRecorder]:
        return _ChangingDelivery

    return wrap


# -- trace fields --------------------------------------------------------------------------------


def count_rejected_in_sequence(
    state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """TOOL_CALL_ACCEPTED.sequence counts the rejected calls too (the invocation keeps its own)."""
    if event_type in {"TOOL_CALL_ACCEPTED", "TOOL_CALL_REJECTED"}:
        state["presented"] = state.get("presented", 0) + 1
    if event_type == "TOOL_CALL_ACCEPTED":
        return {**data, "sequence": state["presented"]}
    return data


def item_count_is_total(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """EVIDENCE_CLASSIFIED.item_count reports the backend's total_matched, not the items kept."""
    if event_type == "EVIDENCE_CLASSIFIED":
        return {**data, "item_count": data["total_matched"]}
    return data


def run_seq_plus_one(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """RUN_STARTED.run_seq is one more than the seq the diagnosis_run row stores."""
    if event_type == "RUN_STARTED":
        return {**data, "run_seq": data["run_seq"] + 1}
    return data


def other_fallback_finished(
    _state: dict[str, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """RUN_FINISHED of a FALLBACK Run names another fallback type than the row and the result."""
    if event_type == "RUN_FINISHED" and data.get("fallback_type") is not None:
        other = {"SEMANTIC_UNSUPPORTED": "SEMANTIC_UNAVAILABLE"}
        return {**data, "fallback_type": other.get(data["fallback_type"], "SEMANTIC_UNSUPPORTED")}
    return data


# -- frames --------------------------------------------------------------------------------------


def _event_type(frame: Frame) -> object:
    data = frame.get("data")
    return (
        data.get("type") if frame.get("event") == "run_event" and isinstance(data, dict) else None
    )


def hold_result_until_finished(state: dict[str, Any], frame: Frame) -> list[Frame]:
    """The ``result`` frame is sent after the RUN_FINISHED event's frame, not before it."""
    if frame.get("event") == "result":
        state["held"] = frame
        return []
    if _event_type(frame) == "RUN_FINISHED" and "held" in state:
        return [frame, state.pop("held")]
    return [frame]


def drop_end_frame(_state: dict[str, Any], frame: Frame) -> list[Frame]:
    """No ``end`` frame is sent."""
    return [] if frame.get("event") == "end" else [frame]


def drop_status_frames(_state: dict[str, Any], frame: Frame) -> list[Frame]:
    """INVOCATION_STATUS_CHANGED events stay in the trace but are not streamed to the client."""
    return [] if _event_type(frame) == "INVOCATION_STATUS_CHANGED" else [frame]


def listening_after_disconnect(
    _original: type[SimulatedClient],
) -> type[SimulatedClient]:
    """``Patch`` wrap of the IUT's ``SimulatedClient``: it keeps receiving after it disconnected.

    The Run is still cancelled at the disconnect; only the frames that follow are recorded as
    received (a server that writes on after the client left, and reports it as delivered).
    """

    class _ListeningClient(SimulatedClient):
        def __call__(self, frame: Mapping[str, Any]) -> None:
            if self.disconnected:
                self.frames.append(dict(frame))
                return
            super().__call__(frame)

    return _ListeningClient
