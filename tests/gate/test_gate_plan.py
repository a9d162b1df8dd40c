"""The phase plan data file (Requirement 10): eleven serial changes, 6B the cutover."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.gate import CUTOVER_STAGE, default_plan_path, load_phase_plan, planned_changes

SPEC = Path(__file__).resolve().parents[2] / "openspec" / "specs"
STAGES = ("0", "1", "2", "3", "4", "5", "6A", "6B", "7", "8", "9")


def _spec_scenarios() -> list[str]:
    names = []
    for spec in sorted(SPEC.glob("*/spec.md")):
        names += re.findall(r"^#### Scenario: (.+?)\s*$", spec.read_text(), flags=re.MULTILINE)
    return names


def test_gate_plan_has_eleven_changes_in_stage_order() -> None:
    """The packaged plan validates and lists the eleven stages in serial order, orders 1..11."""
    changes = planned_changes(load_phase_plan())
    assert tuple(change.stage for change in changes) == STAGES
    assert [change.order for change in changes] == list(range(1, 12))
    assert changes[0].change_id == "single-react-design-freeze"
    assert len({change.change_id for change in changes}) == 11


def test_gate_plan_public_entry_switches_at_6b() -> None:
    """Every stage before 6B keeps the LEGACY entry; 6B and later are SINGLE_REACT."""
    changes = planned_changes(load_phase_plan())
    cutover = [change.stage for change in changes].index(CUTOVER_STAGE)
    assert {change.public_entry for change in changes[:cutover]} == {"LEGACY"}
    assert {change.public_entry for change in changes[cutover:]} == {"SINGLE_REACT"}


def test_gate_plan_gate_scenarios_are_spec_scenarios() -> None:
    """Every gate scenario names a spec scenario; 6B and later gate on all of them."""
    scenarios = _spec_scenarios()  # read from the spec: a later change may add scenarios
    assert scenarios
    plan = load_phase_plan().model_dump(mode="json")
    for change in plan["changes"]:
        assert set(change["gate_scenarios"]) <= set(scenarios), change["change_id"]
        if change["order"] >= STAGES.index(CUTOVER_STAGE) + 1:
            assert sorted(change["gate_scenarios"]) == sorted(scenarios)
    covered = {name for change in plan["changes"][:7] for name in change["gate_scenarios"]}
    assert covered == set(scenarios)


def test_gate_plan_file_is_packaged_under_contracts_data() -> None:
    """The default plan path is contracts/data/phase-plan.json."""
    assert default_plan_path().parts[-3:] == ("contracts", "data", "phase-plan.json")
