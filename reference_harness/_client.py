"""A simulated SSE client: records the frames it receives and disconnects when scripted to.

Fixture ``client.disconnect_on = {event_type, occurrence}``: on receiving the ``occurrence``-th
``run_event`` frame whose event has type ``event_type``, the client keeps that frame, then
disconnects — it cancels the Run with cause ``CLIENT_DISCONNECTED`` (scheduled on the event loop,
as a server notices a disconnect) and receives nothing more.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from contracts import json_copy

if TYPE_CHECKING:
    from collections.abc import Mapping

    from reference_harness._cancellation import CancelScope

__all__ = ["SimulatedClient"]


class SimulatedClient:
    """The sink of one Run in the in-process IUT.

    Args:
        script: the fixture's ``client`` object.
        scope: the Run's cancel scope.
    """

    def __init__(self, script: Mapping[str, Any], scope: CancelScope) -> None:
        """Prepare an empty frame log."""
        self.frames: list[dict[str, Any]] = []
        self.disconnected = False
        disconnect_on = script.get("disconnect_on")
        self._type: str | None = None if disconnect_on is None else disconnect_on["event_type"]
        self._occurrence: int = 0 if disconnect_on is None else disconnect_on["occurrence"]
        self._seen = 0
        self._scope = scope

    def __call__(self, frame: Mapping[str, Any]) -> None:
        """Receive one frame (ignored after the disconnect)."""
        if self.disconnected:
            return
        self.frames.append(json_copy(dict(frame)))
        if frame["event"] != "run_event" or frame["data"]["type"] != self._type:
            return
        self._seen += 1
        if self._seen == self._occurrence:
            self.disconnected = True
            # The server notices a disconnect asynchronously: the cancel runs on the event loop as
            # soon as the Run's work next waits (e.g. on the model call or tool it just started).
            asyncio.get_running_loop().call_soon(self._scope.cancel, "CLIENT_DISCONNECTED")
