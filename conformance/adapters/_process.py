"""A supervised child process speaking NDJSON on stdin/stdout, with deadlines and bounds.

Whatever the child does, the kit stays in control:

* **time**: :meth:`ChildProcess.receive` waits until a *deadline* (a ``time.monotonic()``
  instant) that only a complete, non-blank message meets; :meth:`ChildProcess.send` writes
  with a deadline too (a child that never reads its stdin cannot block the kit);
* **memory**: stdout is read in bounded chunks and split on LF only; a line longer than
  ``max_message_bytes`` is never held (:class:`MessageTooLarge`), complete lines wait in a queue
  bounded in bytes (the reader stops reading while it is full), and stderr keeps a bounded tail;
* **processes**: the child runs in its own session and process group; :meth:`ChildProcess.kill`
  ends the whole group, then every process still holding the child's pipes (a descendant that
  left the group), then every process whose environment carries the child's mark
  (:data:`MARK_VARIABLE`: a daemon that double-forked, left the session and closed its streams
  still inherited it), and never waits on a pipe end a descendant keeps open. Every live child
  is registered, so :func:`kill_all_children` (run by :func:`supervise_signals` on SIGINT,
  SIGTERM and SIGHUP) ends them when ``srdh`` itself is stopped, and at exit every live child
  is killed and released and the watchdog ended and reaped;
* **the kit's death**: a watchdog process (one per kit process, started with the first child)
  reads the kit's registrations on a pipe; when the kit dies in any way, even by SIGKILL, the
  pipe ends and the watchdog kills every registered group and marked process, then exits.

The limit: a descendant that both leaves the child's process group and session, closes the
child's pipes, and clears or replaces its environment (``env -i``) is not found (Linux has no
other record of ancestry once a process is re-parented; a cgroup would need privileges the kit
does not assume).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import FrameType

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "MARK_VARIABLE",
    "ChildProcess",
    "MessageTooLarge",
    "ReadTimeout",
    "RunInterrupted",
    "interrupt",
    "interruption",
    "kill_all_children",
    "live_children",
    "supervise_signals",
]

DEFAULT_MAX_MESSAGE_BYTES: Final = 8 * 1024 * 1024
"""Default largest adapter message (one NDJSON line, without its LF), in bytes: 8 MiB."""

_CHUNK_BYTES: Final = 64 * 1024
_STDERR_TAIL_BYTES: Final = 4000
_POLL_S: Final = 0.05
"""How often the reader threads look at their stop flag while a pipe is silent."""
_DRAIN_S: Final = 0.5
"""After the group is killed: how long to wait for the pipes' end of file."""
_REAP_S: Final = 5.0


class ReadTimeout(Exception):  # noqa: N818 - a control signal, not an error report
    """No complete message arrived before the deadline (or the write did not finish)."""


class MessageTooLarge(Exception):  # noqa: N818 - a control signal, not an error report
    """The child wrote a line longer than the limit; ``size`` bytes were seen before giving up."""

    def __init__(self, size: int, limit: int) -> None:
        """Record the size seen and the limit."""
        super().__init__(f"line of more than {limit} bytes ({size} bytes seen)")
        self.size = size
        self.limit = limit


class _TooLarge:
    """Queue marker: the line being read crossed the limit."""

    def __init__(self, size: int) -> None:
        self.size = size


MARK_VARIABLE: Final = "SRDH_IUT_MARK"
"""Environment variable set to a fresh random mark in each child: its descendants inherit it."""

_registry_lock = threading.Lock()
_registry: set[ChildProcess] = set()

