"""How ``srdh serve`` bounds its connections, and logs each cause of trouble once.

A client that connects and sends nothing, or sends its request head a byte at a time, holds a
file descriptor for as long as it likes under uvicorn's defaults: its keep-alive timeout starts
only after a first response. With a few hundred such clients the process runs out of
descriptors, every ``accept`` fails and every failure is logged. Here:

* :class:`HeadTimeoutProtocol` (uvicorn's h11 protocol) closes a connection whose request head
  is not complete :data:`HEAD_TIMEOUT_S` after the connection opened, or after the previous
  response ended (a keep-alive connection); the body has its own bound in the chat route;
* :func:`connection_settings` gives uvicorn a connection cap (``limit_concurrency``: over it a
  request gets ``503``) below the descriptor limit, a bounded request head
  (``h11_max_incomplete_event_size``) and the keep-alive timeout, after raising the soft
  descriptor limit to the hard one;
* :class:`OncePerCause` lets the first record of each cause through and counts the rest
  (``summary()`` at shutdown): 200,000 failed accepts are one line, not 200,000.
"""

from __future__ import annotations

import logging
import re
import resource
import threading
import time
from typing import TYPE_CHECKING, Any, Final

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "HEAD_TIMEOUT_S",
    "KEEP_ALIVE_S",
    "MAX_HEAD_BYTES",
    "HeadTimeoutProtocol",
    "OncePerCause",
    "connection_settings",
    "install_once_per_cause",
    "remove_once_per_cause",
]

HEAD_TIMEOUT_S: Final = 10.0
"""Seconds a connection has to deliver a complete request head (from its opening or from the
end of the previous response)."""
KEEP_ALIVE_S: Final = 5.0
"""Seconds an idle keep-alive connection is kept after a response (uvicorn's
``timeout_keep_alive``)."""
MAX_HEAD_BYTES: Final = 64 * 1024
"""Largest request head (request line and headers), in bytes (``h11_max_incomplete_event_size``)."""
MAX_CONNECTIONS: Final = 200
"""Connection cap (``limit_concurrency``) when the descriptor limit allows it."""
_RESERVED_FDS: Final = 64
"""Descriptors kept free of connections: the store, its journal, logs, the listening socket."""


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request head (:data:`HEAD_TIMEOUT_S`)."""

    head_timeout_s: float = HEAD_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Accept the connection and start the clock of its first request head."""
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._waiting_cycle = self.cycle
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_timed_out)

    def _disarm(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        """Feed h11; once a new request's head is complete, stop its clock."""
        super().data_received(data)
        if self.cycle is not self._waiting_cycle:
            self._disarm()

    def on_response_complete(self) -> None:
        """After a response, the next request head has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock and let uvicorn clean up."""
        self._disarm()
        super().connection_lost(exc)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.cycle is self._waiting_cycle and not self.transport.is_closing():
            logging.getLogger("uvicorn.error").warning(
                "closed a connection that sent no complete request head within %g s",
                self.head_timeout_s,
            )
            self.transport.close()


def connection_settings() -> dict[str, Any]:
    """Uvicorn settings bounding connections, after raising the soft descriptor limit.

    ``limit_concurrency`` is :data:`MAX_CONNECTIONS`, or fewer when the descriptor limit minus
    :data:`_RESERVED_FDS` is lower (at least 8).
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    cap = max(8, min(MAX_CONNECTIONS, soft - _RESERVED_FDS))
    return {
        "http": HeadTimeoutProtocol,
        "limit_concurrency": cap,
        "timeout_keep_alive": int(KEEP_ALIVE_S),
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "backlog": cap,
    }


_NUMBERS = re.compile(r"\d+")


class OncePerCause(logging.Filter):
    """Pass the first record of each cause in a window; count the others.

    A cause is the logger, the level, the first line of the message with its numbers blanked
    (file descriptors, ports and counts vary) and the exception's type. Within
    ``window_s`` seconds of a cause's logged record its repeats are counted, not logged; the
    first record after the window is logged with the count of what was held back. Thread-safe.
    """

    def __init__(self, window_s: float = 60.0) -> None:
        """Start with no cause seen."""
        super().__init__()
        self.window_s = window_s
        self._lock = threading.Lock()
        self._logged_at: dict[tuple[str, int, str, str], float] = {}
        self._held: dict[tuple[str, int, str, str], int] = {}
        self._text: dict[tuple[str, int, str, str], str] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Return True for the first record of its cause in the window, False (counted) else."""
        first = record.getMessage().split("\n", 1)[0]
        error = record.exc_info[1] if record.exc_info else None
        key = (record.name, record.levelno, _NUMBERS.sub("#", first), type(error).__name__)
        now = time.monotonic()
        with self._lock:
            logged = self._logged_at.get(key)
            if logged is not None and now - logged < self.window_s:
                self._held[key] = self._held.get(key, 0) + 1
                return False
            self._logged_at[key] = now
            self._text[key] = f"{record.name}: {first}"
            held = self._held.pop(key, 0)
        if held:
            record.msg = f"{record.msg} ({held} more of this cause not logged)"
        return True

    def summary(self) -> list[str]:
        """One line per cause whose repeats were held back since it was last logged."""
        with self._lock:
            return [
                f"{count} more record(s) not logged of: {self._text[key]}"
                for key, count in self._held.items()
            ]


LOGGERS: Final = (
    "asyncio",
    "uvicorn.error",
    "reference_harness.sse._app",
    "reference_harness.sse._runs",
)
"""The loggers whose records :func:`install_once_per_cause` filters (a logger's filter sees only
the records logged on that logger itself, not on its children)."""


def install_once_per_cause(names: tuple[str, ...] = LOGGERS) -> OncePerCause:
    """Attach one new :class:`OncePerCause` to each logger of ``names``; return it."""
    once = OncePerCause()
    for name in names:
        logging.getLogger(name).addFilter(once)
    return once


def remove_once_per_cause(once: OncePerCause, names: tuple[str, ...] = LOGGERS) -> None:
    """Detach ``once`` from the loggers ``names``."""
    for name in names:
        logging.getLogger(name).removeFilter(once)
