"""The phase plan as the gate reads it (Requirement 10).

The plan's data file is ``contracts/data/phase-plan.json`` (contract ``phase-plan``, model
``PhasePlan``). The gate works on :class:`PlannedChange` tuples taken from the validated model, so
it does not depend on how the generated model spells enum values.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

if TYPE_CHECKING:
    from contracts import PhasePlan

__all__ = [
    "CUTOVER_STAGE",
    "PlannedChange",
    "PublicEntry",
    "default_plan_path",
    "load_phase_plan",
    "planned_changes",
]

PublicEntry = Literal["LEGACY", "SINGLE_REACT"]
"""Which path serves the public chat entry."""

CUTOVER_STAGE = "6B"
"""The public chat cutover: the first stage whose public entry is SINGLE_REACT."""


@dataclass(frozen=True, slots=True)
class PlannedChange:
    """One of the eleven serial OpenSpec changes."""

    order: int
    """Position in the plan, 1..11."""
    stage: str
    """Stage label: ``0``..``5``, ``6A``, ``6B``, ``7``..``9``."""
    change_id: str
    """The OpenSpec change id (kebab case), e.g. ``single-react-design-freeze``."""
    title: str
    """One-line title."""
    public_entry: PublicEntry
    """Public entry once this change is in place."""


def default_plan_path() -> Path:
    """Return the path of the packaged ``contracts/data/phase-plan.json``."""
    return Path(str(resources.files("contracts") / "data" / "phase-plan.json"))


def load_phase_plan(path: Path | None = None) -> PhasePlan:
    """Load and validate a phase plan (default: the packaged one).

    Raises:
        contracts.ContractError: the file is not a valid ``phase-plan`` document.
    """
    from contracts import load_document  # noqa: PLC0415 - keeps `import conformance.gate` light

    return cast("PhasePlan", load_document(path or default_plan_path(), "phase-plan"))


def planned_changes(plan: PhasePlan) -> tuple[PlannedChange, ...]:
    """Return the plan's changes as :class:`PlannedChange`, sorted by ``order``."""
    document = plan.model_dump(mode="json")
    changes = [
        PlannedChange(
            order=int(change["order"]),
            stage=str(change["stage"]),
            change_id=str(change["change_id"]),
            title=str(change["title"]),
            public_entry=cast("PublicEntry", change["public_entry"]),
        )
        for change in document["changes"]
    ]
    return tuple(sorted(changes, key=lambda change: change.order))
