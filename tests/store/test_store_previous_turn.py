"""Previous-turn selection (Requirement 7, Scenario "Latest Run is a fallback")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from contracts import DiagnosisRun
from reference_harness.store import RunStore, SkippedRun
from tests._profile import depth

REASON = {
    "DIAGNOSIS_SUCCESS": None,
    "KNOWLEDGE_SUCCESS": "INTENT_KNOWLEDGE_QUERY",
    "DIAGNOSIS_FALLBACK": "STATE_FALLBACK",
    "KNOWLEDGE_FALLBACK": "STATE_FALLBACK",
    "DIAGNOSIS_FAILED": "STATE_FAILED",
    "ROUTER_FAILED": "STATE_FAILED",
    "DIAGNOSIS_CANCELLED": "STATE_CANCELLED",
    "UNROUTED_CANCELLED": "STATE_CANCELLED",
    "DIAGNOSIS_RUNNING": "STATE_RUNNING",
    "UNROUTED_RUNNING": "STATE_RUNNING",
}

# (history oldest first, expected selected index or None, expected skipped indexes newest first)
HISTORIES = {
    "latest-run-is-a-fallback": (
        ["DIAGNOSIS_SUCCESS", "DIAGNOSIS_SUCCESS", "DIAGNOSIS_FALLBACK"],
        1,
        [2],
    ),
    "latest-is-eligible": (["DIAGNOSIS_FALLBACK", "DIAGNOSIS_SUCCESS"], 1, []),
    "knowledge-successes-are-skipped": (
        ["DIAGNOSIS_SUCCESS", "KNOWLEDGE_SUCCESS", "KNOWLEDGE_SUCCESS"],
        0,
        [2, 1],
    ),
    "every-earlier-run-ineligible": (
        ["DIAGNOSIS_FAILED", "KNOWLEDGE_SUCCESS", "DIAGNOSIS_CANCELLED", "KNOWLEDGE_FALLBACK"],
        None,
        [3, 2, 1, 0],
    ),
    "all-kinds-between": (
        [
            "DIAGNOSIS_SUCCESS",
            "ROUTER_FAILED",
            "UNROUTED_CANCELLED",
            "KNOWLEDGE_FALLBACK",
            "DIAGNOSIS_RUNNING",
            "KNOWLEDGE_SUCCESS",
        ],
        0,
        [5, 4, 3, 2, 1],
    ),
    "empty-session": ([], None, []),
}


@pytest.mark.parametrize(("history", "selected", "skipped"), HISTORIES.values(), ids=HISTORIES)
def test_store_previous_turn_table(store, helpers, history, selected, skipped) -> None:
    """Selection takes the latest DIAGNOSIS+SUCCESS Run and reports every newer Run's reason."""
    run_ids = helpers.build_session(store, "s1", history)
    helpers.build_session(store, "other", ["DIAGNOSIS_SUCCESS"] * 3)
    result = store.select_previous_turn("s1", before_seq=len(history) + 1)
    assert (None if result.selected is None else result.selected.run_id) == (
        None if selected is None else run_ids[selected]
    )
    assert result.skipped == tuple(
        SkippedRun(run_id=run_ids[i], reason=REASON[history[i]]) for i in skipped
    )
    assert result.skipped_omitted == 0


def test_store_latest_run_is_a_fallback(store, helpers) -> None:
    """Scenario "Latest Run is a fallback": the FALLBACK Run is skipped, selection continues."""
    first, _, fallback = helpers.build_session(
        store, "s1", ["DIAGNOSIS_SUCCESS", "KNOWLEDGE_SUCCESS", "DIAGNOSIS_FALLBACK"]
    )
    current = store.create_run(run_id="now", session_id="s1", user_message="and now?", now_ms=5)
    result = store.select_previous_turn("s1", before_seq=current.seq)
    assert isinstance(result.selected, DiagnosisRun)
    assert result.selected.run_id == first
    assert result.skipped[0] == SkippedRun(run_id=fallback, reason="STATE_FALLBACK")


