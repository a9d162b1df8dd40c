"""``RunStore``: the durable ``diagnosis_run`` store of the reference Harness (Requirement 7).

SQLite through SQLAlchemy Core. Every write is one transaction opened with ``BEGIN IMMEDIATE``
(the write lock is taken before the row is read, so check-then-write is atomic across processes)
and is attempted exactly once: there is no retry wrapper on any write (Requirement 9). The SQLite
connection is opened with a busy timeout (:data:`BUSY_TIMEOUT_S`): SQLite waits that long for a
lock held by another writer; that is a lock wait inside the single attempt, not a retry.

Connections: every store has its own SQLAlchemy connection pool (a ``QueuePool`` for a file, as
``create_engine`` gives a file database, a ``StaticPool`` for the in-memory database); all stores
of a process share one ``Engine`` whose ``NullPool`` creator checks a connection out of the
connecting store's pool (named by a context variable that :meth:`RunStore._connect` sets). The
shared Engine gives one dialect and one compiled-statement cache for every store, so a statement
is compiled once per process instead of once per store (SQLAlchemy's cache is keyed by the dialect
object); connections, transactions, locks and pragmas stay per store, as before.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self, cast

from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    Integer,
    RowMapping,
    String,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import NullPool, Pool, PoolProxiedConnection, QueuePool, StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

from reference_harness.store._codec import (
    checked_run,
    document_of,
    document_of_row,
    published_document,
    row_of,
    run_of_row,
)
from reference_harness.store._errors import (
    DuplicateRunError,
    InvalidRunError,
    RunStoreError,
    StoreUnavailableError,
    TerminalStateError,
    UnknownRunError,
)
from reference_harness.store._selection import PreviousTurnSelection, SkippedRun, skip_reason
from reference_harness.store._table import TERMINAL_STATES, diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from types import TracebackType

    from sqlalchemy.engine.interfaces import DBAPIConnection

    from contracts import DiagnosisRun, PublishedResult

__all__ = ["BUSY_TIMEOUT_S", "RunStore"]

BUSY_TIMEOUT_S = 5.0
"""Seconds SQLite waits for another writer's lock before a write fails (no retry follows)."""

_WRITE = "srdh_write"
_PUBLIC_INTERNAL_ERROR = {"kind": "PUBLIC_ERROR", "public_error": {"error_code": "INTERNAL_ERROR"}}

Intent = Literal["DIAGNOSIS", "KNOWLEDGE_QUERY"]
TerminalState = Literal["SUCCESS", "FALLBACK", "FAILED", "CANCELLED"]


_CONNECTING: ContextVar[Pool | None] = ContextVar("srdh_run_store_connecting", default=None)
"""The connection pool of the store whose :meth:`RunStore._connect` is connecting."""


