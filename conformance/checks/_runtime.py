"""Checks of model-call outcomes, retries, timeouts and disconnects against the runtime oracle.

Requirements "Retry attempts SHALL be owned by Harness", "Cancellation SHALL be layered and
observable", "Safe fallback SHALL use a fixed schema" and "Previous turn SHALL come from a safe
durable Run result". Each check judges any observation of a fixture (they are global invariants):
what each scripted answer must give, the attempts the declared policy allows, what must follow a
timeout, an unavailable component or a SemanticGuard verdict, and what a disconnect at any event
must do. Expectations come from :mod:`conformance.checks._runtime_oracle` and
:mod:`conformance.checks._oracle`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from conformance.checks._late import SURE_WAIT_MS
from conformance.checks._oracle import expected_previous_turn, submissions
from conformance.checks._result import CheckResult, Findings
from conformance.checks._runtime_oracle import (
    agent_outcome,
    attempt_policy,
    disconnect_index,
    expected_attempts,
    fit_to_run,
    is_blocking,
    names_unreviewed_ids,
    review_outcome,
    router_outcome,
)
from conformance.checks._view import current_run, events, validations

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = [
    "LONG_WAIT_MS",
    "check_disconnect",
    "check_model_calls",
    "check_previous_turn_rule",
    "disconnect_findings",
    "lenient_verdict_leftovers",
    "model_call_findings",
    "previous_turn_findings",
]

_DEFAULT_TIMEOUT_MS: Final = 5000
_NEW_WORK: Final = frozenset({"MODEL_CALL_STARTED", "TOOL_CALL_ACCEPTED"})
_FALLBACKS: Final = {"UNSUPPORTED": "SEMANTIC_UNSUPPORTED"}
_RELEASES: Final = frozenset({"DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER"})


def _cancel_at(observation: dict[str, Any]) -> int | None:
    for index, event in enumerate(observation.get("trace", [])):
        if event.get("type") == "CANCEL_REQUESTED":
            return index
    return None


def _attempts(observation: dict[str, Any], component: str) -> list[tuple[int, dict[str, Any]]]:
    return [
        (index, event.get("data", {}))
        for index, event in enumerate(observation.get("trace", []))
        if event.get("type") == "MODEL_CALL_FINISHED"
        and event.get("data", {}).get("component") == component
    ]


def _terminal(observation: dict[str, Any]) -> tuple[Any, Any, Any]:
    row = current_run(observation) or {}
    return row.get("state"), row.get("fallback_type"), row.get("error_code")


def _compare(  # noqa: PLR0913, PLR0917 - one comparison of observed against expected attempts
    found: Findings,
    component: str,
    observed: list[tuple[int, dict[str, Any]]],
    expected: list[str | None],
    cancel: int | None,
    blocking: list[bool],
) -> bool:
    """Compare attempts position by position; return whether the whole expected call was seen."""
    for number, (index, data) in enumerate(observed):
        outcome = data.get("outcome")
        cancelled = cancel is not None and index > cancel
        if number >= len(expected):
            most = attempt_policy()[component]
            found.add(
                f"{component}: attempt {number + 1} recorded, the declared policy gives "
                f"{len(expected)} for the scripted answers {expected}"
                + (f" (no policy allows more than {most})" if number >= most else ""),
                rule="R9.attempts-bounded" if number >= most else "R9.retry-as-declared",
            )
            return False
        want = expected[number]
        if cancelled:
            found.expect(
                outcome == "CANCELLED",
                f"{component}: attempt {number + 1} finished after CANCEL_REQUESTED as {outcome}, "
                "expected CANCELLED (its late result is discarded)",
                rule="R8.layered-cancellation",
            )
            return False
        if want is None:
            continue
        if outcome == "CANCELLED":
            found.add(
                f"{component}: attempt {number + 1} recorded CANCELLED although the Run was not "
                "cancelled",
                rule="R9.model-call-outcome",
            )
            continue
        timed_out = number < len(blocking) and blocking[number]
        found.expect(
            outcome == want,
            f"{component}: attempt {number + 1} recorded {outcome}, its scripted answer gives "
            f"{want}"
            + (
                " (the call blocks past model_call_timeout_ms: the Harness must end it by its "
                "timeout and discard the late answer)"
                if timed_out
                else ""
            ),
            rule="R8.model-call-timeout" if timed_out else "R9.model-call-outcome",
        )
    if cancel is None and observed and len(observed) < len(expected):
        found.add(
            f"{component}: {len(observed)} attempt(s) recorded, the declared policy gives "
            f"{len(expected)} for the scripted answers {expected}",
            rule="R9.retry-as-declared",
        )
        return False
    return len(observed) == len(expected)


def _check_router(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], limit: int
) -> None:
    turns = fixture.get("router", [])
    expected = expected_attempts([router_outcome(t) for t in turns], limit)
    blocking = [is_blocking(t) for t in turns]
    cancel = _cancel_at(observation)
    observed = [(i, d) for i, d in _attempts(observation, "ROUTER") if d.get("call_index") == 1]
    complete = _compare(found, "ROUTER", observed, expected, cancel, blocking)
    if not complete or cancel is not None or None in expected or expected[-1] == "VALID":
        return
    state, _, error_code = _terminal(observation)
    found.expect(
        (state, error_code) == ("FAILED", "ROUTER_UNAVAILABLE"),
        f"the Router's last allowed attempt ended {expected[-1]}: the Run must fail with "
        f"ROUTER_UNAVAILABLE, it ended {state} / {error_code}",
        rule="R9.failed-run",
    )


_EMPTY_EVF: Final = {
    "fallback_type": "EVIDENCE_VALIDATION_FAILED",
    "message_code": "EVIDENCE_NOT_VERIFIED",
    "verified_sources": [],
}
"""The Safe Fallback of a failed structural repair (contract sheet: fixed per fallback type)."""


def _check_agent(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    turns = fixture.get("agent", [])
    cancel = _cancel_at(observation)
    observed = _attempts(observation, "DIAGNOSIS_AGENT")
    for number, (index, data) in enumerate(observed):
        found.expect(
            data.get("attempt") == 1,
            f"DIAGNOSIS_AGENT call {data.get('call_index')}: attempt {data.get('attempt')} "
            "recorded; the Diagnosis Agent gets one attempt per call",
            rule="R9.attempts-bounded",
        )
        if number >= len(turns):
            return
        turn = turns[number]
        want = agent_outcome(turn)
        outcome = data.get("outcome")
        if cancel is not None and index > cancel:
            found.expect(
                outcome == "CANCELLED",
                f"DIAGNOSIS_AGENT call {number + 1} finished after CANCEL_REQUESTED as {outcome}, "
                "expected CANCELLED (its late result is discarded)",
                rule="R8.layered-cancellation",
            )
            return
        if want is None:
            continue
        blocking = is_blocking(turn)
        if not found.expect(
            outcome == want,
            f"DIAGNOSIS_AGENT call {number + 1} recorded {outcome}, its scripted answer gives "
            f"{want}"
            + (
                " (the call blocks past model_call_timeout_ms: the Harness must end it by its "
                "timeout and discard the late answer)"
                if blocking
                else ""
            ),
            rule="R8.model-call-timeout" if blocking else "R9.model-call-outcome",
        ):
            return
        if want != "VALID":
            state, fallback_type, error_code = _terminal(observation)
            failed = (state, error_code) == ("FAILED", "AGENT_UNAVAILABLE") and observation.get(
                "published_result"
            ) == {"kind": "PUBLIC_ERROR", "public_error": {"error_code": "AGENT_UNAVAILABLE"}}
            # The structural repair call that gives no answer is also "the single no-Tool
            # structural repair" failing: "the fallback type is EVIDENCE_VALIDATION_FAILED and
            # verified sources are empty" (Requirement 6's scenario) fits it as well.
            repair_fallback = (
                data.get("purpose") == "STRUCTURAL_REPAIR"
                and (state, fallback_type) == ("FALLBACK", "EVIDENCE_VALIDATION_FAILED")
                and observation.get("published_result")
                == {"kind": "SAFE_FALLBACK", "safe_fallback": _EMPTY_EVF}
            )
            # a client gone after that call, before the release, cancels the Run instead
            # (check_disconnect judges it; red-team-8.md, S8)
            found.expect(
                failed or repair_fallback or cancel is not None,
                f"the Diagnosis Agent call ended {want}: the Run must fail with AGENT_UNAVAILABLE "
                "(or, for the structural repair call, fall back EVIDENCE_VALIDATION_FAILED with "
                f"no verified sources) and publish nothing else, it ended {state} / "
                f"{fallback_type or error_code}",
                rule="R8.model-call-timeout" if blocking else "R9.failed-run",
            )
            found.expect(
                number == len(observed) - 1,
                f"the Diagnosis Agent call {number + 1} ended {want}, yet the agent was called "
                "again",
                rule="R9.attempts-bounded",
            )
            return


def _reviewed_ids(observation: dict[str, Any], fixture: dict[str, Any]) -> set[str] | None:
    valid = [n for n, v in validations(observation).items() if v.get("valid") is True]
    documents = submissions(fixture)
    if len(valid) != 1 or not 1 <= valid[0] <= len(documents):
        return None
    document = documents[valid[0] - 1].document
    if not isinstance(document, dict):
        return None
    ids: set[str] = set()
    for key, name in (("analyses", "analysis_id"), ("items", "item_id")):
        for item in document.get(key) or []:
            if isinstance(item, dict) and isinstance(item.get(name), str):
                ids.add(item[name])
    return ids


def _review_readings(
    turns: list[dict[str, Any]], reviewed: set[str] | None
) -> list[list[tuple[str, str | None]]]:
    """The (outcome, verdict) readings of the SemanticGuard's turns a conforming Harness may take.

    The kit's reading first (:func:`review_outcome`); when a turn is a valid UNSUPPORTED verdict
    naming an id the snapshot lacks (:func:`names_unreviewed_ids`), also the reading taking every
    such turn as VALID UNSUPPORTED (docs/decisions/red-team-6.md, "F4").
    """
    strict = [review_outcome(t, reviewed) for t in turns]
    lenient = [
        ("VALID", "UNSUPPORTED") if names_unreviewed_ids(t, reviewed) else judged
        for t, judged in zip(turns, strict, strict=True)
    ]
    return [strict] if lenient == strict else [strict, lenient]


def _check_review(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], limit: int
) -> None:
    """Judge the SemanticGuard's attempts by the first reading they follow (else the kit's)."""
    observed = _attempts(observation, "SEMANTIC_GUARD")
    if not observed:
        return
    turns = fixture.get("semantic_guard", [])
    first: Findings | None = None
    for judged in _review_readings(turns, _reviewed_ids(observation, fixture)):
        scratch = Findings(found.subject, found.rule)
        _judge_review(scratch, observation, turns, judged, limit)
        if not scratch.problems:
            return
        first = first or scratch
    if first is not None:
        found.problems.extend(first.problems)


def _judge_review(
    found: Findings,
    observation: dict[str, Any],
    turns: list[dict[str, Any]],
    judged: list[tuple[str, str | None]],
    limit: int,
) -> None:
    observed = _attempts(observation, "SEMANTIC_GUARD")
    expected = expected_attempts([o for o, _ in judged], limit)
    cancel = _cancel_at(observation)
    complete = _compare(
        found, "SEMANTIC_GUARD", observed, expected, cancel, [is_blocking(t) for t in turns]
    )
    if not complete or cancel is not None:
        return
    last = len(expected) - 1
    outcome, verdict = judged[last] if last < len(judged) else (None, None)
    if outcome is None:
        return
    state, fallback_type, _ = _terminal(observation)
    published = observation.get("published_result") or {}
    if outcome == "VALID" and verdict == "SUPPORTED":
        found.expect(
            state == "SUCCESS" and published.get("kind") in _RELEASES,
            f"the SemanticGuard supported the snapshot: the Run must release it, it ended "
            f"{state} / {published.get('kind')}",
            rule="R6.semantic-outcome-fallback",
        )
        return
    want = _FALLBACKS.get(str(verdict), "SEMANTIC_UNSUPPORTED") if outcome == "VALID" else None
    want = want or "SEMANTIC_UNAVAILABLE"
    found.expect(
        (state, fallback_type) == ("FALLBACK", want)
        and (published.get("safe_fallback") or {}).get("fallback_type") == want,
        f"the SemanticGuard's last allowed attempt ended {outcome}"
        + (f" {verdict}" if verdict else "")
        + f": the Run must fall back with {want}, it ended {state} / {fallback_type}",
        rule="R6.semantic-outcome-fallback",
    )


def lenient_verdict_leftovers(observation: dict[str, Any], fixture: dict[str, Any]) -> bool:
    """Whether ``SCRIPT_UNCONSUMED`` only reports the SemanticGuard turns the lenient reading left.

    A Harness taking a valid UNSUPPORTED verdict that names an id the snapshot lacks as
    UNSUPPORTED (docs/decisions/red-team-6.md, "F4") falls back SEMANTIC_UNSUPPORTED at once:
    the turns the fixture scripts for the retry of the kit's reading are then left, and that is
    no error. True only when the Run ended so, its last SemanticGuard attempt ended VALID on such
    a verdict, and the Router, agent and tool scripts were used up.
    """
    error = observation.get("error") or {}
    row = current_run(observation) or {}
    if error.get("code") != "SCRIPT_UNCONSUMED" or row.get("fallback_type") != (
        "SEMANTIC_UNSUPPORTED"
    ):
        return False
    turns = fixture.get("semantic_guard", [])
    attempts = _attempts(observation, "SEMANTIC_GUARD")
    if not attempts or len(attempts) >= len(turns) or attempts[-1][1].get("outcome") != "VALID":
        return False
    if not names_unreviewed_ids(turns[len(attempts) - 1], _reviewed_ids(observation, fixture)):
        return False
    started = [e["data"].get("component") for e in events(observation, "MODEL_CALL_STARTED")]
    executed = [str(r.get("tool_name")) for r in observation.get("invocations", [])]
    return (
        started.count("ROUTER") == len(fixture.get("router", []))
        and started.count("DIAGNOSIS_AGENT") >= len(fixture.get("agent", []))
        and all(
            executed.count(name) >= len(script.get("responses", []))
            for name, script in fixture.get("tools", {}).items()
        )
    )


def check_model_calls(
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> CheckResult:
    """Check every model-call attempt, and what must follow it, against the scripted answers.

    For the Router, the Diagnosis Agent and the SemanticGuard, the n-th attempt consumes the
    n-th scripted turn of that component and must record the outcome the turn gives (a turn
    that blocks and is not cancelled: TIMEOUT after ``model_call_timeout_ms``); the attempts
    follow the policy of the declared ``capabilities`` (``None``: all; a declared retry the Run
    declined is judged by the one-attempt policy, :func:`fit_to_run`); after the Run is
    cancelled an in-flight attempt ends CANCELLED. Then: a Router whose last allowed attempt
    failed -> FAILED ROUTER_UNAVAILABLE; an agent call that fails or times out -> FAILED
    AGENT_UNAVAILABLE with no further agent call; the SemanticGuard's last allowed attempt ->
    SUPPORTED: release; UNSUPPORTED: FALLBACK SEMANTIC_UNSUPPORTED; invalid, unavailable or
    timed out: FALLBACK SEMANTIC_UNAVAILABLE.
    """
    found = Findings(
        "model calls follow the scripted answers and the retry policy", "R9.model-call-outcome"
    )
    model_call_findings(found, observation, *fit_to_run(observation, fixture, capabilities))
    return found.result()


def model_call_findings(
    found: Findings,
    observation: dict[str, Any],
    fixture: dict[str, Any],
    capabilities: Collection[str] | None = None,
) -> None:
    """Record into ``found`` what :func:`check_model_calls` finds (for the global invariants)."""
    policy = attempt_policy(capabilities)
    _check_router(found, observation, fixture, policy["ROUTER"])
    _check_agent(found, observation, fixture)
    _check_review(found, observation, fixture, policy["SEMANTIC_GUARD"])


def _invocation_states(observation: dict[str, Any]) -> dict[str, list[tuple[int, str]]]:
    states: dict[str, list[tuple[int, str]]] = {}
    for index, event in enumerate(observation.get("trace", [])):
        if event.get("type") == "INVOCATION_STATUS_CHANGED":
            data = event.get("data", {})
            states.setdefault(str(data.get("tool_call_id")), []).append(
                (index, str(data.get("status")))
            )
    return states


def _behind_in_step(observation: dict[str, Any], cancelled_ids: Collection[str]) -> set[str]:
    """Of ``cancelled_ids``, those behind an earlier one of the same agent step: never started.

    docs/contracts.md, "Agent steps": "the Harness executes the accepted calls of a step in
    order", so a call's work starts only once the step's earlier accepted calls have ended. Of a
    step's calls still unfinished when the Run was cancelled, only the first (acceptance order)
    can have had work running; the ones behind it were accepted but never run (implementers.md,
    "Where two answers fit": they end ERROR ``CANCELLED``, "no work started after the
    disconnect"), so no TOOL_WORK_CANCELLED is owed for them (row 15: "once per cancellable
    in-flight tool call"); one recorded for them is not refused either (false-kills-8, F5).
    """
    first: dict[Any, str] = {}
    behind: set[str] = set()
    for event in observation.get("trace", []):
        if event.get("type") != "TOOL_CALL_ACCEPTED":
            continue
        data = event.get("data") or {}
        tool_call_id = str(data.get("tool_call_id"))
        if tool_call_id not in cancelled_ids:
            continue
        step = data.get("step")
        if step in first:
            behind.add(tool_call_id)
        else:
            first[step] = tool_call_id
    return behind


def _check_tools_after(found: Findings, observation: dict[str, Any], start: int) -> None:
    trace = observation.get("trace", [])
    cancelled = {
        e.get("data", {}).get("tool_call_id")
        for e in trace
        if e.get("type") == "TOOL_WORK_CANCELLED"
    }
    noticed = next(
        (i for i, e in enumerate(trace) if e.get("type") == "CANCEL_REQUESTED"), len(trace)
    )
    stopped: list[str] = []
    for tool_call_id, changes in _invocation_states(observation).items():
        before = [status for index, status in changes if index <= start]
        if before and before[-1] != "PROJECTING":
            continue  # terminal before the disconnect
        after = [status for index, status in changes if index > start]
        found.expect(
            "READY" not in after,
            f"invocation {tool_call_id!r} ended READY after the client disconnected: tool work "
            "in flight is cancelled and its late result never accepted",
            rule="R8.tool-work-cancelled",
        )
        ended = [index for index, status in changes if index > start and status != "PROJECTING"]
        # ended (e.g. refused for its arguments) before the Harness noticed the disconnect at its
        # next wait: no tool work was in flight when the Run was cancelled
        if after and after[-1] == "ERROR" and not (ended and ended[0] < noticed):
            stopped.append(tool_call_id)
    never_run = _behind_in_step(observation, stopped)
    for tool_call_id in stopped:
        if tool_call_id in never_run:
            continue  # behind an unfinished call of its step: its work never started
        found.expect(
            tool_call_id in cancelled,
            f"invocation {tool_call_id!r} was in flight when the Run was cancelled (the first of "
            "its step's accepted calls still unfinished: the step's calls execute in order, and "
            "accepting a call is no wait), but no TOOL_WORK_CANCELLED records its cancellation",
            rule="R8.tool-work-cancelled",
        )
    invocations = {i.get("tool_call_id"): i for i in observation.get("invocations", [])}
    for tool_call_id in cancelled:
        record = invocations.get(tool_call_id) or {}
        found.expect(
            (record.get("status"), record.get("evidence_status")) == ("ERROR", "ERROR"),
            f"invocation {tool_call_id!r} is {record.get('status')}/"
            f"{record.get('evidence_status')} although its tool work was cancelled (expected "
            "ERROR/ERROR)",
            rule="R8.tool-work-cancelled",
        )


def _attempt_key(data: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(data.get(k) for k in ("component", "purpose", "call_index", "attempt"))


def _in_flight(observation: dict[str, Any], cancel: int) -> list[str]:
    """What was in flight at trace index ``cancel``: open model-call attempts and tool work."""
    trace = observation.get("trace", [])
    calls: dict[tuple[Any, ...], str] = {}
    for event in trace[:cancel]:
        data = event.get("data") or {}
        key = _attempt_key(data)
        if event.get("type") == "MODEL_CALL_STARTED":
            calls[key] = f"{key[0]} call {key[2]} attempt {key[3]}"
        elif event.get("type") == "MODEL_CALL_FINISHED":
            calls.pop(key, None)
    tools = [
        f"the tool work of {tool_call_id!r}"
        for tool_call_id, changes in _invocation_states(observation).items()
        if [status for index, status in changes if index < cancel][-1:] == ["PROJECTING"]
    ]
    return [*calls.values(), *tools]


_HELD: Final = "block_until_cancelled"
_SCRIPTS: Final = {
    "ROUTER": "router",
    "DIAGNOSIS_AGENT": "agent",
    "SEMANTIC_GUARD": "semantic_guard",
}


def held_turns(
    observation: dict[str, Any], fixture: dict[str, Any], disconnect: int
) -> dict[tuple[Any, ...], str]:
    """Attempts in flight at the disconnect whose scripted answer waits for the cancellation.

    ``(component, purpose, call_index, attempt)`` -> a name, for each attempt started at or
    before trace index ``disconnect``, not finished by then, whose turn (the component's n-th
    attempt takes its n-th turn) is ``block_until_cancelled``. Over the kit's model endpoint only
    where the component's requests and attempts agree in number (an attempt the Harness ended
    before its request went out, or an SDK retry, shifts the turns).
    """
    trace = observation.get("trace", [])
    requests = observation.get("model_requests")
    positions: dict[Any, int] = {}
    held: dict[tuple[Any, ...], str] = {}
    for index, event in enumerate(trace):
        data = event.get("data") or {}
        key = _attempt_key(data)
        if event.get("type") == "MODEL_CALL_FINISHED" and index <= disconnect:
            held.pop(key, None)
        if event.get("type") != "MODEL_CALL_STARTED" or key[0] not in _SCRIPTS:
            continue
        position = positions.get(key[0], 0)
        positions[key[0]] = position + 1
        turns = fixture.get(_SCRIPTS[str(key[0])], [])
        if index <= disconnect and position < len(turns) and turns[position].get("kind") == _HELD:
            held[key] = f"{key[0]} {key[1]} call {key[2]} attempt {key[3]}"
    if requests is not None:
        counts = {c: sum(r.get("component") == c for r in requests) for c in positions}
        held = {k: v for k, v in held.items() if counts.get(k[0]) == positions.get(k[0])}
    return held


LONG_WAIT_MS: Final = 10_000
"""Smallest ``model_call_timeout_ms`` at which the kit judges how long a held call stayed open.

