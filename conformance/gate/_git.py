"""The few git facts the gate needs, read with the ``git`` command line.

Two commands per repository, whatever the number of changes: ``git ls-files`` (tracked files)
and ``git status --porcelain`` (staged, modified, deleted, untracked and ignored files), both
limited to ``openspec/changes/archive``.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from conformance.gate._errors import GateSetupError

__all__ = ["GitFacts", "check_work_tree", "read_git_facts", "work_tree_root"]


@dataclass(frozen=True, slots=True)
class GitFacts:
    """Tracked and not-clean files under one folder, as POSIX paths relative to the repository."""

    tracked: frozenset[str]
    """Files in the git index."""
    not_clean: frozenset[str]
    """Files that are untracked, ignored, staged but uncommitted, modified or deleted."""


def _git(repo: Path, *args: str) -> str:
    executable = shutil.which("git")
    if executable is None:
        msg = "git executable not found on PATH; the phase gate needs git"
        raise GateSetupError(msg)
    completed = subprocess.run(  # noqa: S603 - fixed git argv, no shell
        [executable, "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
    )
    if completed.returncode != 0:
        first = (completed.stderr.strip().splitlines() or ["(no message)"])[0]
        msg = f"{repo}: git {args[0]} failed: {first}"
        raise GateSetupError(msg)
    return completed.stdout


def check_work_tree(repo: Path) -> None:
    """Raise :class:`GateSetupError` unless ``repo`` is inside a git work tree."""
    executable = shutil.which("git")
    if executable is None:
        msg = "git executable not found on PATH; the phase gate needs git"
        raise GateSetupError(msg)
    completed = subprocess.run(  # noqa: S603 - fixed git argv, no shell
        [executable, "-C", str(repo), "rev-parse", "--is-inside-work-tree"],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0 or completed.stdout.strip() != "true":
        msg = f"{repo}: not a git repository (the phase gate reads committed state from git)"
        raise GateSetupError(msg)


def work_tree_root(repo: Path) -> Path:
    """Return the resolved root folder of the git work tree ``repo`` is in.

    Raises:
        GateSetupError: ``repo`` is not inside a git work tree, or git is missing.
    """
    check_work_tree(repo)
    return Path(_git(repo, "rev-parse", "--show-toplevel").strip()).resolve()


def read_git_facts(repo: Path, folder: str) -> GitFacts:
    """Return the tracked and the not-clean files under ``folder`` (relative to ``repo``).

    Raises:
        GateSetupError: git is missing or fails.
    """
    prefix = _git(repo, "rev-parse", "--show-prefix").strip()
    tracked = frozenset(
        path for path in _git(repo, "ls-files", "-z", "--", folder).split("\0") if path
    )
    status = _git(
        repo,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignored=matching",
        "--no-renames",
        "--",
        folder,
    )
    not_clean = set()
    for entry in status.split("\0"):
        if len(entry) < 4:  # noqa: PLR2004 - "XY path": two status letters, a space, a path
            continue
        path = entry[3:]
        not_clean.add(path.removeprefix(prefix) if prefix else path)
    return GitFacts(tracked=tracked, not_clean=frozenset(not_clean))
