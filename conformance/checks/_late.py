"""Late results: what a Harness does with an answer that arrives after its work was stopped.

Requirement "Cancellation SHALL be layered and observable": the system "discards any late model
result", and the contract distinguishes "cancellable Tool work" from timeouts. Global invariants,
applied to every Run (expectations come from the fixture and the trace order, never from the
IUT's own claims):

``R8.late-result-discarded``
    After the first ``CANCEL_REQUESTED`` nothing is done with a late answer: no
    ``INTENT_ROUTED``, ``PREVIOUS_TURN_SELECTED``, ``TOOL_CALL_REJECTED``, ``DRAFT_SUBMITTED``,
    ``EVIDENCE_VALIDATION``, ``STRUCTURAL_REPAIR_REQUESTED``, ``SEMANTIC_VERDICT`` or
    ``RESULT_RELEASED`` follows it, and a model-call attempt finishing after it finishes
    ``CANCELLED``. A model call in flight at the cancellation whose answer does arrive late (its
    scripted turn answers late: ``block_until_cancelled``, ``ignore_cancellation``; over the
    kit's model endpoint: its held ``block_until_cancelled`` request was ``ANSWERED``, which the
    endpoint does only once the IUT sent a later request or its hold bound passed, so the client
    stayed to receive it; scripted, only with ``model_call_timeout_ms`` of at least
    :data:`SURE_WAIT_MS`) is recorded ``LATE_RESULT_DISCARDED`` (component, call_index, attempt)
    after the cancellation. Every ``LATE_RESULT_DISCARDED`` names (component, purpose,
    call_index, attempt) of an attempt whose ``MODEL_CALL_FINISHED`` came before it with outcome
    ``CANCELLED`` (or ``TIMEOUT``: a late answer after the Harness's own timeout), and records
    that one late result once. ``R8.layered-cancellation`` / ``R8.tool-work-cancelled`` here:
    ``CANCEL_REQUESTED`` before ``NEW_WORK_PREVENTED`` before ``INTERRUPT_REQUESTED`` whenever
    they occur (whatever was in flight: ``_order.LAYER_ORDER``), ``INTERRUPT_REQUESTED`` at most
    once per Run, ``TOOL_WORK_CANCELLED`` at most once per Tool Call ID.
``R8.tool-stop-recorded``
    An invocation still in flight when the Run is cancelled (its terminal change comes after
    ``CANCEL_REQUESTED``) ends ERROR with code ``CANCELLED``; an invocation whose backend blocks
    until its work is cancelled and that ended before any cancellation was stopped by the tool
    timeout: ERROR with ``TOOL_TIMEOUT``; ``CANCELLED`` is never the code of an invocation that
    ended before the cancellation (or in a Run never cancelled).
``R8.late-tool-result-discarded``
    A tool answer arriving after its work was stopped is never projected (a blocking backend's
    invocation never ends READY before the cancellation), never classified
    (``EVIDENCE_CLASSIFIED`` only for an invocation whose record is READY, and never after
    ``CANCEL_REQUESTED``) and its rows never reach a model call.
"""

from __future__ import annotations

from typing import Any, Final

from conformance.checks._order import LAYER_ORDER, order_violations
from conformance.checks._result import CheckResult, Findings

__all__ = [
    "SURE_WAIT_MS",
    "answered_late",
    "check_late_results",
    "late_result_findings",
    "tool_responses",
]

_LATE: Final = "R8.late-result-discarded"
_STOP: Final = "R8.tool-stop-recorded"
_LATE_TOOL: Final = "R8.late-tool-result-discarded"

_WORK_ON_A_RESULT: Final = {
    "INTENT_ROUTED": "routed a Router answer",
    "PREVIOUS_TURN_SELECTED": "selected a previous turn",
    "TOOL_CALL_REJECTED": "classified the tool calls of an agent answer",
    "DRAFT_SUBMITTED": "took an agent answer as a submission",
    "EVIDENCE_VALIDATION": "ran the EvidenceGuard",
    "STRUCTURAL_REPAIR_REQUESTED": "requested a structural repair",
    "SEMANTIC_VERDICT": "took a SemanticGuard verdict",
    "RESULT_RELEASED": "released a result",
}
"""Trace events that use a model or tool result: none may follow the cancellation."""

