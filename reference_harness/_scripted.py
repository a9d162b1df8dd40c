"""Scripted ports: deterministic test doubles driven by a Scenario Fixture's turns.

They ship in the product (like pydantic-ai's ``TestModel`` or openai-agents' scripted model): the
kit runs every fixture against the reference Harness through them. No wall clock, no randomness;
turns are consumed in order and the script fails loudly:

* a call with no turn left raises :class:`~reference_harness.errors.ScriptExhausted` (and the
  error is remembered, because the Harness turns any unexpected port exception into
  ``INTERNAL_ERROR``);
* :meth:`ScriptedPorts.script_error` reports the first exhaustion, or the turns left unconsumed
  (:class:`~reference_harness.errors.ScriptUnconsumed`).

Turn shapes are the contract sheet's (``RouterTurn``, ``AgentTurn``, ``ReviewTurn``,
``ToolResponse``). ``block_until_cancelled`` waits on the call's interrupt event (set by the
Harness on cancellation or on its own timeout), then answers its ``then`` turn late;
``ignore_cancellation`` answers its ``then`` turn at once, interrupt or not. A blocked model turn
whose interrupt never comes gives up after ``block_bound_s`` (by default
:func:`block_bound_for` of the fixture: a few model-call timeouts), so that a Harness that waits
past its own timeout still ends, and is seen answering late. A tool ``block_until_cancelled``
response waits until the Harness cancels its work; with ``then`` it swallows that cancellation
and answers ``then`` late (a result the Harness must discard).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from contracts import StrictJSONError, loads_strict
from reference_harness.errors import (
    ModelTimeout,
    ModelUnavailable,
    ScriptError,
    ScriptExhausted,
    ScriptUnconsumed,
)
from reference_harness.ports import (
    MISSING,
    AgentAnswer,
    FinalAnswer,
    InBandError,
    ProposedToolCall,
    ReviewAnswer,
    RouterAnswer,
    ToolCallsAnswer,
    ToolResult,
    ToolRows,
)

if TYPE_CHECKING:
    from reference_harness.ports import (
        AcceptedToolCall,
        AgentRequest,
        CancelToken,
        ReviewRequest,
        RouterRequest,
    )

__all__ = [
    "ScriptedAgent",
    "ScriptedPorts",
    "ScriptedReviewer",
    "ScriptedRouter",
    "ScriptedToolFailure",
    "ScriptedTools",
    "oversize_rows",
]

Turn = Mapping[str, Any]

BLOCK_BOUND_S: Final = 60.0
"""Safety bound of a ``block_until_cancelled`` turn whose interrupt never comes (seconds)."""

BLOCK_TIMEOUTS: Final = 3
"""A fixture's blocked model turn gives up after this many ``model_call_timeout_ms``."""


def block_bound_for(fixture: Mapping[str, Any]) -> float:
    """Return how long a blocked model turn of ``fixture`` waits for its interrupt (seconds).

    :data:`BLOCK_TIMEOUTS` model-call timeouts (the fixture's ``limits.model_call_timeout_ms``,
    default 5000 ms), at most :data:`BLOCK_BOUND_S`.
    """
    timeout_ms = int((fixture.get("limits") or {}).get("model_call_timeout_ms", 5000))
    return min(BLOCK_BOUND_S, BLOCK_TIMEOUTS * timeout_ms / 1000)


OVERSIZE_CHUNK: Final = 4096
"""Characters per generated row of an ``oversize`` response."""


class ScriptedToolFailure(RuntimeError):  # noqa: N818 - "failure" is the fixture's word (kind)
    """Raised by a scripted tool for a ``failure`` response; its message must never be output."""


