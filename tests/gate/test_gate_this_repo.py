"""The gate on this very repository, read from its committed state (whatever stage it is at)."""

from __future__ import annotations

from pathlib import Path

from conformance.gate import evaluate_gate, load_phase_plan, planned_changes, read_repo_state

ROOT = Path(__file__).resolve().parents[2]
PLAN = load_phase_plan()
CHANGES = planned_changes(PLAN)
CUTOVER = [change.stage for change in CHANGES].index("6B")


def test_gate_this_repository_refuses_public_cutover_until_6a_is_archived() -> None:
    """6B is refused naming each of stages 0..6A not archived completely, and only those."""
    state = read_repo_state(ROOT, PLAN)
    assert state.changes[0].committed, "the stage-zero freeze must be archived and committed"
    decision = evaluate_gate(state, "6B")
    open_stages = [c.change.stage for c in state.changes[:CUTOVER] if not c.committed]
    assert sorted({r.stage for r in decision.reasons}) == sorted(open_stages)
    assert decision.allowed is (not open_stages)
    for change_state in state.changes[:CUTOVER]:
        if not change_state.committed:
            assert any(change_state.change.change_id in r.message for r in decision.reasons)
    through_cutover = all(c.committed for c in state.changes[: CUTOVER + 1])
    assert decision.public_entry == ("SINGLE_REACT" if through_cutover else "LEGACY")
