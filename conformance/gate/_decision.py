"""The serial phase gate decision (Requirement 10).

Spec Scenario "Stage 4 completes internal Agent tests" is one instance of these rules.

Rules, applied to a :class:`RepoState`:

The state is the committed tree of one ref (``HEAD``, or the base branch: :mod:`._repo`), so a
working copy and a fresh clone of the same commit get the same decision.

1. A change may start only when every earlier change of the plan is archived AND the archive is
   complete in the judged commit (the active folder gone, the deltas merged into the main spec).
   Each earlier change that is not is one reason: ``PREDECESSOR_NOT_ARCHIVED`` (no archive in the
   commit), ``PREDECESSOR_NOT_COMMITTED`` (archived in the working copy only) or
   ``ARCHIVE_INCOMPLETE`` (half an archive committed). For stage 6B (the public chat cutover) this
   names each of stages 0..6A that is missing. A half-committed archive of any other change is
   ``ARCHIVE_INCOMPLETE`` too.
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

``allowed`` is true exactly when ``reasons`` is empty; ``finished`` says the asked stage is itself
archived completely. Every reason carries a ``hint`` (what to do, in words) and, where the repair
is mechanical, a ``command``: one shell line that runs as written from anywhere (it starts with
``cd`` to the repository), after which the same gate on a fresh clone gives the new verdict.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from conformance._inert import echo
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
    "ARCHIVE_INCOMPLETE",
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
    """How to recover, in words (one line)."""
    command: str = ""
    """The recovery as one shell line that runs as written (``""`` when it needs work by hand)."""


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
    finished: bool = False
    """The asked stage is itself archived completely in the judged commit."""
    ref: str = "HEAD"
    """The ref whose commit was judged."""
    commit: str = ""
    """That commit's id."""
    pending: tuple[str, ...] = ()
    """Working-copy files under ``openspec/`` not in ``HEAD`` (the decision does not see them)."""


def _label(state: ChangeState) -> str:
    return f"stage {state.change.stage} ({state.change.change_id})"


def _cd(state: RepoState) -> str:
    return f"cd {shlex.quote(str(Path(state.repo).resolve()))} && "


def _openspec(state: RepoState) -> str:
    local = Path(state.repo).resolve() / "node_modules" / ".bin" / "openspec"
    cli = shlex.quote(str(local)) if local.is_file() else "openspec"
    return f"OPENSPEC_TELEMETRY=0 {cli}"


def _git_commit(message: str) -> str:
    return f"git commit -q -m {shlex.quote(message)}"


def _commit(message: str, state: RepoState) -> str:
    """Commit everything under ``openspec/``; in a submodule, commit there and record it.

    The superproject refuses ``git add`` of a path inside a submodule: the files are committed
    in the submodule (``git -C openspec``), then the new submodule commit is recorded.
    """
    quoted = shlex.quote(message)
    if (Path(state.repo) / "openspec" / ".git").exists():
        return (
            f"git -C openspec add -A . && (git -C openspec diff --cached --quiet || "
            f"git -C openspec commit -q -m {quoted}) && git add openspec && "
            f"git commit -q -m {quoted}"
        )
    return f"git add -A openspec && git commit -q -m {quoted}"


def _not_archived(state: RepoState, change_state: ChangeState) -> GateReason:
    change = change_state.change
    change_id = change.change_id
    where = "active, not archived" if change_state.active else "not started"
    message = (
        f"{_label(change_state)} is {where} in {state.ref}: expected "
        f"{ARCHIVE_DIR}/<YYYY-MM-DD>-{change_id}/"
    )
    archive = f"Archive {change_id}"
    if state.ref != "HEAD":
        return GateReason(
            code="PREDECESSOR_NOT_ARCHIVED",
            stage=change.stage,
            message=message,
            hint=f"merge the commit that archives {change_id} into {state.ref}, then run again",
        )
    if change_state.local_archive_dirs:
        return GateReason(
            code="PREDECESSOR_NOT_COMMITTED",
            stage=change.stage,
            message=(
                f"{_label(change_state)} is archived in the working copy "
                f"({', '.join(change_state.local_archive_dirs)}/) but not in {state.ref}: "
                "CI sees the commit"
            ),
            hint="commit the whole archive: the archive folder, the active folder's removal "
            "and the merged main spec",
            command=_cd(state) + _commit(archive, state),
        )
    if change_state.active or change_state.local_active:
        return GateReason(
            code="PREDECESSOR_NOT_ARCHIVED",
            stage=change.stage,
            message=message,
            hint=f"when {change_id} is done, archive it with the OpenSpec CLI (it merges the "
            "delta into the main spec) and commit everything it changed",
            command=(
                _cd(state)
                + f"{_openspec(state)} archive {change_id} --yes && {_commit(archive, state)}"
            ),
        )
    return GateReason(
        code="PREDECESSOR_NOT_ARCHIVED",
        stage=change.stage,
        message=message,
        hint=f"start {change_id} (openspec/changes/{change_id}/), finish it, archive it and "
        "commit the archive; then start this stage",
    )


