"""Checks of Requirement "Tool invocation identity SHALL use the framework Tool Call ID"."""

from __future__ import annotations

from typing import Any

from conformance.checks._oracle import expected_identity, expected_response
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import current_run, events, invocation

__all__ = ["check_tool_call_identity"]


def _rejections(observation: Any) -> dict[tuple[int, int], dict[str, Any]]:  # noqa: ANN401 - JSON
    return {
        (e["data"]["step"], e["data"]["position"]): e["data"]
        for e in events(observation, "TOOL_CALL_REJECTED")
    }


def check_tool_call_identity(
    observation: dict[str, Any], fixture: dict[str, Any], *, run_goes_on: bool = True
) -> CheckResult:
    """Check every presented Tool Call ID was classified as the contract requires.

    * each missing, invalid or duplicate id has a TOOL_CALL_REJECTED event with that reason at its
      step and position, and was never executed (no invocation, no TOOL_CALL_ACCEPTED for it);
    * each accepted id has exactly one canonical invocation, one TOOL_CALL_ACCEPTED, the arguments,
      step and tool of its *first* presentation, and a projection of the backend result of that
      first execution (a rejected duplicate never overwrites it);
    * with ``run_goes_on``, the Run still ends SUCCESS.
    """
    found = Findings("Tool Call ID identity", "R2.tool-call-identity")
    accepted, rejected = expected_identity(fixture)
    observed_rejections = _rejections(observation)
    for call, reason in rejected:
        where = f"step {call.step} position {call.position} (presented {call.value!r})"
        data = observed_rejections.get((call.step, call.position))
        if found.expect(data is not None, f"no TOOL_CALL_REJECTED for the action at {where}"):
            assert data is not None  # noqa: S101 - narrowed by the expectation above
            found.expect(
                data.get("reason") == reason,
                f"the action at {where} was rejected as {data.get('reason')}, expected {reason}",
            )
    expected_rejected = {(c.step, c.position) for c, _ in rejected}
    for key in observed_rejections.keys() - expected_rejected:
        found.add(f"the action at step {key[0]} position {key[1]} was rejected but is valid")
    accepted_events = events(observation, "TOOL_CALL_ACCEPTED")
    found.expect(
        len(observation.get("invocations", [])) == len(accepted),
        f"expected {len(accepted)} canonical invocations (the accepted calls), "
        f"got {len(observation.get('invocations', []))}",
    )
    for call in accepted:
        _check_accepted(found, observation, fixture, call, accepted_events)
    if run_goes_on:
        row = current_run(observation) or {}
        found.expect(
            row.get("state") == "SUCCESS",
            f"the Run should go on to SUCCESS, its diagnosis_run state is {row.get('state')}",
        )
    return found.result()


def _check_accepted(
    found: Findings,
    observation: dict[str, Any],
    fixture: dict[str, Any],
    call: Any,  # noqa: ANN401 - a PresentedCall
    accepted_events: list[dict[str, Any]],
) -> None:
    call_id = call.value
    matches = [e for e in accepted_events if e["data"].get("tool_call_id") == call_id]
    found.expect(
        len(matches) == 1, f"{call_id!r}: expected one TOOL_CALL_ACCEPTED, got {len(matches)}"
    )
    records = invocation(observation, call_id)
    if not found.expect(
        len(records) == 1, f"{call_id!r}: expected one invocation, got {len(records)}"
    ):
        return
    record = records[0]
    found.expect(
        record.get("arguments") == call.arguments,
        f"{call_id!r}: arguments {record.get('arguments')} differ from the first action's "
        f"{call.arguments} (the first canonical invocation was overwritten)",
    )
    found.expect(
        record.get("step") == call.step and record.get("tool_name") == call.tool,
        f"{call_id!r}: invocation is step {record.get('step')} {record.get('tool_name')}, "
        f"expected the first action's step {call.step} {call.tool}",
    )
    response = expected_response(fixture, call)
    projection = record.get("projection") or {}
    if response is not None and response.get("kind") == "rows":
        expected_texts = [item["text"] for item in response.get("items", [])]
        texts = [item.get("text") for item in projection.get("items", [])]
        found.expect(
            record.get("status") == "READY" and texts == expected_texts,
            f"{call_id!r}: projection items {texts} (status {record.get('status')}) are not the "
            f"first execution's result {expected_texts}",
        )
