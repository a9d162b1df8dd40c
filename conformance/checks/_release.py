"""Checks of what a Run released and how many agent calls it took to get there."""

from __future__ import annotations

from typing import Any

from conformance.checks._oracle import presented_calls, submissions
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import canonical, model_attempts

__all__ = ["check_one_repair_only", "check_released_is_submitted"]


def check_released_is_submitted(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check the Run released a Diagnosis Draft canonical-JSON-identical to the agent's submission.

    The Harness never writes report text (Requirement 1): the published DIAGNOSIS_DRAFT, and the
    client's result frame, are the agent's own draft, byte for byte after RFC 8785.
    """
    found = Findings("the released draft is the agent's own draft", "R1.released-is-agent-authored")
    published = observation.get("published_result") or {}
    drafts = [canonical(s.document) for s in submissions(fixture) if s.kind == "draft"]
    if found.expect(
        published.get("kind") == "DIAGNOSIS_DRAFT",
        f"published {published.get('kind')}, expected DIAGNOSIS_DRAFT",
    ):
        found.expect(
            canonical(published.get("diagnosis_draft")) in drafts,
            "the released draft differs from every draft the agent submitted",
        )
    return found.result()


def check_one_repair_only(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check the agent was called once per tool step, once for its draft and once for the repair.

    Counts the Diagnosis Agent's Attempt Records: AGENT_STEP calls = tool steps + 1 and exactly
    one STRUCTURAL_REPAIR call (field case 8: no second repair, no retry).
    """
    found = Findings("exactly one draft and one structural repair", "R6.one-structural-repair")
    steps = len({call.step for call in presented_calls(fixture)})
    attempts = model_attempts(observation, "DIAGNOSIS_AGENT")
    agent_steps = [a for a in attempts if a.get("purpose") == "AGENT_STEP"]
    repairs = [a for a in attempts if a.get("purpose") == "STRUCTURAL_REPAIR"]
    found.expect(
        len(agent_steps) == steps + 1,
        f"{len(agent_steps)} AGENT_STEP calls, expected {steps + 1} ({steps} steps + the draft)",
    )
    found.expect(len(repairs) == 1, f"{len(repairs)} STRUCTURAL_REPAIR calls, expected 1")
    return found.result()
