"""Parts of the mutants that break what a model call may receive (and the one-HTTP-attempt rule).

Each is the smallest wrong harness of its kind; on the scripted path the observation's
``model_calls`` report what the broken Harness sent, over the kit's model endpoint the kit sees it:

* :class:`ConversationToReviewer` — the SemanticGuard is sent the agent's conversation before the
  snapshot (a reviewer that is not isolated);
* :func:`tools_for_reviewer` — the SemanticGuard is offered the agent's tools;
* :class:`SessionHistoryStore` + :func:`with_session_history` — every earlier Run of the session
  (failed, cancelled, fallback ones included) goes into the agent's context as chat history,
  although the previous-turn selection itself is right;
* :class:`SeqOnlyStore` — the selected previous turn is fetched by ``seq`` without the session
  filter, so another session's Run with that ``seq`` fills the context;
* :class:`RawRows` — the tool messages to the agent carry the backend's raw rows, beyond the
  bounded projection (the invocation's projection itself stays bounded);
* :func:`reasoning_echoed` — assistant messages go back to the agent with a
  ``reasoning_content`` field (a chain-of-thought field in the model's context);
* :class:`RetryingChatClient` — the OpenAI SDK keeps its default two retries (only visible over
  the kit's model endpoint: extra HTTP requests for one attempt).

State shared between two patches lives on one instance, used under the mutants' process-wide lock.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any, Final

from contracts import loads_strict
from reference_harness._tools import TOOL_SPECS
from reference_harness.ports import ToolRows
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from contracts import DiagnosisRun
    from reference_harness.openai import ChatClient, OpenAIConfig
    from reference_harness.store import PreviousTurnSelection

__all__ = [
    "SDK_DEFAULT_RETRIES",
    "ConversationToReviewer",
    "RawRows",
    "SeqOnlyStore",
    "SessionHistoryStore",
    "reasoning_echoed",
    "retrying_chat_client",
    "tools_for_reviewer",
    "with_session_history",
]

Message = dict[str, Any]
SDK_DEFAULT_RETRIES: Final = 2
"""openai-python's ``DEFAULT_MAX_RETRIES``."""
_HISTORY: list[DiagnosisRun] = []
"""The session's earlier Runs at the last selection (shared by the store and the patch)."""


class ConversationToReviewer:
    """Two wrappers: remember the agent's last conversation, prepend it to the review."""

    def __init__(self) -> None:
        """Start with no conversation remembered."""
        self.last: list[Message] = []

    def remember(self, original: Callable[[Any], list[Message]]) -> Callable[[Any], list[Message]]:
        """Wrap ``agent_messages``: keep what the agent was sent."""

        def agent_messages(request: Any) -> list[Message]:  # noqa: ANN401 - the port request
            messages = original(request)
            self.last = [dict(m) for m in messages if m.get("role") != "system"]
            return messages

        return agent_messages

    def prepend(self, original: Callable[[Any], list[Message]]) -> Callable[[Any], list[Message]]:
        """Wrap ``review_messages``: the conversation so far, then the snapshot."""

        def review_messages(request: Any) -> list[Message]:  # noqa: ANN401 - the port request
            return [*self.last, *original(request)]

        return review_messages


def tools_for_reviewer(original: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], Any]:  # noqa: ARG001 - replaced, not wrapped
    """Wrap ``review_tools``: offer the agent's four tools to the SemanticGuard."""

    def review_tools(request: Any) -> tuple[Any, ...]:  # noqa: ANN401, ARG001 - the port request
        return tuple(TOOL_SPECS)

    return review_tools


class SessionHistoryStore(RunStore):
    """A run store that remembers every earlier Run of the session at previous-turn selection."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select as the reference does, and keep the session's earlier Runs for the context."""
        earlier = [run for run in self.list_session(session_id) if run.seq < before_seq]
        _HISTORY[:] = earlier
        return super().select_previous_turn(session_id, before_seq)


def with_session_history(original: Callable[..., list[Message]]) -> Callable[..., list[Message]]:
    """Wrap ``opening_messages``: every earlier Run's user text as chat history first."""

    def opening_messages(intent: str, user_message: str, previous: Any) -> list[Message]:  # noqa: ANN401 - a DiagnosisRun or None
        messages = original(intent, user_message, previous)
        history = [{"role": "user", "content": run.user_message} for run in _HISTORY]
        return [messages[0], *history, *messages[1:]]

    return opening_messages


