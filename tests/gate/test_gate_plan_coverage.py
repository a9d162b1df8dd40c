"""verify's gate step: every spec scenario sits in the phase plan's gate lists."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from conformance.gate import load_phase_plan, plan_coverage
from conformance.openspec import load_tree
from contracts import CONTRACTS

ROOT_PLAN = load_phase_plan()


@pytest.fixture
def repo_root() -> Path:
    """The kit's repository (its openspec/)."""
    return Path(__file__).resolve().parents[2]


def _scenarios(repo_root) -> list[str]:
    tree = load_tree(repo_root)
    return [s.name for spec in tree.specs.values() for r in spec.requirements for s in r.scenarios]


def _plan_with(change):
    document = copy.deepcopy(ROOT_PLAN.model_dump(mode="json"))
    change(document)
    return CONTRACTS["phase-plan"].model.model_validate(document)


def test_the_kit_plan_gates_every_scenario_of_its_spec(repo_root) -> None:
    """The committed plan and spec agree: nothing to report."""
    assert plan_coverage(ROOT_PLAN, _scenarios(repo_root), "phase-plan.json") == []


def test_a_new_scenario_not_in_the_plan_is_named_with_the_file_to_edit(repo_root) -> None:
    """A scenario the plan does not gate: named twice (implementing stage, stages from 6B)."""
    scenarios = [*_scenarios(repo_root), "Client disconnects during a tool call"]
    problems = plan_coverage(ROOT_PLAN, scenarios, "contracts/data/phase-plan.json")
    assert len(problems) == 2
    assert all("'Client disconnects during a tool call'" in p for p in problems)
    assert all("contracts/data/phase-plan.json" in p for p in problems)
    assert "6B" in problems[1]


def test_a_gate_list_naming_no_scenario_is_reported(repo_root) -> None:
    """A renamed scenario leaves its old name in the plan: reported."""

    def rename(document) -> None:
        document["changes"][1]["gate_scenarios"].append("An old name")

    problems = plan_coverage(_plan_with(rename), _scenarios(repo_root), "plan.json")
    assert problems == [
        (
            "stage 1 gates on 'An old name', which is no spec scenario (renamed or removed?): "
            "fix plan.json"
        )
    ]
