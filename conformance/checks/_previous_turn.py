"""Checks of Requirement "Previous turn SHALL come from a safe durable Run result"."""

from __future__ import annotations

from typing import Any

from conformance.checks._oracle import expected_previous_turn
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import events

__all__ = ["check_previous_turn"]


def check_previous_turn(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check PREVIOUS_TURN_SELECTED names the latest DIAGNOSIS + SUCCESS prior Run (or none).

    Every newer Run it passed over is reported with its skip reason, newest first (the frozen
    design: "Skipped Runs are listed newest first, at most 100").
    """
    found = Findings("previous turn selection", "R7.previous-turn-selection")
    selected, skipped = expected_previous_turn(fixture)
    chosen = events(observation, "PREVIOUS_TURN_SELECTED")
    if not found.expect(
        len(chosen) == 1, f"expected one PREVIOUS_TURN_SELECTED, got {len(chosen)}"
    ):
        return found.result()
    data = chosen[0]["data"]
    found.expect(
        data.get("selected_run_id") == selected,
        f"selected {data.get('selected_run_id')!r}, expected {selected!r}",
    )
    observed = sorted(data.get("skipped", []), key=lambda s: str(s.get("run_id")))
    expected = sorted(skipped, key=lambda s: s["run_id"])
    if found.expect(observed == expected, f"skipped {observed}, expected {expected}"):
        listed = [str(s.get("run_id")) for s in data.get("skipped", [])]
        newest_first = [s["run_id"] for s in skipped]
        found.expect(
            listed == newest_first,
            f"skipped Runs listed in the order {listed}, expected newest first {newest_first}",
        )
    return found.result()
