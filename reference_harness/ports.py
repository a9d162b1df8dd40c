"""The ports between the Harness and everything it drives: models and tool backends.

Model ports are **synchronous, blocking** calls (a real HTTP chat-completions call is one); the
Harness runs each in a worker thread bounded by ``model_call_timeout_ms`` and hands it an
``interrupt`` :class:`threading.Event` that is set when the Run is cancelled (Requirement 8: a port
may honour it, but the release gate does not depend on it). A model port raises only
``ModelUnavailable`` or ``ModelTimeout`` (:mod:`reference_harness.errors`); anything else is an
internal error of the Run. A port makes exactly one attempt per call: retries belong to the
Harness (Requirement 9).

Answers keep the model's raw values untouched (ids that are ``""``, ``None`` or not strings, content
that is not JSON): classifying them is the Harness's job, never the adapter's.

The tool port is asynchronous: ``ToolBackend.execute`` returns rows (a lazy iterable, consumed by
the bounded projection one row at a time) or an in-band backend error; a raised exception is a tool
failure whose message never leaves the Harness.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypeAlias, final, runtime_checkable

from reference_harness.errors import ModelTimeout, ModelUnavailable

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterable, Mapping

    from contracts import VerifiedSnapshot

__all__ = [
    "MISSING",
    "AcceptedToolCall",
    "AgentAnswer",
    "AgentPort",
    "AgentPurpose",
    "AgentRequest",
    "CancelToken",
    "FinalAnswer",
    "InBandError",
    "Intent",
    "ModelTimeout",
    "ModelUnavailable",
    "ProposedToolCall",
    "ReviewAnswer",
    "ReviewRequest",
    "ReviewerPort",
    "RouterAnswer",
    "RouterPort",
    "RouterRequest",
    "ToolBackend",
    "ToolResult",
    "ToolRows",
    "ToolSpec",
]

Intent: TypeAlias = Literal["DIAGNOSIS", "KNOWLEDGE_QUERY"]
"""The Router's vocabulary (contract sheet: intent)."""

AgentPurpose: TypeAlias = Literal["AGENT_STEP", "STRUCTURAL_REPAIR"]
"""Why the Diagnosis Agent is called (contract sheet: model call purpose)."""


@final
class _Missing:
    """Type of :data:`MISSING`: the id key was absent from the proposed tool call."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()
"""Sentinel: the proposed tool call had no ``id`` key (as opposed to ``None`` or ``""``)."""


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool offered to the Diagnosis Agent.

    Attributes:
        name: the Tool name (``query_metrics``, ``search_logs``, ``list_alerts``,
            ``lookup_documents``).
        description: one sentence for the model.
        parameters: the JSON Schema (2020-12 subset OpenAI accepts) of the arguments object.
    """

    name: str
    description: str
    parameters: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class AgentRequest:
    """One call of the Diagnosis Agent.

    Attributes:
        purpose: ``AGENT_STEP`` (tools offered) or ``STRUCTURAL_REPAIR`` (no tools; carries only the
            violation codes and pointers of the failed validation — DESIGN §5).
        messages: OpenAI-style chat messages, oldest first: ``{"role": "system"|"user"|
            "assistant"|"tool", "content": str|None, "tool_calls"?: [...], "tool_call_id"?: str}``.
            Tool messages carry bounded projections only, never raw payloads.
        tools: the tools offered; empty for ``STRUCTURAL_REPAIR``.
        intent: the routed intent; ``KNOWLEDGE_QUERY`` asks for a Knowledge Answer, ``DIAGNOSIS``
            for a Diagnosis Draft.
    """

    purpose: AgentPurpose
    messages: tuple[Mapping[str, object], ...]
    tools: tuple[ToolSpec, ...]
    intent: Intent


@dataclass(frozen=True, slots=True)
class RouterRequest:
    """One Router call: the user message and nothing else (single turn, no tools, no history)."""

    user_message: str


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """One SemanticGuard call: the verified snapshot and nothing else (Requirement 1).

    No tools, no conversation history, no draft text outside the snapshot.
    """

    snapshot: VerifiedSnapshot


# --------------------------------------------------------------------------- answers


@dataclass(frozen=True, slots=True)
class ProposedToolCall:
    """One tool call as the model proposed it, values untouched.

    Attributes:
        id: the presented Tool Call ID: :data:`MISSING` if the key was absent, else whatever the
            model sent (``None``, ``""``, a number, a string with control characters ...).
        name: the tool name as sent (may be unknown or not a string).
        arguments: the arguments as sent: a parsed JSON value, or the raw text if it did not parse.
    """

    id: object
    name: object
    arguments: object