_STOPPED: Final = frozenset({"CANCELLED", "TIMEOUT"})
"""Outcomes of an attempt whose answer, arriving after all, is a late result."""

_LATE_TURNS: Final = frozenset({"block_until_cancelled", "ignore_cancellation"})
_SCRIPTS: Final = {
    "ROUTER": "router",
    "DIAGNOSIS_AGENT": "agent",
    "SEMANTIC_GUARD": "semantic_guard",
}
_MIN_NEEDLE: Final = 8
_DEFAULT_TIMEOUT_MS: Final = 5000

SURE_WAIT_MS: Final = 2000
"""Shortest ``model_call_timeout_ms`` at which a scripted late answer surely reaches a Harness.

A scripted ``block_until_cancelled`` / ``ignore_cancellation`` turn answers once its call is
interrupted (the cancellation); a Harness that waits for the interrupted call until its own
deadline receives that answer unless the deadline passes first, which a shorter timeout (or a
Harness starved of CPU for a second) allows. Below this bound ``LATE_RESULT_DISCARDED`` is not
required for it (either order is conforming)."""


def _cancel_at(trace: list[dict[str, Any]]) -> int | None:
    return next((i for i, e in enumerate(trace) if e.get("type") == "CANCEL_REQUESTED"), None)


def _key(data: dict[str, Any]) -> tuple[Any, Any, Any]:
    return data.get("component"), data.get("call_index"), data.get("attempt")


def _answers_late(
    observation: dict[str, Any], fixture: dict[str, Any], component: str, position: int
) -> bool:
    """Whether the ``position``-th attempt (0-based) of ``component`` got an answer after all.

    Over the kit's endpoint the n-th request of a component is its n-th attempt only when the
    counts agree (an SDK retry is ``R9.one-http-attempt-per-model-attempt``'s): otherwise not
    judged.
    """
    turns = fixture.get(_SCRIPTS[component], [])
    requests = observation.get("model_requests")
    if requests is not None:
        mine = [r for r in requests if r.get("component") == component]
        attempts = [
            e
            for e in observation.get("trace", [])
            if e.get("type") == "MODEL_CALL_STARTED"
            and (e.get("data") or {}).get("component") == component
        ]
        # Only a held call answered late (after a later request of the IUT, or the hold bound)
        # surely reached a client that stayed: an answer sent at once may cross a client
        # hanging up (no late result then), which the endpoint cannot tell from one that was read.
        held = position < len(turns) and turns[position].get("kind") == "block_until_cancelled"
        return (
            held
            and len(mine) == len(attempts)
            and position < len(mine)
            and mine[position].get("answer") == "ANSWERED"
        )
    if position >= len(turns):
        return False
    limits = fixture.get("limits") or {}
    if int(limits.get("model_call_timeout_ms", _DEFAULT_TIMEOUT_MS)) < SURE_WAIT_MS:
        # The scripted answer comes once the call is interrupted, and a Harness waits for an
        # interrupted call at most until its own deadline: with a short timeout (1 ms, 300 ms)
        # that deadline may pass first (or a starved Harness wakes after it), and the spec does
        # not order the two. Either order is accepted: the record is not required.
        return False
    turn = turns[position]
    return turn.get("kind") in _LATE_TURNS and turn.get("then") is not None


