"""Shared fixtures of the CLI tests: a runner and small repositories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runner() -> CliRunner:
    """A Typer CliRunner (stdout and stderr kept apart)."""
    return CliRunner()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(  # noqa: S603 - fixed git arguments in a temporary directory
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def spec_repo(tmp_path: Path) -> Path:
    """A committed git repository holding a copy of the kit's openspec/ (stage 0 archived)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "stage 0")
    return repo


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see a non-terminal unless they force one: no inherited FORCE_COLOR/TTY settings."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
