"""Run one blocking model-port call in a daemon thread, awaitable from the event loop.

A synchronous HTTP model call cannot be interrupted from outside (Requirement 8: "HTTP timeout for
already-blocking synchronous model calls"). Each call runs on an idle daemon worker thread, or on a
new one when none is idle, so a port that never returns can neither stall the event loop nor keep
the process alive; the Harness bounds its wait with the model-call timeout and abandons the thread
after it (a worker whose call never returns is simply never idle again). A worker idle for
:data:`IDLE_EXIT_S` ends. Reusing workers keeps a thread start (and its handshake) off every model
call.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import threading
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["IDLE_EXIT_S", "CallInterruptedError", "call_interruptible", "start_blocking"]

T = TypeVar("T")

IDLE_EXIT_S: Final = 30.0
"""Seconds an idle worker thread waits for another call before it ends."""

INTERRUPT_POLL_S: Final = 0.01
"""How often :func:`call_interruptible` looks at its interrupt event while the call runs."""

_Job = tuple[str, "Callable[[], None]"]


class _Worker:
    """One daemon thread running jobs handed to it, one at a time."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._loop, name="srdh-model-call", daemon=True).start()

    def _loop(self) -> None:
        while True:
            try:
                name, job = self.jobs.get(timeout=IDLE_EXIT_S)
            except queue.Empty:
                with _LOCK:
                    if self in _IDLE:  # nobody claimed it meanwhile: end
                        _IDLE.remove(self)
                        return
                continue  # claimed just now: its job is on the way
            threading.current_thread().name = name
            job()
            del job
            with _LOCK:
                _IDLE.append(self)


_LOCK = threading.Lock()
_IDLE: list[_Worker] = []


def _forget_workers() -> None:  # pragma: no cover - runs in a forked child only
    _IDLE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_workers)  # a child has none of these threads


def _submit(name: str, job: Callable[[], None]) -> None:
    with _LOCK:
        worker = _IDLE.pop() if _IDLE else None
    if worker is None:
        worker = _Worker()
    worker.jobs.put((name, job))


def _settle(future: asyncio.Future[T], result: T | None, error: BaseException | None) -> None:
    if future.done():  # the waiter went away (cancelled): nothing to deliver
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)  # type: ignore[arg-type]  # result is a T when error is None


def start_blocking(call: Callable[[], T], *, name: str) -> asyncio.Future[T]:
    """Start ``call()`` in a daemon worker thread; return a future of its result or exception.

    Must be called from a running event loop. If the loop has closed by the time the call ends,
    the outcome is dropped (the Run that wanted it is over).
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def target() -> None:
        result: T | None = None
        error: BaseException | None = None
        try:
            result = call()
        except BaseException as caught:  # noqa: BLE001 - every outcome is handed to the loop
            error = caught
        with contextlib.suppress(RuntimeError):  # loop closed: the Run is over
            loop.call_soon_threadsafe(_settle, future, result, error)

    # An abandoned call (timed out, or discarded after cancellation) may still fail later: mark its
    # exception retrieved so that nothing is logged about it.
    future.add_done_callback(_retrieve)
    _submit(name, target)
    return future


def _retrieve(future: asyncio.Future[T]) -> None:
    if not future.cancelled():
        future.exception()


class CallInterruptedError(Exception):
    """:func:`call_interruptible` gave up on its call: the interrupt event was set first."""


def call_interruptible(
    call: Callable[[], T],
    interrupt: threading.Event,
    *,
    name: str,
    ready: threading.Event | None = None,
) -> T:
    """Run ``call()`` on a worker thread; return its result, or give up once ``interrupt`` is set.

    For a blocking call that cannot be stopped from outside (a synchronous HTTP request): the
    caller returns as soon as the Harness interrupts it (Run cancelled, or its own timeout)
    instead of when the call's own timeout passes; the call goes on in its worker thread, which
    is reused once the call ends (by its timeout, or when its server closes the connection).
    With ``ready``, the caller gives up only once ``ready`` is set too (e.g. the request has
    been sent: an attempt the Harness started always reaches its server). ``interrupt`` is looked
    at every :data:`INTERRUPT_POLL_S` seconds; a call that finishes is returned at once.

    Raises:
        CallInterruptedError: ``interrupt`` was set before the call finished.
        BaseException: whatever ``call()`` raised.
    """
    done = threading.Event()
    outcome: list[tuple[T | None, BaseException | None]] = []

    def job() -> None:
        try:
            outcome.append((call(), None))
        except BaseException as caught:  # noqa: BLE001 - handed to the caller
            outcome.append((None, caught))
        done.set()

    _submit(name, job)
    while not done.wait(INTERRUPT_POLL_S):
        if interrupt.is_set() and (ready is None or ready.is_set()):
            raise CallInterruptedError
    result, error = outcome[0]
    if error is not None:
        raise error
    return result  # type: ignore[return-value]  # result is a T when error is None