With at least this timeout, a request the Harness still held half of it after its arrival (5 s or
more, the disconnect coming with the request) was not ended by the cancellation: only its own
timeout could end it. A conforming Harness hangs up, or abandons the call and finishes the Run,
in milliseconds; seconds of starvation still leave it far inside the bound."""


def _held_requests(
    observation: dict[str, Any], held: dict[tuple[Any, ...], str]
) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The kit endpoint's request of each ``held`` attempt (the component's n-th for its n-th).

    ``held`` comes from :func:`held_turns`, which keeps only components whose requests and
    attempts agree in number; empty without ``model_requests``.
    """
    requests = observation.get("model_requests")
    if not isinstance(requests, list):
        return {}
    positions: dict[Any, int] = {}
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for event in observation.get("trace", []):
        if event.get("type") != "MODEL_CALL_STARTED":
            continue
        key = _attempt_key(event.get("data") or {})
        position = positions.get(key[0], 0)
        positions[key[0]] = position + 1
        mine = [r for r in requests if isinstance(r, dict) and r.get("component") == key[0]]
        if key in held and position < len(mine):
            found[key] = mine[position]
    return found


def _held_open_too_long(
    fixture: dict[str, Any], request: dict[str, Any] | None
) -> tuple[int, int] | None:
    """``(held_ms, timeout_ms)`` when ``request`` stayed open past half a long model-call timeout.

    A CANCELLED attempt whose request the Harness kept open that long waited out its own HTTP
    timeout (only the label says cancelled): ``docs/decisions/red-team-8.md``, "S2".
    """
    limits = fixture.get("limits") or {}
    timeout_ms = int(limits.get("model_call_timeout_ms", _DEFAULT_TIMEOUT_MS))
    held_ms = None if request is None else request.get("held_ms")
    if timeout_ms < LONG_WAIT_MS or not isinstance(held_ms, int) or held_ms < timeout_ms // 2:
        return None
    return held_ms, timeout_ms


