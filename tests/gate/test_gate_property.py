"""Hypothesis: evaluate_gate agrees with a small reference predicate on random repositories.

The gate judges the commit: an archive folder never added is archived in the working copy only
(PREDECESSOR_NOT_COMMITTED), and edits after the commit (modified, staged, untracked files) are
not seen at all.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.gate import (
    ChangeState,
    RepoState,
    evaluate_gate,
    load_phase_plan,
    planned_changes,
    read_repo_state,
)
from tests._profile import depth

PLAN = load_phase_plan()
CHANGES = planned_changes(PLAN)
STAGES = [change.stage for change in CHANGES]
CUTOVER = STAGES.index("6B")

PRESENCE = ("absent", "active", "archived")
FINISH = ("committed", "modified", "staged", "untracked", "never_added")


@dataclass(frozen=True)
class Spec:
    """How one change is laid out in a generated repository."""

    presence: str
    finish: str

    @property
    def archived_here(self) -> bool:
        """Archived in the working copy."""
        return self.presence == "archived"

    @property
    def archived(self) -> bool:
        """Archived in the commit (what the gate judges): the archive folder was committed."""
        return self.archived_here and self.finish != "never_added"

    @property
    def done(self) -> bool:
        """Archived completely in the commit (later working-copy edits are not seen)."""
        return self.archived


specs = st.lists(
    st.builds(Spec, st.sampled_from(PRESENCE), st.sampled_from(FINISH)),
    min_size=len(CHANGES),
    max_size=len(CHANGES),
)


def reference(layout: list[Spec], stage: str) -> tuple[bool, set[tuple[str, str]], str]:
    """The gate's rules, written directly over the layout: (allowed, {(stage, code)}, entry)."""
    index = STAGES.index(stage)
    expected = set()
    for i in range(index):
        if not layout[i].archived and layout[i].archived_here:
            expected.add((STAGES[i], "PREDECESSOR_NOT_COMMITTED"))
        elif not layout[i].archived:
            expected.add((STAGES[i], "PREDECESSOR_NOT_ARCHIVED"))
    for j in range(len(layout)):
        if layout[j].archived and any(not layout[i].archived for i in range(j)):
            expected.add((STAGES[j], "OUT_OF_ORDER"))
    for j in range(len(layout)):
        started = layout[j].presence == "active" and STAGES[j] != stage
        if started and any(not layout[i].done for i in range(j)):
            expected.add((STAGES[j], "STARTED_OUT_OF_ORDER"))
    entry = "SINGLE_REACT" if all(spec.done for spec in layout[: CUTOVER + 1]) else "LEGACY"
    return (not expected, expected, entry)


def _state_of(layout: list[Spec]) -> RepoState:
    states = []
    for change, spec in zip(CHANGES, layout, strict=True):
        folder = f"openspec/changes/archive/2026-07-21-{change.change_id}"
        states.append(
            ChangeState(
                change=change,
                active=spec.presence == "active",
                archive_dirs=(folder,) if spec.archived else (),
                tracked_files=2 if spec.archived else 0,
                local_active=spec.presence == "active",
                local_archive_dirs=(folder,) if spec.archived_here else (),
            )
        )
    return RepoState(repo=Path("/nowhere"), changes=tuple(states))


def _decision_summary(decision) -> tuple[bool, set[tuple[str, str]], str]:
    codes = {(reason.stage, reason.code) for reason in decision.reasons}
    assert len(codes) == len(decision.reasons)
    return (decision.allowed, codes, decision.public_entry)


@settings(max_examples=depth(ci=500, dev=100))  # depth is the profile's: tests/_profile.py
@given(layout=specs, stage=st.sampled_from(STAGES))
def test_gate_decision_matches_reference_on_states(layout, stage) -> None:
    """On any in-memory repository state the decision equals the reference predicate."""
    decision = evaluate_gate(_state_of(layout), stage)
    assert _decision_summary(decision) == reference(layout, stage)


def _build(make_git_repo, root: Path, layout: list[Spec]):
    repo = make_git_repo(root, initial_commit=False)
    later: list[tuple[Path, str]] = []
    to_add = ["openspec/config.yaml"]
    for change, spec in zip(CHANGES, layout, strict=True):
        if spec.presence == "active":
            to_add.append(str(repo.write_active(change.change_id)))
        elif spec.archived_here:
            folder = repo.write_archive(change.change_id)
            if spec.finish != "never_added":
                to_add.append(str(folder))
            later.append((folder, spec.finish))
    repo.git("add", "--", *to_add)
    repo.git("commit", "-q", "-m", "layout")
    staged = []
    for folder, finish in later:
        if finish == "modified":
            (folder / "proposal.md").write_text("# edited after commit\n")
        elif finish in {"staged", "untracked"}:
            (folder / "extra.md").write_text(f"{finish}, not committed\n")
            if finish == "staged":
                staged.append(str(folder / "extra.md"))
    if staged:
        repo.git("add", "--", *staged)
    return repo


@settings(
    max_examples=depth(ci=25, dev=8),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(layout=specs, stage=st.sampled_from(STAGES))
def test_gate_decision_matches_reference_on_git_repositories(make_git_repo, layout, stage) -> None:
    """Built as real git repositories, random layouts give the reference predicate's decision."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = _build(make_git_repo, Path(tmp) / "repo", layout)
        decision = evaluate_gate(read_repo_state(repo.root, PLAN), stage)
    assert _decision_summary(decision) == reference(layout, stage)
