"""The hostile-IUT corpus at the adapter: every behaviour ends, blamed, with nothing left running.

Each case starts ``hostile_iut.py MODE`` through :class:`StdioAdapter` with a short per-message
timeout, drives it to the phase where it misbehaves, and checks three things: the adapter's
answer (an ``AdapterError`` naming what happened, a warning or a protocol violation), that it
came before the hostile process would have given up by itself (its children sleep 30 s, its
waits are forever), and that no process of the IUT is left — its process group and every pid
it reported.
"""

from __future__ import annotations

import functools
import time
import tracemalloc

import pytest

from conformance.adapters import AdapterError, InProcessAdapter, StdioAdapter
from conformance.fixtures import FixtureBuilder

TIMEOUT_S = 0.5
MAX_BYTES = 1024 * 1024
ENDS_BEFORE_S = 20.0
"""A run must end well before the 30 s its hostile children sleep (a hang detector, not a
performance bound: the corpus's real times are in docs/decisions/hostile.md)."""


def _fixture(fixture_id: str = "hostile") -> dict:
    builder = FixtureBuilder()
    builder.add_call(1, "search_logs", "call_1")
    builder.returns_lines("search_logs")
    builder.submit(builder.observing_draft(["call_1"]))
    builder.review("supports")
    return builder.build(fixture_id)


START_S = 30.0
"""Timeout while a hostile IUT that is not testing the timeout starts (a loaded machine)."""
WAITING = {"never-hello", "blank-before-hello"}
"""Hello-phase modes whose misbehaviour is silence: the short timeout is their subject."""
RUN_WAITING = {"blank-lines", "hang", "no-read-hang", "partial-line-hang", "flood-blank-lines",
               "grandchildren-hang", "many-children", "ignore-signals"}  # fmt: skip
"""Run-phase modes whose misbehaviour is silence (or noise that is no message)."""


FIXTURE_IDS = ("hostile", "flooded", "kept", "twice", "last", "one", "two")


@functools.cache
def _recorded() -> dict[str, dict]:
    """The reference Harness's observation of each fixture the corpus runs, recorded once."""
    reference = InProcessAdapter("reference_harness.iut:create")
    try:
        return {fid: reference.run(_fixture(fid)) for fid in FIXTURE_IDS}
    finally:
        reference.close()


def _adapter(hostile, mode: str, timeout_s: float = TIMEOUT_S):
    iut = hostile(mode)
    iut.replay(_recorded())
    return iut, StdioAdapter(iut.argv, timeout_s, env=iut.env, max_message_bytes=MAX_BYTES)


HELLO_FAILURES = [
    ("never-hello", "no complete message within the timeout while the hello message was due"),
    ("exit-at-once", "IUT exited (exit code 3) before sending the hello message"),
    ("garbage-hello", "sent invalid JSON instead of the hello message"),
    ("wrong-version", "protocol version '1.0'; this kit speaks '2.0'"),
    ("hello-array", "must start with a hello message, got 'list'"),
    ("hello-schema-invalid", "schema-invalid hello"),
    ("blank-before-hello", "no complete message within the timeout while the hello"),
    ("deep-hello", "nested deeper than 64"),
    ("bad-utf8-hello", "sent invalid JSON instead of the hello message"),
    ("surrogate-hello", "unpaired UTF-16 surrogate"),
    ("huge-hello", "message too large while the hello message was due"),
]


@pytest.mark.parametrize(("mode", "reason"), HELLO_FAILURES, ids=[m for m, _ in HELLO_FAILURES])
def test_hostile_hello_is_one_adapter_error_and_nothing_left(hostile, mode, reason):
    """An IUT that never gives a usable hello is one AdapterError; its group is gone."""
    iut, adapter = _adapter(hostile, mode, TIMEOUT_S if mode in WAITING else START_S)
    started = time.monotonic()
    with pytest.raises(AdapterError) as caught:
        adapter.hello()
    adapter.close()
    assert time.monotonic() - started < ENDS_BEFORE_S
    assert reason in str(caught.value)
    assert iut.leftovers() == []


RUN_FAILURES = [
    ("blank-lines", "no complete message within the timeout while the observation of req-1"),
    ("child-holds-stdout", "IUT exited (exit code 4) before sending the observation of req-1"),
    ("hang", "no complete message within the timeout"),
    ("no-read-hang", "no complete message within the timeout"),
    ("crash-mid-line", "sent invalid JSON instead of the observation of req-1"),
    ("partial-line-hang", "no complete message within the timeout"),
    ("deep-answer", "nested deeper than 64"),
    ("deep-but-parsable", "nested deeper than 64"),
    ("huge-line", "message too large while the observation of req-1 was due"),
    ("wrong-request-id", "answered request 'req-999', expected 'req-1'"),
    ("old-request-id", "answered request 'req-0', expected 'req-1'"),
    ("other-fixture", "observation of fixture 'someone-else'"),
    ("error-reply", "reported error 'E'"),
    ("schema-invalid", "schema-invalid observation"),
    ("bad-utf8-answer", "sent invalid JSON"),
    ("nan-answer", "NaN is not a JSON value"),
    ("stderr-escapes", "IUT exited (exit code 1)"),
    ("flood-blank-lines", "no complete message within the timeout"),
    ("stdout-log-lines", "sent invalid JSON instead of the observation of req-1"),
    ("unsolicited-json", "sent a 'log' message, expected an observation"),
    ("close-stdout-hang", "closed its stdout before sending the observation of req-1"),
    ("setsid-escapee", "IUT exited (exit code 5)"),
    ("grandchildren-hang", "no complete message within the timeout"),
    ("many-children", "no complete message within the timeout"),
    ("ignore-signals", "no complete message within the timeout"),
]