def _held_tool_work(
    observation: dict[str, Any], fixture: dict[str, Any], disconnect: int
) -> list[str]:
    """Tool Call IDs in flight at the disconnect whose scripted response waits for the cancellation.

    Accepted at or before trace index ``disconnect``, not terminal by then, and the tool's n-th
    accepted call (trace order) takes its n-th scripted response, a ``block_until_cancelled``.
    """
    trace = observation.get("trace", [])
    tools = fixture.get("tools") or {}
    seen: dict[str, int] = {}
    held: list[str] = []
    for event in trace[: disconnect + 1]:
        if event.get("type") != "TOOL_CALL_ACCEPTED":
            continue
        data = event.get("data") or {}
        name = str(data.get("tool_name"))
        position = seen.get(name, 0)
        seen[name] = position + 1
        script = tools.get(name) if isinstance(tools, dict) else None
        responses = script.get("responses", []) if isinstance(script, dict) else []
        if position < len(responses) and (responses[position] or {}).get("kind") == _HELD:
            held.append(str(data.get("tool_call_id")))
    states = _invocation_states(observation)
    return [
        tool_call_id
        for tool_call_id in held
        if not [s for i, s in states.get(tool_call_id, []) if i <= disconnect and s != "PROJECTING"]
    ]


def _held_tools_cancelled(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], disconnect: int
) -> None:
    """The cancellation, not ``tool_timeout_ms``, ends the wait for held tool work.

    Tool work in flight at the disconnect whose scripted answer comes only once it is cancelled:
    with a ``tool_timeout_ms`` of ``LONG_WAIT_MS`` or more, a Run that lasted 90 % of it or more
    on the kit's clock (``elapsed_ms``, from the run message to the observation) waited for the
    tool's own timeout ("cancellable Tool work"): ``docs/decisions/red-team-8.md``, "S2". A
    Harness that waits out the timeout lasts at least all of it on this clock (the kit's clock
    starts before the IUT's); a conforming one would need 18 s of starvation in a 20 s row.
    """
    limits = fixture.get("limits") or {}
    timeout_ms = int(limits.get("tool_timeout_ms", _DEFAULT_TIMEOUT_MS))
    elapsed = observation.get("elapsed_ms")
    too_long = isinstance(elapsed, int) and elapsed >= timeout_ms * 9 // 10
    if timeout_ms < LONG_WAIT_MS or not too_long:
        return
    held = _held_tool_work(observation, fixture, disconnect)
    if not held:
        return
    trace = observation.get("trace", [])
    found.add(
        f"the client disconnected on {trace[disconnect].get('type')} (event {disconnect + 1}) "
        f"while the tool work of {held} was in flight, its scripted answer coming only once the "
        f"work is cancelled, yet the Run lasted {elapsed} ms on the kit's clock, 90 % or more of "
        f"its tool_timeout_ms ({timeout_ms} ms): the cancellation did not stop the wait for the "
        "tool work, the tool's own timeout did",
        rule="R8.tool-work-cancelled",
    )


