"""The gate judges what CI sees: the same verdict in a working copy and in a fresh clone.

Each test lays out a repository, asks the gate, runs the recovery command the gate prints exactly
as written (``bash -c``), and asks again in the working copy and in a fresh ``git clone`` of it.
The archive is made by the official OpenSpec CLI (``openspec archive ID --yes``), as a spec
author does; a commit holding only the moved folder is half an archive.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.gate import evaluate_gate, load_phase_plan, planned_changes, read_repo_state

ROOT = Path(__file__).resolve().parents[2]
PLAN = load_phase_plan()
IDS = {change.stage: change.change_id for change in planned_changes(PLAN)}
CAPABILITY = "single-react-diagnosis-harness"

DELTA = """## ADDED Requirements

### Requirement: Client disconnect during a tool call is recorded
The Harness SHALL record a client disconnect that happens during a tool call as a cancellation.

#### Scenario: Client disconnects during a tool call
- **WHEN** the client disconnects while a tool call is running
- **THEN** the Run ends CANCELLED
"""

PROPOSAL = """# Tool call identity

## Why
Stage 1 gives every tool call a stable Tool Call ID and tracks its invocation status.

## What Changes
- A client disconnect during a tool call is recorded as a cancellation.

## Impact
- Harness, trace events.
"""


def _run(repo: Path, *argv: str) -> str:
    done = subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv
    assert done.returncode == 0, (argv, done.stdout, done.stderr)
    return done.stdout


def _git(repo: Path, *args: str) -> str:
    return _run(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args)


@pytest.fixture
def spec_repo(tmp_path: Path) -> Path:
    """A committed copy of the kit's openspec/, stage 1 active (committed), Node tools linked."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    (repo / "node_modules").symlink_to(ROOT / "node_modules")
    (repo / ".gitignore").write_text("node_modules\n")
    change = repo / "openspec" / "changes" / IDS["1"]
    (change / "specs" / CAPABILITY).mkdir(parents=True)
    (change / "proposal.md").write_text(PROPOSAL)
    (change / "tasks.md").write_text("## 1. Work\n- [x] 1.1 Record the disconnect\n")
    (change / "specs" / CAPABILITY / "spec.md").write_text(DELTA)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "stage 1 started")
    return repo


def _verdict(repo: Path, stage: str) -> tuple[bool, list[str]]:
    decision = evaluate_gate(read_repo_state(repo, PLAN), stage)
    return decision.allowed, [r.code for r in decision.reasons]


def _clone_verdict(repo: Path, stage: str, tmp_path: Path) -> tuple[bool, list[str]]:
    clone = tmp_path / f"clone-{len(list(tmp_path.iterdir()))}"
    _run(tmp_path, "git", "clone", "-q", str(repo), str(clone))
    return _verdict(clone, stage)


def _follow(repo: Path, stage: str, code: str) -> None:
    decision = evaluate_gate(read_repo_state(repo, PLAN), stage)
    (reason,) = [r for r in decision.reasons if r.code == code]
    assert reason.command, reason
    _run(Path("/"), "bash", "-c", reason.command)


def test_half_an_archive_is_refused_alike_and_its_command_completes_it(
    spec_repo: Path, tmp_path: Path
) -> None:
    """Archived by the CLI, only the archive folder committed: refused here and in a clone alike.

    The issue's case: locally the archive looked done, a fresh clone (CI) saw the active folder
    and the unmerged spec. The printed command commits the rest; then both allow stage 2.
    """
    _run(spec_repo, "node_modules/.bin/openspec", "archive", IDS["1"], "--yes")
    _git(spec_repo, "add", "openspec/changes/archive")
    _git(spec_repo, "commit", "-q", "-m", "archive folder only")
    here = _verdict(spec_repo, "2")
    assert here == (False, ["ARCHIVE_INCOMPLETE"])
    assert _clone_verdict(spec_repo, "2", tmp_path) == here
    _follow(spec_repo, "2", "ARCHIVE_INCOMPLETE")
    assert _verdict(spec_repo, "2") == (True, [])
    assert _clone_verdict(spec_repo, "2", tmp_path) == (True, [])


