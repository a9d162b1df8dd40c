"""Soak of ``srdh serve``'s chat entry under store faults: locked, then disk full, then cleared.

``python -m bench.serve_soak [--per-phase N] [--clients C]`` starts the chat app in a child
process (``--serve``: the ``srdh serve`` app, :func:`reference_harness.sse.serve_app`'s
uvicorn settings and store opening, on loopback, with scripted model ports whose tool calls take
:data:`TOOL_DELAY_S`, so Runs are in flight when a fault begins), then drives it with ``C``
concurrent clients (at least ``2 N``, so that a phase's requests start in that phase) through
five phases of ``N`` chat requests each, spread over the phase (:data:`PHASE_S`):

1. ``clear`` — nothing wrong;
2. ``locked`` — another connection holds the store's write lock (``BEGIN IMMEDIATE``) from the
   phase's start to its end;
3. ``cleared-1`` — the lock released;
4. ``disk-full`` — the server's file-size limit (``RLIMIT_FSIZE``, ``SIGXFSZ`` ignored) is set
   below the store's size: every write of SQLite fails (``disk I/O error``);
5. ``cleared-2`` — the limit restored.

Each fault starts while the previous phase's Runs are still streaming. A trivial request
(``GET`` of an unknown trace) is timed during every phase. Afterwards the driver waits (bounded)
for the server to finish its abandoned Runs, stops it with SIGTERM, and counts: per phase, the
answers (``200`` streams that ended with ``end``, ``503`` refusals, anything else), and the rows
left ``RUNNING`` while the server lived and after it stopped. Prints one JSON document; exit 0
when every stream ended and no row is ``RUNNING``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

from reference_harness.store import BUSY_TIMEOUT_S

TOOL_DELAY_S: Final = 1.5
"""How long each scripted tool call takes in the soak's server (Runs stay in flight)."""
WAIT_S: Final = 60.0
"""Bound on one client request and on the recovery wait (a hang detector)."""
PHASES: Final = ("clear", "locked", "cleared-1", "disk-full", "cleared-2")
PHASE_S: Final = 4.0
"""Seconds each phase lasts (the locked one: the busy timeout + 3 s); its requests are spread
over it, so Runs are in flight when the next phase's fault begins."""