_WATCHDOG: Final = r"""
import os, signal, sys
from pathlib import Path
def marked(mark):
    wanted = f"{VARIABLE}={mark}".encode() + b"\0"
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if wanted in (entry / "environ").read_bytes():
                    yield int(entry.name)
            except OSError:
                pass
groups = {}
for line in sys.stdin:
    sign, _, rest = line.strip().partition(" ")
    pgid, _, mark = rest.partition(" ")
    if sign == "+":
        groups[int(pgid)] = mark
    elif sign == "-":
        groups.pop(int(pgid), None)
for pgid, mark in groups.items():
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
    for pid in marked(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
""".replace("{VARIABLE}", MARK_VARIABLE)
"""The watchdog's program: registrations ``+ PGID MARK`` / ``- PGID MARK`` on stdin; at end of
input (the kit exited or died), SIGKILL every group still registered and every marked process."""


class _Watchdog:
    """The kit's watchdog process (see the module docstring), started on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._popen: subprocess.Popen[bytes] | None = None
        self._pid = 0

    def tell(self, line: str) -> None:
        """Send one registration line; a watchdog that cannot start or died is replaced once."""
        with self._lock:
            for _ in range(2):
                if self._popen is not None and self._pid != os.getpid():
                    self._release()  # inherited through fork: the parent's, not ours
                if self._popen is None or self._pid != os.getpid():
                    self._popen, self._pid = self._start(), os.getpid()
                if self._popen is None or self._popen.stdin is None:
                    return
                try:
                    self._popen.stdin.write(line.encode() + b"\n")
                    self._popen.stdin.flush()
                except OSError:
                    self._release()
                    continue
                return

    def close(self) -> None:
        """End the watchdog at this process's exit: close its input and reap it.

        At end of input it kills every group still registered (as if the kit had died), then
        exits; it is waited for at most ``_REAP_S`` seconds, then killed, so no watchdog outlives
        the kit and its ``Popen`` is never left running at interpreter exit (a
        ``ResourceWarning``). A watchdog inherited through ``fork`` belongs to the parent: only
        this copy of its input is closed.
        """
        with self._lock:
            self._release()

    def _release(self) -> None:
        """Close the watchdog's input, reap it if it is ours, forget it (caller holds the lock)."""
        popen, self._popen = self._popen, None
        if popen is None:
            return
        if popen.stdin is not None:
            with contextlib.suppress(OSError):
                popen.stdin.close()
        if self._pid != os.getpid():
            popen.returncode = 0  # the parent's process: not ours to wait for
            return
        try:
            popen.wait(timeout=_REAP_S)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()

    @staticmethod
    def _start() -> subprocess.Popen[bytes] | None:
        try:
            return subprocess.Popen(  # noqa: S603 - this interpreter and a fixed program
                [sys.executable, "-I", "-S", "-c", _WATCHDOG],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            return None


_watchdog = _Watchdog()


def live_children() -> list[ChildProcess]:
    """The children started by this process and not yet killed or finished."""
    with _registry_lock:
        return list(_registry)


def kill_all_children() -> None:
    """Kill the process group of every live child (when ``srdh`` is stopped, and at exit)."""
    for child in live_children():
        child.kill_group()


def _end_all_at_exit() -> None:
    """End every live child, then the watchdog, at this process's exit.

    Each child as :meth:`ChildProcess.kill` does (its group, the holders of its pipes, its
    marked processes; pipes released); the watchdog would otherwise outlive this process until
    it noticed the end of its input.
    """
    kill_all_children()
    for child in live_children():
        child.kill()
    _watchdog.close()


atexit.register(_end_all_at_exit)


class RunInterrupted(KeyboardInterrupt):
    """``srdh`` was asked to stop (SIGINT, SIGTERM, SIGHUP) while it ran the suite.

    A :class:`KeyboardInterrupt`, so pytest, Hypothesis and asyncio stop as they do for Ctrl-C;
    the suite then reports what ran and marks the rest NOT_RUN (a partial report).

    Attributes:
        signum: the signal's number; :attr:`name` its name (``SIGTERM``).
    """

    def __init__(self, signum: int) -> None:
        """Name the signal."""
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"interrupted by {self.name}")


_interrupted: list[RunInterrupted] = []


