"""Parts of the cancellation mutants of docs/decisions/red-team-8.md (the eighth red team).

Each part breaks one rule of Requirement 8 ("Cancellation SHALL be layered and observable") in
the reference Harness, the smallest change that shows its kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import threading
    from collections.abc import Mapping, Sequence

    from reference_harness.openai import ChatClient, OpenAIConfig
    from reference_harness.openai._completion import Completion

__all__ = ["deaf_chat_client"]


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