# -- the server (child process) -------------------------------------------------------------------
def _serve(store_path: Path, port_file: Path) -> None:
    """Serve the chat app on loopback; SIGUSR1 fills the disk, SIGUSR2 clears it; SIGTERM ends."""
    from bench.served_chat import scripted_harness_factory  # noqa: PLC0415 - the child only
    from reference_harness.sse import LoopbackServer, create_app, open_run_store  # noqa: PLC0415

    store = open_run_store(store_path)
    executor = ThreadPoolExecutor(4, thread_name_prefix="srdh-store")

    class SlowTools:
        def __init__(self, inner: Any) -> None:  # noqa: ANN401 - the scripted backend
            self._inner = inner

        async def execute(self, call: Any, cancel: Any) -> Any:  # noqa: ANN401 - port types
            await asyncio.sleep(TOOL_DELAY_S)
            return await self._inner.execute(call, cancel)

    factory = scripted_harness_factory(store, executor, tools=SlowTools)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(
        signal.SIGUSR1, lambda *_: resource.setrlimit(resource.RLIMIT_FSIZE, (1024, hard))
    )
    signal.signal(
        signal.SIGUSR2, lambda *_: resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    app = create_app(harness_factory=factory, public_entry="SINGLE_REACT", run_store=store)
    with LoopbackServer(app) as server:
        port_file.write_text(server.base_url, encoding="utf-8")
        while not stop.wait(0.2):
            pass
    executor.shutdown(wait=True)
    store.close()


# -- the driver -----------------------------------------------------------------------------------
def _chat(base_url: str, index: int) -> str:
    """One chat request; its outcome: ``ended:<state>``, ``503``, or what went wrong."""
    import httpx  # noqa: PLC0415 - the driver only

    from bench.served_chat import chat_frames  # noqa: PLC0415 - the driver only
    from contracts import StrictJSONError  # noqa: PLC0415 - the driver only

    body = {"session_id": f"soak-{index % 7}", "message": f"why {index}?"}
    try:
        with (
            httpx.Client(base_url=base_url, timeout=WAIT_S) as client,
            client.stream("POST", "/internal/v1/chat", json=body) as response,
        ):
            if response.status_code != 200:
                response.read()
                return str(response.status_code)
            ends = [data for event, data in chat_frames(response.iter_lines()) if event == "end"]
    except httpx.HTTPError as error:
        return f"error:{type(error).__name__}"
    except StrictJSONError:
        return "error:frame-not-json"
    return f"ended:{ends[-1]['state']}" if ends else "no-end"


def _get_latency(base_url: str) -> float:
    import httpx  # noqa: PLC0415 - the driver only

    start = time.perf_counter()
    httpx.get(f"{base_url}/internal/v1/runs/run-none/trace", timeout=WAIT_S)
    return time.perf_counter() - start


def _rows(store_path: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(store_path, timeout=30)) as connection:
        rows = connection.execute("SELECT state, count(*) FROM diagnosis_run GROUP BY state")
        return dict(rows.fetchall())


def soak(per_phase: int, clients: int) -> dict[str, Any]:  # noqa: C901, PLR0915 - one scripted soak
    """Run the five phases against a fresh server; return the figures (see the module doc)."""
    folder = Path(tempfile.mkdtemp(prefix="srdh-soak-"))
    store_path, port_file = folder / "runs.sqlite3", folder / "url"
    child = subprocess.Popen(  # noqa: S603 - this very module
        [sys.executable, "-m", "bench.serve_soak", "--serve", str(store_path), str(port_file)],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + WAIT_S
    while not port_file.exists() or not port_file.read_text(encoding="utf-8"):
        if child.poll() is not None or time.monotonic() > deadline:
            msg = f"the soak server did not start: {child.stderr.read() if child.stderr else ''}"
            raise RuntimeError(msg)
        time.sleep(0.05)
    base_url = port_file.read_text(encoding="utf-8")
    figures: dict[str, Any] = {"per_phase": per_phase, "clients": clients, "phases": {}}
    locker: sqlite3.Connection | None = None
    started = time.perf_counter()
    index = 0
    # one client thread per request of two phases: a phase's requests start during that phase
    with ThreadPoolExecutor(max(clients, 2 * per_phase)) as pool:
        pending: list[Any] = []
        for phase in PHASES:
            if phase == "locked":
                locker = sqlite3.connect(store_path, timeout=30, isolation_level=None)
                locker.execute("BEGIN IMMEDIATE")
            elif phase == "cleared-1" and locker is not None:
                locker.execute("ROLLBACK")
                locker.close()
            elif phase == "disk-full":
                child.send_signal(signal.SIGUSR1)
            elif phase == "cleared-2":
                child.send_signal(signal.SIGUSR2)
            phase_start = time.perf_counter()
            # the phase's requests are spread over its duration; a lock is held past the
            # store's busy timeout, so that waiting it out is not enough
            duration = BUSY_TIMEOUT_S + 3 if phase == "locked" else PHASE_S
            futures = []
            for n in range(per_phase):
                time.sleep(max(0.0, phase_start + duration * n / per_phase - time.perf_counter()))
                futures.append(pool.submit(_chat, base_url, index + n))
            index += per_phase
            latency = max(_get_latency(base_url) for _ in range(3))
            pending.extend((phase, future) for future in futures)
            time.sleep(max(0.0, phase_start + duration - time.perf_counter()))
            figures["phases"][phase] = {"get_max_s": round(latency, 3)}
        outcomes: dict[str, dict[str, int]] = {phase: {} for phase in PHASES}
        for phase, future in pending:
            result = future.result(timeout=WAIT_S * 2)
            outcomes[phase][result] = outcomes[phase].get(result, 0) + 1
    for phase in PHASES:
        figures["phases"][phase]["outcomes"] = outcomes[phase]
    deadline = time.monotonic() + WAIT_S
    while (running := _rows(store_path).get("RUNNING", 0)) and time.monotonic() < deadline:
        time.sleep(0.2)
    figures["running_while_serving"] = running
    figures["no_row_running_at_s"] = round(time.perf_counter() - started, 1)  # from the start
    child.send_signal(signal.SIGTERM)
    try:
        _, stderr = child.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        child.kill()
        _, stderr = child.communicate()
    figures["server_exit"] = child.returncode
    figures["rows"] = _rows(store_path)
    figures["running_after_stop"] = figures["rows"].get("RUNNING", 0)
    figures["server_log_lines"] = len([line for line in stderr.splitlines() if line.strip()])
    figures["server_log"] = stderr.splitlines()[:20]
    ended = sum(
        count
        for phase in PHASES
        for outcome, count in outcomes[phase].items()
        if outcome.startswith("ended:") or outcome == "503"
    )
    figures["requests"] = per_phase * len(PHASES)
    figures["streams_ended_or_refused"] = ended
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    return figures


def main() -> None:
    """Command line: ``--serve STORE URLFILE`` (the child) or the driver (see the module doc)."""
    parser = argparse.ArgumentParser(prog="python -m bench.serve_soak")
    parser.add_argument("--serve", nargs=2, metavar=("STORE", "URLFILE"))
    parser.add_argument("--per-phase", type=int, default=40)
    parser.add_argument("--clients", type=int, default=80)
    args = parser.parse_args()
    if args.serve:
        _serve(Path(args.serve[0]), Path(args.serve[1]))
        return
    figures = soak(args.per_phase, args.clients)
    print(json.dumps(figures, indent=2))
    ok = (
        figures["streams_ended_or_refused"] == figures["requests"]
        and figures["running_while_serving"] == 0
        and figures["running_after_stop"] == 0
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
