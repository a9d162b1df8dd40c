"""The stdio adapter against round 3's hostile IUTs (D7, D8, D9).

D7: junk or a second ``hello`` before the first request, and an answer repeated while the next
one is due, are protocol failures named on the request (and scenario) that caused them. D8: a
daemon double-forked with ``/dev/null`` streams does not outlive the IUT's end. D9: the IUT's
processes end when the kit dies by SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conformance.adapters import AdapterError, StdioAdapter
from tests.hostile.test_hostile_adapter import START_S, _adapter, _fixture

WAIT_S = 60.0


@pytest.mark.parametrize("mode", ["junk-after-hello", "second-hello"])
def test_output_between_hello_and_the_first_request_fails_that_request(hostile, mode):
    """D7: never dropped silently: a violation of req-1, or req-1's own failure."""
    iut, adapter = _adapter(hostile, mode, START_S)
    adapter.hello()
    time.sleep(0.2)  # the junk follows the hello at once; it is read before the request
    with pytest.raises(AdapterError) as caught:
        adapter.run(_fixture("one"))
    assert caught.value.request_id == "req-1"
    adapter.close()
    blamed = [v for v in adapter.violations if v.request_id == "req-1"]
    assert blamed
    assert blamed[0].fixture_id == "one"
    assert "after its hello, before req-1" in blamed[0].reason
    assert iut.leftovers() == []


def test_an_answer_repeated_while_the_next_is_due_is_blamed_on_its_own_request(hostile):
    """D7: the second answer of req-1, read while req-2's is due, is req-1's violation."""
    iut, adapter = _adapter(hostile, "double-answer-late", START_S)
    first = adapter.run(_fixture("one"))
    second = adapter.run(_fixture("two"))
    adapter.close()
    assert (first["fixture_id"], second["fixture_id"]) == ("one", "two")
    (violation,) = adapter.violations
    assert (violation.request_id, violation.fixture_id) == ("req-1", "one")
    assert "answered req-1 a second time" in violation.reason
    assert iut.leftovers() == []


def test_a_double_forked_daemon_does_not_outlive_the_iut(hostile):
    """D8: a daemon (new session, /dev/null streams) is found by its inherited mark and ended."""
    iut, adapter = _adapter(hostile, "daemon-on-bye", START_S)
    adapter.run(_fixture("one"))
    adapter.close()
    assert len(iut.pids()) == 2  # the IUT and its daemon
    assert iut.leftovers() == []


_KIT = """
import sys
from conformance.adapters import StdioAdapter
from tests.hostile.test_hostile_adapter import _fixture
adapter = StdioAdapter(sys.argv[1:], 600)
adapter.hello()
print("ready", flush=True)
adapter.run(_fixture("one"))
"""


def test_the_iut_ends_when_the_kit_is_killed(hostile):
    """D9: kill -9 of the kit while the IUT hangs: the watchdog ends the IUT's processes."""
    iut = hostile("grandchildren-hang")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # noqa: PTH100, PTH120
    kit = subprocess.Popen(  # noqa: S603 - this interpreter, a script of this test
        [sys.executable, "-c", _KIT, *iut.argv],
        stdout=subprocess.PIPE,
        cwd=root,
        env={**iut.env, "PYTHONPATH": root},
        text=True,
    )
    try:
        assert kit.stdout is not None
        assert kit.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + WAIT_S
        while len(iut.pids()) < 7 and time.monotonic() < deadline:  # IUT, 3 children, 3 sleeps
            time.sleep(0.05)
        assert len(iut.pids()) == 7
        kit.send_signal(signal.SIGKILL)
        kit.wait(WAIT_S)
        assert iut.leftovers() == []
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
        if kit.stdout is not None:
            kit.stdout.close()


def test_stdio_adapter_still_runs_an_honest_iut(hostile):
    """The marks and the watchdog change nothing for a conforming IUT."""
    iut, adapter = _adapter(hostile, "answer", START_S)
    assert adapter.run(_fixture("one"))["fixture_id"] == "one"
    adapter.close()
    assert adapter.violations == []
    assert adapter.warnings == []
    assert isinstance(adapter, StdioAdapter)
    assert iut.leftovers() == []


_KIT_EXITS = """
import sys
from conformance.adapters import _process
child = _process.ChildProcess(["cat"])
print(child.pid, _process._watchdog._popen.pid, flush=True)
if sys.argv[1] == "killed":
    child.kill()
"""


@pytest.mark.parametrize("child", ["killed", "left-running"])
def test_the_kit_ends_and_reaps_its_child_and_watchdog_when_it_exits(child):
    """The IUT (killed, or left running by the kit's code) and the watchdog end with the kit.

    Before, the watchdog's ``Popen`` stayed running until interpreter exit: "subprocess N is
    still running" and "unclosed file" ResourceWarnings at the end of ``make test`` workers, and
    a child left running was only signalled at exit, its pipes never closed.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # noqa: PTH100, PTH120
    kit = subprocess.run(  # noqa: S603 - this interpreter, a script of this test
        [sys.executable, "-W", "error::ResourceWarning", "-c", _KIT_EXITS, child],
        capture_output=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": root},
        text=True,
        timeout=WAIT_S,
        check=False,
    )
    assert (kit.returncode, kit.stderr) == (0, "")
    for pid in kit.stdout.split():
        assert not os.path.exists(f"/proc/{pid}")  # noqa: PTH110 - reaped before the kit ended
