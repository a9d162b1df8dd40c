"""The serial phase gate decision (Requirement 10).

Spec Scenario "Stage 4 completes internal Agent tests" is one instance of these rules.

Rules, applied to a :class:`RepoState`:

1. A change may start only when every earlier change of the plan is archived AND committed
   (tracked and clean in git). Each earlier change that is not is one reason
   (``PREDECESSOR_NOT_ARCHIVED`` or ``PREDECESSOR_NOT_COMMITTED``). For stage 6B (the public chat
   cutover) this names each of stages 0..6A that is missing.
2. A change archived while an earlier change is not archived is out of order
   (``OUT_OF_ORDER``, one reason per such change, naming the first earlier change missing). The
   serial rule is then already broken in the repository, so the gate refuses whatever stage it is
   asked about.
3. A change that is active (``openspec/changes/<change_id>/`` exists) while an earlier change is
   not archived and committed was started too early (``STARTED_OUT_OF_ORDER``, one reason per
   such change other than the stage asked about, whose missing predecessors rule 1 already
   names). The gate refuses for the same reason as rule 2.
4. A change archived in more than one folder, or archived and still active, is a duplicate
   (``DUPLICATE_ARCHIVE``): which folder is the change? The gate refuses whatever stage it is asked
   about.
5. An archive folder dated before the archive of an earlier change of the plan is back-dated
   (``BACK_DATED_ARCHIVE``): a change cannot have been archived before its predecessor was. The
   gate refuses whatever stage it is asked about.
6. The public entry is SINGLE_REACT only when every change up to and including 6B is archived and
   committed; otherwise LEGACY.

``allowed`` is true exactly when ``reasons`` is empty. Every reason carries a ``hint``: the git
and OpenSpec steps that recover from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from conformance.gate._errors import GateSetupError
from conformance.gate._plan import CUTOVER_STAGE, PublicEntry
from conformance.gate._repo import ARCHIVE_DIR, CHANGES_DIR

if TYPE_CHECKING:
    from conformance.gate._repo import ChangeState, RepoState

__all__ = ["GateDecision", "GateReason", "ReasonCode", "evaluate_gate", "public_entry_of"]

ReasonCode = Literal[
    "PREDECESSOR_NOT_ARCHIVED",
    "PREDECESSOR_NOT_COMMITTED",
    "OUT_OF_ORDER",
    "STARTED_OUT_OF_ORDER",
    "DUPLICATE_ARCHIVE",
    "BACK_DATED_ARCHIVE",
]
"""Why the gate refuses."""


@dataclass(frozen=True, slots=True)
class GateReason:
    """One reason the gate refuses a stage."""

    code: ReasonCode
    """Stable code."""
    message: str
    """One line naming the change, its stage and what is missing."""
    stage: str
    """Stage label of the change the reason is about."""
    hint: str = ""
    """How to recover: one line of git / OpenSpec steps."""


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether a stage may start, why not, and which public entry the repository allows."""

    allowed: bool
    """True when the stage may start (no reasons)."""
    stage: str
    """The stage label that was asked about."""
    reasons: list[GateReason]
    """Every reason the stage is refused, in plan order; empty when allowed."""
    public_entry: PublicEntry
    """``SINGLE_REACT`` only when 0..6B are all archived and committed, else ``LEGACY``."""


def _label(state: ChangeState) -> str:
    return f"stage {state.change.stage} ({state.change.change_id})"


def _predecessor_reason(state: ChangeState) -> GateReason | None:
    change = state.change
    if not state.archived:
        where = "active, not archived" if state.active else "not started"
        return GateReason(
            code="PREDECESSOR_NOT_ARCHIVED",
            stage=change.stage,
            message=(
                f"{_label(state)} is {where}: expected "
                f"openspec/changes/archive/<YYYY-MM-DD>-{change.change_id}/"
            ),
            hint=(
                f"finish {change.change_id}, archive it (openspec archive {change.change_id}), "
                "commit the archive folder, then start this stage"
            ),
        )
    if not state.committed:
        folders = ", ".join(f"{folder}/" for folder in state.archive_dirs)
        detail = (
            f"{len(state.not_clean)} untracked or uncommitted file(s), first {state.not_clean[0]}"
            if state.not_clean
            else "no tracked files"
        )
        return GateReason(
            code="PREDECESSOR_NOT_COMMITTED",
            stage=change.stage,
            message=f"{_label(state)} is archived at {folders} but not committed: {detail}",
            hint=(
                f"commit it: git add {' '.join(state.archive_dirs)} && git commit "
                "(or restore the files you did not mean to change)"
            ),
        )
    return None


def _out_of_order(changes: tuple[ChangeState, ...]) -> list[GateReason]:
    reasons = []
    first_missing: ChangeState | None = None
    for state in changes:
        if not state.archived:
            first_missing = first_missing or state
        elif first_missing is not None:
            reasons.append(
                GateReason(
                    code="OUT_OF_ORDER",
                    stage=state.change.stage,
                    message=(
                        f"{_label(state)} is archived before its predecessor "
                        f"{_label(first_missing)}: the serial order is broken"
                    ),
                    hint=_out_of_order_hint(state, first_missing),
                )
            )
    return reasons