def test_an_uncommitted_archive_is_refused_alike_and_its_command_commits_it(
    spec_repo: Path, tmp_path: Path
) -> None:
    """Archived in the working copy only: refused in both; the command commits the archive."""
    _run(spec_repo, "node_modules/.bin/openspec", "archive", IDS["1"], "--yes")
    assert _verdict(spec_repo, "2") == (False, ["PREDECESSOR_NOT_COMMITTED"])
    assert _clone_verdict(spec_repo, "2", tmp_path)[0] is False
    _follow(spec_repo, "2", "PREDECESSOR_NOT_COMMITTED")
    assert _verdict(spec_repo, "2") == (True, [])
    assert _clone_verdict(spec_repo, "2", tmp_path) == (True, [])


def test_an_active_predecessor_is_archived_by_its_command(spec_repo: Path, tmp_path: Path) -> None:
    """Stage 1 active: the command archives it with the OpenSpec CLI and commits everything."""
    assert _verdict(spec_repo, "2") == (False, ["PREDECESSOR_NOT_ARCHIVED"])
    _follow(spec_repo, "2", "PREDECESSOR_NOT_ARCHIVED")
    assert _verdict(spec_repo, "2") == (True, [])
    assert _clone_verdict(spec_repo, "2", tmp_path) == (True, [])
    assert evaluate_gate(read_repo_state(spec_repo, PLAN), "1").finished


def test_a_predecessor_on_an_unmerged_branch_is_not_merged_into_the_base(
    spec_repo: Path,
) -> None:
    """Stage 1 archived and committed on a branch: allowed at HEAD, refused with --base main."""
    _git(spec_repo, "checkout", "-q", "-b", "stage-1")
    _run(spec_repo, "node_modules/.bin/openspec", "archive", IDS["1"], "--yes")
    _git(spec_repo, "add", "-A", "openspec")
    _git(spec_repo, "commit", "-q", "-m", "archive stage 1")
    assert _verdict(spec_repo, "2") == (True, [])
    based = evaluate_gate(read_repo_state(spec_repo, PLAN, ref="main"), "2")
    assert not based.allowed
    assert [r.code for r in based.reasons] == ["PREDECESSOR_NOT_ARCHIVED"]
    assert "main" in based.reasons[0].message


@pytest.mark.parametrize(
    "code", ["DUPLICATE_ARCHIVE", "BACK_DATED_ARCHIVE", "OUT_OF_ORDER", "STARTED_OUT_OF_ORDER"]
)
def test_every_mechanical_repair_gives_the_same_verdict_in_a_clone(
    spec_repo: Path, tmp_path: Path, code: str
) -> None:
    """After each printed command, the working copy and a fresh clone agree; the reason is gone."""
    archive = spec_repo / "openspec" / "changes" / "archive"
    zero = next(archive.iterdir())
    if code == "DUPLICATE_ARCHIVE":
        shutil.copytree(zero, archive / f"2026-07-22-{IDS['0']}")
    elif code == "BACK_DATED_ARCHIVE":
        _run(spec_repo, "node_modules/.bin/openspec", "archive", IDS["1"], "--yes")
        (stage_one,) = [p for p in archive.iterdir() if p.name.endswith(IDS["1"])]
        stage_one.rename(archive / f"2026-07-01-{IDS['1']}")
    elif code == "OUT_OF_ORDER":
        shutil.copytree(zero, archive / f"2026-07-22-{IDS['2']}")
    else:
        started = spec_repo / "openspec" / "changes" / IDS["2"]
        started.mkdir()
        (started / "proposal.md").write_text(f"# {IDS['2']}\n")
    _git(spec_repo, "add", "-A")
    _git(spec_repo, "commit", "-q", "-m", "layout")
    stage = "3"
    assert code in _verdict(spec_repo, stage)[1]
    assert _clone_verdict(spec_repo, stage, tmp_path) == _verdict(spec_repo, stage)
    _follow(spec_repo, stage, code)
    after = _verdict(spec_repo, stage)
    assert code not in after[1]
    assert _clone_verdict(spec_repo, stage, tmp_path) == after
