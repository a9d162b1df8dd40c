"""Reading change states from real git repositories, and the spec's gate scenario."""

from __future__ import annotations

import shutil

import pytest

from conformance.gate import (
    GateSetupError,
    evaluate_gate,
    load_phase_plan,
    planned_changes,
    read_repo_state,
)

PLAN = load_phase_plan()
CHANGES = planned_changes(PLAN)
IDS = {change.stage: change.change_id for change in CHANGES}
UP_TO_4 = ("0", "1", "2", "3", "4")


def _by_stage(state):
    return {change_state.change.stage: change_state for change_state in state.changes}


def test_gate_stage_4_completes_internal_agent_tests(git_repo) -> None:
    """Scenario "Stage 4 completes internal Agent tests": 0..4 archived and committed, 5 not.

    Stage 6B (public chat cutover) is refused with one reason per missing stage 5 and 6A, and the
    public entry stays LEGACY.
    """
    for stage in UP_TO_4:
        git_repo.write_archive(IDS[stage])
    git_repo.commit_all()
    git_repo.write_active(IDS["5"])
    git_repo.commit_all("start stage 5")
    decision = evaluate_gate(read_repo_state(git_repo.root, PLAN), "6B")
    assert not decision.allowed
    assert decision.public_entry == "LEGACY"
    assert [(r.stage, r.code) for r in decision.reasons] == [
        ("5", "PREDECESSOR_NOT_ARCHIVED"),
        ("6A", "PREDECESSOR_NOT_ARCHIVED"),
    ]
    assert IDS["5"] in decision.reasons[0].message
    assert "active, not archived" in decision.reasons[0].message
    assert evaluate_gate(read_repo_state(git_repo.root, PLAN), "5").allowed


def test_gate_reads_active_archived_and_committed(git_repo) -> None:
    """Active, archived and complete are read from the commit; the working copy only as local."""
    git_repo.write_archive(IDS["0"])
    git_repo.commit_all()
    git_repo.write_archive(IDS["1"], date="2026-08-01")
    git_repo.write_active(IDS["2"])
    states = _by_stage(read_repo_state(git_repo.root, PLAN))
    assert (states["0"].archived, states["0"].committed, states["0"].active) == (True, True, False)
    assert (states["1"].archived, states["1"].committed) == (False, False)
    assert states["1"].local_archive_dirs == (f"openspec/changes/archive/2026-08-01-{IDS['1']}",)
    assert (states["2"].active, states["2"].local_active) == (False, True)
    git_repo.commit_all()
    states = _by_stage(read_repo_state(git_repo.root, PLAN))
    assert states["1"].archive_dirs == (f"openspec/changes/archive/2026-08-01-{IDS['1']}",)
    assert (states["1"].archived, states["1"].committed) == (True, True)
    assert (states["2"].archived, states["2"].active) == (False, True)
    assert not any(states[stage].archived or states[stage].active for stage in ("3", "6B", "9"))


@pytest.mark.parametrize(
    "spoil",
    ["modified", "staged", "untracked_extra", "deleted", "ignored_extra"],
)
def test_gate_working_copy_edits_are_noted_not_judged(git_repo, spoil: str) -> None:
    """Edits under a committed archive do not change the verdict (CI never sees them): noted."""
    folder = git_repo.write_archive(IDS["0"])
    git_repo.commit_all()
    if spoil == "modified":
        (folder / "proposal.md").write_text("# changed\n")
    elif spoil == "staged":
        (folder / "notes.md").write_text("staged\n")
        git_repo.git("add", str(folder / "notes.md"))
    elif spoil == "untracked_extra":
        (folder / "notes.md").write_text("untracked\n")
    elif spoil == "deleted":
        (folder / "proposal.md").unlink()
    else:
        (git_repo.root / ".gitignore").write_text("*.log\n")
        git_repo.commit_all("ignore logs")
        (folder / "run.log").write_text("ignored\n")
    state = read_repo_state(git_repo.root, PLAN)
    assert _by_stage(state)["0"].committed
    decision = evaluate_gate(state, "1")
    assert decision.allowed
    assert any(
        path.startswith(f"{folder.relative_to(git_repo.root)}/") for path in decision.pending
    )