class SeqOnlyStore(RunStore):
    """Fetches the selected previous turn by ``seq`` alone: another session's Run can come back."""

    def seed(self, runs: Iterable[DiagnosisRun]) -> None:
        """Seed as the reference does, and remember every seeded Run."""
        self._seeded = list(runs)
        super().seed(self._seeded)

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select as the reference does, then swap in another session's Run of the same seq."""
        selection = super().select_previous_turn(session_id, before_seq)
        chosen = selection.selected
        if chosen is None:
            return selection
        for run in getattr(self, "_seeded", []):
            if run.seq == chosen.seq and run.session_id != session_id and run.published_result:
                update = {"run_id": chosen.run_id, "session_id": session_id}
                swapped = run.model_copy(update=update)
                return dataclasses.replace(selection, selected=swapped)
        return selection


class RawRows:
    """Two wrappers: keep each execution's raw rows, put them into the agent's tool messages."""

    def __init__(self) -> None:
        """Start with no rows kept."""
        self.rows: dict[str, list[object]] = {}

    @staticmethod
    def _key(tool_name: object, arguments: object) -> str:
        return json.dumps([tool_name, arguments], sort_keys=True, default=str)

    def keep(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap ``project``: remember the raw rows of the call, project them as the reference."""

        def project(tool_name: str, arguments: Any, result: ToolRows, limits: Any) -> Any:  # noqa: ANN401 - the reference's types
            rows = list(result.rows)
            self.rows[self._key(tool_name, arguments)] = [row.get("text") for row in rows]
            return original(tool_name, arguments, ToolRows(rows, result.total_matched), limits)

        return project

    def leak(self, original: Callable[..., list[Message]]) -> Callable[..., list[Message]]:
        """Wrap ``tool_step_messages``: each tool message also carries the raw rows."""

        def tool_step_messages(records: Sequence[dict[str, Any]]) -> list[Message]:
            messages = original(records)
            by_id = {r["tool_call_id"]: self._key(r["tool_name"], r["arguments"]) for r in records}
            for message in messages:
                key = by_id.get(message.get("tool_call_id"))
                if message.get("role") == "tool" and key in self.rows:
                    body = loads_strict(message["content"])
                    body["raw_rows"] = self.rows[key]
                    message["content"] = json.dumps(body, sort_keys=True)
            return messages

        return tool_step_messages


def reasoning_echoed(original: Callable[[Any], list[Message]]) -> Callable[[Any], list[Message]]:
    """Wrap ``agent_messages``: assistant messages keep the provider's ``reasoning_content``."""

    def agent_messages(request: Any) -> list[Message]:  # noqa: ANN401 - the port request
        messages = original(request)
        return [
            {**m, "reasoning_content": "I should look at the logs first."}
            if m.get("role") == "assistant"
            else m
            for m in messages
        ]

    return agent_messages


def retrying_chat_client(config: OpenAIConfig) -> ChatClient:
    """A ChatClient whose OpenAI SDK keeps its default retries (``max_retries=2``).

    Built like the reference's, except the retries; its HTTP connection pool is shared by every
    client of this mutant in the process (a TLS context costs tens of milliseconds per client).
    """
    import openai  # noqa: PLC0415 - only this mutant needs the SDK here

    from reference_harness._limits import MAX_WAIT_S  # noqa: PLC0415 - beside the SDK import
    from reference_harness.openai import ChatClient  # noqa: PLC0415 - SDK import

    class RetryingChatClient(ChatClient):
        def __init__(self, config: OpenAIConfig) -> None:
            self._config = config
            self._timeout_s = min(config.timeout_s, MAX_WAIT_S)
            self._timeout = openai.Timeout(self._timeout_s)
            self._client = openai.OpenAI(
                base_url=config.base_url,
                api_key=config.api_key,
                max_retries=SDK_DEFAULT_RETRIES,
                timeout=self._timeout,
                http_client=_shared_http_client(),
            )

        def close(self) -> None:
            """Keep the shared connection pool open."""

    return RetryingChatClient(config)


def _shared_http_client() -> Any:  # noqa: ANN401 - an httpx.Client of the SDK's httpx
    if not _HTTP_CLIENT:
        import openai  # noqa: PLC0415 - only this mutant needs the SDK here

        _HTTP_CLIENT.append(openai.DefaultHttpxClient())
    return _HTTP_CLIENT[0]


_HTTP_CLIENT: list[Any] = []
"""The one HTTP client of this mutant's model clients (created on first use)."""
