"""The gate when git refuses the repository (field fault G10).

Git's "dubious ownership" and any other refusal is named with git's own reason and the fix git
gives, and that fix works: the suggested command is run and the gate asked again.
"""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.gate import (
    GateSetupError,
    evaluate_gate,
    find_repo_root,
    load_phase_plan,
    planned_changes,
    read_repo_state,
)

from .conftest import _ENV

if TYPE_CHECKING:
    from pathlib import Path

PLAN = load_phase_plan()
STAGE0 = next(c.change_id for c in planned_changes(PLAN) if c.stage == "0")


def _decide(root: Path, stage: str = "1"):
    return evaluate_gate(read_repo_state(root, PLAN), stage)


def _different_owner_env(home: Path) -> dict[str, str]:
    """Git believes another user owns every repository; its global config lives in ``home``."""
    env = {k: v for k, v in _ENV.items() if k != "GIT_CONFIG_GLOBAL"}
    return {**env, "HOME": str(home), "GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"}


def test_g10_dubious_ownership_names_gits_reason_and_its_fix_works(
    git_repo, tmp_path, monkeypatch
) -> None:
    """The field input: exit 2 naming dubious ownership and safe.directory (was: "not a git
    repository"); the printed fix, run as printed, lets the gate read the repository."""
    git_repo.write_archive(STAGE0)
    git_repo.commit_all("archive stage 0")
    home = tmp_path / "home"
    home.mkdir()
    env = _different_owner_env(home)
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(app, ["gate", "1", "--repo", str(git_repo.root)])
    assert result.exit_code == 2, result.output
    assert "dubious ownership" in result.output
    assert "not a git repository" not in result.output
    fix = result.output.split("fix, as git says: ", 1)[1].split(")", 1)[0]
    assert fix.startswith("git config --global --add safe.directory ")
    subprocess.run(["/bin/sh", "-c", fix], env=env, check=True)  # noqa: S603 - git's own fix
    again = CliRunner().invoke(app, ["gate", "1", "--repo", str(git_repo.root)])
    assert again.exit_code in {0, 1}, again.output  # git reads the repository: a verdict
    assert "dubious ownership" not in again.output
    assert "stage 1: " in again.output


def test_g10_any_other_git_refusal_names_gits_own_reason(git_repo) -> None:
    """A corrupt index: git's words, not a guess (and never a traceback)."""
    git_repo.write_archive(STAGE0)
    git_repo.commit_all("archive stage 0")
    (git_repo.root / ".git" / "index").write_bytes(b"DIRC-not-an-index")
    with pytest.raises(GateSetupError) as raised:
        _decide(git_repo.root)
    text = str(raised.value)
    assert "refused:" in text
    assert "index" in text
    assert "not a git repository" not in text


def test_g10_a_folder_outside_git_is_still_not_a_git_repository(tmp_path) -> None:
    """The one refusal the kit words itself: no repository at all."""
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GateSetupError, match="not a git repository"):
        find_repo_root(plain)
