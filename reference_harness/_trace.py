"""The Run trace and the frames the client receives (contract sheet ``run-trace-event``).

Every event is ``{run_id, seq, type, data, ts_ms}`` with ``seq`` from 1 in emission order and
``ts_ms`` from the Harness clock. Each event is appended to the trace and then offered to the sink
as a ``run_event`` frame; ``result`` and ``end`` frames follow the release. Events carry codes and
ids only: never exception text, stack traces or raw tool payloads.

Emission is re-entrant: a sink that cancels the Run while receiving a frame (a disconnecting
client) causes further events, which get the next ``seq`` numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from contracts import json_copy

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["Frame", "Sink", "TraceRecorder"]

Frame: TypeAlias = dict[str, Any]
"""``{"event": "run_event"|"result"|"end", "data": object}``."""

Sink: TypeAlias = "Callable[[Frame], None]"
"""Receives each frame, in order, on the event loop thread; it must not block."""


class TraceRecorder:
    """Numbers, timestamps, records and delivers the events of one Run.

    Args:
        run_id: the Run.
        clock: milliseconds since the Unix epoch (UTC).
        sink: the client's frame receiver. If it raises, delivery stops for the rest of the Run
            (the client is gone); the Run itself goes on and its result stays durable.
    """

    def __init__(self, run_id: str, clock: Callable[[], int], sink: Sink) -> None:
        """Create an empty trace for ``run_id``."""
        self._run_id = run_id
        self._clock = clock
        self._sink: Sink | None = sink
        self._events: list[dict[str, Any]] = []

    @property
    def events(self) -> list[dict[str, Any]]:
        """Copies of the events emitted so far, by ``seq``."""
        return json_copy(self._events)

    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Append one event and deliver it as a ``run_event`` frame; return the event."""
        event = {
            "run_id": self._run_id,
            "seq": len(self._events) + 1,
            "type": event_type,
            "data": json_copy(dict(data)),
            "ts_ms": self._clock(),
        }
        self._events.append(event)
        self.deliver({"event": "run_event", "data": json_copy(event)})
        return event

    def deliver(self, frame: Frame) -> None:
        """Offer one frame to the sink (dropped once the sink has failed)."""
        sink = self._sink
        if sink is None:
            return
        try:
            sink(frame)
        except Exception:  # noqa: BLE001 - a broken client must not break the Run
            self._sink = None
