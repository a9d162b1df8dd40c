"""The partial order the kit checks on a Run's trace and frames, as data (and nothing more).

Each :class:`OrderRule` is one ordering constraint a check enforces, with the rule id its failure
names and the condition under which it applies. ``docs/implementers.md`` ("The partial order the
kit checks") renders exactly these rows (:func:`order_table`); a test keeps the page and the data
in step, and another proves each row is enforced. Any other order of events (e.g.
``TOOL_WORK_CANCELLED`` before ``INTERRUPT_REQUESTED``, tool works among themselves, the events of
parallel tool calls) is the Harness's choice, judged only by ``R1.deterministic-control``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["LAYER_ORDER", "ORDER_RULES", "OrderRule", "order_table", "order_violations"]

Kind = Literal["before", "requires", "none-after", "last"]


@dataclass(frozen=True, slots=True)
class OrderRule:
    """One ordering constraint.

    Attributes:
        rule_id: the rule a violation names.
        first: the earlier event type (``frame:<event>`` for an SSE frame).
        then: the later event type; for ``none-after``, the type that may not follow ``first``.
        kind: ``before`` (when both occur, ``first``'s first occurrence precedes ``then``'s
            first), ``requires`` (a trace holding ``then`` holds ``first``: in which order is a
            ``before`` rule's), ``none-after`` (no ``then`` after the
            first ``first``), ``last`` (``first`` is the last event).
        when: when the rule applies, in words (the doc's column).
        checked_by: the check function that enforces it.
    """

    rule_id: str
    first: str
    then: str
    kind: Kind
    when: str
    checked_by: str


_CANCEL = "conformance.checks._cancellation.check_layered_cancellation"
_LATE = "conformance.checks._late.late_result_findings"
_FRAMES = "conformance.checks._frames.record_client_frames"
_LAYERS = "conformance.checks._late.late_result_findings"
_WORK_ON_A_RESULT: Final = (
    "INTENT_ROUTED",
    "PREVIOUS_TURN_SELECTED",
    "TOOL_CALL_REJECTED",
    "DRAFT_SUBMITTED",
    "EVIDENCE_VALIDATION",
    "STRUCTURAL_REPAIR_REQUESTED",
    "SEMANTIC_VERDICT",
    "RESULT_RELEASED",
)

ORDER_RULES: Final[tuple[OrderRule, ...]] = (
    OrderRule(
        "R0.valid-observation",
        "RUN_FINISHED",
        "",
        "last",
        "always",
        "conformance.checks._invariants.check_global_invariants",
    ),
    OrderRule(
        "R8.layered-cancellation",
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "before",
        "any cancelled Run, whatever was in flight (model call, tool work, nothing)",
        _LAYERS,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "before",
        "any cancelled Run, whatever was in flight (model call, tool work, nothing)",
        _LAYERS,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "CANCEL_REQUESTED",
        "INTERRUPT_REQUESTED",
        "before",
        "any cancelled Run (the request is the cause of every other layer)",
        _LAYERS,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "CANCEL_REQUESTED",
        "TOOL_WORK_CANCELLED",
        "before",
        "any cancelled Run (the request is the cause of every other layer)",
        _LAYERS,
    ),
    OrderRule(
        "R8.tool-stop-recorded",
        "CANCEL_REQUESTED",
        "TOOL_WORK_CANCELLED",
        "requires",
        "any Run: tool work is cancelled only by the Run's cancellation (a tool stopped by its "
        "own timeout is TOOL_TIMEOUT, not cancelled work)",
        _LAYERS,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "INTERRUPT_REQUESTED",
        "LATE_RESULT_DISCARDED",
        "before",
        "the blocked call's answer arrived late",
        _CANCEL,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "NEW_WORK_PREVENTED",
        "MODEL_CALL_STARTED",
        "none-after",
        "the client disconnects during a model call",
        _CANCEL,
    ),
    OrderRule(
        "R8.layered-cancellation",
        "NEW_WORK_PREVENTED",
        "TOOL_CALL_ACCEPTED",
        "none-after",
        "the client disconnects during a model call",
        _CANCEL,
    ),
    *(
        OrderRule(
            "R8.late-result-discarded",
            "CANCEL_REQUESTED",
            event,
            "none-after",
            "the Run is cancelled",
            _LATE,
        )
        for event in _WORK_ON_A_RESULT
    ),
    OrderRule(
        "R8.late-tool-result-discarded",
        "CANCEL_REQUESTED",
        "EVIDENCE_CLASSIFIED",
        "none-after",
        "the Run is cancelled",
        _LATE,
    ),
    OrderRule(
        "R1.released-is-agent-authored",
        "EVIDENCE_VALIDATION",
        "RESULT_RELEASED",
        "before",
        "a DIAGNOSIS_DRAFT or KNOWLEDGE_ANSWER is released (a valid validation)",
        "conformance.checks._invariants.check_global_invariants",
    ),
    OrderRule(
        "R1.released-is-agent-authored",
        "SEMANTIC_VERDICT",
        "RESULT_RELEASED",
        "before",
        "a DIAGNOSIS_DRAFT or KNOWLEDGE_ANSWER is released (a SUPPORTED verdict)",
        "conformance.checks._invariants.check_global_invariants",
    ),
    OrderRule(
        "R3.invocation-lifecycle",
        "INVOCATION_STATUS_CHANGED",
        "INVOCATION_STATUS_CHANGED",
        "before",
        "per Tool Call ID: PROJECTING before READY or ERROR",
        "conformance.checks._outcome.record_evidence_outcome",
    ),
    OrderRule(
        "R7.client-stream",
        "frame:RESULT_RELEASED",
        "frame:result",
        "before",
        "a result is published and the client is still there",
        _FRAMES,
    ),
    OrderRule(
        "R7.client-stream",
        "frame:result",
        "frame:RUN_FINISHED",
        "before",
        "a result is published and the client is still there",
        _FRAMES,
    ),
    OrderRule("R7.client-stream", "frame:end", "", "last", "the client stays to the end", _FRAMES),
    OrderRule(
        "R8.nothing-after-disconnect",
        "frame:<disconnect>",
        "frame:*",
        "none-after",
        "the client disconnects (client.disconnect_on)",
        _FRAMES,
    ),
)
"""Every ordering rule the checks enforce, in the doc's order."""

LAYER_ORDER: Final = tuple(r for r in ORDER_RULES if r.checked_by == _LAYERS)
"""The order of the cancellation layers, judged on every Run (the global invariants)."""


def order_table() -> list[str]:
    """The Markdown rows of ``docs/implementers.md``'s order table, one per rule."""
    rows = []
    for rule in ORDER_RULES:
        first, then = f"`{rule.first}`", f"`{rule.then}`" if rule.then else ""
        if rule.kind == "before":
            text = f"{first} before {then}"
        elif rule.kind == "requires":
            text = f"{then} only in a Run with {first}"
        elif rule.kind == "none-after":
            text = f"no {then} after {first}"
        else:
            text = f"{first} is last"
        rows.append(f"| {text} | {rule.when} | `{rule.rule_id}` |")
    return rows


def _first(trace: list[dict[str, Any]], event_type: str) -> int | None:
    return next((i for i, e in enumerate(trace) if e.get("type") == event_type), None)


def _violation(trace: list[dict[str, Any]], rule: OrderRule) -> str | None:
    """What ``trace`` does against the trace-level ``rule``, or ``None`` when it keeps it."""
    first = _first(trace, rule.first)
    then = _first(trace, rule.then)
    problem: str | None = None
    if rule.kind == "last":
        if trace and trace[-1].get("type") != rule.first:
            problem = f"the trace does not end {rule.first}"
    elif rule.kind == "requires":
        if then is not None and first is None:
            problem = f"{rule.then} (event {then + 1}) but no {rule.first}"
    elif first is None:
        pass
    elif rule.kind == "before":
        if then is not None and then < first:
            problem = f"{rule.then} (event {then + 1}) before {rule.first}"
    else:
        later = [i for i, e in enumerate(trace) if i > first and e.get("type") == rule.then]
        if later:
            problem = f"{rule.then} (event {later[0] + 1}) after {rule.first} (event {first + 1})"
    return problem


def order_violations(
    trace: list[dict[str, Any]], rules: tuple[OrderRule, ...]
) -> list[tuple[OrderRule, str]]:
    """The trace-level ``rules`` (not frames) that ``trace`` breaks, each with a message.

    A ``before`` rule is judged only when both events occur (whether each must occur is another
    check's); ``requires`` when ``then`` occurs; ``none-after`` when ``first`` occurs.
    """
    broken: list[tuple[OrderRule, str]] = []
    for rule in rules:
        if rule.first.startswith("frame:") or rule.first == rule.then:
            continue
        problem = _violation(trace, rule)
        if problem is not None:
            broken.append((rule, problem))
    return broken
