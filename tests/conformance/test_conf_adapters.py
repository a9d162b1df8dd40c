"""The IUT adapters: messages validated both ways; every broken IUT is one AdapterError."""

import sys
from pathlib import Path

import pytest

from conformance import checks
from conformance.adapters import (
    AdapterError,
    InProcessAdapter,
    ObservationContractError,
    RecordingAdapter,
    StdioAdapter,
    adapter_from_options,
    message_problems,
)
from conformance.fixtures import FixtureBuilder

IUTS = Path(__file__).resolve().parent / "iuts"
LYING = IUTS / "lying_iut.py"
REFERENCE = [sys.executable, "-m", "reference_harness.stdio"]
SHORT_TIMEOUT_S = 1.0


def _fixture(fixture_id: str = "adapter-test") -> dict:
    builder = FixtureBuilder()
    builder.add_call(1, "search_logs", "call_1")
    builder.returns_lines("search_logs")
    builder.submit(builder.observing_draft(["call_1"]))
    builder.review("supports")
    return builder.build(fixture_id)


def _lying(mode: str, timeout_s: float = 30.0) -> StdioAdapter:
    return StdioAdapter([sys.executable, str(LYING), mode], timeout_s)


@pytest.fixture(scope="module")
def stdio_reference():
    """One reference process for the tests that neither break nor close it."""
    adapter = StdioAdapter(REFERENCE, timeout_s=30.0)
    yield adapter
    adapter.close()


def test_stdio_reference_round_trip():
    """A conforming stdio IUT gives its hello, one valid observation per run, and exits 0 on bye."""
    stdio_reference = StdioAdapter(REFERENCE, timeout_s=30.0)
    try:
        hello = stdio_reference.hello()
        assert hello["protocol_version"] == "2.0"
        assert "DIAGNOSIS" in stdio_reference.capabilities
        observation = stdio_reference.run(_fixture("round-trip"))
        assert observation["fixture_id"] == "round-trip"
        assert (
            message_problems(
                {"type": "observation", "request_id": "r1", "observation": observation}
            )
            == []
        )
        stdio_reference.close()
        stdio_reference.close()  # a second close does nothing
    finally:
        stdio_reference.close()


def test_in_process_reference_round_trip():
    """The in-process adapter returns the same kind of validated observation."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        observation = adapter.run(_fixture("in-process"))
        assert observation["fixture_id"] == "in-process"
        assert adapter.capabilities == frozenset(adapter.hello()["capabilities"])
    finally:
        adapter.close()


def test_recording_adapter_keeps_what_was_sent_and_what_came_back():
    """The recorder keeps a copy of each fixture as sent, with the observation it got back."""
    recorder = RecordingAdapter(InProcessAdapter("reference_harness.iut:create"))
    try:
        fixture = _fixture("recorded")
        observation = recorder.run(fixture)
        fixture["fixture_id"] = "changed-after-the-run"
        assert recorder.runs == [(_fixture("recorded"), observation)]
        assert recorder.fixtures == [_fixture("recorded")]
        assert observation["fixture_id"] == "recorded"
        assert recorder.capabilities == frozenset(recorder.hello()["capabilities"])
    finally:
        recorder.close()


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "exited (exit code 1) before sending the observation"),
        ("invalid-json", "sent invalid JSON"),
        ("error", "reported error 'BOOM'"),
        ("wrong-request", "answered request 'req-999', expected 'req-1'"),
        ("other-fixture", "observation of fixture 'someone-else'"),
        ("schema-invalid", "schema-invalid observation"),
    ],
)
def test_stdio_broken_run_is_an_adapter_error(mode, reason):
    """Each way an IUT can break a run is one AdapterError naming what went wrong."""
    adapter = _lying(mode)
    with pytest.raises(AdapterError) as caught:
        adapter.run(_fixture())
    assert reason in str(caught.value)
    if mode == "schema-invalid":  # answers its request: a conformance failure, the IUT kept
        assert isinstance(caught.value, ObservationContractError)
        return
    assert caught.value.timeout_s == 30.0


def test_stdio_crash_carries_stderr_tail():
    """A crashing IUT's stderr tail is part of the error."""
    with pytest.raises(AdapterError) as caught:
        _lying("crash").run(_fixture())
    assert "boom in the harness" in caught.value.stderr_tail
    assert "boom in the harness" in str(caught.value)


def test_stdio_hang_is_bounded_by_the_timeout():
    """An IUT that never answers is killed after the per-message timeout, naming the timeout."""
    adapter = _lying("hang", SHORT_TIMEOUT_S)
    with pytest.raises(AdapterError) as caught:
        adapter.run(_fixture())
    assert "sent no complete message within the timeout" in str(caught.value)
    assert "per-message timeout 1 s" in str(caught.value)


def test_stdio_silent_iut_fails_the_hello():
    """An IUT that never says hello is reported, not waited on forever."""
    with pytest.raises(AdapterError, match="while the hello message was due"):
        _lying("no-hello-hang", SHORT_TIMEOUT_S).hello()


def test_stdio_iut_exiting_before_hello():
    """An IUT that exits at once is reported with its exit code and stderr."""
    with pytest.raises(AdapterError) as caught:
        _lying("no-hello-exit").hello()
    assert "exit code 2" in str(caught.value)
    assert "cannot load configuration" in str(caught.value)