def _open(database: str, *, wal: bool, durable: bool) -> DBAPIConnection:
    """Open one SQLite connection as SQLAlchemy's pysqlite dialect would, then set it up.

    ``check_same_thread=False`` is what the dialect passes for a file database: its pool (here
    the store's) hands a connection to one user at a time.
    """
    dbapi_connection = sqlite3.connect(database, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    # Let SQLAlchemy, not the sqlite3 module, emit BEGIN (SQLAlchemy's documented recipe).
    dbapi_connection.isolation_level = None
    if wal:
        if not durable:
            # A throw-away store: no fsync, from the switch to WAL on (a power loss may lose
            # commits; nothing else changes: same transactions, locks, constraints and WAL).
            dbapi_connection.execute("PRAGMA synchronous = OFF")
        # WAL: readers (previous-turn selection) never wait for a writer, and the reverse.
        dbapi_connection.execute("PRAGMA journal_mode = WAL")
    return cast("DBAPIConnection", dbapi_connection)


def _checkout() -> PoolProxiedConnection:
    pool = _CONNECTING.get()
    if pool is None:
        msg = "a run store connection was requested outside RunStore._connect()"
        raise RunStoreError(msg)
    return pool.connect()


def _on_begin(connection: Connection) -> None:
    mode = "IMMEDIATE" if connection.get_execution_options().get(_WRITE) else "DEFERRED"
    # SQLAlchemy's recipe emits BEGIN with exec_driver_sql: a whole execution context (result
    # set-up, cursor events) for a statement with no parameters and no rows. The DBAPI cursor
    # sends SQLite the same statement on the same connection; an error is the driver's
    # sqlite3.Error, which RunStore._connect turns into StoreUnavailableError as before.
    cursor = connection.connection.cursor()
    try:
        cursor.execute(f"BEGIN {mode}")
    finally:
        cursor.close()


@functools.cache
def _shared_engine() -> Engine:
    """The process's one Engine (dialect and compiled-statement cache) for every store."""
    engine = create_engine("sqlite://", creator=_checkout, poolclass=NullPool)
    event.listen(engine, "begin", _on_begin)
    event.listen(engine, "invalidate", _forward_invalidation)
    event.listen(engine, "soft_invalidate", _forward_soft_invalidation)
    return engine


def _forward_invalidation(
    checkout: PoolProxiedConnection, _record: object, error: BaseException | None
) -> None:
    # The engine gave up this connection (e.g. SQLAlchemy saw a disconnect error): the store's
    # pool must not hand the SQLite connection out again.
    checkout.invalidate(error)


def _forward_soft_invalidation(
    checkout: PoolProxiedConnection, _record: object, error: BaseException | None
) -> None:
    checkout.invalidate(error, soft=True)


@functools.cache
def _create_statements() -> tuple[str, ...]:
    """``CREATE TABLE`` and ``CREATE INDEX`` of ``diagnosis_run``, as ``create_all`` emits them.

    Compiled once for the process's dialect (SQLAlchemy does not cache DDL compilation).
    """
    dialect = _shared_engine().dialect
    indexes = sorted(diagnosis_run.indexes, key=lambda index: str(index.name))
    table = str(CreateTable(diagnosis_run).compile(dialect=dialect))
    return (table, *(str(CreateIndex(index).compile(dialect=dialect)) for index in indexes))


@functools.cache
def _table_pragmas() -> tuple[str, ...]:
    """The statements of the sqlite dialect's ``has_table`` for ``diagnosis_run``, in its order.

    ``PRAGMA main.table_info(…)``, then ``PRAGMA temp.table_info(…)``: the table exists when
    one of them returns a row (SQLAlchemy's ``SQLiteDialect._get_table_pragma``).
    """
    name = _shared_engine().dialect.identifier_preparer.quote_identifier(diagnosis_run.name)
    return tuple(f"PRAGMA {schema}.table_info({name})" for schema in ("main", "temp"))


_t = diagnosis_run

# Statements built once, with named parameters: each execution only binds values (SQLAlchemy
# memoizes a statement object's cache key, so neither construction nor key generation is repeated).
# The SQL text and the values SQLite receives are those of the statements built per call before.
_BY_ID = select(_t).where(_t.c.run_id == bindparam("p_run_id"))
_SESSION_RUNS = select(_t).where(_t.c.session_id == bindparam("p_session_id")).order_by(_t.c.seq)
_CREATE_RUN = insert(_t).from_select(
    ["run_id", "session_id", "seq", "user_message", "state", "created_at_ms"],
    select(
        bindparam("p_run_id", type_=String()),
        bindparam("p_session_id", type_=String()),
        select(func.coalesce(func.max(_t.c.seq), 0) + 1)
        .where(_t.c.session_id == bindparam("p_session_id"))
        .scalar_subquery(),
        bindparam("p_user_message", type_=String()),
        literal("RUNNING"),
        bindparam("p_now_ms", type_=Integer()),
    ),
)
_UPDATE_RUN = update(_t).where(_t.c.run_id == bindparam("p_run_id"))
"""Sets the columns named by the execution's parameters (``intent``, or the terminal ones)."""
_CREATED_RUN = _CREATE_RUN.returning(*_t.c)
"""``_CREATE_RUN`` returning the row it wrote (SQLite's ``RETURNING``: one statement, not two)."""
_FINISHED_RUN = _UPDATE_RUN.returning(*_t.c)
"""``_UPDATE_RUN`` returning the row it wrote."""
_RUNNING_RUNS = select(_t).where(_t.c.state == "RUNNING").order_by(_t.c.session_id, _t.c.seq)
_INSERT_RUNS = insert(_t)
_ID_OR_SEQ_TAKEN = select(_t.c.run_id).where(
    (_t.c.run_id == bindparam("p_run_id"))
    | ((_t.c.session_id == bindparam("p_session_id")) & (_t.c.seq == bindparam("p_seq")))
)
_PREVIOUS_TURN = (
    select(_t)
    .where(
        _t.c.session_id == bindparam("p_session_id"),
        _t.c.intent == "DIAGNOSIS",
        _t.c.state == "SUCCESS",
        _t.c.seq < bindparam("p_before_seq"),
    )
    .order_by(_t.c.seq.desc())
    .limit(1)
)
_BETWEEN = (
    _t.c.session_id == bindparam("p_session_id"),
    _t.c.seq < bindparam("p_before_seq"),
    _t.c.seq > bindparam("p_floor"),
)
_PASSED_OVER = (
    select(_t.c.run_id, _t.c.intent, _t.c.state)
    .where(*_BETWEEN)
    .order_by(_t.c.seq.desc())
    .limit(bindparam("p_listed", type_=Integer()))
)
_OMITTED_COUNT = select(func.count()).select_from(
    select(_t.c.seq)
    .where(*_BETWEEN)
    .order_by(_t.c.seq.desc())
    .offset(bindparam("p_skipped", type_=Integer()))
    .limit(bindparam("p_counted", type_=Integer()))
    .subquery()
)


class RunStore:
    """The ``diagnosis_run`` table: create, route, finish, recover and select previous turns.

    Args:
        path: SQLite database file (created with its table if absent), or ``None`` for a private
            in-memory database (unit tests only).

    Use as a context manager, or call :meth:`close`. All times are integers in milliseconds since
    the Unix epoch, UTC. Every Run returned is a validated ``contracts.DiagnosisRun``.

    Every method may raise :class:`StoreUnavailableError` when SQLite cannot read or write the
    file (locked past :data:`BUSY_TIMEOUT_S`, disk full, read-only): the transaction was rolled
    back and nothing was written. A Run whose terminal write failed that way is handed to
    :meth:`abandon`, and :meth:`recover_abandoned` finishes it FAILED once the file can be
    written again (the crash recovery of :meth:`recover_crashed`, for one process's own Runs).
    """

    SKIPPED_LIMIT = 100
    """At most this many passed-over Runs are listed by :meth:`select_previous_turn`."""

    OMITTED_COUNT_LIMIT = 10_000
    """``skipped_omitted`` is counted up to this many; the limit itself means "at least"."""

    def __init__(self, path: str | Path | None, *, durable: bool = True) -> None:
        """Open (and if needed create) the store at ``path``.

        ``durable=False`` is for a store deleted after use (a hermetic fixture Run): SQLite then
        commits without ``fsync`` (``PRAGMA synchronous = OFF``). Transactions, locking and
        constraints are unchanged; only durability across a power loss is given up.

        Opening proves the file writable: the table check runs in a write transaction that also
        rewrites the header's ``user_version`` (same value), so a locked, full or read-only store
        is refused here, before a server announces itself.

        Raises:
            RunStoreError: the folder of ``path`` does not exist.
            StoreUnavailableError: the file cannot be opened, created or written (names it).
        """
        self._abandoned: set[str] = set()
        self._abandoned_lock = threading.Lock()
        self._idle: list[Connection] = []
        self._idle_lock = threading.Lock()
        self._closed = False
        if path is None:
            self.path = ":memory:"
            self._pool: Pool = StaticPool(lambda: _open(":memory:", wal=False, durable=durable))
        else:
            file = Path(path).resolve()
            if not file.parent.is_dir():
                msg = f"{file}: cannot open the run store, folder {file.parent} does not exist"
                raise RunStoreError(msg)
            self.path = str(file)
            self._pool = QueuePool(lambda: _open(str(file), wal=True, durable=durable))
        self._engine = _shared_engine().execution_options()
        with self._write() as connection:
            # metadata.create_all's check-first (the dialect's has_table PRAGMAs), then its DDL
            # compiled once per process, then the header rewrite: fixed driver SQL without
            # parameters or result processing, sent on the DBAPI cursor (as the begin event
            # does) inside the same BEGIN IMMEDIATE transaction.
            cursor = connection.connection.cursor()
            try:
                if not any(cursor.execute(pragma).fetchall() for pragma in _table_pragmas()):
                    for statement in _create_statements():
                        cursor.execute(statement)
                (version,) = cursor.execute("PRAGMA user_version").fetchone()
                cursor.execute(f"PRAGMA user_version = {int(version)}")
            finally:
                cursor.close()

    def close(self) -> None:
        """Release every database connection. The store is unusable afterwards."""
        with self._idle_lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
        self._pool.dispose()

    def __enter__(self) -> Self:
        """Return the store itself."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the store."""
        self.close()

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        """Yield a connection to this store's database, not in a transaction.

        The connection is one this store used before and kept idle (none held by anyone else),
        or a new one. On exit a transaction still open (a read's) is rolled back, as closing did,
        and the connection is kept for the next operation; after an error, or once it was
        invalidated, it is closed instead. Keeping the SQLAlchemy ``Connection`` spares every
        operation a checkout through the shared Engine's ``NullPool`` (a new connection record,
        the dialect's ``connect`` event) and the pool's reset on return.

        Raises:
            StoreUnavailableError: SQLite could not open, read or write the file (the
                transaction, if any, is rolled back); constraint errors pass unchanged.
        """
        try:
            connection = self._checkout()
            try:
                yield connection
                if connection.in_transaction():
                    connection.rollback()
            except BaseException:
                connection.close()
                raise
            self._checkin(connection)
        except IntegrityError:
            raise
        except DBAPIError as error:
            raise StoreUnavailableError(self.path, str(error.orig)) from error
        except sqlite3.Error as error:
            raise StoreUnavailableError(self.path, str(error)) from error

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """Yield a connection inside one ``BEGIN IMMEDIATE`` transaction; commit on success."""
        with self._connect() as connection:
            connection.execution_options(**{_WRITE: True})
            try:
                with connection.begin():
                    yield connection
            finally:
                connection.execution_options(**{_WRITE: False})

    def _checkout(self) -> Connection:
        """An idle connection of this store, or a new one from its pool."""
        with self._idle_lock:
            if self._idle:
                return self._idle.pop()
        token = _CONNECTING.set(self._pool)
        try:
            return self._engine.connect()
        finally:
            _CONNECTING.reset(token)

    def _checkin(self, connection: Connection) -> None:
        """Keep ``connection`` for the next operation, or close it (invalidated, store closed)."""
        if not connection.invalidated:
            with self._idle_lock:
                if not self._closed:
                    self._idle.append(connection)
                    return
        connection.close()

    # ----------------------------------------------------------------------------------- writes

    def create_run(
        self, *, run_id: str, session_id: str, user_message: str, now_ms: int
    ) -> DiagnosisRun:
        """Insert a RUNNING Run whose ``seq`` is 1 + the session's greatest ``seq``.

        The ``seq`` is computed and inserted by one ``INSERT … SELECT`` under the write lock; the
        unique ``(session_id, seq)`` constraint backs it.

        Raises:
            InvalidRunError: an id breaks the id grammar, the message is too long, …
            DuplicateRunError: ``run_id`` is already stored.
        """
        checked_run(
            {
                "run_id": run_id,
                "session_id": session_id,
                "seq": 1,
                "user_message": user_message,
                "intent": None,
                "state": "RUNNING",
                "published_result": None,
                "fallback_type": None,
                "error_code": None,
                "created_at_ms": now_ms,
                "finished_at_ms": None,
            }
        )
        parameters = {
            "p_run_id": run_id,
            "p_session_id": session_id,
            "p_user_message": user_message,
            "p_now_ms": now_ms,
        }
        try:
            with self._write() as connection:
                row = _written(connection.execute(_CREATED_RUN, parameters), run_id)
        except IntegrityError as error:
            raise DuplicateRunError(run_id, "a diagnosis_run row has this run_id") from error
        return run_of_row(row)

    def set_intent(self, run_id: str, intent: Intent) -> None:
        """Record the routed intent of a RUNNING Run.

        Raises:
            UnknownRunError: no such Run.
            TerminalStateError: the Run is terminal.
            InvalidRunError: ``intent`` is not an intent.
        """
        with self._write() as connection:
            document = self._current(connection, run_id)
            document["intent"] = intent
            checked_run(document)
            connection.execute(_UPDATE_RUN, {"p_run_id": run_id, "intent": intent})

    def finish_run(  # noqa: PLR0913 - the terminal row has exactly these independent parts
        self,
        run_id: str,
        *,
        state: TerminalState,
        published_result: PublishedResult | None,
        fallback_type: str | None,
        error_code: str | None,
        now_ms: int,
    ) -> DiagnosisRun:
        """Write a Run's terminal state and published result in one transaction.

        The complete new row is validated against the ``diagnosis-run`` contract before the
        ``UPDATE`` is issued; nothing is written if it fails.

        Raises:
            UnknownRunError: no such Run.
            TerminalStateError: the Run is already terminal (terminal states are immutable).
            InvalidRunError: the row would break the contract, e.g. FALLBACK with a
                DIAGNOSIS_DRAFT, or ``state`` is RUNNING.
        """
        with self._write() as connection:
            document = self._current(connection, run_id)
            document.update(
                state=state,
                published_result=published_document(published_result),
                fallback_type=fallback_type,
                error_code=error_code,
                finished_at_ms=now_ms,
            )
            if state not in TERMINAL_STATES:
                raise InvalidRunError(run_id, [f"/state: expected a terminal state, got {state!r}"])
            checked_run(document)
            _check_intent_of_success(document)
            row = row_of(document)
            terminal = {key: row[key] for key in _TERMINAL_COLUMNS}
            parameters = {"p_run_id": run_id, **terminal}
            written = _written(connection.execute(_FINISHED_RUN, parameters), run_id)
        return run_of_row(written)

    def recover_crashed(self, now_ms: int) -> list[str]:
        """Turn every RUNNING row (left by a crash) into FAILED / INTERNAL_ERROR.

        Call once at startup, before any Run starts. The recovered Runs publish the fixed
        PUBLIC_ERROR result, so they are never selected as a previous turn.

        Returns:
            The recovered ``run_id``s, ordered by session and ``seq``.
        """
        with self._write() as connection:
            rows = connection.execute(_RUNNING_RUNS).mappings()
            recovered: list[dict[str, object]] = []
            for row in rows:
                document = document_of_row(row)
                document.update(
                    state="FAILED",
                    published_result=_PUBLIC_INTERNAL_ERROR,
                    fallback_type=None,
                    error_code="INTERNAL_ERROR",
                    finished_at_ms=now_ms,
                )
                checked_run(document)
                recovered.append(row_of(document))
            for values in recovered:
                terminal = {key: values[key] for key in _TERMINAL_COLUMNS}
                connection.execute(_UPDATE_RUN, {"p_run_id": values["run_id"], **terminal})
        return [str(values["run_id"]) for values in recovered]

    def abandon(self, run_id: str) -> None:
        """Note a RUNNING Run of this process whose terminal write failed (store unavailable).

        It is finished FAILED / ``INTERNAL_ERROR`` by the next :meth:`recover_abandoned` that
        can write; until then :attr:`abandoned` lists it. Thread-safe.
        """
        with self._abandoned_lock:
            self._abandoned.add(run_id)

    @property
    def abandoned(self) -> frozenset[str]:
        """The Runs handed to :meth:`abandon` and not yet recovered."""
        with self._abandoned_lock:
            return frozenset(self._abandoned)

    def recover_abandoned(self, now_ms: int) -> list[str]:
        """Finish every abandoned Run still RUNNING as FAILED / ``INTERNAL_ERROR``, in one write.

        The same terminal row as :meth:`recover_crashed` (the fixed PUBLIC_ERROR result), for
        the Runs this process could not finish. One transaction, attempted once per call; a
        caller (the SSE server) calls it again later while :attr:`abandoned` is not empty.

        Returns:
            The ``run_id``s finished now (an abandoned Run already terminal is just forgotten).

        Raises:
            StoreUnavailableError: the store still cannot be written (they stay abandoned).
        """
        wanted = sorted(self.abandoned)
        if not wanted:
            return []
        finished: list[str] = []
        with self._write() as connection:
            for run_id in wanted:
                row = connection.execute(_BY_ID, {"p_run_id": run_id}).mappings().first()
                if row is None or row["state"] in TERMINAL_STATES:
                    continue
                document = document_of_row(row)
                document.update(
                    state="FAILED",
                    published_result=_PUBLIC_INTERNAL_ERROR,
                    fallback_type=None,
                    error_code="INTERNAL_ERROR",
                    finished_at_ms=now_ms,
                )
                checked_run(document)
                values = row_of(document)
                terminal = {key: values[key] for key in _TERMINAL_COLUMNS}
                connection.execute(_UPDATE_RUN, {"p_run_id": run_id, **terminal})
                finished.append(run_id)
        with self._abandoned_lock:
            self._abandoned.difference_update(wanted)
        return finished

    def seed(self, runs: Iterable[DiagnosisRun]) -> None:
        """Insert given Runs as they are (a fixture's ``prior_runs``), all or nothing.

        Raises:
            InvalidRunError: a Run breaks the contract.
            DuplicateRunError: a ``run_id`` or a ``(session_id, seq)`` pair is already stored.
        """
        rows = []
        for run in runs:
            document = document_of(run)
            checked_run(document)
            _check_intent_of_success(document)
            rows.append(row_of(document))
        if not rows:
            return
        with self._write() as connection:
            _refuse_clashes(connection, rows)
            connection.execute(_INSERT_RUNS, rows)

    # ------------------------------------------------------------------------------------ reads

    def get(self, run_id: str) -> DiagnosisRun:
        """Return the Run ``run_id``.

        Raises:
            UnknownRunError: no such Run.
        """
        with self._connect() as connection:
            row = connection.execute(_BY_ID, {"p_run_id": run_id}).mappings().first()
        if row is None:
            raise UnknownRunError(run_id)
        return run_of_row(row)

    def list_session(self, session_id: str) -> list[DiagnosisRun]:
        """Return every Run of ``session_id`` by ascending ``seq`` (``[]`` if unknown)."""
        with self._connect() as connection:
            rows = connection.execute(_SESSION_RUNS, {"p_session_id": session_id}).mappings()
            return [run_of_row(row) for row in rows]

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select the previous turn of the Run with ``seq == before_seq`` (Requirement 7).

        The selected Run has the greatest ``seq < before_seq`` of the session with intent
        DIAGNOSIS and state SUCCESS (one seek on ``ix_diagnosis_run_previous_turn``). The Runs
        strictly between it (or the session start) and ``before_seq`` are reported, newest first,
        at most :attr:`SKIPPED_LIMIT`; the rest are counted up to :attr:`OMITTED_COUNT_LIMIT`.
        Every query is an index range bounded by those limits, so latency does not grow with the
        number of Runs in the table or in the session.
        """
        between = {"p_session_id": session_id, "p_before_seq": before_seq}
        with self._connect() as connection:
            selected_row = connection.execute(_PREVIOUS_TURN, between).mappings().first()
            between["p_floor"] = 0 if selected_row is None else int(selected_row["seq"])
            passed = connection.execute(
                _PASSED_OVER, {**between, "p_listed": self.SKIPPED_LIMIT + 1}
            ).all()
            omitted = 0
            if len(passed) > self.SKIPPED_LIMIT:
                counted = {
                    **between,
                    "p_skipped": self.SKIPPED_LIMIT,
                    "p_counted": self.OMITTED_COUNT_LIMIT,
                }
                omitted = int(connection.execute(_OMITTED_COUNT, counted).scalar_one())
        skipped = []
        for run_id, intent, state in passed[: self.SKIPPED_LIMIT]:
            reason = skip_reason(intent, state)
            if reason is None:  # pragma: no cover - excluded by the seek above
                msg = f"Run {run_id!r} is eligible but newer than the selected Run"
                raise AssertionError(msg)
            skipped.append(SkippedRun(run_id=run_id, reason=reason))
        return PreviousTurnSelection(
            selected=None if selected_row is None else run_of_row(selected_row),
            skipped=tuple(skipped),
            skipped_omitted=omitted,
        )

    # -------------------------------------------------------------------------------- internals

    @staticmethod
    def _current(connection: Connection, run_id: str) -> dict[str, Any]:
        row = connection.execute(_BY_ID, {"p_run_id": run_id}).mappings().first()
        if row is None:
            raise UnknownRunError(run_id)
        if row["state"] in TERMINAL_STATES:
            raise TerminalStateError(run_id, row["state"])
        return document_of_row(row)


def _written(result: CursorResult[Any], run_id: str) -> RowMapping:
    """The row ``run_id`` as the write's ``RETURNING`` gave it (before commit).

    What :meth:`RunStore.get` would read once the transaction commits, without a second
    statement, connection or transaction.
    """
    row = result.mappings().first()
    if row is None:  # pragma: no cover - the statement wrote it, or raised
        raise UnknownRunError(run_id)
    return row


def _refuse_clashes(connection: Connection, rows: list[dict[str, object]]) -> None:
    """Raise DuplicateRunError naming the first seeded Run whose id or session seq is taken.

    Runs inside the seed's write transaction, so nothing can slip in between check and insert.
    """
    seen_ids: set[object] = set()
    seen_seqs: set[tuple[object, object]] = set()
    for row in rows:
        run_id, key = row["run_id"], (row["session_id"], row["seq"])
        stored = connection.execute(
            _ID_OR_SEQ_TAKEN, {"p_run_id": run_id, "p_session_id": key[0], "p_seq": key[1]}
        ).first()
        if run_id in seen_ids or (stored is not None and stored.run_id == run_id):
            raise DuplicateRunError(str(run_id), "a diagnosis_run row has this run_id")
        if key in seen_seqs or stored is not None:
            detail = f"session {key[0]!r} already has a Run with seq {key[1]}"
            raise DuplicateRunError(str(run_id), detail)
        seen_ids.add(run_id)
        seen_seqs.add(key)


_TERMINAL_COLUMNS = ("state", "published_result", "fallback_type", "error_code", "finished_at_ms")


def _check_intent_of_success(document: dict[str, Any]) -> None:
    """Refuse a SUCCESS Run whose published kind does not match its routed intent.

    DIAGNOSIS publishes a DIAGNOSIS_DRAFT, KNOWLEDGE_QUERY a KNOWLEDGE_ANSWER; a SUCCESS Run
    without an intent cannot say which of the two it answered, so it cannot be classified for
    previous-turn selection.
    """
    if document["state"] != "SUCCESS":
        return
    expected = {"DIAGNOSIS": "DIAGNOSIS_DRAFT", "KNOWLEDGE_QUERY": "KNOWLEDGE_ANSWER"}
    intent = document.get("intent")
    if intent not in expected:
        raise InvalidRunError(
            str(document["run_id"]), ["/intent: a SUCCESS Run needs its routed intent"]
        )
    published = document.get("published_result") or {}
    if published.get("kind") != expected[intent]:
        raise InvalidRunError(
            str(document["run_id"]),
            [f"/published_result/kind: intent {intent} publishes {expected[intent]}"],
        )
