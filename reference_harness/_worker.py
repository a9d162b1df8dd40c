"""Run one blocking model-port call in its own daemon thread, awaitable from the event loop.

A synchronous HTTP model call cannot be interrupted from outside (Requirement 8: "HTTP timeout for
already-blocking synchronous model calls"). Each call gets a fresh daemon thread, so a port that
never returns can neither stall the event loop nor keep the process alive; the Harness bounds its
wait with the model-call timeout and abandons the thread after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["start_blocking"]

T = TypeVar("T")


def _settle(future: asyncio.Future[T], result: T | None, error: BaseException | None) -> None:
    if future.done():  # the waiter went away (cancelled): nothing to deliver
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)  # type: ignore[arg-type]  # result is a T when error is None


def start_blocking(call: Callable[[], T], *, name: str) -> asyncio.Future[T]:
    """Start ``call()`` in a new daemon thread; return a future of its result or exception.

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
    threading.Thread(target=target, name=name, daemon=True).start()
    return future


def _retrieve(future: asyncio.Future[T]) -> None:
    if not future.cancelled():
        future.exception()
