"""Creating and finishing Runs: seq, terminal immutability, validation before write, atomicity."""

from __future__ import annotations

import threading

import pytest
import rfc8785
from sqlalchemy import event, text

from contracts import PublishedResult
from reference_harness.store import (
    DuplicateRunError,
    InvalidRunError,
    RunStore,
    TerminalStateError,
    UnknownRunError,
)


def _raw(store: RunStore, run_id: str) -> dict:
    with store._connect() as connection:
        row = connection.execute(
            text("SELECT * FROM diagnosis_run WHERE run_id = :r"), {"r": run_id}
        ).mappings()
        return dict(row.one())


def test_store_create_run_is_running_with_nulls(store) -> None:
    """A new Run is RUNNING, seq 1, with no intent, result, fallback, error or finish time."""
    run = store.create_run(run_id="r1", session_id="s1", user_message="why?", now_ms=10)
    dumped = run.model_dump(mode="json")
    assert dumped == {
        "run_id": "r1",
        "session_id": "s1",
        "seq": 1,
        "user_message": "why?",
        "intent": None,
        "state": "RUNNING",
        "published_result": None,
        "fallback_type": None,
        "error_code": None,
        "created_at_ms": 10,
        "finished_at_ms": None,
    }
    assert store.get("r1") == run


def test_store_seq_is_monotonic_per_session(store) -> None:
    """seq counts 1, 2, 3 … within each session, independently across sessions."""
    seqs = [
        (
            session,
            store.create_run(run_id=f"r{i}", session_id=session, user_message="", now_ms=i).seq,
        )
        for i, session in enumerate(["a", "b", "a", "a", "b", "c"])
    ]
    assert seqs == [("a", 1), ("b", 1), ("a", 2), ("a", 3), ("b", 2), ("c", 1)]
    assert [run.seq for run in store.list_session("a")] == [1, 2, 3]


def test_store_seq_continues_after_seeded_runs(store, helpers) -> None:
    """A created Run follows the greatest seeded seq of its session, even across a gap."""
    helpers.build_session(store, "tmp", ["DIAGNOSIS_SUCCESS"])
    seeded = store.get("tmp-r1").model_copy(update={"run_id": "old", "session_id": "s", "seq": 41})
    store.seed([seeded])
    assert store.create_run(run_id="new", session_id="s", user_message="", now_ms=1).seq == 42


def test_store_concurrent_creates_get_distinct_seqs(db_path) -> None:
    """Writers on two connections to one file never share a seq: 1..n, each once."""
    per_thread, threads = 15, 4
    barrier = threading.Barrier(threads)
    stores = [RunStore(db_path) for _ in range(threads)]
    errors: list[BaseException] = []

    def work(index: int) -> None:
        barrier.wait(timeout=30)
        try:
            for n in range(per_thread):
                stores[index].create_run(
                    run_id=f"t{index}-{n}", session_id="s", user_message="", now_ms=n
                )
        except BaseException as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    for opened in stores:
        opened.close()
    assert errors == []
    with RunStore(db_path) as reopened:
        seqs = [run.seq for run in reopened.list_session("s")]
    assert seqs == list(range(1, per_thread * threads + 1))


def test_store_duplicate_run_id_is_refused(store) -> None:
    """A second Run with a stored run_id is refused and the first is unchanged."""
    first = store.create_run(run_id="r1", session_id="s1", user_message="a", now_ms=1)
    with pytest.raises(DuplicateRunError, match="'r1' already exists"):
        store.create_run(run_id="r1", session_id="s2", user_message="b", now_ms=2)
    assert store.get("r1") == first
    assert store.list_session("s2") == []


def test_store_invalid_run_id_is_refused_before_writing(store) -> None:
    """A run_id outside the id grammar is refused with the JSON pointer; nothing is written."""
    with pytest.raises(InvalidRunError, match="run_id"):
        store.create_run(run_id="bad id", session_id="s1", user_message="", now_ms=1)
    assert store.list_session("s1") == []


def test_store_finish_writes_terminal_row_and_canonical_json(store, helpers) -> None:
    """finish_run stores state, result (as RFC 8785 text), fallback type and finish time."""
    store.create_run(run_id="r1", session_id="s1", user_message="", now_ms=1)
    store.set_intent("r1", "DIAGNOSIS")
    run = store.finish_run(
        "r1",
        state="FALLBACK",
        published_result=PublishedResult.model_validate(helpers.fallback),
        fallback_type="EVIDENCE_VALIDATION_FAILED",
        error_code=None,
        now_ms=9,
    )
    dumped = run.model_dump(mode="json")
    assert (dumped["state"], dumped["fallback_type"], dumped["finished_at_ms"]) == (
        "FALLBACK",
        "EVIDENCE_VALIDATION_FAILED",
        9,
    )
    assert dumped["published_result"] == helpers.fallback
    assert _raw(store, "r1")["published_result"] == rfc8785.dumps(helpers.fallback).decode()


