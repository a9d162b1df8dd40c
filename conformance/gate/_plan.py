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
    from collections.abc import Sequence

    from contracts import PhasePlan

__all__ = [
    "CUTOVER_STAGE",
    "PlannedChange",
    "PublicEntry",
    "default_plan_path",
    "load_phase_plan",
    "plan_coverage",
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


def plan_coverage(plan: PhasePlan, scenarios: Sequence[str], plan_file: str) -> list[str]:
    """Problems of the plan's gate lists against the spec's scenario names (empty: covered).

    Every spec scenario must be gated by a stage before the cutover (the stage that implements
    it) and by every stage from :data:`CUTOVER_STAGE` on (the cutover gates on all of them); a
    gate list must name only spec scenarios. Each problem is one line naming the scenario and
    ``plan_file``, the file to edit.
    """
    document = plan.model_dump(mode="json")
    changes = sorted(document["changes"], key=lambda change: int(change["order"]))
    stages = [str(change["stage"]) for change in changes]
    cutover = stages.index(CUTOVER_STAGE) if CUTOVER_STAGE in stages else len(stages)
    known = set(scenarios)
    problems: list[str] = []
    before = {name for change in changes[:cutover] for name in change["gate_scenarios"]}
    for name in scenarios:
        if name not in before:
            problems.append(
                f"scenario {name!r} is in no stage's gate_scenarios before {CUTOVER_STAGE}: add "
                f"it to the stage that implements it in {plan_file}"
            )
        late = [
            str(change["stage"])
            for change in changes[cutover:]
            if name not in change["gate_scenarios"]
        ]
        if late:
            problems.append(
                f"scenario {name!r} is missing from the gate_scenarios of stage(s) "
                f"{', '.join(late)} (every stage from {CUTOVER_STAGE} on gates on all): add it "
                f"in {plan_file}"
            )
    problems.extend(
        f"stage {change['stage']} gates on {name!r}, which is no spec scenario "
        f"(renamed or removed?): fix {plan_file}"
        for change in changes
        for name in change["gate_scenarios"]
        if name not in known
    )
    return problems
