"""The gate from a subfolder, duplicate and back-dated archives, and how to recover from each
refusal (temporary git repositories)."""

from __future__ import annotations

import shutil
import typing

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.gate import (
    GateSetupError,
    ReasonCode,
    evaluate_gate,
    find_repo_root,
    load_phase_plan,
    planned_changes,
    read_repo_state,
)

PLAN = load_phase_plan()
IDS = {change.stage: change.change_id for change in planned_changes(PLAN)}


def _decide(repo, stage: str):
    return evaluate_gate(read_repo_state(repo.root, PLAN), stage)


# --- the repository root from a subfolder -----------------------------------------------------


def test_root_is_found_from_a_subfolder(git_repo) -> None:
    """From a folder deep inside the repository, the root holding openspec/ is returned."""
    deep = git_repo.root / "services" / "harness" / "src"
    deep.mkdir(parents=True)
    assert find_repo_root(deep) == git_repo.root.resolve()
    assert find_repo_root(git_repo.root) == git_repo.root.resolve()


def test_root_search_stops_at_the_nearest_openspec(git_repo) -> None:
    """A nested project with its own openspec/ is found before the outer one."""
    inner = git_repo.root / "nested"
    (inner / "openspec" / "specs").mkdir(parents=True)
    (inner / "deeper").mkdir()
    assert find_repo_root(inner / "deeper") == inner.resolve()


def test_a_python_package_named_openspec_is_not_an_openspec_folder(git_repo) -> None:
    """A folder ``openspec/`` without specs/ or changes/ (e.g. a parser package) is passed over."""
    package = git_repo.root / "tools" / "openspec"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    assert find_repo_root(package.parent) == git_repo.root.resolve()


def test_root_search_never_leaves_the_git_work_tree(tmp_path, make_git_repo) -> None:
    """An openspec/ above the git work tree's root is not taken: one clear setup error instead."""
    (tmp_path / "openspec" / "specs").mkdir(parents=True)
    repo = make_git_repo(tmp_path / "project", initial_commit=True)
    shutil.rmtree(repo.root / "openspec")
    (repo.root / "src").mkdir()
    with pytest.raises(GateSetupError, match="no openspec/ folder here or in a parent") as raised:
        find_repo_root(repo.root / "src")
    assert str(repo.root.resolve()) in str(raised.value)
    assert "\n" not in str(raised.value)


def test_root_search_outside_git_is_a_setup_error(tmp_path) -> None:
    """A folder outside any git work tree is a GateSetupError naming it."""
    (tmp_path / "openspec").mkdir()
    with pytest.raises(GateSetupError, match="not a git repository"):
        find_repo_root(tmp_path)
    with pytest.raises(GateSetupError, match="not a directory"):
        find_repo_root(tmp_path / "absent")


def test_cli_gate_runs_from_a_subfolder(git_repo, monkeypatch) -> None:
    """`srdh gate 1` from a subfolder (no --repo) judges the repository root and says which."""
    git_repo.write_archive(IDS["0"])
    git_repo.commit_all()
    sub = git_repo.root / "docs" / "notes"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    result = CliRunner().invoke(app, ["gate", "1"])
    assert result.exit_code == 0, result.output
    assert f"repository: {git_repo.root.resolve()}" in result.stdout
    assert "stage 1: allowed" in result.stdout


# --- duplicate and back-dated archives --------------------------------------------------------


def test_a_change_archived_twice_is_refused_whatever_the_stage(git_repo) -> None:
    """Two archive folders for one change: DUPLICATE_ARCHIVE, naming both, for every stage."""
    git_repo.write_archive(IDS["0"], date="2026-07-21")
    git_repo.write_archive(IDS["0"], date="2026-07-22")
    git_repo.commit_all()
    for stage in ("1", "2", "9"):
        decision = _decide(git_repo, stage)
        assert not decision.allowed
        duplicates = [r for r in decision.reasons if r.code == "DUPLICATE_ARCHIVE"]
        assert [r.stage for r in duplicates] == ["0"]
        assert f"2026-07-21-{IDS['0']}" in duplicates[0].message
        assert f"2026-07-22-{IDS['0']}" in duplicates[0].message
        command = duplicates[0].command
        assert f"git rm -r -q openspec/changes/archive/2026-07-22-{IDS['0']}" in command


def test_a_change_archived_and_still_active_is_an_incomplete_archive(git_repo) -> None:
    """An archived change whose active folder is still committed: ARCHIVE_INCOMPLETE."""
    git_repo.write_archive(IDS["0"])
    git_repo.write_active(IDS["0"])
    git_repo.commit_all()
    decision = _decide(git_repo, "1")
    assert [(r.stage, r.code) for r in decision.reasons] == [("0", "ARCHIVE_INCOMPLETE")]
    assert f"openspec/changes/{IDS['0']}/ is still there" in decision.reasons[0].message


