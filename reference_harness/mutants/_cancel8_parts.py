"""Parts of the cancellation mutants of docs/decisions/red-team-8.md (the eighth red team).

Each part breaks one rule of Requirement 8 ("Cancellation SHALL be layered and observable") in
the reference Harness, the smallest change that shows its kind.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from reference_harness._run_context import RunContext

if TYPE_CHECKING:
    import threading
    from collections.abc import Mapping, Sequence

    from reference_harness.openai import ChatClient, OpenAIConfig
    from reference_harness.openai._completion import Completion

__all__ = ["ToolWaitingContext", "deaf_chat_client"]


def deaf_chat_client(config: OpenAIConfig) -> ChatClient:
    """Return the reference's ChatClient for ``config``, deaf to the port call's interrupt.

    A cancelled Run's call keeps waiting on its HTTP response, which only the SDK's own timeout
    (``model_call_timeout_ms``) ends; the Harness records the attempt CANCELLED afterwards, as it
    records any attempt of a cancelled Run (``MutantSpec.endpoint_client``).
    """
    from reference_harness.openai import ChatClient  # noqa: PLC0415 - SDK import, this mutant only

    class DeafChatClient(ChatClient):
        def complete(
            self,
            messages: Sequence[Mapping[str, object]],
            *,
            tools: Sequence[Mapping[str, object]] = (),
            interrupt: threading.Event | None = None,  # noqa: ARG002 - never heard: the fault
        ) -> Completion:
            """Send the request; wait for its answer or its timeout, whatever the interrupt."""
            return super().complete(messages, tools=tools)

    return DeafChatClient(config)


class ToolWaitingContext(RunContext):
    """A Run whose cancellation leaves the tool work in flight running until its own timeout.

    ``CANCEL_REQUESTED``, ``NEW_WORK_PREVENTED`` and ``INTERRUPT_REQUESTED`` are recorded at
    once; the tool work in flight is stopped and recorded (``TOOL_WORK_CANCELLED``, invocation
    ERROR ``CANCELLED``) only ``tool_timeout_ms`` later: the trace is the reference's, the Run
    just waits out the tool's timeout.
    """

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Record the layers now; stop the tool work in flight a tool timeout later."""
        if self._released or self._gate_closed:
            return
        waiting = dict(self.tools_in_flight)
        self.tools_in_flight.clear()
        try:
            super().on_cancel(cause)
        finally:
            self.tools_in_flight.update(waiting)
        if waiting:
            delay = self.limits.tool_timeout_ms / 1000
            asyncio.get_running_loop().call_later(delay, self._stop_late, waiting)

    def _stop_late(self, waiting: dict[str, Any]) -> None:
        for tool_call_id, (task, token) in waiting.items():
            token.cancel()
            task.cancel()
            self.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": tool_call_id})
            if self.ledger.is_projecting(tool_call_id):
                self.ledger.fail(tool_call_id, "CANCELLED")
