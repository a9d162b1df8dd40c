"""Where each planned change stands in a repository, as committed (Requirement 10).

The gate judges what CI sees: the repository's ``openspec/`` as committed at a ref (``HEAD`` by
default, or a base branch for "merged into the base"), read from git, never from the working
copy, so that a working copy and a fresh clone of the same commit get the same verdict. For each
change of the phase plan, in that commit:

- ACTIVE: ``openspec/changes/<change_id>/`` holds files;
- ARCHIVED: ``openspec/changes/archive/<YYYY-MM-DD>-<change_id>/`` holds files;
- COMPLETE (``committed``): archived, no longer active, and its deltas merged into
  ``openspec/specs/`` (:func:`conformance.gate._merge.unmerged`).

What the working copy holds beyond that commit (an archive not committed yet, a removal not
staged) is read too, but only to word the recovery hints and to say that CI will not see it.

:func:`find_repo_root` finds the folder that holds ``openspec/`` from any subfolder of it (up to the
git work tree's root), so that ``srdh gate`` works wherever in the repository CI or a user runs it.
"""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.gate._errors import GateSetupError
from conformance.gate._git import (
    check_work_tree,
    export_folder,
    read_git_facts,
    resolve_commit,
    work_tree_root,
)
from conformance.gate._merge import unmerged
from conformance.gate._plan import PlannedChange, load_phase_plan, planned_changes

if TYPE_CHECKING:
    from contracts import PhasePlan

__all__ = [
    "ARCHIVE_DIR",
    "CHANGES_DIR",
    "ChangeState",
    "RepoState",
    "find_repo_root",
    "read_repo_state",
]

CHANGES_DIR = "openspec/changes"
"""Active changes live in ``<CHANGES_DIR>/<change_id>/``."""
ARCHIVE_DIR = "openspec/changes/archive"
"""Archived changes live in ``<ARCHIVE_DIR>/<YYYY-MM-DD>-<change_id>/``."""

_ARCHIVE_NAME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})-(?P<change_id>.+)")


@dataclass(frozen=True, slots=True)
class ChangeState:
    """One planned change as committed at the judged ref (and as the working copy has it)."""

    change: PlannedChange
    """The planned change."""
    active: bool
    """``openspec/changes/<change_id>/`` holds files in the judged commit."""
    archive_dirs: tuple[str, ...]
    """Its archive folders in the judged commit (POSIX, relative to the repository), sorted."""
    tracked_files: int
    """How many files its archive folders hold in the judged commit."""
    unmerged: tuple[str, ...] = ()
    """What its archived deltas say that the committed main spec does not (one line each)."""
    local_active: bool = False
    """The working copy has ``openspec/changes/<change_id>/``."""
    local_archive_dirs: tuple[str, ...] = ()
    """Its archive folders in the working copy."""
    local_unmerged: tuple[str, ...] = ()
    """:attr:`unmerged`, for the working copy's files."""

    @property
    def archive_dates(self) -> tuple[dt.date, ...]:
        """The dates in the archive folders' names (``YYYY-MM-DD-<change_id>``), in folder order."""
        names = (folder.rsplit("/", 1)[-1] for folder in self.archive_dirs)
        return tuple(dt.date.fromisoformat(name[:10]) for name in names)

    @property
    def archived(self) -> bool:
        """At least one archive folder exists in the judged commit."""
        return bool(self.archive_dirs)

    @property
    def committed(self) -> bool:
        """The archive is complete in the judged commit: archived, not active, merged."""
        return self.archived and self.tracked_files > 0 and not self.active and not self.unmerged

    @property
    def local_complete(self) -> bool:
        """The working copy holds a complete archive (committing it would complete it)."""
        return bool(self.local_archive_dirs) and not self.local_active and not self.local_unmerged


@dataclass(frozen=True, slots=True)
class RepoState:
    """Every planned change of one repository, in plan order, at one commit."""

    repo: Path
    """The repository folder that was read."""
    changes: tuple[ChangeState, ...]
    """One entry per planned change, by ascending ``order``."""
    ref: str = "HEAD"
    """The ref that was judged (``HEAD``, or the base branch given)."""
    commit: str = ""
    """The commit id ``ref`` named."""
    pending: tuple[str, ...] = ()
    """Files under ``openspec/`` that differ in the working copy from ``HEAD`` (CI sees none)."""