def answered_late(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> list[tuple[Any, Any, Any]]:
    """The model-call attempts in flight at the first ``CANCEL_REQUESTED`` whose answer came late.

    ``(component, call_index, attempt)`` of each attempt started before the cancellation, not
    finished before it, whose answer did arrive after it: over the kit's model endpoint its held
    (``block_until_cancelled``) request was ``ANSWERED`` (a client that hung up,
    ``CLIENT_CLOSED``, got no late answer; an answer sent at once may cross a hang-up);
    scripted, its turn answers late (``block_until_cancelled`` or ``ignore_cancellation`` with a
    ``then``). Only these must be recorded ``LATE_RESULT_DISCARDED`` ("discards any late model
    result": no late result, nothing to discard).
    """
    trace = observation.get("trace", [])
    cancel = _cancel_at(trace)
    if cancel is None:
        return []
    positions: dict[str, int] = {}
    open_calls: dict[tuple[Any, Any, Any], int] = {}
    for event in trace[:cancel]:
        data = event.get("data") or {}
        if event.get("type") == "MODEL_CALL_STARTED":
            component = str(data.get("component"))
            open_calls[_key(data)] = positions.get(component, 0)
            positions[component] = positions.get(component, 0) + 1
        elif event.get("type") == "MODEL_CALL_FINISHED":
            open_calls.pop(_key(data), None)
    return [
        key
        for key, position in open_calls.items()
        if key[0] in _SCRIPTS and _answers_late(observation, fixture, str(key[0]), position)
    ]


def _model_calls_after(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], cancel: int
) -> None:
    trace = observation.get("trace", [])
    positions: dict[str, int] = {}
    started_at: dict[tuple[Any, Any, Any], tuple[int, int]] = {}
    for index, event in enumerate(trace):
        if event.get("type") != "MODEL_CALL_STARTED":
            continue
        data = event.get("data", {})
        component = str(data.get("component"))
        started_at[_key(data)] = (index, positions.get(component, 0))
        positions[component] = positions.get(component, 0) + 1
    discarded = {
        _key(e.get("data", {})) for e in trace[cancel:] if e.get("type") == "LATE_RESULT_DISCARDED"
    }
    for event in trace[cancel + 1 :]:
        if event.get("type") != "MODEL_CALL_FINISHED":
            continue
        data = event.get("data", {})
        key = _key(data)
        found.expect(
            data.get("outcome") == "CANCELLED",
            f"{key[0]} call {key[1]} attempt {key[2]} finished {data.get('outcome')} after "
            "CANCEL_REQUESTED: its late answer was used instead of discarded",
            rule=_LATE,
        )
        start = started_at.get(key)
        if start is None or start[0] > cancel or key[0] not in _SCRIPTS:
            continue
        if _answers_late(observation, fixture, str(key[0]), start[1]):
            found.expect(
                key in discarded,
                f"{key[0]} call {key[1]} attempt {key[2]} was in flight when the Run was "
                "cancelled and its answer arrived late, but no LATE_RESULT_DISCARDED records it "
                "discarded",
                rule=_LATE,
            )


def _discards(found: Findings, trace: list[dict[str, Any]]) -> None:
    """Each LATE_RESULT_DISCARDED names an attempt that finished CANCELLED/TIMEOUT, once."""
    stopped: set[tuple[Any, ...]] = set()
    seen: set[tuple[Any, ...]] = set()
    for event in trace:
        data = event.get("data") or {}
        key: tuple[Any, ...] = (
            data.get("component"),
            data.get("purpose"),
            data.get("call_index"),
            data.get("attempt"),
        )
        if event.get("type") == "MODEL_CALL_FINISHED" and data.get("outcome") in _STOPPED:
            stopped.add(key)
        if event.get("type") != "LATE_RESULT_DISCARDED":
            continue
        found.expect(
            key in stopped,
            f"LATE_RESULT_DISCARDED (event {event.get('seq')}) names {key[0]} {key[1]} call "
            f"{key[2]} attempt {key[3]}, but no MODEL_CALL_FINISHED of that attempt ended "
            "CANCELLED (or TIMEOUT) before it: it names a call that was not interrupted",
            rule=_LATE,
        )
        found.expect(
            key not in seen,
            f"LATE_RESULT_DISCARDED (event {event.get('seq')}) records the late result of "
            f"{key[0]} {key[1]} call {key[2]} attempt {key[3]} a second time (one late result, "
            "discarded once)",
            rule=_LATE,
        )
        seen.add(key)