class _Script:
    """One port's turns, consumed in order under a lock (ports run in worker threads).

    ``decoys`` answer only once ``turns`` are used up, and are never counted as left.
    """

    def __init__(
        self,
        name: str,
        turns: Sequence[Turn],
        errors: list[ScriptError],
        decoys: Sequence[Turn] = (),
    ) -> None:
        self._name = name
        self._turns: deque[Turn] = deque(turns)
        self._decoys: deque[Turn] = deque(decoys)
        self._errors = errors
        self._lock = threading.Lock()
        self._consumed = 0

    def pop(self) -> Turn:
        with self._lock:
            if not self._turns and self._decoys:
                self._consumed += 1
                return self._decoys.popleft()
            if not self._turns:
                error = ScriptExhausted(
                    f"{self._name}: call {self._consumed + 1} has no scripted turn "
                    f"(the script has {self._consumed})"
                )
                self._errors.append(error)
                raise error
            self._consumed += 1
            return self._turns.popleft()

    @property
    def left(self) -> int:
        with self._lock:
            return len(self._turns)


def _model_error(turn: Turn) -> Exception:
    if turn["error"] == "TIMEOUT":
        return ModelTimeout("scripted timeout")
    return ModelUnavailable("scripted unavailable")


def _parsed(text: str) -> object:
    """What a real adapter hands the Harness for text output: parsed JSON, else the raw text."""
    try:
        return loads_strict(text)
    except StrictJSONError:
        return text


class ScriptedRouter:
    """Router port answering ``RouterTurn``s: ``intent``, ``raw`` or ``error``."""

    def __init__(
        self,
        turns: Sequence[Turn],
        errors: list[ScriptError] | None = None,
        *,
        block_bound_s: float = BLOCK_BOUND_S,
    ) -> None:
        """Script the Router with ``turns``; exhaustion errors are appended to ``errors``."""
        self.errors: list[ScriptError] = errors if errors is not None else []
        self._script = _Script("router", turns, self.errors)
        self._block_bound_s = block_bound_s

    @property
    def left(self) -> int:
        """Turns not consumed yet."""
        return self._script.left

    def classify(self, request: RouterRequest, interrupt: threading.Event) -> RouterAnswer:  # noqa: ARG002 - scripted: the request does not change the answer
        """Answer the next turn (see the module docstring)."""
        return self._answer(self._script.pop(), interrupt)

    def _answer(self, turn: Turn, interrupt: threading.Event) -> RouterAnswer:
        if turn["kind"] == "block_until_cancelled":
            interrupt.wait(self._block_bound_s)
            return self._answer(turn["then"], interrupt)
        if turn["kind"] == "intent":
            return RouterAnswer(content=turn["intent"])
        if turn["kind"] == "raw":
            return RouterAnswer(content=turn["text"])
        raise _model_error(turn)


