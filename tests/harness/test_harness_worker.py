"""``call_interruptible``: a blocking call the Harness can walk away from (Requirement 8)."""

from __future__ import annotations

import threading

import pytest

from reference_harness._worker import CallInterruptedError, call_interruptible

WAIT_S = 10.0


def _in_thread(call, interrupt, ready=None):
    outcome: list[object] = []

    def caller() -> None:
        try:
            outcome.append(call_interruptible(call, interrupt, name="t", ready=ready))
        except CallInterruptedError:
            outcome.append("interrupted")

    thread = threading.Thread(target=caller, daemon=True)
    thread.start()
    return thread, outcome


def test_a_finished_call_gives_its_result_and_its_error():
    interrupt = threading.Event()
    assert call_interruptible(lambda: 42, interrupt, name="t") == 42

    def fails() -> None:
        message = "boom"
        raise ValueError(message)

    with pytest.raises(ValueError, match="boom"):
        call_interruptible(fails, interrupt, name="t")


def test_an_interrupt_ends_the_wait_while_the_call_goes_on():
    release, interrupt, finished = threading.Event(), threading.Event(), threading.Event()

    def blocked() -> str:
        release.wait(WAIT_S)
        finished.set()
        return "late"

    thread, outcome = _in_thread(blocked, interrupt)
    interrupt.set()
    thread.join(WAIT_S)
    assert outcome == ["interrupted"]
    assert not finished.is_set()  # the call itself is still running in its worker
    release.set()
    assert finished.wait(WAIT_S)


def test_with_ready_the_caller_waits_until_ready_before_giving_up():
    release, interrupt, ready = threading.Event(), threading.Event(), threading.Event()
    thread, outcome = _in_thread(lambda: release.wait(WAIT_S), interrupt, ready)
    interrupt.set()
    thread.join(0.3)
    assert thread.is_alive()  # interrupted, but the call is not ready (e.g. not sent) yet
    assert outcome == []
    ready.set()
    thread.join(WAIT_S)
    assert outcome == ["interrupted"]
    release.set()
