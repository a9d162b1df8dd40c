"""Crash recovery on a real SQLite file, and seeding prior Runs."""

from __future__ import annotations

import pytest

from reference_harness.store import DuplicateRunError, InvalidRunError, RunStore, RunStoreError


def test_store_crash_recovery_on_a_real_file(db_path, helpers) -> None:
    """RUNNING rows left by a crash become FAILED/INTERNAL_ERROR on restart, never selected."""
    with RunStore(db_path) as store:
        helpers.build_session(store, "s1", ["DIAGNOSIS_SUCCESS", "DIAGNOSIS_FALLBACK"])
        store.create_run(run_id="crashed", session_id="s1", user_message="", now_ms=3)
        store.set_intent("crashed", "DIAGNOSIS")
        store.create_run(run_id="crashed-2", session_id="s2", user_message="", now_ms=4)
    assert db_path.is_file()
    with RunStore(db_path) as store:
        untouched = store.get("s1-r2")
        assert store.recover_crashed(now_ms=77) == ["crashed", "crashed-2"]
        recovered = store.get("crashed").model_dump(mode="json")
        assert store.get("s1-r2") == untouched
        assert store.recover_crashed(now_ms=78) == []
        current = store.create_run(run_id="now", session_id="s1", user_message="", now_ms=80)
        selection = store.select_previous_turn("s1", before_seq=current.seq)
    assert (recovered["state"], recovered["error_code"], recovered["finished_at_ms"]) == (
        "FAILED",
        "INTERNAL_ERROR",
        77,
    )
    assert recovered["published_result"] == helpers.public_error("INTERNAL_ERROR")
    assert selection.selected is not None
    assert selection.selected.run_id == "s1-r1"
    assert [(s.run_id, s.reason) for s in selection.skipped] == [
        ("crashed", "STATE_FAILED"),
        ("s1-r2", "STATE_FALLBACK"),
    ]


def test_store_seed_round_trips_and_lists_by_seq(store, helpers) -> None:
    """Seeded Runs are stored as given and listed by ascending seq."""
    with RunStore(None) as source:
        helpers.build_session(
            source, "s", ["KNOWLEDGE_SUCCESS", "DIAGNOSIS_SUCCESS", "ROUTER_FAILED"]
        )
        runs = source.list_session("s")
    store.seed(reversed(runs))
    assert store.list_session("s") == runs


def test_store_seed_is_all_or_nothing(store, helpers) -> None:
    """One invalid or clashing Run in a seed leaves the store without any of them."""
    with RunStore(None) as source:
        helpers.build_session(source, "s", ["DIAGNOSIS_SUCCESS", "DIAGNOSIS_FALLBACK"])
        good, fallback = source.list_session("s")
    broken = fallback.model_copy(update={"run_id": "broken", "seq": 3, "fallback_type": None})
    with pytest.raises(InvalidRunError, match="'broken'"):
        store.seed([good, broken])
    assert store.list_session("s") == []
    clash = fallback.model_copy(update={"run_id": "clash", "seq": good.seq})
    with pytest.raises(DuplicateRunError, match=r"'clash'.*seq 1"):
        store.seed([good, clash])
    assert store.list_session("s") == []
    store.seed([good])
    with pytest.raises(DuplicateRunError, match=r"'s-r1' already exists: .*run_id"):
        store.seed([fallback, good])
    assert store.list_session("s") == [good]


def test_store_missing_folder_is_one_clear_error(tmp_path) -> None:
    """Opening a store in a folder that does not exist names the folder, without a traceback."""
    with pytest.raises(RunStoreError, match=r"folder .*absent does not exist"):
        RunStore(tmp_path / "absent" / "runs.sqlite3")


def test_store_path_with_url_characters_is_a_plain_file(tmp_path) -> None:
    """A file name with URL-special characters is used as a file name, not parsed as a URL."""
    path = tmp_path / "runs?mode=ro#x.sqlite3"
    with RunStore(path) as store:
        store.create_run(run_id="r1", session_id="s", user_message="", now_ms=1)
    assert path.is_file()