class ScriptedAgent:
    """Diagnosis Agent port answering ``AgentTurn``s.

    A ``draft_and_tool_calls`` turn (one message holding a draft and tool calls) is answered as
    its tool calls, as an OpenAI-compatible client reads such a message. ``decoys`` (the
    fixture's ``decoy_agent_turns``) answer only after ``turns`` are used up and are never
    reported unconsumed: a conforming Harness never asks for them.
    """

    def __init__(
        self,
        turns: Sequence[Turn],
        errors: list[ScriptError] | None = None,
        *,
        decoys: Sequence[Turn] = (),
        block_bound_s: float = BLOCK_BOUND_S,
    ) -> None:
        """Script the agent with ``turns``; exhaustion errors are appended to ``errors``."""
        self.errors: list[ScriptError] = errors if errors is not None else []
        self._script = _Script("agent", turns, self.errors, decoys)
        self._block_bound_s = block_bound_s
        self.requests: list[AgentRequest] = []

    @property
    def left(self) -> int:
        """Turns not consumed yet."""
        return self._script.left

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer the next turn; every request is kept in :attr:`requests` for inspection."""
        self.requests.append(request)
        return self._answer(self._script.pop(), interrupt)

    def _answer(self, turn: Turn, interrupt: threading.Event) -> AgentAnswer:
        kind = turn["kind"]
        if kind in {"tool_calls", "draft_and_tool_calls"}:
            return ToolCallsAnswer(
                calls=tuple(
                    ProposedToolCall(
                        id=call.get("id", MISSING),
                        name=call["name"],
                        arguments=call["arguments"],
                    )
                    for call in turn["tool_calls"]
                )
            )
        if kind == "draft":
            return FinalAnswer(content=turn["draft"])
        if kind == "knowledge_answer":
            return FinalAnswer(content=turn["answer"])
        if kind == "raw":
            return FinalAnswer(content=_parsed(turn["text"]))
        if kind == "block_until_cancelled":
            interrupt.wait(self._block_bound_s)
            return self._answer(turn["then"], interrupt)
        if kind == "ignore_cancellation":
            return self._answer(turn["then"], interrupt)
        raise _model_error(turn)


class ScriptedReviewer:
    """SemanticGuard port answering ``ReviewTurn``s."""

    def __init__(
        self,
        turns: Sequence[Turn],
        errors: list[ScriptError] | None = None,
        *,
        block_bound_s: float = BLOCK_BOUND_S,
    ) -> None:
        """Script the reviewer with ``turns``; exhaustion errors are appended to ``errors``."""
        self.errors: list[ScriptError] = errors if errors is not None else []
        self._script = _Script("semantic_guard", turns, self.errors)
        self._block_bound_s = block_bound_s
        self.requests: list[ReviewRequest] = []

    @property
    def left(self) -> int:
        """Turns not consumed yet."""
        return self._script.left

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        """Answer the next turn; every request is kept in :attr:`requests` for inspection."""
        self.requests.append(request)
        return self._answer(self._script.pop(), interrupt)

    def _answer(self, turn: Turn, interrupt: threading.Event) -> ReviewAnswer:
        kind = turn["kind"]
        if kind == "verdict":
            return ReviewAnswer(content=turn["verdict"])
        if kind == "raw":
            return ReviewAnswer(content=_parsed(turn["text"]))
        if kind == "block_until_cancelled":
            interrupt.wait(self._block_bound_s)
            return self._answer(turn["then"], interrupt)
        raise _model_error(turn)


class OversizeRows:
    """Rows whose texts total ``size`` characters, generated lazily (never held at once).

    Sized: ``len()`` is the number of rows (``ceil(size / OVERSIZE_CHUNK)``), known without
    generating them, so that the projection counts a payload of any valid size (up to 2**53 - 1
    bytes, docs/decisions/extreme-limits-11.md) without reading past its ``max_items`` rows.
    """

    def __init__(self, size: int, *, lookup: bool) -> None:
        """Rows of ``size`` characters in all (``size`` >= 0); lookup rows carry a document id."""
        self._size = size
        self._lookup = lookup

    def __len__(self) -> int:
        """The number of rows: ``ceil(size / OVERSIZE_CHUNK)``."""
        return (self._size + OVERSIZE_CHUNK - 1) // OVERSIZE_CHUNK

    def __iter__(self) -> Iterator[dict[str, str]]:
        """Yield the rows, one :data:`OVERSIZE_CHUNK`-character text each (the last shorter)."""
        filler = "x" * OVERSIZE_CHUNK
        produced = 0
        index = 0
        while produced < self._size:
            index += 1
            text = filler[: min(OVERSIZE_CHUNK, self._size - produced)]
            produced += len(text)
            row = {"text": text}
            if self._lookup:
                row["document_id"] = f"oversize-{index}"
            yield row


def oversize_rows(size: int, *, lookup: bool) -> OversizeRows:
    """Rows whose texts total ``size`` characters, generated lazily (:class:`OversizeRows`)."""
    return OversizeRows(size, lookup=lookup)


@dataclass
class _ToolScript:
    responses: deque[Turn]
    default: Turn | None
    executions: int = 0


class ScriptedTools:
    """Tool backend answering ``ToolResponse``s per Tool name.

    The n-th execution of a tool gets ``responses[n]``, then ``default``; with neither left the
    execution raises :class:`ScriptExhausted` (a tool failure for the Harness, remembered here).
    """

    def __init__(
        self, scripts: Mapping[str, Mapping[str, Any]], errors: list[ScriptError] | None = None
    ) -> None:
        """Script each tool with ``{responses: [...], default?: ...}``."""
        self.errors: list[ScriptError] = errors if errors is not None else []
        self._scripts = {
            name: _ToolScript(deque(script.get("responses", ())), script.get("default"))
            for name, script in scripts.items()
        }
        self.calls: list[AcceptedToolCall] = []

    @property
    def left(self) -> int:
        """Scripted (non-default) responses not consumed yet, over all tools."""
        return sum(len(script.responses) for script in self._scripts.values())

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:
        """Answer the next response of ``call.tool_name`` (see the class docstring)."""
        self.calls.append(call)
        script = self._scripts.get(call.tool_name)
        response: Turn | None = None
        if script is not None:
            script.executions += 1
            response = script.responses.popleft() if script.responses else script.default
        if response is None:
            error = ScriptExhausted(
                f"tools.{call.tool_name}: execution has no scripted response or default"
            )
            self.errors.append(error)
            raise error
        return await self.execute_response(call, response, cancel)

    async def execute_response(
        self, call: AcceptedToolCall, response: Turn, cancel: CancelToken | None = None
    ) -> ToolResult:
        """Answer the scripted ``response`` to ``call`` (a late ``then`` answer has no token)."""
        kind = response["kind"]
        if kind == "rows":
            return ToolRows(
                rows=iter([dict(item) for item in response["items"]]),
                total_matched=response.get("total_matched"),
            )
        if kind == "in_band_error":
            return InBandError(code=response["code"])
        if kind == "failure":
            raise ScriptedToolFailure(response["message"])
        if kind == "oversize":
            lookup = call.tool_name == "lookup_documents"
            return ToolRows(rows=oversize_rows(response["bytes"], lookup=lookup))
        late = response.get("then")
        if cancel is None or late is None:  # block_until_cancelled: the Harness cancels it
            if cancel is not None:
                await cancel.wait()
            return InBandError(code="CANCELLED")
        with contextlib.suppress(asyncio.CancelledError):  # swallowed: it answers late
            await cancel.wait()
        return await self.execute_response(call, late)


@dataclass
class ScriptedPorts:
    """The four scripted ports of one fixture, sharing one error list."""

    router: ScriptedRouter
    agent: ScriptedAgent
    reviewer: ScriptedReviewer
    tools: ScriptedTools
    errors: list[ScriptError] = field(default_factory=list)

    @classmethod
    def from_fixture(cls, fixture: Mapping[str, Any]) -> ScriptedPorts:
        """Build the ports from a Scenario Fixture document (already validated)."""
        errors: list[ScriptError] = []
        bound = block_bound_for(fixture)
        return cls(
            router=ScriptedRouter(fixture["router"], errors, block_bound_s=bound),
            agent=ScriptedAgent(
                fixture["agent"],
                errors,
                decoys=fixture.get("decoy_agent_turns", ()),
                block_bound_s=bound,
            ),
            reviewer=ScriptedReviewer(fixture["semantic_guard"], errors, block_bound_s=bound),
            tools=ScriptedTools(fixture["tools"], errors),
            errors=errors,
        )

    def script_error(self, *, cancelled: bool = False) -> ScriptError | None:
        """Return the first exhaustion, else a :class:`ScriptUnconsumed` naming what is left.

        A ``cancelled`` Run may leave turns unconsumed (a disconnect stops the Run wherever it
        happens): only an exhaustion is an error then.
        """
        if self.errors:
            return self.errors[0]
        if cancelled:
            return None
        left = {
            "router": self.router.left,
            "agent": self.agent.left,
            "semantic_guard": self.reviewer.left,
            "tools": self.tools.left,
        }
        unconsumed = {name: count for name, count in left.items() if count}
        if unconsumed:
            detail = ", ".join(
                f"{name}: {count} turn(s) left" for name, count in unconsumed.items()
            )
            return ScriptUnconsumed(f"script not consumed: {detail}")
        return None