def _archive_dirs(repo: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    archive = repo / ARCHIVE_DIR
    if not archive.is_dir():
        return found
    for entry in sorted(archive.iterdir()):
        match = _ARCHIVE_NAME.fullmatch(entry.name)
        if not entry.is_dir() or match is None:
            continue
        try:
            dt.date.fromisoformat(match["date"])
        except ValueError:
            continue
        found.setdefault(match["change_id"], []).append(f"{ARCHIVE_DIR}/{entry.name}")
    return found


def _is_openspec(folder: Path) -> bool:
    """An OpenSpec folder has ``specs/`` or ``changes/`` (a package named openspec has not)."""
    return (folder / "specs").is_dir() or (folder / CHANGES_DIR.rsplit("/", 1)[-1]).is_dir()


def find_repo_root(start: Path) -> Path:
    """Return the nearest folder from ``start`` upwards that holds an OpenSpec ``openspec/``.

    An ``openspec/`` folder counts when it has ``specs/`` or ``changes/``.

    The search stops at the root of the git work tree ``start`` is in, so a parent repository's
    ``openspec/`` is never picked up by accident.

    Raises:
        GateSetupError: ``start`` is not a directory, not in a git work tree, or neither it nor a
            parent up to the work tree's root holds ``openspec/``.
    """
    start = Path(start)
    if not start.is_dir():
        msg = f"{start}: not a directory"
        raise GateSetupError(msg)
    top = work_tree_root(start)
    here = start.resolve()
    for folder in (here, *here.parents):
        if _is_openspec(folder / "openspec"):
            return folder
        if folder == top:
            break
    msg = (
        f"{start}: no openspec/ folder here or in a parent folder up to the git root {top} "
        "(expected openspec/changes/ and its archive/)"
    )
    raise GateSetupError(msg)


def _active(root: Path) -> set[str]:
    folder = root / CHANGES_DIR
    if not folder.is_dir():
        return set()
    return {
        entry.name
        for entry in folder.iterdir()
        if entry.is_dir() and entry.name != "archive" and any(entry.rglob("*"))
    }


def _files_under(root: Path, folders: tuple[str, ...]) -> int:
    return sum(1 for folder in folders for path in (root / folder).rglob("*") if path.is_file())


def _layout(
    root: Path, changes: tuple[PlannedChange, ...]
) -> tuple[set[str], dict[str, list[str]], dict[str, list[str]]]:
    """``(active ids, archive folders by id, unmerged lines by id)`` of the tree at ``root``."""
    archives = _archive_dirs(root)
    ordered = [
        (change.change_id, root / folder)
        for change in changes
        for folder in archives.get(change.change_id, ())
    ]
    return _active(root), archives, unmerged(root, ordered)


def read_repo_state(repo: Path, plan: PhasePlan | None = None, *, ref: str = "HEAD") -> RepoState:
    """Read where each change of ``plan`` (default: the packaged plan) stands at ``ref``.

    The state is the committed tree of ``ref`` (see the module docstring); the working copy only
    fills the ``local_*`` fields and :attr:`RepoState.pending`.

    Raises:
        GateSetupError: ``repo`` is not a directory, not in a git work tree, has no
            ``openspec/`` folder, ``ref`` names no commit, or git is missing.
    """
    repo = Path(repo)
    if not repo.is_dir():
        msg = f"{repo}: not a directory"
        raise GateSetupError(msg)
    check_work_tree(repo)
    if not (repo / "openspec").is_dir():
        msg = f"{repo}: no openspec/ folder (expected openspec/changes/ and its archive/)"
        raise GateSetupError(msg)
    changes = planned_changes(plan if plan is not None else load_phase_plan())
    commit = resolve_commit(repo, ref)
    with tempfile.TemporaryDirectory(prefix="srdh-gate-") as tmp:
        snapshot = Path(tmp)
        export_folder(repo, commit, "openspec", snapshot)
        active, archives, merge = _layout(snapshot, changes)
        counts = {
            change.change_id: _files_under(snapshot, tuple(archives.get(change.change_id, ())))
            for change in changes
        }
    local_active, local_archives, local_merge = _layout(repo, changes)
    pending = read_git_facts(repo, "openspec").not_clean
    states = [
        ChangeState(
            change=change,
            active=change.change_id in active,
            archive_dirs=tuple(archives.get(change.change_id, ())),
            tracked_files=counts[change.change_id],
            unmerged=tuple(merge.get(change.change_id, ())),
            local_active=change.change_id in local_active,
            local_archive_dirs=tuple(local_archives.get(change.change_id, ())),
            local_unmerged=tuple(local_merge.get(change.change_id, ())),
        )
        for change in changes
    ]
    return RepoState(
        repo=repo, changes=tuple(states), ref=ref, commit=commit, pending=tuple(sorted(pending))
    )
