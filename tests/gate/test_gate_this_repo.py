"""The gate on this very repository: only stage 0 is archived, so 6B is refused."""

from __future__ import annotations

from pathlib import Path

from conformance.gate import evaluate_gate, load_phase_plan, planned_changes, read_repo_state

ROOT = Path(__file__).resolve().parents[2]
PLAN = load_phase_plan()
CHANGES = planned_changes(PLAN)
FREEZE = ROOT / "openspec" / "changes" / "archive" / "2026-07-21-single-react-design-freeze"


def test_gate_this_repository_refuses_public_cutover() -> None:
    """With only stage 0 archived, 6B is refused naming every one of stages 1..6A as missing."""
    assert FREEZE.is_dir(), f"the stage-zero archive folder is missing: {FREEZE}"
    state = read_repo_state(ROOT, PLAN)
    archived_later = [c.change.stage for c in state.changes[1:] if c.archived]
    assert archived_later == [], "later stages are archived: update this scenario for this repo"
    decision = evaluate_gate(state, "6B")
    assert not decision.allowed
    assert decision.public_entry == "LEGACY"
    missing = [(r.stage, r.code) for r in decision.reasons if r.stage != "0"]
    assert missing == [(c.stage, "PREDECESSOR_NOT_ARCHIVED") for c in CHANGES[1:7]]
    stage_zero = [r.code for r in decision.reasons if r.stage == "0"]
    assert stage_zero == ([] if state.changes[0].committed else ["PREDECESSOR_NOT_COMMITTED"])
    for change in CHANGES[1:7]:
        assert any(change.change_id in r.message for r in decision.reasons)