def _held_calls_interrupted(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any], disconnect: int
) -> None:
    """A model call in flight at the disconnect, its answer held until cancelled, ends CANCELLED.

    Its answer can only come after the disconnect, so using it (any answered outcome)
    uses a late result, and ending it by the Harness's own timeout means the disconnect never
    interrupted it ("requests interruption ... and discards any late model result"). A timeout
    below ``SURE_WAIT_MS`` may pass before a loaded Harness notices the disconnect: TIMEOUT is
    then accepted. Over the kit's endpoint, with a timeout of ``LONG_WAIT_MS`` or more, a
    CANCELLED attempt whose request was still open half its timeout after it arrived waited out
    that timeout all the same (the label aside): the disconnect did not end the wait.
    """
    limits = fixture.get("limits") or {}
    short = int(limits.get("model_call_timeout_ms", _DEFAULT_TIMEOUT_MS)) < SURE_WAIT_MS
    held = held_turns(observation, fixture, disconnect)
    requests = _held_requests(observation, held)
    trace = observation.get("trace", [])
    for event in trace[disconnect + 1 :]:
        data = event.get("data") or {}
        key = _attempt_key(data)
        name = held.pop(key, None)
        if event.get("type") != "MODEL_CALL_FINISHED" or name is None:
            continue
        outcome = data.get("outcome")
        where = (
            f"the client disconnected on {trace[disconnect].get('type')} (event "
            f"{disconnect + 1}) while {name} was in flight, and its scripted answer comes only "
            "once the call is interrupted"
        )
        waited = _held_open_too_long(fixture, requests.get(key))
        if outcome == "CANCELLED" and waited is not None:
            found.add(
                f"{where}, yet its request stayed open {waited[0]} ms after it reached the kit's "
                f"model endpoint, half or more of its model_call_timeout_ms ({waited[1]} ms): the "
                "disconnect did not end the wait, the call's own timeout did (recorded CANCELLED "
                "only afterwards)",
                rule="R8.layered-cancellation",
            )
        if outcome == "CANCELLED" or (outcome == "TIMEOUT" and short):
            continue
        if outcome == "TIMEOUT":
            found.add(
                f"{where}, yet it ended TIMEOUT: the disconnect never interrupted it, the Harness "
                "waited out its own model_call_timeout_ms (expected CANCELLED)",
                rule="R8.layered-cancellation",
            )
        else:
            found.add(
                f"{where}, yet it ended {outcome}: its late answer was used instead of discarded "
                "(expected CANCELLED)",
                rule="R8.late-result-discarded",
            )