@pytest.mark.parametrize(
    "outcome",
    ["DIAGNOSIS_SUCCESS", "KNOWLEDGE_FALLBACK", "ROUTER_FAILED", "UNROUTED_CANCELLED"],
)
def test_store_terminal_run_is_immutable(store, helpers, outcome) -> None:
    """Once terminal, finish_run and set_intent raise TerminalStateError and change nothing."""
    store.create_run(run_id="r1", session_id="s1", user_message="", now_ms=1)
    helpers.finish(store, "r1", outcome)
    before = _raw(store, "r1")
    with pytest.raises(TerminalStateError, match="already terminal"):
        store.finish_run(
            "r1",
            state="CANCELLED",
            published_result=None,
            fallback_type=None,
            error_code=None,
            now_ms=99,
        )
    with pytest.raises(TerminalStateError):
        store.set_intent("r1", "KNOWLEDGE_QUERY")
    assert _raw(store, "r1") == before


def test_store_unknown_run_is_refused(store) -> None:
    """finish_run, set_intent and get on an unknown run_id raise UnknownRunError."""
    with pytest.raises(UnknownRunError, match="'nope'"):
        store.finish_run(
            "nope",
            state="CANCELLED",
            published_result=None,
            fallback_type=None,
            error_code=None,
            now_ms=1,
        )
    with pytest.raises(UnknownRunError):
        store.set_intent("nope", "DIAGNOSIS")
    with pytest.raises(UnknownRunError):
        store.get("nope")


BROKEN_FINISHES = {
    "fallback-with-draft": ("DIAGNOSIS", "FALLBACK", "draft", "EVIDENCE_VALIDATION_FAILED", None),
    "fallback-type-mismatch": ("DIAGNOSIS", "FALLBACK", "fallback", "SEMANTIC_UNSUPPORTED", None),
    "failed-without-code": ("DIAGNOSIS", "FAILED", "error", None, None),
    "cancelled-with-result": ("DIAGNOSIS", "CANCELLED", "draft", None, None),
    "success-without-result": ("DIAGNOSIS", "SUCCESS", None, None, None),
    "success-answer-for-diagnosis": ("DIAGNOSIS", "SUCCESS", "answer", None, None),
    "success-unrouted": (None, "SUCCESS", "draft", None, None),
    "back-to-running": ("DIAGNOSIS", "RUNNING", None, None, None),
}


@pytest.mark.parametrize("case", BROKEN_FINISHES.values(), ids=BROKEN_FINISHES)
def test_store_contract_breaking_finish_writes_nothing(store, helpers, case) -> None:
    """A finish that would break the diagnosis-run contract is refused; the row stays RUNNING."""
    intent, state, result, fallback_type, error_code = case
    results = {
        "draft": helpers.draft,
        "answer": helpers.answer,
        "fallback": helpers.fallback,
        "error": helpers.public_error("AGENT_UNAVAILABLE"),
    }
    store.create_run(run_id="r1", session_id="s1", user_message="", now_ms=1)
    if intent is not None:
        store.set_intent("r1", intent)
    before = _raw(store, "r1")
    with pytest.raises(InvalidRunError, match=r"'r1' would break the diagnosis-run contract: .*/"):
        store.finish_run(
            "r1",
            state=state,
            published_result=None
            if result is None
            else PublishedResult.model_validate(results[result]),
            fallback_type=fallback_type,
            error_code=error_code,
            now_ms=5,
        )
    assert _raw(store, "r1") == before
    helpers.finish(store, "r1", "DIAGNOSIS_CANCELLED")
    assert store.get("r1").model_dump(mode="json")["state"] == "CANCELLED"


def test_store_failure_inside_the_finish_transaction_rolls_back(db_path, helpers) -> None:
    """A database failure after the UPDATE ran, before commit, leaves the Run RUNNING."""
    with RunStore(db_path) as store:
        store.create_run(run_id="r1", session_id="s1", user_message="", now_ms=1)
        store.set_intent("r1", "DIAGNOSIS")
        before = _raw(store, "r1")

        def explode(_conn, _cursor, statement, *_args) -> None:
            if statement.lstrip().upper().startswith("UPDATE"):
                message = "disk unplugged"
                raise OSError(message)

        event.listen(store._engine, "after_cursor_execute", explode)
        with pytest.raises(OSError, match="disk unplugged"):
            helpers.finish(store, "r1", "DIAGNOSIS_SUCCESS")
        event.remove(store._engine, "after_cursor_execute", explode)
        assert _raw(store, "r1") == before
    with RunStore(db_path) as reopened:
        assert reopened.get("r1").model_dump(mode="json")["state"] == "RUNNING"
