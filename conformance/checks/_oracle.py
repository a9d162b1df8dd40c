"""What a conforming Harness must do with a fixture, computed from the fixture and the rules alone.

The expectations here come from the contract sheet (Tool Call ID classification, the scripted tool
backends, the structural repair, the previous-turn rule), never from a Harness's output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "SKIP_REPORT_LIMIT",
    "PresentedCall",
    "Submission",
    "arguments_give_scope",
    "classify_presented_id",
    "expected_identity",
    "expected_previous_turn",
    "expected_response",
    "presented_calls",
    "submissions",
    "submitted_documents",
]

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_MAX_ID_CHARS = 128
_SKIP_REASON = {
    "RUNNING": "STATE_RUNNING",
    "FALLBACK": "STATE_FALLBACK",
    "FAILED": "STATE_FAILED",
    "CANCELLED": "STATE_CANCELLED",
}
_TERMINAL_TURNS = frozenset({"draft", "knowledge_answer", "raw", "error"})

SKIP_REPORT_LIMIT = 100
"""Most passed-over Runs PREVIOUS_TURN_SELECTED lists (docs/contracts.md: "the newer Runs passed
over are reported with a skip reason (newest first, at most 100)")."""


@dataclass(frozen=True, slots=True)
class PresentedCall:
    """One tool call as the agent presented it: agent step (1-based), index in the step."""

    step: int
    position: int
    tool: str
    present: bool
    value: Any
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Submission:
    """A draft or answer the agent submitted: attempt 1 (first) or 2 (the structural repair)."""

    attempt: int
    kind: str
    document: Any


def classify_presented_id(call: PresentedCall, accepted: set[str]) -> str | None:
    """Return MISSING_ID, INVALID_ID, DUPLICATE_ID or ``None`` (accepted) for a presented id.

    Absent, ``null`` and ``""`` are missing; any other value that is not a 1-128 character string
    of ``[A-Za-z0-9][A-Za-z0-9._:-]*`` is invalid; a conforming id already accepted earlier in the
    Run is a duplicate (Requirement "Tool invocation identity SHALL use the framework Tool Call
    ID").
    """
    value = call.value
    if not call.present or value is None or value == "":
        return "MISSING_ID"
    if not isinstance(value, str) or len(value) > _MAX_ID_CHARS or not _ID.fullmatch(value):
        return "INVALID_ID"
    if value in accepted:
        return "DUPLICATE_ID"
    return None


def _unwrap(turn: dict[str, Any]) -> dict[str, Any]:
    while turn.get("kind") in {"block_until_cancelled", "ignore_cancellation"}:
        turn = turn["then"]
    return turn


def _tool_steps(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for turn in fixture.get("agent", []):
        if turn.get("kind") != "tool_calls":
            break
        steps.append(turn)
    return steps


def presented_calls(fixture: dict[str, Any]) -> list[PresentedCall]:
    """Return the tool calls of the agent's tool steps, up to its first submission."""
    calls: list[PresentedCall] = []
    for step, turn in enumerate(_tool_steps(fixture), start=1):
        for position, call in enumerate(turn["tool_calls"]):
            calls.append(
                PresentedCall(
                    step=step,
                    position=position,
                    tool=call["name"],
                    present="id" in call,
                    value=call.get("id"),
                    arguments=call["arguments"],
                )
            )
    return calls


def expected_identity(
    fixture: dict[str, Any],
) -> tuple[list[PresentedCall], list[tuple[PresentedCall, str]]]:
    """Return (accepted calls in acceptance order, rejected calls with their reason)."""
    accepted: list[PresentedCall] = []
    rejected: list[tuple[PresentedCall, str]] = []
    seen: set[str] = set()
    for call in presented_calls(fixture):
        reason = classify_presented_id(call, seen)
        if reason is None:
            accepted.append(call)
            seen.add(call.value)
        else:
            rejected.append((call, reason))
    return accepted, rejected


_MAX_TARGET: Final = 256
_MAX_QUERY: Final = 1024


def arguments_give_scope(arguments: object) -> bool | None:
    """Whether a query scope derives from ``arguments``: ``True``, ``False``, or ``None`` (open).

    ``True`` for exactly ``{target, time_range: {start_ms, end_ms}, query}`` with a target of
    1-256 characters, non-negative integer times ``start_ms <= end_ms`` and a query of at most 1024
    characters; ``False`` when a member is missing or of another shape, or the range is reversed;
    ``None`` when only extra members are wrong (a Harness may ignore or refuse them).
    """
    if not isinstance(arguments, dict):
        return False
    target, window, query = (arguments.get(k) for k in ("target", "time_range", "query"))
    window = window if isinstance(window, dict) else {}
    times = (window.get("start_ms"), window.get("end_ms"))
    shaped = (
        isinstance(target, str)
        and 1 <= len(target) <= _MAX_TARGET
        and isinstance(query, str)
        and len(query) <= _MAX_QUERY
        and all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in times)
    )
    if not shaped or int(times[1] or 0) < int(times[0] or 0):
        return False
    exact = set(arguments) == {"target", "time_range", "query"} and set(window) == {
        "start_ms",
        "end_ms",
    }
    return True if exact else None


def expected_response(fixture: dict[str, Any], call: PresentedCall) -> dict[str, Any] | None:
    """Return the scripted backend result the accepted ``call`` gets (n-th run of its tool).

    A call whose arguments give no query scope is refused INVALID_ARGUMENTS, never executed: it
    gets no result (``None``) and takes no turn of its tool's script.
    """
    if arguments_give_scope(call.arguments) is False:
        return None
    accepted, _ = expected_identity(fixture)
    same_tool = [c for c in accepted if c.tool == call.tool]
    earlier = same_tool[: same_tool.index(call)]
    nth = sum(arguments_give_scope(c.arguments) is not False for c in earlier)
    script = fixture.get("tools", {}).get(call.tool)
    if script is None:
        return None
    responses = script.get("responses", [])
    if nth < len(responses):
        return dict(responses[nth])
    default = script.get("default")
    return None if default is None else dict(default)


def submissions(fixture: dict[str, Any]) -> list[Submission]:
    """Return the agent's first submission and its structural repair answer, when scripted."""
    agent = fixture.get("agent", [])
    found: list[Submission] = []
    for index, turn in enumerate(agent):
        if _unwrap(turn).get("kind") in _TERMINAL_TURNS:
            for attempt, later in enumerate(agent[index : index + 2], start=1):
                inner = _unwrap(later)
                document = inner.get("draft", inner.get("answer"))
                found.append(Submission(attempt=attempt, kind=inner["kind"], document=document))
            break
    return found


def submitted_documents(fixture: dict[str, Any]) -> list[object]:
    """Every document the agent may submit: :func:`submissions`, then each decoy turn's.

    A decoy (``decoy_agent_turns``) answers a Harness that asks the agent once more; what it
    answers is still the agent's own submission (whether asking was right is judged elsewhere),
    e.g. the repair answer of a Harness that refused a call the first submission cites
    (red-team-8.md, S15).
    """
    documents: list[object] = [s.document for s in submissions(fixture)]
    for turn in fixture.get("decoy_agent_turns", []):
        inner = _unwrap(turn)
        if inner.get("kind") in {"draft", "knowledge_answer"}:
            documents.append(inner.get("draft", inner.get("answer")))
    return documents


def expected_previous_turn(
    fixture: dict[str, Any], *, limit: int | None = SKIP_REPORT_LIMIT
) -> tuple[str | None, list[dict[str, str]]]:
    """Return (selected run id or ``None``, the newer Runs passed over with their skip reasons).

    The passed-over Runs are newest first, the newest ``limit`` of them (the contract's cap on the
    skip report; ``None``: all of them).

    The previous turn is the prior Run *of the fixture's session* with the greatest ``seq`` (never
    the creation time, never the fixture's list order) whose intent is DIAGNOSIS and state
    SUCCESS; every newer Run of the session is skipped with STATE_<state> (RUNNING included) or,
    for a SUCCESS Run of another intent, INTENT_KNOWLEDGE_QUERY. Runs of other sessions are
    neither selected nor skipped.
    """
    skipped: list[dict[str, str]] = []
    session = fixture.get("session_id")
    same = [r for r in fixture.get("prior_runs", []) if r.get("session_id", session) == session]
    for row in sorted(same, key=lambda r: r["seq"], reverse=True):
        if row.get("intent") == "DIAGNOSIS" and row.get("state") == "SUCCESS":
            return row["run_id"], skipped[:limit]
        state = row.get("state")
        if state in _SKIP_REASON:
            reason = _SKIP_REASON[state]
        elif row.get("intent") == "KNOWLEDGE_QUERY":
            reason = "INTENT_KNOWLEDGE_QUERY"
        else:
            reason = "STATE_RUNNING"
        skipped.append({"run_id": row["run_id"], "reason": reason})
    return None, skipped[:limit]