def _never_ran(observation: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether ``event`` accepted a Tool Call whose work the cancellation stopped (or kept off).

    Accepting a call records its identity; it is not a wait. A Harness may accept every call of
    a step before it executes the first (no order rule puts a call's execution before the next
    call's acceptance), and then notices a disconnect at that first execution's wait: the calls
    accepted meanwhile never ran and end ERROR with code ``CANCELLED``. Only a call that ran on to
    another end counts as work started after the disconnect (false-kills-8, F5).
    """
    if event.get("type") != "TOOL_CALL_ACCEPTED":
        return False
    tool_call_id = event.get("data", {}).get("tool_call_id")
    ends = [
        (i.get("error") or {}).get("code")
        for i in observation.get("invocations", [])
        if i.get("tool_call_id") == tool_call_id
    ]
    return bool(ends) and all(code == "CANCELLED" for code in ends)


def _check_cancelled_run(
    found: Findings, observation: dict[str, Any], disconnect: int, cancel: int
) -> None:
    trace = observation.get("trace", [])
    started = [
        e.get("type")
        for e in trace[disconnect + 1 : cancel]
        if e.get("type") in _NEW_WORK and not _never_ran(observation, e)
    ]
    found.expect(
        len(started) <= 1,
        f"after the client disconnected the Harness started {started} before it recorded "
        "CANCEL_REQUESTED (it must notice the disconnect when it next waits)",
        rule="R8.disconnect-noticed",
    )
    cause = trace[cancel].get("data", {}).get("cause")
    found.expect(
        cause == "CLIENT_DISCONNECTED",
        f"CANCEL_REQUESTED cause {cause}, expected CLIENT_DISCONNECTED",
        rule="R8.layered-cancellation",
    )
    names = [e.get("type") for e in trace[cancel:]]
    # "requests interruption" is the THEN of "WHEN ... a synchronous model call is in flight":
    # with nothing in flight (no model call, no tool work) there is nothing to interrupt
    layers = ("NEW_WORK_PREVENTED", "INTERRUPT_REQUESTED", "RUN_FINISHED")
    busy = _in_flight(observation, cancel)
    for layer in layers if busy else ("NEW_WORK_PREVENTED", "RUN_FINISHED"):
        found.expect(
            layer in names,
            f"no {layer} after CANCEL_REQUESTED"
            + (f" ({', '.join(busy)} in flight at the cancellation)" if layer == layers[1] else ""),
            rule="R8.layered-cancellation",
        )
    later = [n for n in names if n in _NEW_WORK]
    found.expect(
        not later,
        f"new work started after CANCEL_REQUESTED: {later}",
        rule="R8.layered-cancellation",
    )
    state, _, _ = _terminal(observation)
    released = [e.get("data", {}).get("kind") for e in events(observation, "RESULT_RELEASED")]
    found.expect(
        state == "CANCELLED" and not released and observation.get("published_result") is None,
        f"a cancelled Run ended {state}, released {released}; expected CANCELLED, nothing released",
        rule="R8.cancelled-releases-nothing",
    )


def check_disconnect(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check what a client disconnect at any event of the Run led to.

    Once the scripted disconnect event is in the trace (and nothing was released before it): the
    Harness records CANCEL_REQUESTED(CLIENT_DISCONNECTED) having started at most one model or
    tool call meanwhile, then NEW_WORK_PREVENTED, INTERRUPT_REQUESTED and RUN_FINISHED, starts no
    new work, ends CANCELLED and releases nothing; a Run that never records the cancel breaks
    ``R8.disconnect-noticed``, even when it released at once (a disconnect on
    SEMANTIC_VERDICT still comes before the release). Tool work in flight at the disconnect
    never ends READY; each such invocation that ends ERROR has a TOOL_WORK_CANCELLED, and every
    invocation named by one ends ERROR/ERROR.
    """
    found = Findings(
        "a client disconnect cancels the Run layer by layer", "R8.layered-cancellation"
    )
    disconnect_findings(found, observation, fixture)
    return found.result()


def disconnect_findings(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` what :func:`check_disconnect` finds (for the global invariants)."""
    disconnect = disconnect_index(observation, fixture)
    if disconnect is None:
        return
    trace = observation.get("trace", [])
    if any(e.get("type") == "RESULT_RELEASED" for e in trace[: disconnect + 1]):
        return  # the client left after the release: nothing to cancel
    cancel = _cancel_at(observation)
    _check_tools_after(found, observation, disconnect)
    _held_calls_interrupted(found, observation, fixture, disconnect)
    _held_tools_cancelled(found, observation, fixture, disconnect)
    if cancel is None:
        # spec: "the system prevents later Draft release": a disconnect before RESULT_RELEASED
        # (on SEMANTIC_VERDICT too, the last event before it) closes the release gate
        later = [e.get("type") for e in trace[disconnect + 1 :] if e.get("type") in _NEW_WORK]
        released = [e.get("data", {}).get("kind") for e in events(observation, "RESULT_RELEASED")]
        found.add(
            f"the client disconnected on {trace[disconnect].get('type')} (event "
            f"{disconnect + 1}), before the release, but the Run never recorded CANCEL_REQUESTED"
            + (f" and went on with {later}" if later else "")
            + (f" and released {released}" if released else ""),
            rule="R8.disconnect-noticed",
        )
        return
    _check_cancelled_run(found, observation, disconnect, cancel)


def check_previous_turn_rule(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check the previous-turn selection of any Run that selected one.

    When the trace has a PREVIOUS_TURN_SELECTED: it is the only one, it names the prior Run of
    the *same session* with the greatest ``seq`` whose intent is DIAGNOSIS and state SUCCESS (or
    none), and lists every newer same-session Run with its skip reason (RUNNING ones included),
    newest first (the frozen design: "Skipped Runs are listed newest first, at most 100").
    A Run routed DIAGNOSIS that calls the agent must have selected before that call. A Run
    routed KNOWLEDGE_QUERY need not select, and may: the spec ("SHALL exclude fallback, failed
    and cancelled Runs from Diagnosis previous-turn selection") says nothing of other Runs, so a
    selection it records is judged by the same rules (docs/decisions/red-team-6.md, "F3").
    """
    found = Findings("previous turn from a safe durable Run result", "R7.previous-turn-selection")
    previous_turn_findings(found, observation, fixture)
    return found.result()


def previous_turn_findings(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` what :func:`check_previous_turn_rule` finds (rule ids explicit)."""
    rule = "R7.previous-turn-selection"
    trace = observation.get("trace", [])
    chosen = [i for i, e in enumerate(trace) if e.get("type") == "PREVIOUS_TURN_SELECTED"]
    routed = [e.get("data", {}).get("intent") for e in events(observation, "INTENT_ROUTED")]
    agent = [
        i
        for i, e in enumerate(trace)
        if e.get("type") == "MODEL_CALL_STARTED"
        and e.get("data", {}).get("component") == "DIAGNOSIS_AGENT"
    ]
    if routed == ["DIAGNOSIS"] and agent:
        found.expect(
            len(chosen) == 1 and chosen[0] < agent[0],
            "a DIAGNOSIS Run called the agent without one PREVIOUS_TURN_SELECTED before it",
            rule=rule,
        )
    if len(chosen) != 1:
        found.expect(not chosen, f"{len(chosen)} PREVIOUS_TURN_SELECTED events", rule=rule)
        return
    data = trace[chosen[0]].get("data", {})
    selected, skipped = expected_previous_turn(fixture)
    others = {
        r["run_id"]
        for r in fixture.get("prior_runs", [])
        if r.get("session_id") != fixture.get("session_id")
    }
    got = data.get("selected_run_id")
    if got in others:
        found.add(
            f"selected {got!r}, a Run of another session (expected {selected!r})",
            rule="R7.same-session-selection",
        )
    else:
        found.expect(got == selected, f"selected {got!r}, expected {selected!r}", rule=rule)
    observed = sorted((str(s.get("run_id")), str(s.get("reason"))) for s in data.get("skipped", []))
    expected = sorted((s["run_id"], s["reason"]) for s in skipped)
    foreign = [run_id for run_id, _ in observed if run_id in others]
    found.expect(
        not foreign,
        f"skipped Runs of another session {foreign}",
        rule="R7.same-session-selection",
    )
    if (
        found.expect(
            observed == expected or foreign, f"skipped {observed}, expected {expected}", rule=rule
        )
        and not foreign
    ):
        listed = [str(s.get("run_id")) for s in data.get("skipped", [])]
        newest_first = [s["run_id"] for s in skipped]
        found.expect(
            listed == newest_first,
            f"skipped Runs listed in the order {listed}, expected newest first (greatest seq "
            f"first) {newest_first}",
            rule=rule,
        )
