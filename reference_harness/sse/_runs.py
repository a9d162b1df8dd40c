"""One Run behind one SSE response, and the app's log of Run traces.

The Harness runs in its own asyncio task, not inside the response: when the client goes away the
response ends, the Run's :class:`CancelScope` is cancelled with ``CLIENT_DISCONNECTED``, and the
task goes on through the layered cancellation (Requirement 8) — waiting, bounded by the model-call
timeout, for a blocking model call, recording ``LATE_RESULT_DISCARDED`` and the ``CANCELLED`` row.
Frames emitted after the disconnect reach nobody, so every ``run_event`` is also kept in the
:class:`TraceLog`, exposed at ``GET /internal/v1/runs/{run_id}/trace``.

The response is not answered until the Run has started (its first frame) or ended without one
(:meth:`ActiveRun.wait_started`): a Run whose row could not be created is a ``503``, never an
empty ``200``. A Harness that fails after its first frame without an ``end`` frame still ends the
stream: :meth:`ActiveRun.frames` then sends the fixed PUBLIC_ERROR ``INTERNAL_ERROR`` ``result``
and ``end`` ``{state: FAILED}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final, Protocol

from reference_harness import CancelScope
from reference_harness.store import RunStoreError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Mapping

__all__ = ["ActiveRun", "ChatHarness", "HarnessFactory", "TraceLog"]

_LOG: Final = logging.getLogger(__name__)
_END: Final = None
_ERROR_RESULT: Final = {"kind": "PUBLIC_ERROR", "public_error": {"error_code": "INTERNAL_ERROR"}}


class ChatHarness(Protocol):
    """What the SSE entry needs of a Harness (``reference_harness.Harness`` satisfies it)."""

    async def run(
        self,
        session_id: str,
        user_message: str,
        *,
        sink: Callable[[dict[str, Any]], None],
        cancel: CancelScope,
    ) -> object:
        """Run one chat turn, delivering ``run_event``/``result``/``end`` frames to ``sink``."""
        ...


HarnessFactory = "Callable[[], ChatHarness]"
"""Builds the Harness that serves one request (called once per chat request)."""


class TraceLog:
    """The trace of the most recent Runs served, by run id (at most ``capacity`` Runs kept)."""

    def __init__(self, capacity: int = 256) -> None:
        """Create an empty log keeping at most ``capacity`` Runs (oldest dropped first)."""
        self._capacity = capacity
        self._runs: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._finished: set[str] = set()

    def record(self, event: Mapping[str, Any]) -> None:
        """Append one RunTraceEvent; a ``RUN_FINISHED`` event marks its Run finished."""
        run_id = str(event.get("run_id"))
        if run_id not in self._runs:
            self._runs[run_id] = []
            while len(self._runs) > self._capacity:
                dropped, _ = self._runs.popitem(last=False)
                self._finished.discard(dropped)
        self._runs[run_id].append(dict(event))
        if event.get("type") == "RUN_FINISHED":
            self._finished.add(run_id)

    def get(self, run_id: str) -> dict[str, Any] | None:
        """``{"run_id", "finished", "events"}`` for a kept Run, else ``None``."""
        events = self._runs.get(run_id)
        if events is None:
            return None
        return {"run_id": run_id, "finished": run_id in self._finished, "events": list(events)}


class ActiveRun:
    """One chat request: the Harness task, its cancel scope and the frame queue of the response.

    Create on the event loop; :meth:`frames` is the SSE body; :meth:`client_gone` is called on
    ``http.disconnect`` and when the body stops early for any other reason.
    """

    def __init__(
        self,
        harness: ChatHarness,
        session_id: str,
        message: str,
        *,
        trace_log: TraceLog,
        tasks: set[asyncio.Task[None]],
    ) -> None:
        """Start the Run's task at once (it does not wait for the response to be sent)."""
        self.scope = CancelScope()
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._trace_log = trace_log
        self._ended = False
        self._finished = False
        self._started = asyncio.Event()
        self.delivered = 0
        """Frames the Harness delivered so far."""
        self.task = asyncio.create_task(self._run(harness, session_id, message))
        tasks.add(self.task)
        self.task.add_done_callback(tasks.discard)

    def _sink(self, frame: dict[str, Any]) -> None:
        if frame.get("event") == "run_event" and isinstance(frame.get("data"), dict):
            self._trace_log.record(frame["data"])
        self.delivered += 1
        self._started.set()
        self._queue.put_nowait(frame)

    async def _run(self, harness: ChatHarness, session_id: str, message: str) -> None:
        try:
            await harness.run(session_id, message, sink=self._sink, cancel=self.scope)
        except RunStoreError as error:
            # One line, no traceback: the store's file and SQLite's reason say it all.
            _LOG.warning("a Run could not be stored: %s", error)
        except Exception:  # noqa: BLE001 - the task must end the stream whatever the Harness raised
            _LOG.exception("the Harness failed outside its own error handling")
        finally:
            self._finished = True
            self._started.set()
            self._queue.put_nowait(_END)

    async def wait_started(self, timeout_s: float) -> bool:
        """Wait (at most ``timeout_s``) for the Run's first frame; True if it came.

        False when the Run ended without a frame (its row could not be created) or did not start
        in time; the Run is then cancelled (``CLIENT_DISCONNECTED``: nobody will read it).
        """
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._started.wait(), timeout_s)
        if self.delivered:
            return True
        self.client_gone()
        return False

    async def frames(self) -> AsyncIterator[dict[str, str]]:
        """Yield SSE events ``{"event", "data": JSON text}`` until the ``end`` frame.

        If the Harness stopped without an ``end`` frame, the stream is closed with the fixed
        error ``result`` and ``end`` ``{state: FAILED}`` (a client is never left waiting).
        """
        try:
            while (frame := await self._queue.get()) is not _END:
                yield {"event": str(frame["event"]), "data": json.dumps(frame["data"])}
                if frame["event"] == "end":
                    self._ended = True
                    return
            self._ended = True
            yield {"event": "result", "data": json.dumps(_ERROR_RESULT)}
            yield {"event": "end", "data": json.dumps({"state": "FAILED"})}
        finally:
            self.client_gone()

    def client_gone(self) -> None:
        """Cancel the Run with ``CLIENT_DISCONNECTED`` unless it already ended (idempotent)."""
        if not (self._ended or self._finished):
            self.scope.cancel("CLIENT_DISCONNECTED")

    async def on_disconnect(self, _message: Mapping[str, Any]) -> None:
        """sse-starlette's ``client_close_handler_callable``: the client closed the connection."""
        self.client_gone()
