"""What each model call receives, as chat messages, and the record of it (``model_calls``).

One place renders a port request into the chat messages and tool names the model gets: the
OpenAI-compatible ports send exactly these (after their own system prompt), and on the scripted
(in-fixture) path :class:`ModelCallLog` records them, so that the observation reports each
model-call attempt's input (contract sheet: run-observation ``model_calls``).

* Router: the user's message alone (single turn, no tools, no history);
* Diagnosis Agent: the Harness's conversation (:mod:`reference_harness._conversation`) and the
  tools offered;
* SemanticGuard: one user message holding the Verified Snapshot as JSON, nothing else, no tools
  (Requirement 1: an isolated single-turn reviewer).

The functions are looked up through this module at call time, so a mutant can swap one.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Sequence

    from reference_harness.ports import (
        AgentAnswer,
        AgentPort,
        AgentRequest,
        ReviewAnswer,
        ReviewerPort,
        ReviewRequest,
        RouterAnswer,
        RouterPort,
        RouterRequest,
        ToolSpec,
    )

__all__ = [
    "ModelCallLog",
    "agent_messages",
    "agent_tools",
    "review_messages",
    "review_tools",
    "router_messages",
]

Message = dict[str, Any]
_KEPT: Final = ("content", "tool_calls", "tool_call_id", "name")


def router_messages(request: RouterRequest) -> list[Message]:
    """The Router's input: one user message, the user's text."""
    return [{"role": "user", "content": request.user_message}]


def agent_messages(request: AgentRequest) -> list[Message]:
    """The Diagnosis Agent's input: the Harness's conversation, oldest first."""
    return [dict(message) for message in request.messages]


def agent_tools(request: AgentRequest) -> tuple[ToolSpec, ...]:
    """The tools offered to the Diagnosis Agent (none for a structural repair)."""
    return tuple(request.tools)


def review_messages(request: ReviewRequest) -> list[Message]:
    """The SemanticGuard's input: one user message, the Verified Snapshot as JSON."""
    return [{"role": "user", "content": request.snapshot.model_dump_json(exclude_none=True)}]


def review_tools(request: ReviewRequest) -> tuple[ToolSpec, ...]:  # noqa: ARG001 - the rule is "none"
    """The tools offered to the SemanticGuard: none."""
    return ()


def _recorded(message: Message) -> Message:
    """A ``ChatMessage`` of the observation: unknown keys go to ``other_fields``."""
    out: Message = {"role": str(message.get("role", ""))}
    out.update({k: message[k] for k in _KEPT if k in message})
    other = {k: v for k, v in message.items() if k != "role" and k not in _KEPT}
    if other:
        out["other_fields"] = other
    return out


_SETTLE_S = 2.0
"""Most seconds :meth:`ModelCallLog.model_calls` waits for started attempts to be recorded."""


class ModelCallLog:
    """The inputs of every model-call attempt, in call order, and ports that record into it.

    Thread-safe (ports run in worker threads). :meth:`model_calls` pairs the k-th recorded call
    of a component with the k-th ``MODEL_CALL_STARTED`` of that component in the trace (each
    attempt calls its port exactly once).
    """

    def __init__(self) -> None:
        """Create an empty log."""
        self._calls: list[tuple[str, list[Message], list[str]]] = []
        self._lock = threading.Condition()

    def record(
        self, component: str, messages: Sequence[Message], tools: Sequence[ToolSpec]
    ) -> None:
        """Record one call's input."""
        entry = (component, [_recorded(m) for m in messages], [t.name for t in tools])
        with self._lock:
            self._calls.append(entry)
            self._lock.notify_all()

    def router(self, inner: RouterPort, system: str | None = None) -> RouterPort:
        """Return ``inner`` recording each input (after ``system``, if the port sends one)."""
        return _Router(inner, self, _head(system))

    def agent(self, inner: AgentPort, system: str | None = None) -> AgentPort:
        """Return ``inner`` recording each input (after ``system``, if the port sends one)."""
        return _Agent(inner, self, _head(system))

    def reviewer(self, inner: ReviewerPort, system: str | None = None) -> ReviewerPort:
        """Return ``inner`` recording each input (after ``system``, if the port sends one)."""
        return _Reviewer(inner, self, _head(system))

    def model_calls(self, trace: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Return the observation's ``model_calls``: one per ``MODEL_CALL_STARTED``, trace order.

        Each started attempt calls its port in a worker thread; an attempt that timed out at
        once (a 1 ms timeout) may end before its thread has run: the log waits (at most
        :data:`_SETTLE_S`) until every started attempt is recorded. One still missing then is
        left out; the kit reports the gap.
        """
        started: dict[str, int] = {}
        for event in trace:
            if event.get("type") == "MODEL_CALL_STARTED":
                component = str(event["data"]["component"])
                started[component] = started.get(component, 0) + 1

        def complete() -> bool:
            recorded: dict[str, int] = {}
            for component, _, _ in self._calls:
                recorded[component] = recorded.get(component, 0) + 1
            return all(recorded.get(c, 0) >= n for c, n in started.items())

        with self._lock:
            self._lock.wait_for(complete, timeout=_SETTLE_S)
            pending: dict[str, list[tuple[list[Message], list[str]]]] = {}
            for component, messages, tools in self._calls:
                pending.setdefault(component, []).append((messages, tools))
        calls = []
        for event in trace:
            if event.get("type") != "MODEL_CALL_STARTED":
                continue
            data = event["data"]
            queue = pending.get(data["component"], [])
            if not queue:
                continue
            messages, tools = queue.pop(0)
            calls.append(
                {
                    "component": data["component"],
                    "call_index": data["call_index"],
                    "attempt": data["attempt"],
                    "messages": messages,
                    "tools": tools,
                }
            )
        return calls


def _head(system: str | None) -> list[Message]:
    return [] if system is None else [{"role": "system", "content": system}]


class _Router:
    def __init__(self, inner: RouterPort, log: ModelCallLog, head: list[Message]) -> None:
        self._inner = inner
        self._log = log
        self._head = head

    def classify(self, request: RouterRequest, interrupt: threading.Event) -> RouterAnswer:
        self._log.record("ROUTER", [*self._head, *router_messages(request)], ())
        return self._inner.classify(request, interrupt)


class _Agent:
    def __init__(self, inner: AgentPort, log: ModelCallLog, head: list[Message]) -> None:
        self._inner = inner
        self._log = log
        self._head = head

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        messages = [*self._head, *agent_messages(request)]
        self._log.record("DIAGNOSIS_AGENT", messages, agent_tools(request))
        return self._inner.step(request, interrupt)


class _Reviewer:
    def __init__(self, inner: ReviewerPort, log: ModelCallLog, head: list[Message]) -> None:
        self._inner = inner
        self._log = log
        self._head = head

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        messages = [*self._head, *review_messages(request)]
        self._log.record("SEMANTIC_GUARD", messages, review_tools(request))
        return self._inner.review(request, interrupt)
