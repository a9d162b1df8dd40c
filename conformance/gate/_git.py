"""The few git facts the gate needs, read with the ``git`` command line.

Two commands per repository, whatever the number of changes: ``git ls-files`` (tracked files)
and ``git status --porcelain`` (staged, modified, deleted, untracked and ignored files), both
limited to ``openspec/changes/archive``. A git refusal (dubious ownership, a corrupt index, a
missing object...) is a :class:`GateSetupError` naming git's own reason and the fix git prints.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from conformance.gate._errors import GateSetupError

__all__ = ["GitFacts", "check_work_tree", "git_refusal", "read_git_facts", "work_tree_root"]

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FIX_LINE: Final = re.compile(r"^\s+(git .+)$")
_MESSAGE_MAX: Final = 400


@dataclass(frozen=True, slots=True)
class GitFacts:
    """Tracked and not-clean files under one folder, as POSIX paths relative to the repository."""

    tracked: frozenset[str]
    """Files in the git index."""
    not_clean: frozenset[str]
    """Files that are untracked, ignored, staged but uncommitted, modified or deleted."""


def _executable() -> str:
    executable = shutil.which("git")
    if executable is None:
        msg = "git executable not found on PATH; the phase gate needs git"
        raise GateSetupError(msg)
    return executable


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - fixed git argv, no shell
        [_executable(), "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
        encoding="utf-8",
        errors="replace",
    )


def git_refusal(repo: Path, args: tuple[str, ...], stderr: str) -> GateSetupError:
    """The error for a git command that failed: git's own reason, and the fix git names.

    ``fatal: detected dubious ownership in repository at '/r'`` followed by git's
    ``git config --global --add safe.directory /r`` line becomes ``/r: git rev-parse refused:
    detected dubious ownership in repository at '/r' (fix, as git says: git config --global
    --add safe.directory /r)``. Control characters are removed (git quotes paths it prints).
    """
    lines = [_CONTROL.sub("", line) for line in stderr.splitlines()]
    reasons = [line.split(":", 1)[1].strip() for line in lines if line.startswith("fatal:")]
    reasons = reasons or [line.strip() for line in lines if line.strip()][:1] or ["(no message)"]
    fixes = [match.group(1).strip() for line in lines if (match := _FIX_LINE.match(line))]
    message = f"{repo}: git {args[0]} refused: {reasons[0][:_MESSAGE_MAX]}"
    if fixes:
        message += f" (fix, as git says: {fixes[0][:_MESSAGE_MAX]})"
    return GateSetupError(message)


def _git(repo: Path, *args: str) -> str:
    completed = _run(repo, *args)
    if completed.returncode != 0:
        raise git_refusal(repo, args, completed.stderr)
    return completed.stdout


def check_work_tree(repo: Path) -> None:
    """Raise :class:`GateSetupError` unless ``repo`` is inside a git work tree git will read.

    Not a repository at all: the kit says so. Any other refusal (``safe.directory`` and
    dubious ownership, a broken ``.git``) names git's own reason and fix
    (:func:`git_refusal`).
    """
    args = ("rev-parse", "--is-inside-work-tree")
    completed = _run(repo, *args)
    if completed.returncode != 0 and "not a git repository" not in completed.stderr:
        raise git_refusal(repo, args, completed.stderr)
    if completed.returncode != 0 or completed.stdout.strip() != "true":
        msg = (
            f"{repo}: not a git repository (the phase gate reads committed state from git; run "
            "it in a clone of your repository, or pass --repo PATH)"
        )
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
    written = len(members)
    for commit_id, path in _gitlinks(Path(top), tree, folder):
        written += _export_submodule(repo, commit_id, path, target)
    return written


def _gitlinks(top: Path, tree: str, folder: str) -> list[tuple[str, str]]:
    """The submodules (``160000 commit`` entries) at or under ``folder`` in ``tree``."""
    listed = _git(top, "ls-tree", "-r", "-z", tree, "--", folder)
    found = []
    for entry in listed.split("\0"):
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "commit":  # noqa: PLR2004 - "mode type object"
            found.append((parts[2], path))
    return found


def _export_submodule(repo: Path, commit_id: str, path: str, target: Path) -> int:
    """Write the submodule at ``path`` as the superproject records it (``commit_id``).

    A submodule is its own repository: what the superproject committed is the commit its
    gitlink names, read from the submodule's checkout (``git submodule update --init`` makes
    one).

    Raises:
        GateSetupError: the submodule is not checked out, or lacks the recorded commit.
    """
    import io  # noqa: PLC0415 - only the gate's committed-state reader needs them
    import tarfile  # noqa: PLC0415

    checkout = repo / path
    fix = f"git -C {repo} submodule update --init -- {path}"
    if not (checkout / ".git").exists():
        msg = f"{repo}: {path}/ is a git submodule that is not checked out here (fix: {fix})"
        raise GateSetupError(msg)
    completed = subprocess.run(  # noqa: S603 - fixed git argv, no shell
        [_executable(), "-C", str(checkout), "archive", "--format=tar", commit_id],
        capture_output=True,
        check=False,
    )
    if completed.returncode != 0:
        msg = (
            f"{repo}: {path}/ is a git submodule whose checkout lacks the recorded commit "
            f"{commit_id[:12]} (fix: {fix})"
        )
        raise GateSetupError(msg)
    with tarfile.open(fileobj=io.BytesIO(completed.stdout)) as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        for member in members:
            member.name = f"{path}/{member.name}"
        archive.extractall(target, members=members, filter="data")
    return len(members)
