"""Scenario "Contract ownership is inspected": the registry is data, and the Harness owns no
planning, Executor, composing, workflow routing or diagnosis reasoning."""

from __future__ import annotations

import copy
import json

import pytest

import contracts
from contracts._invariants import HARNESS_FORBIDDEN
from contracts._paths import DATA_DIR

FORBIDDEN = ["PLANNING", "EXECUTOR", "COMPOSING", "WORKFLOW_ROUTING", "DIAGNOSIS_REASONING"]
RAW = json.loads((DATA_DIR / "component-registry.json").read_text(encoding="utf-8"))


def test_contracts_registry_data_is_a_valid_component_registry():
    """contracts/data/component-registry.json loads through its schema and invariants."""
    registry = contracts.load_component_registry()
    names = [entry.component for entry in registry.components]
    assert sorted(names) == sorted(contracts.Component)


def test_contracts_harness_owns_no_forbidden_responsibility():
    """No HARNESS entry owns PLANNING, EXECUTOR, COMPOSING, WORKFLOW_ROUTING or DIAGNOSIS_REASONING.

    Spec Scenario "Contract ownership is inspected".
    """
    assert set(FORBIDDEN) == HARNESS_FORBIDDEN
    registry = contracts.load_component_registry()
    harness = [e for e in registry.components if e.component == contracts.Component.HARNESS]
    assert len(harness) == 1
    assert not set(FORBIDDEN) & set(harness[0].owns)
    assert set(FORBIDDEN) <= set(harness[0].never)


def test_contracts_only_the_agent_authors_and_the_guards_do_not_reason():
    """DESIGN section 2: the Diagnosis Agent alone authors reports; the guards never author."""
    owners = {}
    for entry in contracts.load_component_registry().components:
        for responsibility in entry.owns:
            owners.setdefault(responsibility, []).append(entry.component)
    assert owners[contracts.Responsibility.REPORT_AUTHORING] == [
        contracts.Component.DIAGNOSIS_AGENT
    ]
    assert owners[contracts.Responsibility.KNOWLEDGE_ANSWER_AUTHORING] == [
        contracts.Component.DIAGNOSIS_AGENT
    ]
    assert all(len(components) == 1 for components in owners.values())


@pytest.mark.parametrize("responsibility", FORBIDDEN)
def test_contracts_mutated_registry_with_harness_owning_it_is_caught(responsibility):
    """A registry where the Harness owns a forbidden responsibility fails validation."""
    mutated = copy.deepcopy(RAW)
    harness = next(i for i, e in enumerate(mutated["components"]) if e["component"] == "HARNESS")
    mutated["components"][harness]["owns"].append(responsibility)
    mutated["components"][harness]["never"].remove(responsibility)
    violations = contracts.validate_document(mutated, "component-registry")
    assert [(v.rule, v.pointer) for v in violations] == [
        ("harness-forbidden-responsibility", f"/components/{harness}/owns")
    ]
    with pytest.raises(contracts.ContractError):
        contracts.load_document(mutated, "component-registry")


def test_contracts_missing_phase_plan_is_a_contract_error(monkeypatch, tmp_path):
    """Without contracts/data/phase-plan.json, load_phase_plan raises ContractError naming it."""
    monkeypatch.setattr("contracts._data.DATA_DIR", tmp_path)
    with pytest.raises(contracts.ContractError, match=r"phase-plan\.json"):
        contracts.load_phase_plan()


def test_contracts_phase_plan_data_loads():
    """load_phase_plan reads contracts/data/phase-plan.json through its contract (11 changes)."""
    assert (DATA_DIR / "phase-plan.json").is_file()
    plan = contracts.load_phase_plan()
    assert [change.order for change in plan.changes] == list(range(1, 12))
    assert plan.changes[0].change_id == "single-react-design-freeze"
