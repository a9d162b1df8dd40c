"""Temporary git repositories for the phase-gate tests."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path  # noqa: TC003 - used at runtime by the dataclass annotations

import pytest

GIT = shutil.which("git")

_ENV = {
    "GIT_AUTHOR_NAME": "gate-test",
    "GIT_AUTHOR_EMAIL": "gate-test@example.invalid",
    "GIT_COMMITTER_NAME": "gate-test",
    "GIT_COMMITTER_EMAIL": "gate-test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "PATH": "/usr/bin:/bin:/usr/local/bin",
}


@dataclass
class GitRepo:
    """A throw-away git repository with an ``openspec/`` folder."""

    root: Path

    def git(self, *args: str) -> str:
        assert GIT is not None
        done = subprocess.run(  # noqa: S603 - fixed git argv built by the tests
            [GIT, "-C", str(self.root), *args],
            capture_output=True,
            text=True,
            check=True,
            env=_ENV,
        )
        return done.stdout

    @classmethod
    def create(cls, root: Path, *, initial_commit: bool = True) -> GitRepo:
        root.mkdir(parents=True, exist_ok=True)
        repo = cls(root)
        repo.git("init", "-q", "-b", "main")
        (root / "openspec" / "changes" / "archive").mkdir(parents=True)
        (root / "openspec" / "config.yaml").write_text("schema: spec-driven\n")
        if initial_commit:
            repo.commit_all("init")
        return repo

    def archive_dir(self, change_id: str, date: str = "2026-07-21") -> Path:
        return self.root / "openspec" / "changes" / "archive" / f"{date}-{change_id}"

    def write_archive(self, change_id: str, date: str = "2026-07-21") -> Path:
        folder = self.archive_dir(change_id, date)
        (folder / "specs" / "cap").mkdir(parents=True)
        (folder / "proposal.md").write_text(f"# {change_id}\n")
        (folder / "specs" / "cap" / "spec.md").write_text("## ADDED Requirements\n")
        return folder

    def write_active(self, change_id: str) -> Path:
        folder = self.root / "openspec" / "changes" / change_id
        folder.mkdir(parents=True)
        (folder / "proposal.md").write_text(f"# {change_id}\n")
        return folder

    def commit_all(self, message: str = "work") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """A fresh git repository with an empty ``openspec/changes/archive/``."""
    if GIT is None:
        pytest.fail("git is required by the phase-gate tests")
    return GitRepo.create(tmp_path / "repo")


@pytest.fixture(scope="session")
def make_git_repo():
    """A factory ``Path -> GitRepo`` (for Hypothesis tests, which cannot use ``tmp_path``)."""
    if GIT is None:
        pytest.fail("git is required by the phase-gate tests")
    return GitRepo.create