def _layers_once(found: Findings, trace: list[dict[str, Any]]) -> None:
    """The layers come in order; the agent loop is interrupted once; a tool work is cancelled once.

    Applied to every Run, whatever was in flight at the cancellation.
    """
    for rule, problem in order_violations(trace, LAYER_ORDER):
        found.add(f"cancellation layers out of order: {problem}", rule=rule.rule_id)
    interrupts = [e.get("seq") for e in trace if e.get("type") == "INTERRUPT_REQUESTED"]
    found.expect(
        len(interrupts) <= 1,
        f"INTERRUPT_REQUESTED recorded {len(interrupts)} times (events {interrupts}): the Run's "
        "agent loop is interrupted once",
        rule="R8.layered-cancellation",
    )
    cancelled: dict[Any, int] = {}
    for event in trace:
        if event.get("type") == "TOOL_WORK_CANCELLED":
            tool_call_id = (event.get("data") or {}).get("tool_call_id")
            cancelled[tool_call_id] = cancelled.get(tool_call_id, 0) + 1
    for tool_call_id, count in cancelled.items():
        found.expect(
            count == 1,
            f"TOOL_WORK_CANCELLED recorded {count} times for {tool_call_id!r}: an invocation's "
            "tool work is cancelled once",
            rule="R8.tool-work-cancelled",
        )


def _terminal_changes(trace: list[dict[str, Any]]) -> dict[Any, tuple[int, Any]]:
    """Tool Call ID -> (trace index, status) of its first terminal INVOCATION_STATUS_CHANGED."""
    terminal: dict[Any, tuple[int, Any]] = {}
    for index, event in enumerate(trace):
        data = event.get("data") or {}
        if event.get("type") == "INVOCATION_STATUS_CHANGED" and data.get("status") in {
            "READY",
            "ERROR",
        }:
            terminal.setdefault(data.get("tool_call_id"), (index, data.get("status")))
    return terminal


def tool_responses(observation: dict[str, Any], fixture: dict[str, Any]) -> dict[Any, Any]:
    """Tool Call ID -> the scripted backend response its execution got, where that is known.

    The n-th executed invocation of a tool (acceptance order) gets that tool's n-th response,
    then its default; once an invocation of a tool was not executed (invalid arguments) the
    count of that tool is no longer known.
    """
    counters: dict[str, int] = {}
    broken: set[str] = set()
    got: dict[Any, Any] = {}
    records = sorted(observation.get("invocations", []), key=lambda r: r.get("sequence") or 0)
    for record in records:
        tool = str(record.get("tool_name"))
        if (record.get("error") or {}).get("code") == "INVALID_ARGUMENTS":
            broken.add(tool)
        if tool in broken:
            continue
        nth = counters.get(tool, 0)
        counters[tool] = nth + 1
        script = fixture.get("tools", {}).get(tool) or {}
        responses = script.get("responses", [])
        got[record.get("tool_call_id")] = (
            responses[nth] if nth < len(responses) else script.get("default")
        ) or {}
    return got


def _blocking_calls(observation: dict[str, Any], fixture: dict[str, Any]) -> set[Any]:
    """Tool Call IDs whose execution got a ``block_until_cancelled`` backend response."""
    return {
        call_id
        for call_id, response in tool_responses(observation, fixture).items()
        if response.get("kind") == "block_until_cancelled"
    }


def _tool_stops(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], cancel: int | None
) -> None:
    trace = observation.get("trace", [])
    terminal = _terminal_changes(trace)
    blocking = _blocking_calls(observation, fixture)
    for record in observation.get("invocations", []):
        call_id = record.get("tool_call_id")
        code = (record.get("error") or {}).get("code")
        status = record.get("status")
        at = terminal.get(call_id)
        if at is None:
            continue  # never observed ending: judged by R3.invocation-lifecycle
        stopped_by_cancel = cancel is not None and at[0] > cancel
        name = repr(call_id)
        if stopped_by_cancel and status == "ERROR":
            found.expect(
                code == "CANCELLED",
                f"{name} was in flight when the Run was cancelled but ended ERROR with code "
                f"{code}, not CANCELLED",
                rule=_STOP,
            )
            continue
        if stopped_by_cancel:
            continue  # READY after the cancellation: R8.tool-work-cancelled
        found.expect(
            code != "CANCELLED",
            f"{name} ended with code CANCELLED "
            + (
                "before the Run was cancelled"
                if cancel is not None
                else "although the Run was never cancelled"
            ),
            rule=_STOP,
        )
        if call_id not in blocking:
            continue
        if status == "READY":
            found.add(
                f"{name}: its backend blocks until the work is cancelled, so only its tool "
                "timeout could end it before the Run's cancellation, yet it ended READY: its late "
                "answer was projected",
                rule=_LATE_TOOL,
            )
        else:
            found.expect(
                code == "TOOL_TIMEOUT",
                f"{name}: its backend blocks until the work is cancelled and the Run was not "
                f"cancelled meanwhile, so its tool timeout stopped it: expected ERROR with code "
                f"TOOL_TIMEOUT, got {status} with code {code}",
                rule=_STOP,
            )