def test_stdio_wrong_protocol_version():
    """A hello with another protocol version is refused with both versions named."""
    with pytest.raises(AdapterError, match=r"protocol version '1\.0'; this kit speaks '2\.0'"):
        _lying("wrong-version").hello()


def test_stdio_command_with_an_unbalanced_quote_is_an_adapter_error():
    """A command ``shlex`` cannot split is refused at once, naming the command and why."""
    with pytest.raises(AdapterError, match=r"cannot be split like a shell line: No closing"):
        StdioAdapter("java -cp 'build Main")


def test_stdio_bad_exit_after_bye():
    """An IUT that does not exit 0 after bye is a warning; closing never raises."""
    adapter = _lying("bad-exit")
    adapter.hello()
    adapter.close()
    assert adapter.warnings == ["IUT exited with code 3 after bye, expected 0"]
    assert adapter.violations == []


def test_stdio_restarts_after_a_failure():
    """After a failed run the next run starts a fresh IUT (the suite goes on)."""
    adapter = _lying("other-fixture")
    for _ in range(2):
        with pytest.raises(AdapterError, match="someone-else"):
            adapter.run(_fixture())


def test_stdio_unstartable_command():
    """A command that cannot start is an AdapterError naming it."""
    with pytest.raises(AdapterError, match="cannot start the IUT"):
        StdioAdapter([str(IUTS / "does-not-exist")]).hello()


@pytest.mark.parametrize("first", ["hello", "run", "close"])
def test_stdio_started_ahead_reads_the_hello_at_first_use(first):
    """``start()`` starts the IUT without reading its hello; the first call reads it, as the
    hello (never blamed as output nobody asked for), and nothing is left over or warned."""
    adapter = StdioAdapter(REFERENCE, timeout_s=30.0)
    try:
        adapter.start()
        adapter.start()  # a second start does nothing while the process runs
        if first == "hello":
            assert adapter.hello()["protocol_version"] == "2.0"
        elif first == "run":
            assert adapter.run(_fixture("started-ahead"))["fixture_id"] == "started-ahead"
            assert adapter.hello()["protocol_version"] == "2.0"
    finally:
        adapter.close()
    assert (adapter.violations, adapter.warnings) == ([], [])


def test_stdio_start_of_an_unstartable_command():
    """``start()`` of a command that cannot start is the same AdapterError as at first use."""
    with pytest.raises(AdapterError, match="cannot start the IUT"):
        StdioAdapter([str(IUTS / "does-not-exist")]).start()


def test_stdio_started_ahead_silent_iut_fails_the_hello():
    """An IUT started ahead that never says hello fails the first call within its timeout."""
    adapter = _lying("no-hello-hang", timeout_s=SHORT_TIMEOUT_S)
    adapter.start()
    with pytest.raises(AdapterError, match="while the hello message was due"):
        adapter.hello()


def test_invalid_fixture_is_refused_before_sending(stdio_reference):
    """The kit validates its own run message: a broken fixture never reaches the IUT."""
    fixture = _fixture()
    del fixture["router"]
    with pytest.raises(AdapterError, match="is not a valid run message"):
        stdio_reference.run(fixture)


@pytest.mark.parametrize(
    ("factory", "reason"),
    [
        ("broken_factories:raises", "IUT run() raised RuntimeError: harness exploded"),
        ("broken_factories:not_json", "not JSON"),
        ("broken_factories:other_fixture", "observation of fixture 'someone-else'"),
        ("broken_factories:bad_hello", "schema-invalid hello"),
        ("broken_factories:factory_fails", "raised OSError: no database"),
        ("broken_factories:missing", "has no callable 'missing'"),
        ("no_such_module_xyz:create", "cannot import IUT module"),
        ("no-colon", "must be 'module:factory'"),
    ],
)
def test_in_process_broken_iut_is_an_adapter_error(monkeypatch, factory, reason):
    """Each way a Python IUT can break is one AdapterError naming what went wrong."""
    monkeypatch.syspath_prepend(str(IUTS))
    adapter = InProcessAdapter(factory)
    with pytest.raises(AdapterError) as caught:
        adapter.run(_fixture())
    assert reason in str(caught.value)


def test_adapter_from_options_needs_exactly_one():
    """Exactly one of a module or a command names the IUT."""
    with pytest.raises(AdapterError, match="exactly one"):
        adapter_from_options()
    with pytest.raises(AdapterError, match="exactly one"):
        adapter_from_options("a:b", "cmd")
    assert isinstance(adapter_from_options("a:b"), InProcessAdapter)
    assert isinstance(adapter_from_options(None, "python -m x"), StdioAdapter)


def test_both_adapters_observe_the_same_normalized_trace(stdio_reference):
    """In-process and stdio runs of one fixture differ only in volatile parts (ids, times)."""
    fixture = _fixture("same-trace")
    in_process = InProcessAdapter("reference_harness.iut:create")
    try:
        first = in_process.run(fixture)
    finally:
        in_process.close()
    second = stdio_reference.run(fixture)
    checks.check_same_normalized_trace(first, second).require()
    assert checks.normalize_trace(first)[0]["run_id"] == "<run:1>"