def _incomplete(state: RepoState, change_state: ChangeState) -> GateReason:
    change_id = change_state.change.change_id
    missing = (
        [f"{CHANGES_DIR}/{change_id}/ is still there"] if change_state.active else []
    ) + list(change_state.unmerged)
    message = (
        f"{_label(change_state)} is archived at {', '.join(change_state.archive_dirs)}/ in "
        f"{state.ref}, but the archive is incomplete: {missing[0]}"
        + (f" (+{len(missing) - 1} more)" if len(missing) > 1 else "")
    )
    complete = f"Complete the archive of {change_id}"
    if state.ref != "HEAD":
        hint = f"merge the commit that completes the archive of {change_id} into {state.ref}"
        command = ""
    elif change_state.local_complete:
        hint = "the working copy holds the whole archive: commit all of it"
        command = _cd(state) + _commit(complete, state)
    elif not change_state.unmerged and not change_state.local_unmerged:
        hint = f"remove the active copy {CHANGES_DIR}/{change_id}/ and commit"
        command = _cd(state) + (
            f"git rm -r -q --ignore-unmatch {CHANGES_DIR}/{change_id} && "
            f"rm -rf {CHANGES_DIR}/{change_id} && {_commit(complete, state)}"
        )
    else:
        folder = change_state.archive_dirs[0]
        hint = (
            "the delta is not merged into the main spec: move the folder back and archive it "
            "with the OpenSpec CLI, which merges it, then commit"
        )
        command = _cd(state) + (
            f"rm -rf {CHANGES_DIR}/{change_id} && git mv {folder} {CHANGES_DIR}/{change_id} && "
            f"{_openspec(state)} archive {change_id} --yes && {_commit(complete, state)}"
        )
    return GateReason(
        code="ARCHIVE_INCOMPLETE",
        stage=change_state.change.stage,
        message=message,
        hint=hint,
        command=command,
    )


def _predecessor_reason(state: RepoState, change_state: ChangeState) -> GateReason | None:
    if not change_state.archived:
        return _not_archived(state, change_state)
    if not change_state.committed:
        return _incomplete(state, change_state)
    return None


def _out_of_order(repo: RepoState) -> list[GateReason]:
    reasons = []
    first_missing: ChangeState | None = None
    for state in repo.changes:
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
                    command=_cd(repo)
                    + f"git mv {state.archive_dirs[0]} {CHANGES_DIR}/{state.change.change_id} && "
                    + "git commit -q -m "
                    + shlex.quote(f"Un-archive {state.change.change_id}"),
                )
            )
    return reasons


def _started_early(repo: RepoState, asked: str) -> list[GateReason]:
    reasons = []
    first_open: ChangeState | None = None
    for state in repo.changes:
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
                    command=(
                        _cd(repo)
                        + f"git rm -r -q {CHANGES_DIR}/{state.change.change_id} && "
                        + _git_commit(f"Set {state.change.change_id} aside")
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
        f"un-archive it (move {folder}/ back to {CHANGES_DIR}/{change_id}/; the command does) "
        "and take back what its archive merged into openspec/specs/ (e.g. git revert the "
        f"archiving commit); archive {first_missing.change.change_id} and the changes between "
        f"first, then {change_id} again"
    )


def _duplicates(repo: RepoState) -> list[GateReason]:
    reasons = []
    for state in repo.changes:
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
                    hint="keep the folder of the real archive (the first) and remove the others",
                    command=_cd(repo)
                    + f"git rm -r -q {' '.join(state.archive_dirs[1:])} && "
                    + _git_commit(f"Remove duplicate archives of {change_id}"),
                )
            )
    return reasons


def _back_dated(repo: RepoState) -> list[GateReason]:
    reasons = []
    latest: ChangeState | None = None
    for state in repo.changes:
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
                        f"{newest.isoformat()} (the command uses that date)"
                    ),
                    command=_cd(repo)
                    + f"git mv {folder} {ARCHIVE_DIR}/{newest.isoformat()}-"
                    + f"{state.change.change_id} && git commit -q -m "
                    + shlex.quote(f"Date the archive of {state.change.change_id}"),
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

    ``stage`` is matched without regard to case (``"6b"`` is stage ``6B``).

    Raises:
        GateSetupError: ``stage`` is not a stage label of the plan; the message echoes it as
            given (inert, bounded: :func:`conformance._inert.echo`), never case-folded.
    """
    stages = [change_state.change.stage for change_state in state.changes]
    labels = {label.upper(): label for label in stages}
    if stage.upper() not in labels:
        msg = f"unknown stage {echo(stage, quote=True)}: expected one of {', '.join(stages)}"
        raise GateSetupError(msg)
    stage = labels[stage.upper()]
    position = stages.index(stage)
    reasons = [
        reason
        for change_state in state.changes[:position]
        if (reason := _predecessor_reason(state, change_state)) is not None
    ]
    reasons += [
        _incomplete(state, change_state)
        for change_state in state.changes[position:]
        if change_state.archived
        and not change_state.committed
        and len(change_state.archive_dirs) == 1
    ]
    reasons.extend(_out_of_order(state))
    reasons.extend(_started_early(state, stage))
    reasons.extend(_duplicates(state))
    reasons.extend(_back_dated(state))
    reasons.sort(key=lambda reason: stages.index(reason.stage))
    return GateDecision(
        allowed=not reasons,
        stage=stage,
        reasons=reasons,
        public_entry=public_entry_of(state),
        finished=state.changes[position].committed,
        ref=state.ref,
        commit=state.commit,
        pending=state.pending,
    )
