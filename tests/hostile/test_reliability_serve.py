"""``srdh serve`` under store faults and hostile connections (round 3: D2, D3, D4, D5, D18).

Real faults: another SQLite connection holding the store's write lock past the busy timeout, a
file-size limit below the store's size (the soak), a client that sends nothing or its request
head a byte at a time. Nothing is mocked below the store's own methods.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from bench.served_chat import chat_frames, scripted_harness_factory
from reference_harness.sse import (
    INTERNAL_CHAT_PATH,
    HeadTimeoutProtocol,
    LoopbackServer,
    OncePerCause,
    create_app,
    open_run_store,
)
from reference_harness.sse import _connections as connections
from reference_harness.store import RunStore, StoreUnavailableError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

WAIT_S = 60.0
"""Bound on every wait here (a hang detector, not a performance bound)."""
BODY = {"session_id": "s-1", "message": "why?"}


class _Locker:
    """Another connection to the store's file that takes and releases its write lock."""

    def __init__(self, path: Path) -> None:
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def lock(self) -> None:
        self._connection.execute("BEGIN IMMEDIATE")

    def unlock(self) -> None:
        with contextlib.suppress(sqlite3.OperationalError):
            self._connection.execute("ROLLBACK")

    def close(self) -> None:
        self.unlock()
        self._connection.close()


class _SpyStore(RunStore):
    """A real store that can take the lock itself just before a chosen write."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.locker = _Locker(path)
        self.lock_before_finish = False
        self.in_create = threading.Event()

    def create_run(self, **kwargs: Any) -> Any:
        self.in_create.set()
        return super().create_run(**kwargs)

    def finish_run(self, run_id: str, **kwargs: Any) -> Any:
        if self.lock_before_finish:
            self.locker.lock()
        return super().finish_run(run_id, **kwargs)


def _rows(path: Path) -> dict[str, str]:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return dict(connection.execute("SELECT run_id, state FROM diagnosis_run").fetchall())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[LoopbackServer, _SpyStore]]:
    """The chat app over a spy store, Harnesses running store calls in a thread pool."""
    store = _SpyStore(tmp_path / "runs.sqlite3")
    executor = ThreadPoolExecutor(2)

    factory = scripted_harness_factory(store, executor)
    app = create_app(harness_factory=factory, public_entry="SINGLE_REACT", run_store=store)
    try:
        with LoopbackServer(app) as server:
            yield server, store
    finally:
        store.locker.close()
        executor.shutdown()
        store.close()


def test_final_write_on_a_locked_store_ends_the_stream_and_the_row_is_recovered(
    served: tuple[LoopbackServer, _SpyStore], tmp_path: Path
) -> None:
    """D2: the terminal write fails (locked past the busy timeout): error frame, end, FAILED row."""
    server, store = served
    store.lock_before_finish = True
    with (
        httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client,
        client.stream("POST", INTERNAL_CHAT_PATH, json=BODY) as response,
    ):
        assert response.status_code == 200
        frames = chat_frames(response.iter_lines())
    run_id = frames[0][1]["run_id"]
    assert frames[-1] == ("end", {"state": "FAILED"})
    assert frames[-3] == (
        "result",
        {"kind": "PUBLIC_ERROR", "public_error": {"error_code": "INTERNAL_ERROR"}},
    )
    finished = frames[-2][1]
    assert finished["type"] == "RUN_FINISHED"
    assert finished["data"]["state"] == "FAILED"
    assert store.abandoned == {run_id}
    assert _rows(tmp_path / "runs.sqlite3") == {run_id: "RUNNING"}  # the lock is still held
    store.lock_before_finish = False
    store.locker.unlock()
    deadline = time.monotonic() + WAIT_S
    while _rows(tmp_path / "runs.sqlite3")[run_id] == "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _rows(tmp_path / "runs.sqlite3") == {run_id: "FAILED"}
    assert store.abandoned == frozenset()
    assert store.get(run_id).error_code == "INTERNAL_ERROR"


def test_run_row_not_created_is_503_and_other_requests_are_served_meanwhile(
    served: tuple[LoopbackServer, _SpyStore], tmp_path: Path
) -> None:
    """D3 and D4: a locked store gives a 503 (no empty 200); a GET is answered while it waits."""
    server, store = served
    store.locker.lock()
    answer: list[httpx.Response] = []

    def chat() -> None:
        with httpx.Client(base_url=server.base_url, timeout=WAIT_S) as client:
            answer.append(client.post(INTERNAL_CHAT_PATH, json=BODY))

    thread = threading.Thread(target=chat)
    thread.start()
    assert store.in_create.wait(WAIT_S)
    trace = httpx.get(f"{server.base_url}/internal/v1/runs/run-x/trace", timeout=WAIT_S)
    chat_pending = thread.is_alive()  # the store call waits out its busy timeout in a thread
    thread.join(WAIT_S)
    assert trace.status_code == 404
    assert chat_pending
    assert answer[0].status_code == 503
    assert answer[0].json() == {"error": "HARNESS_UNAVAILABLE"}
    assert _rows(tmp_path / "runs.sqlite3") == {}


def test_locked_or_full_store_is_refused_at_open_naming_the_file(tmp_path: Path) -> None:
    """D18: opening a server's store proves it writable; the error names the file."""
    path = tmp_path / "runs.sqlite3"
    RunStore(path).close()
    locker = _Locker(path)
    locker.lock()
    try:
        with pytest.raises(StoreUnavailableError) as caught:
            open_run_store(path)
    finally:
        locker.close()
    assert str(path) in str(caught.value)
    assert "database is locked" in str(caught.value)
    open_run_store(path).close()  # once released, it opens


