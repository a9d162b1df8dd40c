"""Perturbations: wrappers around real model ports that force a scenario's WHEN (DESIGN §9).

A real model cannot be told to misbehave, so a Scenario Fixture names ``perturbations`` and the
kit wraps the real ports with them. Every wrapper still makes the real call (one attempt, as the
Harness sees it) and then alters the *answer*, never the Harness:

``DUPLICATE_FIRST_TOOL_CALL_ID``
    The first step with tool calls presents the first call's id twice: the second call of the step
    gets the first one's id, or, if the step has one call, a copy of that call is appended.
``STRIP_DRAFT_BINDINGS``
    Every Diagnosis Draft the agent writes loses its bindings: each analysis's ``tool_call_ids``
    becomes ``[]`` (initial draft and structural repair alike).
``INVALID_FIRST_REVIEW``
    The first SemanticGuard answer is replaced by :data:`INVALID_REVIEW` (not a Semantic Verdict).
``FABRICATE_DOCUMENT_ID``
    Every Knowledge Answer cites, in its first item, :data:`FABRICATED_DOCUMENT_ID` from the
    answer's lookup call (a document id no lookup returns).
``DISCONNECT_DURING_MODEL_CALL``
    At the first Diagnosis Agent call the wrapper calls ``disconnect()`` (the IUT wires it to the
    Run's client-disconnect cancellation), waits until the Harness sets ``interrupt`` (bounded),
    then makes the real call: its answer arrives after the cancellation, a late result.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, get_args

from reference_harness.ports import (
    AgentAnswer,
    AgentPort,
    AgentRequest,
    FinalAnswer,
    ReviewAnswer,
    ReviewerPort,
    ReviewRequest,
    RouterPort,
    ToolCallsAnswer,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "FABRICATED_DOCUMENT_ID",
    "INVALID_REVIEW",
    "ModelPorts",
    "Perturbation",
    "PerturbationError",
    "perturb",
]

Perturbation: TypeAlias = Literal[
    "DUPLICATE_FIRST_TOOL_CALL_ID",
    "STRIP_DRAFT_BINDINGS",
    "INVALID_FIRST_REVIEW",
    "FABRICATE_DOCUMENT_ID",
    "DISCONNECT_DURING_MODEL_CALL",
]
"""The fixture's perturbation vocabulary (contract sheet: perturbation)."""

FABRICATED_DOCUMENT_ID: Final = "srdh-fabricated-document"
"""The document id ``FABRICATE_DOCUMENT_ID`` cites (no lookup backend returns it)."""

INVALID_REVIEW: Final[dict[str, object]] = {"verdict": "PERTURBED", "unsupported_analysis_ids": []}
"""The answer ``INVALID_FIRST_REVIEW`` puts in place of the first review (an invalid verdict)."""

_KNOWN: Final = frozenset(get_args(Perturbation))


class PerturbationError(ValueError):
    """A perturbation name is not in the vocabulary, or one needs a hook that was not given."""


@dataclass(frozen=True, slots=True)
class ModelPorts:
    """The three model ports of one Harness."""

    router: RouterPort
    agent: AgentPort
    reviewer: ReviewerPort


class _Once:
    """A thread-safe latch: :meth:`take` is true exactly once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._taken = False

    def take(self) -> bool:
        with self._lock:
            taken, self._taken = self._taken, True
            return not taken


class _DuplicateFirstToolCallId:
    def __init__(self, inner: AgentPort) -> None:
        self._inner = inner
        self._once = _Once()

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        answer = self._inner.step(request, interrupt)
        if not isinstance(answer, ToolCallsAnswer) or not answer.calls or not self._once.take():
            return answer
        first, *rest = answer.calls
        if rest:
            return ToolCallsAnswer((first, replace(rest[0], id=first.id), *rest[1:]))
        return ToolCallsAnswer((first, replace(first)))


def _stripped(content: object) -> object:
    if not isinstance(content, dict) or not isinstance(content.get("analyses"), list):
        return content
    stripped = copy.deepcopy(content)
    for analysis in stripped["analyses"]:
        if isinstance(analysis, dict):
            analysis["tool_call_ids"] = []
    return stripped


def _fabricated(content: object) -> object:
    if not isinstance(content, dict) or not isinstance(content.get("items"), list):
        return content
    fabricated = copy.deepcopy(content)
    reference = {
        "tool_call_id": fabricated.get("lookup_tool_call_id"),
        "document_id": FABRICATED_DOCUMENT_ID,
    }
    items = fabricated["items"]
    if items and isinstance(items[0], dict):
        references = items[0].get("references")
        items[0]["references"] = [*(references if isinstance(references, list) else []), reference]
    else:
        items.insert(0, {"item_id": "fabricated", "text": "fabricated", "references": [reference]})
    return fabricated


class _FinalAnswerRewrite:
    def __init__(self, inner: AgentPort, rewrite: Callable[[object], object]) -> None:
        self._inner = inner
        self._rewrite = rewrite

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        answer = self._inner.step(request, interrupt)
        if isinstance(answer, FinalAnswer):
            return FinalAnswer(self._rewrite(answer.content))
        return answer


class _InvalidFirstReview:
    def __init__(self, inner: ReviewerPort) -> None:
        self._inner = inner
        self._once = _Once()

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        answer = self._inner.review(request, interrupt)
        return ReviewAnswer(copy.deepcopy(INVALID_REVIEW)) if self._once.take() else answer


class _DisconnectDuringModelCall:
    def __init__(self, inner: AgentPort, disconnect: Callable[[], None], wait_s: float) -> None:
        self._inner = inner
        self._disconnect = disconnect
        self._wait_s = wait_s
        self._once = _Once()

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        if self._once.take():
            self._disconnect()
            interrupt.wait(self._wait_s)
        return self._inner.step(request, interrupt)


def perturb(
    ports: ModelPorts,
    perturbations: Iterable[str],
    *,
    disconnect: Callable[[], None] | None = None,
    wait_s: float = 5.0,
) -> ModelPorts:
    """Wrap ``ports`` with ``perturbations`` (applied in the order given, each at most once).

    Args:
        ports: the real ports.
        perturbations: fixture perturbation names.
        disconnect: called from the model-call thread to simulate the SSE client going away;
            required by ``DISCONNECT_DURING_MODEL_CALL``.
        wait_s: how long ``DISCONNECT_DURING_MODEL_CALL`` waits for ``interrupt`` (seconds).

    Raises:
        PerturbationError: an unknown name, or ``DISCONNECT_DURING_MODEL_CALL`` without
            ``disconnect``.
    """
    agent, reviewer = ports.agent, ports.reviewer
    for name in dict.fromkeys(perturbations):
        if name not in _KNOWN:
            message = f"unknown perturbation {name!r}; expected one of {sorted(_KNOWN)}"
            raise PerturbationError(message)
        if name == "DUPLICATE_FIRST_TOOL_CALL_ID":
            agent = _DuplicateFirstToolCallId(agent)
        elif name == "STRIP_DRAFT_BINDINGS":
            agent = _FinalAnswerRewrite(agent, _stripped)
        elif name == "FABRICATE_DOCUMENT_ID":
            agent = _FinalAnswerRewrite(agent, _fabricated)
        elif name == "INVALID_FIRST_REVIEW":
            reviewer = _InvalidFirstReview(reviewer)
        else:
            if disconnect is None:
                message = "DISCONNECT_DURING_MODEL_CALL needs a disconnect() hook"
                raise PerturbationError(message)
            agent = _DisconnectDuringModelCall(agent, disconnect, wait_s)
    return ModelPorts(ports.router, agent, reviewer)