def test_an_archive_dated_before_its_predecessor_is_back_dated(git_repo) -> None:
    """Stage 1 archived with a date before stage 0's archive: BACK_DATED_ARCHIVE, refused."""
    git_repo.write_archive(IDS["0"], date="2026-08-01")
    git_repo.write_archive(IDS["1"], date="2026-07-30")
    git_repo.commit_all()
    decision = _decide(git_repo, "2")
    assert [(r.stage, r.code) for r in decision.reasons] == [("1", "BACK_DATED_ARCHIVE")]
    assert "2026-08-01" in decision.reasons[0].message
    assert f"git mv openspec/changes/archive/2026-07-30-{IDS['1']}" in decision.reasons[0].command


@pytest.mark.parametrize(
    "dates",
    [("2026-07-21", "2026-07-21", "2026-07-21"), ("2026-07-21", "2026-07-22", "2026-09-01")],
)
def test_archives_dated_in_plan_order_or_the_same_day_are_not_back_dated(
    git_repo, dates: tuple[str, str, str]
) -> None:
    """Non-decreasing archive dates in plan order (same day allowed) are in order."""
    for stage, date in zip(("0", "1", "2"), dates, strict=True):
        git_repo.write_archive(IDS[stage], date=date)
    git_repo.commit_all()
    assert _decide(git_repo, "3").allowed


def test_back_dating_is_judged_against_every_earlier_archive(git_repo) -> None:
    """Stage 2 dated after stage 1 but before stage 0 is still back-dated (against stage 0)."""
    git_repo.write_archive(IDS["0"], date="2026-08-10")
    git_repo.write_archive(IDS["1"], date="2026-08-01")
    git_repo.write_archive(IDS["2"], date="2026-08-05")
    git_repo.commit_all()
    codes = [(r.stage, r.code) for r in _decide(git_repo, "3").reasons]
    assert codes == [("1", "BACK_DATED_ARCHIVE"), ("2", "BACK_DATED_ARCHIVE")]


# --- how to recover ---------------------------------------------------------------------------


def test_out_of_order_archive_explains_how_to_recover(git_repo) -> None:
    """OUT_OF_ORDER's hint: un-archive with git mv, revert the merged specs, archive the gap."""
    git_repo.write_archive(IDS["0"])
    git_repo.write_archive(IDS["2"])
    git_repo.commit_all()
    (reason,) = _decide(git_repo, "1").reasons
    assert reason.code == "OUT_OF_ORDER"
    folder = f"openspec/changes/archive/2026-07-21-{IDS['2']}"
    assert f"git mv {folder} openspec/changes/{IDS['2']}" in reason.command
    assert "openspec/specs/" in reason.hint
    assert f"archive {IDS['1']}" in reason.hint


def test_cli_prints_how_to_recover_after_the_reasons(git_repo) -> None:
    """`srdh gate` lists the reasons, then one recovery line per reason, then the entry."""
    git_repo.write_archive(IDS["0"])
    git_repo.write_archive(IDS["2"])
    git_repo.commit_all()
    result = CliRunner().invoke(app, ["gate", "1", "--repo", str(git_repo.root)])
    assert result.exit_code == 1
    out = result.stdout
    assert out.index("OUT_OF_ORDER") < out.index("how to recover:") < out.index("public entry")
    assert "stage 2 (OUT_OF_ORDER): un-archive it" in out
    assert "    run: cd " in out
    assert "git mv openspec/changes/archive/" in out


def _layout_for(code: str, repo) -> str:
    """Lay out ``repo`` so that asking the returned stage gives a reason ``code``."""
    if code == "PREDECESSOR_NOT_ARCHIVED":
        return "1"
    if code == "PREDECESSOR_NOT_COMMITTED":
        repo.write_archive(IDS["0"])
        return "1"
    repo.write_archive(IDS["0"], date="2026-08-01")
    if code == "OUT_OF_ORDER":
        repo.write_archive(IDS["2"], date="2026-08-02")
    elif code == "STARTED_OUT_OF_ORDER":
        repo.write_active(IDS["2"])
    elif code == "DUPLICATE_ARCHIVE":
        repo.write_archive(IDS["0"], date="2026-08-03")
    elif code == "BACK_DATED_ARCHIVE":
        repo.write_archive(IDS["1"], date="2026-07-01")
    elif code == "ARCHIVE_INCOMPLETE":
        repo.write_active(IDS["0"])
    repo.commit_all()
    return "1"


@pytest.mark.parametrize("code", typing.get_args(ReasonCode))
def test_every_reason_code_comes_with_a_recovery_hint(git_repo, code: str) -> None:
    """Each ReasonCode the gate can give carries a one-line, non-empty recovery hint."""
    stage = _layout_for(code, git_repo)
    reasons = [r for r in _decide(git_repo, stage).reasons if r.code == code]
    assert reasons, code
    for reason in reasons:
        assert reason.hint.strip()
        assert "\n" not in reason.hint
        if code != "PREDECESSOR_NOT_ARCHIVED":  # not started: work by hand, no command
            assert reason.command.startswith("cd ")
            assert "\n" not in reason.command
