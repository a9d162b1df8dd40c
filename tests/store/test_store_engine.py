"""One SQLAlchemy Engine per process, one connection pool per store (docs/decisions/runcost.md)."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from sqlalchemy import Connection, create_engine, event, text
from sqlalchemy.engine.default import CacheStats

from reference_harness.store import RunStore, RunStoreError
from reference_harness.store._store import _table_pragmas
from reference_harness.store._table import metadata


def _schema(path) -> list[tuple[str, str, str, str]]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    connection.close()
    return rows


def test_store_new_file_gets_exactly_the_create_all_schema(tmp_path) -> None:
    """A new store file holds the same table, index and constraints as metadata.create_all."""
    reference = tmp_path / "reference.sqlite3"
    engine = create_engine(f"sqlite:///{reference}")
    with engine.begin() as connection:
        metadata.create_all(connection)
    engine.dispose()
    with RunStore(tmp_path / "runs.sqlite3"):
        pass
    made = _schema(tmp_path / "runs.sqlite3")
    assert made == _schema(reference)
    assert {(kind, name) for kind, name, _, _ in made} >= {
        ("table", "diagnosis_run"),
        ("index", "ix_diagnosis_run_previous_turn"),
    }


def test_store_reopening_a_file_keeps_its_rows_and_creates_nothing(tmp_path) -> None:
    """Opening an existing store file issues no DDL and leaves its rows as they are."""
    path = tmp_path / "runs.sqlite3"
    with RunStore(path) as store:
        store.create_run(run_id="r1", session_id="s", user_message="", now_ms=1)
    statements: list[str] = []
    with RunStore(path) as store:
        event.listen(store._engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        assert [run.run_id for run in store.list_session("s")] == ["r1"]
    assert not any(statement.lstrip().startswith("CREATE") for statement in statements)


def test_store_second_file_store_reuses_the_compiled_statements(tmp_path) -> None:
    """Statements compiled for one file store are served from the cache for the next one."""
    hits: dict[str, list[object]] = {"first": [], "second": []}
    for name, seen in hits.items():
        with RunStore(tmp_path / f"{name}.sqlite3") as store:
            event.listen(
                store._engine,
                "after_cursor_execute",
                lambda *a, seen=seen: seen.append(a[4].cache_hit),
            )
            store.create_run(run_id="r1", session_id="s", user_message="", now_ms=1)
            store.set_intent("r1", "DIAGNOSIS")
            store.list_session("s")
    # BEGIN and the check-first PRAGMAs are driver SQL (no cache key); the rest are statements.
    compiled = [hit for hit in hits["second"] if hit is not CacheStats.NO_CACHE_KEY]
    assert len(compiled) >= 4
    assert compiled == [CacheStats.CACHE_HIT] * len(compiled)


def test_store_file_stores_in_threads_each_see_only_their_own_rows(tmp_path) -> None:
    """Stores on different files, used at once from several threads, never cross connections."""
    stores = [RunStore(tmp_path / f"runs-{index}.sqlite3") for index in range(4)]
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def work(index: int) -> None:
        barrier.wait(timeout=30)
        try:
            for n in range(10):
                stores[index].create_run(
                    run_id=f"s{index}-{n}", session_id="s", user_message="", now_ms=n
                )
        except BaseException as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(len(stores))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    seen = [[run.run_id for run in store.list_session("s")] for store in stores]
    for store in stores:
        store.close()
    assert errors == []
    assert seen == [[f"s{index}-{n}" for n in range(10)] for index in range(len(stores))]


def test_store_close_releases_every_connection(tmp_path) -> None:
    """After close no connection is open: SQLite checkpoints and removes the WAL file."""
    path = tmp_path / "runs.sqlite3"
    with RunStore(path) as store:
        store.create_run(run_id="r1", session_id="s", user_message="", now_ms=1)
        assert path.with_name(path.name + "-wal").exists()
    assert not path.with_name(path.name + "-wal").exists()


def test_store_invalidated_connection_is_never_reused(tmp_path) -> None:
    """A connection SQLAlchemy invalidates is closed, not handed out again by the store."""
    with RunStore(tmp_path / "runs.sqlite3") as store:
        with store._connect() as connection:
            sqlite_connection = connection.connection.dbapi_connection.dbapi_connection
            connection.invalidate()
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            sqlite_connection.execute("SELECT 1")
        with store._connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM diagnosis_run")).scalar() == 0


def test_store_engine_refuses_a_connection_outside_a_store(tmp_path) -> None:
    """The shared engine opens nothing unless a store is connecting (no file is guessed)."""
    with (
        RunStore(tmp_path / "runs.sqlite3") as store,
        pytest.raises(RunStoreError, match=r"outside RunStore\._connect"),
    ):
        store._engine.connect()


def _traced_opens(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[int]]:
    """Record every SQL statement SQLite runs, and count the SQLite connections opened."""
    from reference_harness.store import _store  # noqa: PLC0415 - the function patched

    statements: list[str] = []
    opened: list[int] = []
    original = _store._open

    def traced(*args: object, **kwargs: object) -> object:
        connection = original(*args, **kwargs)  # type: ignore[arg-type]
        connection.set_trace_callback(statements.append)  # type: ignore[attr-defined]
        opened.append(1)
        return connection

    monkeypatch.setattr(_store, "_open", traced)
    return statements, opened


def test_store_operations_one_after_another_use_one_kept_connection(tmp_path, monkeypatch) -> None:
    """Sequential operations reuse the store's connection; a read after a write begins DEFERRED."""
    statements, opened = _traced_opens(monkeypatch)
    with RunStore(tmp_path / "runs.sqlite3") as store:
        store.create_run(run_id="r1", session_id="s", user_message="", now_ms=1)
        del statements[:]
        assert store.get("r1").run_id == "r1"
        store.set_intent("r1", "DIAGNOSIS")
        assert [run.intent for run in store.list_session("s")] == ["DIAGNOSIS"]
    assert len(opened) == 1
    begins = [statement for statement in statements if statement.startswith("BEGIN")]
    assert begins == ["BEGIN DEFERRED", "BEGIN IMMEDIATE", "BEGIN DEFERRED"]


def test_store_connection_of_a_failed_operation_is_not_kept(tmp_path) -> None:
    """A connection is kept after an operation that ended well, closed after one that raised."""
    with RunStore(tmp_path / "runs.sqlite3") as store:
        with store._connect() as first:
            pass
        failed: list[Connection] = []

        def fail() -> None:
            with store._connect() as connection:
                failed.append(connection)
                message = "boom"
                raise RuntimeError(message)

        with pytest.raises(RuntimeError, match="boom"):
            fail()
        with store._connect() as after:
            assert after.execute(text("SELECT count(*) FROM diagnosis_run")).scalar() == 0
    assert failed == [first]
    assert first.closed
    assert after is not first


def test_store_opening_checks_the_table_with_the_dialects_has_table_statements(tmp_path) -> None:
    """The open's check-first sends what SQLAlchemy's sqlite has_table sends, in its order."""
    engine = create_engine(f"sqlite:///{tmp_path / 'probe.sqlite3'}")
    sent: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
    with engine.connect() as connection:
        sent.clear()
        assert not engine.dialect.has_table(connection, "diagnosis_run")
    engine.dispose()
    assert tuple(sent) == _table_pragmas()
