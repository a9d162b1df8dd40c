"""Variants of the stage-zero contract data, each knowing by construction whether it keeps the rule.

The WHEN of "Contract ownership is inspected" and "Stage 4 completes internal Agent tests" is a
reading of the contract data, not a Run. These strategies start from the committed data
(``contracts/data/*.json``) and either keep it, reshuffle what the rule allows, or break the rule
in one drawn way; ``keeps_rule`` says which, independently of any check.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import strategies as st

__all__ = ["ContractVariant", "phase_plan_variants", "registry_variants"]

_FORBIDDEN: Final = ("PLANNING", "EXECUTOR", "COMPOSING", "WORKFLOW_ROUTING", "DIAGNOSIS_REASONING")


@dataclass(frozen=True)
class ContractVariant:
    """A contract document, whether it keeps the scenario's rule, and how it was changed."""

    document: dict[str, Any]
    keeps_rule: bool
    change: str


@functools.cache
def _stage_zero(name: str) -> dict[str, Any]:
    from contracts import load_component_registry, load_phase_plan  # noqa: PLC0415 - heavy

    model = load_component_registry() if name == "component-registry" else load_phase_plan()
    document: dict[str, Any] = model.model_dump(mode="json")
    return document


@st.composite
def registry_variants(draw: st.DrawFn) -> ContractVariant:
    """The component registry, reordered, or with Harness given forbidden responsibilities.

    Breaking: 1+ of Planner/Executor/Composer/workflow routing/diagnosis reasoning moved into the
    Harness's ``owns`` (and out of its ``never``), or REPORT_AUTHORING given to the Harness.
    """
    registry = copy.deepcopy(_stage_zero("component-registry"))
    components = registry["components"]
    order = draw(st.permutations(range(len(components))))
    registry["components"] = [components[i] for i in order]
    harness = next(c for c in registry["components"] if c["component"] == "HARNESS")
    change = draw(st.sampled_from(["none", "forbidden", "authoring"]))
    if change == "forbidden":
        moved = draw(st.lists(st.sampled_from(_FORBIDDEN), min_size=1, unique=True))
        harness["owns"] = [*harness["owns"], *moved]
        harness["never"] = [r for r in harness["never"] if r not in moved]
        return ContractVariant(registry, keeps_rule=False, change=f"HARNESS owns {moved}")
    if change == "authoring":
        harness["owns"] = [*harness["owns"], "REPORT_AUTHORING"]
        return ContractVariant(registry, keeps_rule=False, change="HARNESS owns REPORT_AUTHORING")
    return ContractVariant(registry, keeps_rule=True, change="components reordered")


@st.composite
def phase_plan_variants(draw: st.DrawFn) -> ContractVariant:
    """The phase plan, shuffled in file order, or with the cutover rule broken one drawn way.

    Breaking: a stage before 6B leaves the LEGACY public entry; 6B keeps LEGACY; stage 6B placed
    before stage 5 (orders swapped); an order gap.
    """
    plan = copy.deepcopy(_stage_zero("phase-plan"))
    changes = plan["changes"]
    by_stage = {c["stage"]: c for c in changes}
    change = draw(st.sampled_from(["none", "early_entry", "late_cutover", "swap", "gap"]))
    keeps = change == "none"
    if change == "early_entry":
        early = [c for c in changes if c["order"] < by_stage["6B"]["order"]]
        victim = draw(st.sampled_from(early))
        victim["public_entry"] = "SINGLE_REACT"
        change = f"stage {victim['stage']} public entry SINGLE_REACT"
    elif change == "late_cutover":
        by_stage["6B"]["public_entry"] = "LEGACY"
    elif change == "swap":
        other = draw(st.sampled_from(["4", "5"]))
        by_stage["6B"]["order"], by_stage[other]["order"] = (
            by_stage[other]["order"],
            by_stage["6B"]["order"],
        )
        change = f"stage 6B swapped with stage {other}"
    elif change == "gap":
        last = max(changes, key=lambda c: c["order"])
        last["order"] = last["order"] + 1
    order = draw(st.permutations(range(len(changes))))
    plan["changes"] = [changes[i] for i in order]
    return ContractVariant(plan, keeps_rule=keeps, change=change)