def _classifications(found: Findings, observation: dict[str, Any], cancel: int | None) -> None:
    records = {r.get("tool_call_id"): r for r in observation.get("invocations", [])}
    for index, event in enumerate(observation.get("trace", [])):
        if event.get("type") != "EVIDENCE_CLASSIFIED":
            continue
        call_id = (event.get("data") or {}).get("tool_call_id")
        status = (records.get(call_id) or {}).get("status")
        found.expect(
            status == "READY",
            f"EVIDENCE_CLASSIFIED for {call_id!r}, whose invocation is {status}: a result that "
            "arrived after its work was stopped was classified",
            rule=_LATE_TOOL,
        )
        found.expect(
            cancel is None or index < cancel,
            f"EVIDENCE_CLASSIFIED for {call_id!r} after CANCEL_REQUESTED: a tool answer that "
            "arrived after the cancellation was classified",
            rule=_LATE_TOOL,
        )


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _late_rows(fixture: dict[str, Any]) -> list[str]:
    """Row texts only a late tool answer carries (never a timely response's, nor the question)."""
    late: list[str] = []
    timely: list[str] = [str(fixture.get("user_message", ""))]
    for script in fixture.get("tools", {}).values():
        for response in [*script.get("responses", []), script.get("default") or {}]:
            if response.get("kind") == "block_until_cancelled":
                then = response.get("then") or {}
                late.extend(str(item.get("text", "")) for item in then.get("items", []))
            else:
                timely.extend(_strings(response))
    allowed = "\n".join(timely)
    return [t for t in late if len(t) >= _MIN_NEEDLE and t not in allowed]


def _late_rows_to_models(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    needles = _late_rows(fixture)
    if not needles:
        return
    sources = [
        ("model_requests", observation.get("model_requests") or []),
        ("model_calls", observation.get("model_calls") or []),
    ]
    for label, calls in sources:
        for index, call in enumerate(calls):
            text = "\n".join(_strings(call.get("messages")))
            for needle in needles:
                found.expect(
                    needle not in text,
                    f"{label}/{index} ({call.get('component')}): a tool answer that arrived after "
                    f"its work was stopped reached the model: {needle[:80]!r}",
                    rule=_LATE_TOOL,
                )


def late_result_findings(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` what :func:`check_late_results` finds (for the global invariants)."""
    trace = observation.get("trace", [])
    cancel = _cancel_at(trace)
    if cancel is not None:
        for event in trace[cancel + 1 :]:
            what = _WORK_ON_A_RESULT.get(str(event.get("type")))
            found.expect(
                what is None,
                f"{event.get('type')} (event {event.get('seq')}) after CANCEL_REQUESTED: the "
                f"Harness {what} after the Run was cancelled (a late result must be discarded)",
                rule=_LATE,
            )
        _model_calls_after(found, observation, fixture, cancel)
    _discards(found, trace)
    _layers_once(found, trace)
    _tool_stops(found, observation, fixture, cancel)
    _classifications(found, observation, cancel)
    _late_rows_to_models(found, observation, fixture)


def check_late_results(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check that nothing late is used; see the module docstring for the three rules."""
    found = Findings("late results are discarded", _LATE)
    late_result_findings(found, observation, fixture)
    return found.result()
