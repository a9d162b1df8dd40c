"""The kit's own contract data files: the component registry and the phase plan."""

from __future__ import annotations

from contracts._generated.component_registry_schema import ComponentRegistry
from contracts._generated.phase_plan_schema import PhasePlan
from contracts._loading import load_document
from contracts._paths import DATA_DIR

__all__ = ["load_component_registry", "load_phase_plan"]


def load_component_registry() -> ComponentRegistry:
    """Return ``contracts/data/component-registry.json`` (DESIGN section 2; Requirement 1).

    Raises:
        ContractError: the file is missing or not a valid component-registry.
    """
    model = load_document(DATA_DIR / "component-registry.json", "component-registry")
    assert isinstance(model, ComponentRegistry)  # noqa: S101 - the registry maps this contract to it
    return model


def load_phase_plan() -> PhasePlan:
    """Return ``contracts/data/phase-plan.json`` (the 11 serial changes).

    Raises:
        ContractError: the file is missing (not written yet) or not a valid phase-plan.
    """
    model = load_document(DATA_DIR / "phase-plan.json", "phase-plan")
    assert isinstance(model, PhasePlan)  # noqa: S101 - the registry maps this contract to it
    return model
