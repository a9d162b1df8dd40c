"""Where each planned change stands in a repository (Requirement 10).

For each change of the phase plan: ACTIVE if ``openspec/changes/<change_id>/`` exists, ARCHIVED if
``openspec/changes/archive/<YYYY-MM-DD>-<change_id>/`` exists, COMMITTED if it is archived and
every file under its archive folder(s) is tracked by git and clean.

:func:`find_repo_root` finds the folder that holds ``openspec/`` from any subfolder of it (up to the
git work tree's root), so that ``srdh gate`` works wherever in the repository CI or a user runs it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.gate._errors import GateSetupError
from conformance.gate._git import check_work_tree, read_git_facts, work_tree_root
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
    """One planned change as found in the repository."""

    change: PlannedChange
    """The planned change."""
    active: bool
    """``openspec/changes/<change_id>/`` exists."""
    archive_dirs: tuple[str, ...]
    """Its archive folders (POSIX, relative to the repository), sorted; empty if not archived."""
    tracked_files: int
    """How many files under its archive folders git tracks."""
    not_clean: tuple[str, ...]
    """Files under its archive folders that are untracked, ignored, staged or modified."""

    @property
    def archive_dates(self) -> tuple[dt.date, ...]:
        """The dates in the archive folders' names (``YYYY-MM-DD-<change_id>``), in folder order."""
        names = (folder.rsplit("/", 1)[-1] for folder in self.archive_dirs)
        return tuple(dt.date.fromisoformat(name[:10]) for name in names)

    @property
    def archived(self) -> bool:
        """At least one archive folder exists."""
        return bool(self.archive_dirs)

    @property
    def committed(self) -> bool:
        """Archived, and every file under the archive folders is tracked and clean."""
        return self.archived and self.tracked_files > 0 and not self.not_clean


@dataclass(frozen=True, slots=True)
class RepoState:
    """Every planned change of one repository, in plan order."""

    repo: Path
    """The repository folder that was read."""
    changes: tuple[ChangeState, ...]
    """One entry per planned change, by ascending ``order``."""


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


def read_repo_state(repo: Path, plan: PhasePlan | None = None) -> RepoState:
    """Read where each change of ``plan`` (default: the packaged plan) stands in ``repo``.

    Raises:
        GateSetupError: ``repo`` is not a directory, not in a git work tree, has no
            ``openspec/`` folder, or git is missing.
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
    archives = _archive_dirs(repo)
    facts = read_git_facts(repo, ARCHIVE_DIR)
    states = []
    for change in changes:
        dirs = tuple(archives.get(change.change_id, ()))
        prefixes = tuple(f"{folder}/" for folder in dirs)
        states.append(
            ChangeState(
                change=change,
                active=(repo / CHANGES_DIR / change.change_id).is_dir(),
                archive_dirs=dirs,
                tracked_files=sum(1 for path in facts.tracked if path.startswith(prefixes)),
                not_clean=tuple(sorted(p for p in facts.not_clean if p.startswith(prefixes))),
            )
        )
    return RepoState(repo=repo, changes=tuple(states))