def _started_early(changes: tuple[ChangeState, ...], asked: str) -> list[GateReason]:
    reasons = []
    first_open: ChangeState | None = None
    for state in changes:
        if state.active and first_open is not None and state.change.stage != asked:
            reasons.append(
                GateReason(
                    code="STARTED_OUT_OF_ORDER",
                    stage=state.change.stage,
                    message=(
                        f"{_label(state)} is active before its predecessor "
                        f"{_label(first_open)} is archived and committed"
                    ),
                    hint=(
                        f"set {CHANGES_DIR}/{state.change.change_id}/ aside (e.g. on a branch) "
                        f"until {first_open.change.change_id} is archived and committed"
                    ),
                )
            )
        if not state.committed:
            first_open = first_open or state
    return reasons


def _out_of_order_hint(state: ChangeState, first_missing: ChangeState) -> str:
    change_id = state.change.change_id
    folder = state.archive_dirs[0]
    return (
        f"un-archive it: git mv {folder} {CHANGES_DIR}/{change_id} and take back what its archive "
        f"merged into openspec/specs/ (e.g. git revert the archiving commit); archive "
        f"{first_missing.change.change_id} and the changes between first, then {change_id} again"
    )


def _duplicates(changes: tuple[ChangeState, ...]) -> list[GateReason]:
    reasons = []
    for state in changes:
        change_id = state.change.change_id
        if len(state.archive_dirs) > 1:
            folders = ", ".join(f"{folder}/" for folder in state.archive_dirs)
            reasons.append(
                GateReason(
                    code="DUPLICATE_ARCHIVE",
                    stage=state.change.stage,
                    message=(
                        f"{_label(state)} is archived {len(state.archive_dirs)} times: {folders}"
                    ),
                    hint=(
                        "keep the folder of the real archive and remove the others: "
                        f"git rm -r {' '.join(state.archive_dirs[1:])}"
                    ),
                )
            )
        elif state.archived and state.active:
            reasons.append(
                GateReason(
                    code="DUPLICATE_ARCHIVE",
                    stage=state.change.stage,
                    message=(
                        f"{_label(state)} is archived at {state.archive_dirs[0]}/ and still active "
                        f"at {CHANGES_DIR}/{change_id}/"
                    ),
                    hint=(
                        f"remove the active copy (git rm -r {CHANGES_DIR}/{change_id}) or, if it "
                        "holds later work, give that work a new change"
                    ),
                )
            )
    return reasons


def _back_dated(changes: tuple[ChangeState, ...]) -> list[GateReason]:
    reasons = []
    latest: ChangeState | None = None
    for state in changes:
        if not state.archived:
            continue
        if latest is not None and min(state.archive_dates) < max(latest.archive_dates):
            folder = state.archive_dirs[0]
            newest = max(latest.archive_dates)
            reasons.append(
                GateReason(
                    code="BACK_DATED_ARCHIVE",
                    stage=state.change.stage,
                    message=(
                        f"{_label(state)} is archived at {folder}/, dated before its "
                        f"predecessor {_label(latest)} was archived ({newest.isoformat()})"
                    ),
                    hint=(
                        "name the folder with the date it was really archived, not before "
                        f"{newest.isoformat()}: git mv {folder} "
                        f"{ARCHIVE_DIR}/<YYYY-MM-DD>-{state.change.change_id}"
                    ),
                )
            )
        if latest is None or max(state.archive_dates) >= max(latest.archive_dates):
            latest = state
    return reasons


def public_entry_of(state: RepoState) -> PublicEntry:
    """Return SINGLE_REACT when every change up to and including 6B is archived and committed."""
    for change_state in state.changes:
        if not change_state.committed:
            return "LEGACY"
        if change_state.change.stage == CUTOVER_STAGE:
            return "SINGLE_REACT"
    return "LEGACY"


def evaluate_gate(state: RepoState, stage: str) -> GateDecision:
    """Decide whether the change of ``stage`` may start in the repository ``state`` describes.

    Raises:
        GateSetupError: ``stage`` is not a stage label of the plan.
    """
    stages = [change_state.change.stage for change_state in state.changes]
    if stage not in stages:
        msg = f"unknown stage {stage!r}: expected one of {', '.join(stages)}"
        raise GateSetupError(msg)
    position = stages.index(stage)
    reasons = [
        reason
        for change_state in state.changes[:position]
        if (reason := _predecessor_reason(change_state)) is not None
    ]
    reasons.extend(_out_of_order(state.changes))
    reasons.extend(_started_early(state.changes, stage))
    reasons.extend(_duplicates(state.changes))
    reasons.extend(_back_dated(state.changes))
    reasons.sort(key=lambda reason: stages.index(reason.stage))
    return GateDecision(
        allowed=not reasons,
        stage=stage,
        reasons=reasons,
        public_entry=public_entry_of(state),
    )
