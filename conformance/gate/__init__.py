"""The serial phase gate (Requirement 10): may a planned OpenSpec change start?

Public surface:

- :func:`find_repo_root` — the folder holding ``openspec/``, found from any subfolder of it.
- :func:`read_repo_state` — where each of the eleven changes stands in a git repository
  (active, archived, committed), as a :class:`RepoState` of :class:`ChangeState`.
- :func:`evaluate_gate` — a :class:`GateDecision` (``allowed``, ``reasons`` of
  :class:`GateReason`, ``public_entry``) for one stage label.
- :func:`load_phase_plan`, :func:`planned_changes`, :class:`PlannedChange` — the plan
  (``contracts/data/phase-plan.json``); :func:`plan_coverage` — every spec scenario is gated.
- :class:`GateSetupError` — the repository or stage cannot be read.
"""

from conformance.gate._decision import (
    GateDecision,
    GateReason,
    ReasonCode,
    evaluate_gate,
    public_entry_of,
)
from conformance.gate._errors import GateSetupError
from conformance.gate._merge import unmerged
from conformance.gate._plan import (
    CUTOVER_STAGE,
    PlannedChange,
    PublicEntry,
    default_plan_path,
    load_phase_plan,
    plan_coverage,
    planned_changes,
)
from conformance.gate._repo import (
    ARCHIVE_DIR,
    CHANGES_DIR,
    ChangeState,
    RepoState,
    find_repo_root,
    read_repo_state,
)

__all__ = [
    "ARCHIVE_DIR",
    "CHANGES_DIR",
    "CUTOVER_STAGE",
    "ChangeState",
    "GateDecision",
    "GateReason",
    "GateSetupError",
    "PlannedChange",
    "PublicEntry",
    "ReasonCode",
    "RepoState",
    "default_plan_path",
    "evaluate_gate",
    "find_repo_root",
    "load_phase_plan",
    "plan_coverage",
    "planned_changes",
    "public_entry_of",
    "read_repo_state",
    "unmerged",
]
