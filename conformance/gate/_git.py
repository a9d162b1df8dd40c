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


def resolve_commit(repo: Path, ref: str) -> str:
    """Return the commit id ``ref`` names in ``repo`` (``HEAD``, a branch, a tag, an id).

    Raises:
        GateSetupError: ``ref`` names no commit (an empty repository has no ``HEAD``).
    """
    try:
        return _git(repo, "rev-parse", "--verify", "--end-of-options", f"{ref}^{{commit}}").strip()
    except GateSetupError:
        msg = (
            f"{repo}: {ref!r} names no commit (the gate judges committed state: commit first, "
            "or pass --base with an existing branch)"
        )
        raise GateSetupError(msg) from None


def export_folder(repo: Path, commit: str, folder: str, target: Path) -> int:
    """Write ``folder`` (relative to ``repo``) as committed in ``commit`` to ``target``.

    ``target/<folder>/…`` then holds exactly what a fresh clone of that commit holds there (no
    working-copy change, no untracked or ignored file). Returns the number of files written (0
    when the commit has no such folder).

    Raises:
        GateSetupError: git is missing or fails.
    """
    import io  # noqa: PLC0415 - only the gate's committed-state reader needs them
    import tarfile  # noqa: PLC0415

    prefix = _git(repo, "rev-parse", "--show-prefix").strip()
    top = _git(repo, "rev-parse", "--show-toplevel").strip()
    tree = f"{commit}:{prefix}" if prefix else commit
    try:
        listed = _git(Path(top), "ls-tree", "-r", "--name-only", "-z", tree, "--", folder)
    except GateSetupError:
        return 0  # the commit has no such subfolder
    if not listed.strip("\0"):
        return 0
    executable = shutil.which("git") or "git"
    completed = subprocess.run(  # noqa: S603 - fixed git argv, no shell
        [executable, "-C", top, "archive", "--format=tar", tree, "--", folder],
        capture_output=True,
        check=False,
    )
    if completed.returncode != 0:
        first = (completed.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"])[0]
        msg = f"{repo}: git archive failed: {first}"
        raise GateSetupError(msg)
    with tarfile.open(fileobj=io.BytesIO(completed.stdout)) as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        archive.extractall(target, members=members, filter="data")
    return len(members)