@pytest.mark.parametrize(("mode", "reason"), RUN_FAILURES, ids=[m for m, _ in RUN_FAILURES])
def test_hostile_run_is_an_adapter_error_blamed_on_the_request(hostile, mode, reason):
    """Each way a run can go wrong is one AdapterError on that request; nothing is left."""
    iut, adapter = _adapter(hostile, mode, START_S)
    adapter.hello()
    adapter.timeout_s = TIMEOUT_S if mode in RUN_WAITING else START_S
    started = time.monotonic()
    with pytest.raises(AdapterError) as caught:
        adapter.run(_fixture())
    adapter.close()
    assert time.monotonic() - started < ENDS_BEFORE_S
    assert reason in str(caught.value)
    assert caught.value.request_id == "req-1"
    assert iut.leftovers() == []


def test_a_100_mb_line_costs_about_the_message_limit_in_memory(hostile):
    """H7: the kit's traced allocations while a 100 MB line arrives stay near the 1 MiB limit."""
    iut, adapter = _adapter(hostile, "huge-line", START_S)
    adapter.hello()
    tracemalloc.start()
    try:
        with pytest.raises(AdapterError, match="message too large"):
            adapter.run(_fixture())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    adapter.close()
    print(f"H7 traced peak while refusing a 100 MB line: {peak / 2**20:.1f} MiB")  # noqa: T201
    assert peak < 4 * MAX_BYTES
    assert iut.leftovers() == []


def test_a_parse_failure_gets_a_fresh_process_for_the_next_run(hostile):
    """After an unparsable answer the next run starts a new process (H5)."""
    iut, adapter = _adapter(hostile, "deep-answer", START_S)
    for _ in range(2):
        with pytest.raises(AdapterError, match="nested deeper"):
            adapter.run(_fixture())
    adapter.close()
    assert len(iut.pids()) == 2
    assert iut.leftovers() == []


def test_stderr_flood_keeps_a_bounded_tail_and_the_run_passes(hostile):
    """25 MiB on stderr neither blocks the IUT nor fails a correct answer."""
    iut, adapter = _adapter(hostile, "flood-stderr", START_S)
    observation = adapter.run(_fixture("flooded"))
    child = adapter._child
    assert child is not None
    assert 0 < len(child.stderr_tail()) <= 4000
    adapter.close()
    assert observation["fixture_id"] == "flooded"
    assert adapter.warnings == []
    assert iut.leftovers() == []


@pytest.mark.parametrize(
    ("mode", "warning"),
    [
        ("child-after-bye", None),
        ("ignore-bye", None),
        ("ignore-bye-and-eof", "did not exit within 0.5 s after bye"),
        ("bad-exit-after-bye", "IUT exited with code 7 after bye, expected 0"),
    ],
)
def test_how_an_iut_ends_never_loses_results(hostile, mode, warning):
    """After a good answer, ignoring bye or exiting badly is a warning at most (H3, H6)."""
    iut, adapter = _adapter(hostile, mode, START_S)
    observation = adapter.run(_fixture("kept"))
    if mode == "ignore-bye-and-eof":
        adapter.timeout_s = TIMEOUT_S  # the bye grace is min(timeout, 5 s): its subject here
    adapter.close()
    assert observation["fixture_id"] == "kept"
    if warning is None:
        assert adapter.warnings == []
    else:
        (only,) = adapter.warnings
        assert warning in only
    assert adapter.violations == []
    assert iut.leftovers() == []


def test_two_observations_for_one_run_are_a_violation_of_that_request(hostile):
    """A second observation is blamed on the request it answered twice (H8)."""
    iut, adapter = _adapter(hostile, "two-observations", START_S)
    adapter.run(_fixture("twice"))
    adapter.close()
    (violation,) = adapter.violations
    assert violation.request_id == "req-1"
    assert violation.fixture_id == "twice"
    assert "1 unsolicited message(s) after answering req-1" in violation.reason
    assert iut.leftovers() == []


def test_output_after_bye_is_a_violation_of_the_last_request(hostile):
    """A message after ``bye`` is blamed on the last request answered."""
    iut, adapter = _adapter(hostile, "output-after-bye", START_S)
    adapter.run(_fixture("last"))
    adapter.close()
    (violation,) = adapter.violations
    assert (violation.request_id, violation.fixture_id) == ("req-1", "last")
    assert iut.leftovers() == []


def test_an_iut_that_exits_after_each_answer_is_restarted_with_a_warning(hostile):
    """Leaving before ``bye`` is a warning; the next request runs on a fresh process."""
    iut, adapter = _adapter(hostile, "exit-after-answer", START_S)
    first = adapter.run(_fixture("one"))
    child = adapter._child
    assert child is not None
    assert child.wait(ENDS_BEFORE_S) == 0
    second = adapter.run(_fixture("two"))
    adapter.close()
    assert (first["fixture_id"], second["fixture_id"]) == ("one", "two")
    assert len(iut.pids()) == 2
    assert any("after answering req-1, before bye" in w for w in adapter.warnings)
    assert adapter.violations == []
    assert iut.leftovers() == []