def _closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(WAIT_S)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_idle_and_slow_head_connections_are_closed_with_one_log_line(
    served: tuple[LoopbackServer, _SpyStore],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """D5: a silent connection and a byte-a-time request head are closed; one line per cause."""
    server, _ = served
    monkeypatch.setattr(HeadTimeoutProtocol, "head_timeout_s", 0.5)
    host, port = server.base_url.removeprefix("http://").split(":")
    caplog.set_level(logging.WARNING, logger="uvicorn.error")
    idle = [socket.create_connection((host, int(port))) for _ in range(3)]
    slow = socket.create_connection((host, int(port)))
    for byte in b"POST /internal/v1/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n":
        try:
            slow.sendall(bytes([byte]))
        except OSError:
            break
        time.sleep(0.05)
    assert all(_closed_by_server(sock) for sock in [*idle, slow])
    for sock in [*idle, slow]:
        sock.close()
    closed = [r for r in caplog.records if "no complete request head" in r.getMessage()]
    assert len(closed) == 1
    # the server still serves
    assert (
        httpx.get(f"{server.base_url}/internal/v1/runs/x/trace", timeout=WAIT_S).status_code == 404
    )


def test_connection_cap_follows_the_descriptor_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """D5: the connection cap stays below the open-file limit (never more than the limit)."""
    monkeypatch.setattr(connections.resource, "getrlimit", lambda _: (256, 256))
    settings = connections.connection_settings()
    assert settings["limit_concurrency"] == 256 - 64
    assert settings["http"] is HeadTimeoutProtocol
    assert settings["timeout_keep_alive"] > 0


def test_once_per_cause_logs_a_cause_once_then_counts() -> None:
    """D5: 1,000 accept failures are one line, and the summary counts the rest."""
    once = OncePerCause(window_s=3600)
    logger = logging.getLogger("test.once")

    def record(message: str) -> logging.LogRecord:
        return logger.makeRecord("test.once", logging.ERROR, __file__, 1, message, (), None)

    passed = [
        once.filter(record(f"socket.accept() out of system resource fd={n}")) for n in range(1000)
    ]
    assert passed.count(True) == 1
    assert once.filter(record("another cause"))
    assert once.summary() == [
        "999 more record(s) not logged of: test.once: socket.accept() out of system resource fd=0"
    ]


def test_soak_locked_then_disk_full_then_cleared_leaves_nothing_running() -> None:
    """The soak (small): every stream ends or is refused; 0 rows RUNNING, while and after."""
    from bench.serve_soak import soak  # noqa: PLC0415 - the soak's driver

    figures = soak(per_phase=4, clients=8)
    assert figures["streams_ended_or_refused"] == figures["requests"] == 20
    assert figures["running_while_serving"] == 0
    assert figures["running_after_stop"] == 0
    assert figures["server_exit"] == 0
    assert figures["phases"]["disk-full"]["outcomes"].get("503", 0) >= 1


def test_srdh_serve_refuses_a_locked_store_before_announcing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """D18: exit 2 with one line naming the store file; no URL announced, nothing served."""
    import shutil  # noqa: PLC0415 - only here

    from typer.testing import CliRunner  # noqa: PLC0415 - only here

    import reference_harness.sse  # noqa: PLC0415 - its serve is replaced below
    from conformance.cli import app  # noqa: PLC0415 - only here
    from tests.hostile.test_hostile_serve import ROOT, _git  # noqa: PLC0415 - the same repo setup

    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "openspec", repo / "openspec")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "stage 0")
    for name, value in {"BASE_URL": "http://127.0.0.1:9/v1", "MODEL": "m", "API_KEY": "k"}.items():
        monkeypatch.setenv(f"SRDH_OPENAI_{name}", value)
    served: list[object] = []
    monkeypatch.setattr(reference_harness.sse, "serve", lambda *_, **k: served.append(k))
    store_file = repo / ".srdh" / "runs.sqlite3"
    store_file.parent.mkdir()
    RunStore(store_file).close()
    locker = _Locker(store_file)
    locker.lock()
    try:
        result = CliRunner().invoke(app, ["serve", "--repo", str(repo)])
    finally:
        locker.close()
    assert result.exit_code == 2, result.output
    assert f"srdh: error: run store {store_file.resolve()}" in result.stderr
    assert "database is locked" in result.stderr
    assert "http://" not in result.stderr
    assert served == []