@dataclass(frozen=True, slots=True)
class ToolCallsAnswer:
    """The agent asked for tools: one ReAct step, calls in the order proposed."""

    calls: tuple[ProposedToolCall, ...]


@dataclass(frozen=True, slots=True)
class FinalAnswer:
    """The agent finished: ``content`` is the parsed JSON it wrote, or the raw text if not JSON."""

    content: object


AgentAnswer: TypeAlias = ToolCallsAnswer | FinalAnswer
"""What one Diagnosis Agent call returns."""


@dataclass(frozen=True, slots=True)
class RouterAnswer:
    """The Router's raw answer: normally an intent string; anything else is ``INVALID_SCHEMA``."""

    content: object


@dataclass(frozen=True, slots=True)
class ReviewAnswer:
    """The SemanticGuard model's raw answer (parsed JSON or raw text), checked by the Harness."""

    content: object


# --------------------------------------------------------------------------- model ports


@runtime_checkable
class RouterPort(Protocol):
    """Intent classification model (Requirement 1: Router)."""

    def classify(self, request: RouterRequest, interrupt: threading.Event) -> RouterAnswer:
        """Classify ``request.user_message``; one attempt; blocking.

        Raises:
            ModelUnavailable: the endpoint failed.
            ModelTimeout: the call timed out.
        """
        ...


@runtime_checkable
class AgentPort(Protocol):
    """The Diagnosis Agent model: the only author of drafts and knowledge answers."""

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer one agent call; one attempt; blocking.

        Raises:
            ModelUnavailable: the endpoint failed.
            ModelTimeout: the call timed out.
        """
        ...


@runtime_checkable
class ReviewerPort(Protocol):
    """The SemanticGuard model: one isolated single-turn review of a verified snapshot."""

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        """Review ``request.snapshot``; one attempt; blocking.

        Raises:
            ModelUnavailable: the endpoint failed.
            ModelTimeout: the call timed out.
        """
        ...


# --------------------------------------------------------------------------- tool port


@dataclass(frozen=True, slots=True)
class AcceptedToolCall:
    """A tool call the Harness accepted and dispatches (Tool Call ID already classified valid).

    Attributes:
        tool_call_id: the framework Tool Call ID (contract ``tool-call-id``).
        tool_name: a Tool name.
        arguments: validated arguments ``{target, time_range: {start_ms, end_ms}, query}``.
        run_id: the Run.
        step: the agent step (>= 1).
        sequence: acceptance order in the Run (>= 1).
    """

    tool_call_id: str
    tool_name: str
    arguments: Mapping[str, object]
    run_id: str
    step: int
    sequence: int


class CancelToken:
    """Cooperative cancellation signal handed to a tool backend.

    The Harness also cancels the tool's asyncio task; the token lets a backend notice earlier or
    wait for it. Create inside a running event loop.
    """

    __slots__ = ("_event",)

    def __init__(self) -> None:
        """Create an un-cancelled token."""
        self._event = asyncio.Event()

    @property
    def cancelled(self) -> bool:
        """Whether cancellation was requested."""
        return self._event.is_set()

    def cancel(self) -> None:
        """Request cancellation (idempotent)."""
        self._event.set()

    async def wait(self) -> None:
        """Return once cancellation was requested."""
        await self._event.wait()


@dataclass(frozen=True, slots=True)
class ToolRows:
    """A successful backend answer (HTTP 200).

    Attributes:
        rows: lazy iterable of ``{"text": str, "document_id"?: str}``; consumed one row at a time
            and never stored whole (the raw payload stays inside the Harness, bounded).
        total_matched: how many rows matched in total, if the backend says; ``None`` = count the
            rows.
    """

    rows: Iterable[Mapping[str, object]]
    total_matched: int | None = None


@dataclass(frozen=True, slots=True)
class InBandError:
    """The backend answered with an error body: invocation READY, evidence ERROR, ``BACKEND_ERROR``.

    ``code`` is the backend's code; it is kept for diagnostics only and never published.
    """

    code: str = field(default="BACKEND_ERROR")


ToolResult: TypeAlias = ToolRows | InBandError
"""What ``ToolBackend.execute`` returns."""


@runtime_checkable
class ToolBackend(Protocol):
    """Executes accepted tool calls (metrics, logs, alerts, document lookup)."""

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:
        """Execute ``call``; any raised exception is a tool failure (``TOOL_FAILED``).

        Cancellation arrives as :class:`asyncio.CancelledError` and through ``cancel``.
        """
        ...