def test_store_previous_turn_ignores_runs_at_or_after_before_seq(store, helpers) -> None:
    """Runs with seq >= before_seq are neither selected nor reported."""
    run_ids = helpers.build_session(
        store, "s1", ["DIAGNOSIS_SUCCESS", "DIAGNOSIS_FALLBACK", "DIAGNOSIS_SUCCESS"]
    )
    result = store.select_previous_turn("s1", before_seq=3)
    assert result.selected is not None
    assert result.selected.run_id == run_ids[0]
    assert result.skipped == (SkippedRun(run_id=run_ids[1], reason="STATE_FALLBACK"),)
    assert store.select_previous_turn("s1", before_seq=1).selected is None


def test_store_skipped_list_is_bounded(store, helpers) -> None:
    """More than SKIPPED_LIMIT passed-over Runs: the newest are listed, the rest counted."""
    extra = 7
    history = ["DIAGNOSIS_SUCCESS"] + ["DIAGNOSIS_FALLBACK"] * (RunStore.SKIPPED_LIMIT + extra)
    run_ids = helpers.build_session(store, "s1", history)
    result = store.select_previous_turn("s1", before_seq=len(history) + 1)
    assert result.selected is not None
    assert result.selected.run_id == run_ids[0]
    assert len(result.skipped) == RunStore.SKIPPED_LIMIT
    assert result.skipped[0].run_id == run_ids[-1]
    assert result.skipped[-1].run_id == run_ids[-RunStore.SKIPPED_LIMIT]
    assert result.skipped_omitted == extra


def test_store_omitted_count_is_capped(store, helpers, monkeypatch) -> None:
    """The count of omitted passed-over Runs stops at OMITTED_COUNT_LIMIT (bounded latency)."""
    history = ["DIAGNOSIS_FAILED"] * (RunStore.SKIPPED_LIMIT + 9)
    helpers.build_session(store, "s1", history)
    monkeypatch.setattr(store, "OMITTED_COUNT_LIMIT", 4)
    result = store.select_previous_turn("s1", before_seq=len(history) + 1)
    assert result.selected is None
    assert len(result.skipped) == RunStore.SKIPPED_LIMIT
    assert result.skipped_omitted == 4


def test_store_previous_turn_query_uses_the_composite_index(store) -> None:
    """SQLite plans the eligibility lookup as a seek on the (session, intent, state, seq) index."""
    with store._connect() as connection:
        plan = connection.execute(
            text(
                "EXPLAIN QUERY PLAN SELECT * FROM diagnosis_run WHERE session_id = 's'"
                " AND intent = 'DIAGNOSIS' AND state = 'SUCCESS' AND seq < 10"
                " ORDER BY seq DESC LIMIT 1"
            )
        ).all()
    details = [str(row[-1]) for row in plan]
    assert len(details) == 1
    assert details[0].startswith("SEARCH diagnosis_run USING INDEX ix_diagnosis_run_previous_turn")


def _reference(history: list[str], before_seq: int) -> tuple[int | None, list[tuple[int, str]]]:
    """Trivially correct: walk back from before_seq-1 to the first eligible Run."""
    skipped = []
    for seq in range(min(before_seq - 1, len(history)), 0, -1):
        reason = REASON[history[seq - 1]]
        if reason is None:
            return seq, skipped
        skipped.append((seq, reason))
    return None, skipped


@settings(max_examples=depth(ci=60, dev=15), deadline=None)  # tests/_profile.py
@given(
    history=st.lists(st.sampled_from(sorted(REASON)), max_size=12),
    before=st.integers(min_value=1, max_value=14),
)
def test_store_selection_matches_reference(helpers, history, before) -> None:
    """For random session histories, selection equals a walk-back reference."""
    with RunStore(None) as store:
        run_ids = helpers.build_session(store, "s", history)
        helpers.build_session(store, "noise", history[::-1])
        result = store.select_previous_turn("s", before_seq=before)
    selected_seq, skipped = _reference(history, before)
    assert (None if result.selected is None else result.selected.seq) == selected_seq
    assert [(s.run_id, s.reason) for s in result.skipped] == [
        (run_ids[seq - 1], reason) for seq, reason in skipped
    ]
