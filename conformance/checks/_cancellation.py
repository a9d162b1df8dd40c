"""Checks of Requirement "Cancellation SHALL be layered and observable"."""

from __future__ import annotations

from typing import Any

from conformance.checks._late import answered_late
from conformance.checks._order import ORDER_RULES, order_violations
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import current_run, events, first_index, released_kinds

__all__ = ["check_cancelled_nothing_released", "check_layered_cancellation"]


def check_cancelled_nothing_released(observation: dict[str, Any]) -> CheckResult:
    """Check the Run was cancelled and nothing was published.

    CANCEL_REQUESTED is traced; RUN_FINISHED and the diagnosis_run row say CANCELLED with no
    published result; there is no RESULT_RELEASED event and no ``result`` client frame.
    """
    found = Findings("cancelled Run releases nothing", "R8.cancelled-releases-nothing")
    found.expect(events(observation, "CANCEL_REQUESTED"), "no CANCEL_REQUESTED event")
    finished = events(observation, "RUN_FINISHED")
    found.expect(
        finished and finished[-1]["data"].get("state") == "CANCELLED",
        f"RUN_FINISHED should say CANCELLED, got {[e['data'] for e in finished]}",
    )
    row = current_run(observation) or {}
    found.expect(
        row.get("state") == "CANCELLED" and row.get("published_result") is None,
        f"diagnosis_run is {row.get('state')} with result {row.get('published_result')}, "
        "expected CANCELLED with none",
    )
    found.expect(not released_kinds(observation), f"released {released_kinds(observation)}")
    found.expect(
        observation.get("published_result") is None, "the observation has a published result"
    )
    frames = [f for f in observation.get("client_frames", []) if f.get("event") == "result"]
    found.expect(not frames, f"the client received result frames {frames}")
    return found.result()


def check_layered_cancellation(
    observation: dict[str, Any], fixture: dict[str, Any] | None = None
) -> CheckResult:
    """Check a client disconnect during a model call is cancelled layer by layer.

    CANCEL_REQUESTED(CLIENT_DISCONNECTED) -> NEW_WORK_PREVENTED -> INTERRUPT_REQUESTED ->
    RUN_FINISHED(CANCELLED), in that order; no model call or tool call starts after
    NEW_WORK_PREVENTED; nothing is released. "discards any late model result": when the blocked
    agent call's answer does arrive late (:func:`~conformance.checks._late.answered_late`: its
    request over the kit's endpoint was ANSWERED, or its scripted turn answers late), a
    LATE_RESULT_DISCARDED of the Diagnosis Agent records it, after INTERRUPT_REQUESTED and before
    RUN_FINISHED; when the Harness hung up the call (CLIENT_CLOSED), no late result exists and
    none is required. Without ``fixture`` a late answer is assumed (the scenario's script).
    """
    found = Findings("layered cancellation on client disconnect", "R8.layered-cancellation")
    causes = [e["data"].get("cause") for e in events(observation, "CANCEL_REQUESTED")]
    found.expect(causes == ["CLIENT_DISCONNECTED"], f"CANCEL_REQUESTED causes {causes}")
    late_agent = fixture is None or any(
        key[0] == "DIAGNOSIS_AGENT" for key in answered_late(observation, fixture)
    )
    required = ["CANCEL_REQUESTED", "NEW_WORK_PREVENTED", "INTERRUPT_REQUESTED", "RUN_FINISHED"]
    required += ["LATE_RESULT_DISCARDED"] if late_agent else []
    for name in required:
        found.expect(first_index(observation, name) is not None, f"no {name} event")
    rules = tuple(r for r in ORDER_RULES if r.rule_id == "R8.layered-cancellation")
    for _rule, problem in order_violations(observation.get("trace", []), rules):
        found.add(f"events out of order: {problem}")
    late = events(observation, "LATE_RESULT_DISCARDED")
    if late_agent:
        found.expect(
            any(e["data"].get("component") == "DIAGNOSIS_AGENT" for e in late),
            "the late Diagnosis Agent result was not discarded",
        )
    outcome = check_cancelled_nothing_released(observation)
    if not outcome.passed:
        found.add(outcome.message)
    return found.result()
