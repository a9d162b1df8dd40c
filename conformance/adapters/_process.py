"""A child process speaking NDJSON on stdin/stdout, read with per-message timeouts.

Threads drain stdout (line by line, into a queue) and stderr (keeping a bounded tail), so a
silent, chatty or dead child never blocks the kit; the child runs in its own process group and
is killed as a group.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections import deque
from typing import IO

__all__ = ["ChildProcess", "ReadTimeout"]

_STDERR_TAIL_BYTES = 4000
_EOF = b""
_JOIN_TIMEOUT_S = 2.0


class ReadTimeout(Exception):  # noqa: N818 - a control signal, not an error report
    """No line arrived within the timeout."""


class ChildProcess:
    """A running child with line-oriented stdout and a bounded stderr tail."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        """Start ``argv`` in a new session (its own process group).

        Raises:
            OSError: the program cannot be started.
        """
        self.argv = argv
        self._popen = subprocess.Popen(  # noqa: S603 - the user names the IUT command
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=env,
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()
        assert self._popen.stdout is not None  # noqa: S101 - PIPE was requested
        assert self._popen.stderr is not None  # noqa: S101 - PIPE was requested
        self._threads = [
            threading.Thread(target=self._pump_stdout, args=(self._popen.stdout,), daemon=True),
            threading.Thread(target=self._pump_stderr, args=(self._popen.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _pump_stdout(self, stream: IO[bytes]) -> None:
        for line in iter(stream.readline, _EOF):
            self._lines.put(line)
        self._lines.put(_EOF)

    def _pump_stderr(self, stream: IO[bytes]) -> None:
        for chunk in iter(lambda: stream.read1(1024), _EOF):  # type: ignore[attr-defined]  # BufferedReader
            with self._stderr_lock:
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size > _STDERR_TAIL_BYTES and len(self._stderr) > 1:
                    self._stderr_size -= len(self._stderr.popleft())

    @property
    def pid(self) -> int:
        """The child's process id (also its process group id)."""
        return self._popen.pid

    def stderr_tail(self) -> str:
        """Return the last few KB the child wrote to stderr, decoded leniently."""
        with self._stderr_lock:
            data = b"".join(self._stderr)[-_STDERR_TAIL_BYTES:]
        return data.decode("utf-8", errors="replace").strip()

    def send(self, line: bytes) -> None:
        """Write one line to the child's stdin.

        Raises:
            OSError: the child closed its stdin (for instance, it exited).
        """
        stdin = self._popen.stdin
        assert stdin is not None  # noqa: S101 - PIPE was requested
        stdin.write(line)
        stdin.flush()

    def receive(self, timeout_s: float) -> bytes:
        """Return the next stdout line (``b""`` at end of output).

        Raises:
            ReadTimeout: no line within ``timeout_s`` seconds.
        """
        try:
            return self._lines.get(timeout=timeout_s)
        except queue.Empty as error:
            raise ReadTimeout from error

    def wait(self, timeout_s: float) -> int | None:
        """Return the exit code once the child exits within ``timeout_s``, else ``None``."""
        try:
            return self._popen.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return None

    def finish(self) -> None:
        """Close the pipes and stop the reader threads after the child exited."""
        self._finish()

    def kill(self) -> None:
        """Kill the child's whole process group and reap it; safe to call twice."""
        if self._popen.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._popen.pid, signal.SIGKILL)
        self._popen.wait()
        self._finish()

    def _finish(self) -> None:
        if self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()
        for thread in self._threads:
            thread.join(timeout=_JOIN_TIMEOUT_S)
        for stream in (self._popen.stdout, self._popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