def interruption() -> RunInterrupted | None:
    """The interruption of the current :func:`supervise_signals` block, if one came."""
    return _interrupted[0] if _interrupted else None


def interrupt(signum: int) -> RunInterrupted:
    """Record an interruption by ``signum`` (as the signal handler does) and return it to raise.

    ``srdh replay`` of a recording cut short raises it where the recorded run was stopped.
    """
    error = RunInterrupted(signum)
    if not _interrupted:
        _interrupted.append(error)
    return error


@contextlib.contextmanager
def supervise_signals() -> Iterator[None]:
    """While the block runs, SIGINT/SIGTERM/SIGHUP first kill every child's process group.

    The first such signal then raises :class:`RunInterrupted` (a ``KeyboardInterrupt``) in the
    main thread, so the suite stops and reports what ran (:func:`interruption` tells which
    signal); a second one ends ``srdh`` at once by the signal's default action. Outside the main
    thread (where Python cannot install handlers) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _interrupted.clear()
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    wanted = [getattr(signal, name) for name in names if hasattr(signal, name)]

    def handler(signum: int, _frame: FrameType | None) -> None:
        kill_all_children()
        if _interrupted:  # the second signal: stop now
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise interrupt(signum)

    previous = {signum: signal.signal(signum, handler) for signum in wanted}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
        _interrupted.clear()


class _Inbox:
    """Complete stdout lines, bounded in bytes; end-of-file and leader-exit flags."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.cond = threading.Condition()
        self.items: deque[bytes | _TooLarge] = deque()
        self.size = 0
        self.eof = False
        self.exit_code: int | None = None
        self.exited = False

    def put(self, item: bytes | _TooLarge, stop: threading.Event) -> None:
        """Queue ``item``, waiting while the queue is full (back-pressure on the child)."""
        weight = len(item) if isinstance(item, bytes) else 0
        with self.cond:
            while self.items and self.size + weight > self.capacity and not stop.is_set():
                self.cond.wait(_POLL_S)
            self.items.append(item)
            self.size += weight
            self.cond.notify_all()

    def take(self) -> bytes | _TooLarge | None:
        """Pop the oldest item, or ``None`` (caller holds :attr:`cond`)."""
        if not self.items:
            return None
        item = self.items.popleft()
        if isinstance(item, bytes):
            self.size -= len(item)
        self.cond.notify_all()
        return item

    def set_flag(self, *, eof: bool = False, exit_code: int | None = None) -> None:
        with self.cond:
            if eof:
                self.eof = True
            else:
                self.exited, self.exit_code = True, exit_code
            self.cond.notify_all()