def test_gate_archive_never_added_is_not_committed(git_repo) -> None:
    """An archive folder git has never seen: archived in the working copy only, not committed."""
    git_repo.write_archive(IDS["0"])
    decision = evaluate_gate(read_repo_state(git_repo.root, PLAN), "1")
    assert [r.code for r in decision.reasons] == ["PREDECESSOR_NOT_COMMITTED"]
    assert "archived in the working copy" in decision.reasons[0].message
    assert "git add -A openspec && git commit" in decision.reasons[0].command


def test_gate_out_of_order_archive_is_reported(git_repo) -> None:
    """A change archived before an earlier one is reported OUT_OF_ORDER, and the gate refuses."""
    git_repo.write_archive(IDS["0"])
    git_repo.write_archive(IDS["2"])
    git_repo.commit_all()
    decision = evaluate_gate(read_repo_state(git_repo.root, PLAN), "1")
    assert not decision.allowed
    assert [(r.stage, r.code) for r in decision.reasons] == [("2", "OUT_OF_ORDER")]
    assert IDS["1"] in decision.reasons[0].message


def test_gate_all_through_6b_committed_switches_public_entry(git_repo) -> None:
    """Stages 0..6B archived and committed: stage 7 may start, the public entry is SINGLE_REACT."""
    for change in CHANGES[:8]:
        git_repo.write_archive(change.change_id)
    git_repo.commit_all()
    decision = evaluate_gate(read_repo_state(git_repo.root, PLAN), "7")
    assert decision.allowed
    assert decision.reasons == []
    assert decision.public_entry == "SINGLE_REACT"


def test_gate_subdirectory_of_a_repository_is_read_relative_to_it(git_repo) -> None:
    """A repository nested in a bigger work tree is read from its own folder (git prefix)."""
    inner = git_repo.root / "nested"
    (inner / "openspec" / "changes" / "archive" / f"2026-07-21-{IDS['0']}").mkdir(parents=True)
    (inner / "openspec" / "changes" / "archive" / f"2026-07-21-{IDS['0']}" / "a.md").write_text(
        "a\n"
    )
    git_repo.commit_all()
    state = read_repo_state(inner, PLAN)
    assert _by_stage(state)["0"].committed


def test_gate_not_a_git_repository_is_a_setup_error(tmp_path) -> None:
    """A folder outside any git work tree gives one clear GateSetupError line."""
    (tmp_path / "openspec").mkdir()
    with pytest.raises(GateSetupError, match="not a git repository") as raised:
        read_repo_state(tmp_path, PLAN)
    assert "\n" not in str(raised.value)
    assert str(tmp_path) in str(raised.value)


def test_gate_missing_openspec_is_a_setup_error(git_repo) -> None:
    """A git repository without openspec/ gives a GateSetupError naming what is expected."""
    shutil.rmtree(git_repo.root / "openspec")
    with pytest.raises(GateSetupError, match=r"no openspec/ folder"):
        read_repo_state(git_repo.root, PLAN)


def test_gate_missing_directory_and_unknown_stage_are_setup_errors(git_repo, tmp_path) -> None:
    """A path that does not exist, and a stage label not in the plan, are GateSetupErrors."""
    with pytest.raises(GateSetupError, match="not a directory"):
        read_repo_state(tmp_path / "absent", PLAN)
    with pytest.raises(GateSetupError, match=r"unknown stage '6C'.*6A, 6B"):
        evaluate_gate(read_repo_state(git_repo.root, PLAN), "6C")


def test_gate_change_started_before_its_predecessor_is_reported(git_repo) -> None:
    """An active change whose predecessor is not archived and committed was started too early."""
    git_repo.write_archive(IDS["0"])
    git_repo.commit_all()
    git_repo.write_active(IDS["1"])
    git_repo.write_active(IDS["2"])
    git_repo.commit_all("start 1 and 2")
    state = read_repo_state(git_repo.root, PLAN)
    assert [(r.stage, r.code) for r in evaluate_gate(state, "1").reasons] == [
        ("2", "STARTED_OUT_OF_ORDER")
    ]
    assert [(r.stage, r.code) for r in evaluate_gate(state, "2").reasons] == [
        ("1", "PREDECESSOR_NOT_ARCHIVED")
    ]
