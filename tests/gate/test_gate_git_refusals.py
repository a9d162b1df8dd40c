"""The gate when git refuses the repository (G10) and with ``openspec/`` as a submodule (G9).

Git's "dubious ownership" and any other refusal is named with git's own reason and the fix git
gives; ``openspec/`` in a submodule is judged as the superproject's commit records it. Every
suggested fix or command is run as printed and the gate asked again.
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

from .conftest import _ENV, GitRepo

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


# --- G9: openspec/ as a git submodule --------------------------------------------------------

ARCHIVE0 = f"changes/archive/2026-07-21-{STAGE0}"


@pytest.fixture
def superproject(tmp_path: Path) -> tuple[GitRepo, GitRepo]:
    """A specs repository mounted as ``openspec/`` (a submodule) in a superproject, as the
    field input ``gate-submodule/run.sh`` builds it: stage 0 archived and committed inside."""
    specs = GitRepo(tmp_path / "specs-repo")
    (specs.root / "specs" / "demo").mkdir(parents=True)
    specs.git("init", "-q", "-b", "main")
    (specs.root / "specs" / "demo" / "spec.md").write_text("# demo\n")
    (specs.root / ARCHIVE0).mkdir(parents=True)
    (specs.root / ARCHIVE0 / "proposal.md").write_text("## Why\n\nx\n")
    specs.commit_all("specs")
    outer = GitRepo(tmp_path / "super")
    outer.root.mkdir()
    outer.git("init", "-q", "-b", "main")
    (outer.root / "README").write_text("app\n")
    allow_file = ("-c", "protocol.file.allow=always")
    outer.git(*allow_file, "submodule", "add", "-q", str(specs.root), "openspec")
    outer.commit_all("add specs submodule")
    return outer, GitRepo(outer.root / "openspec")


def test_g9_an_archive_committed_in_a_submodule_and_recorded_is_committed(superproject) -> None:
    """The field input: stage 1 is allowed (was: "no tracked files", a git add git refuses)."""
    outer, _ = superproject
    assert find_repo_root(outer.root) == outer.root
    decision = _decide(outer.root)
    assert decision.allowed, decision.reasons


def test_g9_an_archive_the_superproject_does_not_record_is_refused_and_the_fix_works(
    superproject,
) -> None:
    """Stage 1 archived in the submodule's working copy only: refused; the printed command,
    run as printed, commits it there and records it; then stage 2 is allowed."""
    outer, inner = superproject
    stage1 = next(c.change_id for c in planned_changes(PLAN) if c.stage == "1")
    folder = inner.root / f"changes/archive/2026-07-22-{stage1}"
    folder.mkdir(parents=True)
    (folder / "proposal.md").write_text("## Why\n\ny\n")
    refused = _decide(outer.root, "2")
    assert not refused.allowed
    commands = [r.command for r in refused.reasons if r.command]
    assert commands, refused.reasons
    assert "git -C openspec add" in commands[0]
    subprocess.run(["/bin/sh", "-c", commands[0]], env=_ENV, check=True, capture_output=True)  # noqa: S603 - the gate's own command
    assert _decide(outer.root, "2").allowed


def test_g9_a_submodule_not_checked_out_names_the_fix_and_it_works(superproject, tmp_path) -> None:
    """A clone without ``--recurse-submodules``: one clear error whose fix, run, lets it read."""
    outer, _ = superproject
    clone = tmp_path / "clone"
    outer.git("clone", "-q", str(outer.root), str(clone))
    with pytest.raises(
        GateSetupError, match="is a git submodule that is not checked out"
    ) as raised:
        _decide(clone)
    fix = str(raised.value).split("(fix: ", 1)[1].rstrip(")")
    subprocess.run(  # noqa: S603 - the gate's own fix
        ["/bin/sh", "-c", f"git -c protocol.file.allow=always {fix.removeprefix('git ')}"],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    assert _decide(clone).allowed
