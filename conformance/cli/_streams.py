"""``srdh``'s standard streams, guarded: a lost reader or a full disk never changes a verdict.

``srdh run … | grep -m1 FAILED`` closes the pipe after the first match; ``> /dev/full`` fails
every flush; ``2>&-`` starts the kit without a standard error; ``PYTHONIOENCODING=ascii`` cannot
encode an IUT's text. None of these may stop the suite, lose its report, or turn into a
verdict. :func:`guard_standard_streams` (called first by ``main``):

* gives every closed descriptor among 0, 1 and 2 ``/dev/null``, so that no file the kit opens
  later (a report, a store) takes a standard stream's number;
* replaces ``sys.stdout`` and ``sys.stderr`` by :class:`GuardedStream` wrappers: a character the
  encoding lacks is written as a backslash escape; the first write error (``EPIPE``,
  ``ENOSPC``, ``EIO``) marks the stream lost, points its descriptor at ``/dev/null`` (so the
  interpreter's last flush cannot fail either) and every later write is dropped.

:func:`lost_output` then names what was lost: ``main`` exits 2 saying so, after the command ran
to its end (its reports written).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import IO, Any

__all__ = ["GuardedStream", "guard_standard_streams", "lost_output"]


class GuardedStream:
    """A text stream that never raises for the reader's or the device's faults.

    Args:
        inner: the stream to write to, or ``None`` (a descriptor closed when ``srdh`` started:
            everything written is dropped, and that is not a loss).
        name: ``standard output`` or ``standard error``, for :attr:`lost`.
    """

    def __init__(self, inner: IO[str] | None, name: str) -> None:
        """Wrap ``inner``; characters it cannot encode become backslash escapes."""
        self._inner = inner
        self.name = name
        self.lost: str | None = None
        """Why output was lost (the first write error), or ``None``."""
        reconfigure = getattr(inner, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")

    @property
    def dropping(self) -> bool:
        """True when writes go nowhere (closed at start, or lost)."""
        return self._inner is None or self.lost is not None

    def write(self, text: str) -> int:
        """Write ``text`` (dropped once the stream is lost); return its length."""
        if not self.dropping:
            assert self._inner is not None  # noqa: S101 - dropping says otherwise
            try:
                self._inner.write(text)
            except OSError as error:
                self._lose(error)
        return len(text)

    def flush(self) -> None:
        """Flush (a failure marks the stream lost)."""
        if not self.dropping:
            assert self._inner is not None  # noqa: S101 - dropping says otherwise
            try:
                self._inner.flush()
            except OSError as error:
                self._lose(error)

    def _lose(self, error: OSError) -> None:
        self.lost = f"{self.name} was lost ({error.strerror or error})"
        assert self._inner is not None  # noqa: S101 - only a real stream is lost
        with contextlib.suppress(OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._inner.fileno())
            os.close(null)
        with contextlib.suppress(OSError, ValueError):
            self._inner.flush()  # what it still buffers goes to /dev/null now

    def isatty(self) -> bool:
        """A terminal only while it is written to."""
        return not self.dropping and bool(self._inner is not None and self._inner.isatty())

    def fileno(self) -> int:
        """The inner stream's descriptor.

        Raises:
            OSError: there is no inner stream.
        """
        if self._inner is None:
            msg = f"{self.name} is closed"
            raise OSError(msg)
        return self._inner.fileno()

    @property
    def encoding(self) -> str:
        """The inner stream's encoding (UTF-8 without one)."""
        return str(getattr(self._inner, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str:
        """Unencodable characters are written as backslash escapes."""
        return "backslashreplace"

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever the inner stream has
        """Everything else from the inner stream."""
        if self._inner is None:
            raise AttributeError(name)
        return getattr(self._inner, name)


def guard_standard_streams() -> tuple[GuardedStream, GuardedStream]:
    """Occupy closed descriptors 0-2 with ``/dev/null``; wrap ``sys.stdout``/``sys.stderr``.

    Idempotent: streams already guarded are returned as they are.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    streams = []
    for fd, attribute, name in ((1, "stdout", "standard output"), (2, "stderr", "standard error")):
        current = getattr(sys, attribute)
        if current is None:  # closed at start: now /dev/null, written like any stream (pytest,
            # faulthandler and others ask a standard stream for its descriptor)
            current = os.fdopen(fd, "w", encoding="utf-8", closefd=False)
        if not isinstance(current, GuardedStream):
            current = GuardedStream(current, name)
            setattr(sys, attribute, current)
        streams.append(current)
    return streams[0], streams[1]


def lost_output() -> list[str]:
    """Why output was lost, one line per guarded standard stream that lost some."""
    return [
        stream.lost
        for stream in (sys.stdout, sys.stderr)
        if isinstance(stream, GuardedStream) and stream.lost is not None
    ]