class ChildProcess:
    """A running child: bounded line-oriented stdout, bounded stderr tail, group-wide kill.

    Args:
        argv: the program and its arguments (never run through a shell).
        env: the environment (``None``: this process's).
        max_message_bytes: the longest stdout line accepted, in bytes (without its LF).

    Raises:
        OSError: the program cannot be started.
    """

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str] | None = None,
        *,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        """Start ``argv`` in a new session (its own process group) and start the readers."""
        self.argv = argv
        self.max_message_bytes = max_message_bytes
        self.mark = f"{os.getpid()}-{secrets.token_hex(8)}"
        marked_env = {**(os.environ if env is None else env), MARK_VARIABLE: self.mark}
        self._popen = subprocess.Popen(  # noqa: S603 - the user names the IUT command
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=marked_env,
        )
        with _registry_lock:
            _registry.add(self)
        self.pgid = self._popen.pid
        _watchdog.tell(f"+ {self.pgid} {self.mark}")
        assert self._popen.stdin is not None  # noqa: S101 - PIPE was requested
        assert self._popen.stdout is not None  # noqa: S101 - PIPE was requested
        assert self._popen.stderr is not None  # noqa: S101 - PIPE was requested
        self._stdin_fd = self._popen.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._pipe_inodes = {
            os.fstat(stream.fileno()).st_ino for stream in (self._popen.stdout, self._popen.stderr)
        }
        self._inbox = _Inbox(max(max_message_bytes, _CHUNK_BYTES))
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        self._stop = threading.Event()
        self._finished = False
        self._threads = [
            threading.Thread(target=self._pump_stdout, args=(self._popen.stdout.fileno(),)),
            threading.Thread(target=self._pump_stderr, args=(self._popen.stderr.fileno(),)),
            threading.Thread(target=self._watch_exit),
        ]
        for thread in self._threads:
            thread.daemon = True
            thread.start()

    # -- reader threads ---------------------------------------------------------------------------
    def _chunks(self, fd: int) -> Iterator[bytes]:
        """Yield what ``fd`` delivers until end of file or :attr:`_stop` (checked while idle)."""
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while not self._stop.is_set():
            if not poller.poll(_POLL_S * 1000):
                continue
            try:
                data = os.read(fd, _CHUNK_BYTES)
            except OSError:
                return
            if not data:
                return
            yield data

    def _pump_stdout(self, fd: int) -> None:
        limit = self.max_message_bytes
        line = bytearray()
        discarding = False
        for data in self._chunks(fd):
            start = 0
            while start <= len(data):
                end = data.find(b"\n", start)
                piece = data[start:] if end < 0 else data[start:end]
                if not discarding:
                    line += piece
                    if len(line) > limit:
                        self._inbox.put(_TooLarge(len(line)), self._stop)
                        line.clear()
                        discarding = True  # the rest of this output is never held
                if end < 0:
                    break
                if not discarding and line.strip():
                    self._inbox.put(bytes(line), self._stop)
                line.clear()
                start = end + 1
        if not discarding and line.strip():
            self._inbox.put(bytes(line), self._stop)  # a last line without its LF
        self._inbox.set_flag(eof=True)

    def _pump_stderr(self, fd: int) -> None:
        for chunk in self._chunks(fd):
            with self._stderr_lock:
                self._stderr += chunk[-_STDERR_TAIL_BYTES:]
                del self._stderr[:-_STDERR_TAIL_BYTES]

    def _watch_exit(self) -> None:
        self._inbox.set_flag(exit_code=self._popen.wait())

    # -- the interface ----------------------------------------------------------------------------
    @property
    def pid(self) -> int:
        """The child's process id (also its process group id)."""
        return self._popen.pid

    @property
    def exit_code(self) -> int | None:
        """The child's exit code once it exited (negative: killed by that signal), else None."""
        with self._inbox.cond:
            return self._inbox.exit_code if self._inbox.exited else None

    def stderr_tail(self) -> str:
        """Return the last few KB the child wrote to stderr, decoded leniently."""
        with self._stderr_lock:
            data = bytes(self._stderr)
        return data.decode("utf-8", errors="replace").strip()

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to the child's stdin, giving up at ``deadline`` (``time.monotonic()``).

        Raises:
            ReadTimeout: the child did not read it all before the deadline.
            OSError: the child closed its stdin (for instance, it exited).
        """
        view = memoryview(data)
        poller = select.poll()  # poll, not select: any fd number works
        poller.register(self._stdin_fd, select.POLLOUT)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ReadTimeout
            if not poller.poll(remaining * 1000):
                continue
            try:
                written = os.write(self._stdin_fd, view)
            except BlockingIOError:
                continue
            view = view[written:]

    def close_stdin(self) -> None:
        """Close the child's stdin (it reads end of file); safe to call twice."""
        if self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()

    def receive(self, deadline: float) -> bytes:
        """Return the next complete, non-blank stdout line (without its LF).

        Returns ``b""`` once the output ended: end of file, or the child (the group leader)
        exited and nothing more arrived (its group is then killed, so a descendant holding
        stdout open cannot delay the answer).

        Raises:
            ReadTimeout: no complete line before ``deadline`` (``time.monotonic()``).
            MessageTooLarge: the next line is longer than ``max_message_bytes``.
        """
        inbox = self._inbox
        with inbox.cond:
            while True:
                item = inbox.take()
                if isinstance(item, _TooLarge):
                    raise MessageTooLarge(item.size, self.max_message_bytes)
                if item is not None:
                    return item
                if inbox.eof:
                    return b""
                if inbox.exited:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ReadTimeout
                inbox.cond.wait(remaining)
        # The leader exited: end its group, then collect what it wrote before it went.
        self.kill_group()
        self._await_eof(time.monotonic() + _DRAIN_S)
        with inbox.cond:
            item = inbox.take()
        if isinstance(item, _TooLarge):
            raise MessageTooLarge(item.size, self.max_message_bytes)
        return item or b""

    def wait(self, timeout_s: float) -> int | None:
        """Return the exit code once the child exits within ``timeout_s``, else ``None``."""
        try:
            return self._popen.wait(timeout=max(timeout_s, 0))
        except subprocess.TimeoutExpired:
            return None

    def leftover_lines(self) -> list[bytes]:
        """After the child ended: every complete line it wrote that nobody read, in order."""
        self._await_eof(time.monotonic() + _DRAIN_S)
        lines: list[bytes] = []
        with self._inbox.cond:
            while (item := self._inbox.take()) is not None:
                if isinstance(item, bytes):
                    lines.append(item)
        return lines

    def pending_lines(self) -> list[bytes]:
        """The complete lines already received and not read (without waiting)."""
        lines: list[bytes] = []
        with self._inbox.cond:
            while (item := self._inbox.take()) is not None:
                if isinstance(item, bytes):
                    lines.append(item)
        return lines

    def kill_group(self) -> None:
        """SIGKILL the child's process group (every process in it, the leader's exit or not)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGKILL)

    def kill(self) -> None:
        """End the child and everything it started; release the pipes. Safe to call twice.

        Kills the process group, reaps the leader, then kills any process still holding the
        child's stdout/stderr pipes (a descendant that moved to another group or session), and
        stops the reader threads without waiting on a pipe end held open elsewhere.
        """
        self.kill_group()
        self.finish()

    def finish(self) -> None:
        """Kill what is left of the group and release every resource; idempotent."""
        if self._finished:
            return
        self.kill_group()
        self.close_stdin()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout=_REAP_S)
        if not self._await_eof(time.monotonic() + _DRAIN_S):
            _kill_pipe_holders(self._pipe_inodes)
            self._await_eof(time.monotonic() + _DRAIN_S)
        _kill_marked(self.mark)
        _watchdog.tell(f"- {self.pgid} {self.mark}")
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=_REAP_S)
        for stream in (self._popen.stdout, self._popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._finished = True
        with _registry_lock:
            _registry.discard(self)

    def _await_eof(self, deadline: float) -> bool:
        """Wait until stdout reached end of file (True) or ``deadline`` passed (False)."""
        inbox = self._inbox
        with inbox.cond:
            while not inbox.eof:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                inbox.cond.wait(remaining)
        return True


def _other_processes() -> list[Path]:
    """The ``/proc/<pid>`` folders of every process but this one (none without ``/proc``)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    me = str(os.getpid())
    return [e for e in proc.iterdir() if e.name.isdigit() and e.name != me]


def _kill_pipe_holders(inodes: set[int]) -> None:
    """SIGKILL every other process with one of the pipes ``inodes`` open (Linux ``/proc``)."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    for entry in _other_processes():
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if str(fd.readlink()) in wanted:
                        os.kill(int(entry.name), signal.SIGKILL)
                        break


def _kill_marked(mark: str) -> None:
    """SIGKILL every process whose initial environment holds ``MARK_VARIABLE=mark`` (``/proc``)."""
    wanted = f"{MARK_VARIABLE}={mark}".encode() + b"\0"
    for entry in _other_processes():
        with contextlib.suppress(OSError):
            if wanted in (entry / "environ").read_bytes():
                os.kill(int(entry.name), signal.SIGKILL)
