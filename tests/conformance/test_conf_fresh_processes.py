"""The fresh-process step's two IUT processes, started ahead of need for a session that runs it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.adapters import StdioAdapter
from conformance.adapters._process import live_children
from conformance.bdd import _then_runtime as runtime
from conformance.checks import check_same_normalized_observation
from conformance.suite import _collector, run_suite

FRESH = "four-parallel-calls-give-the-same-observation-in-every-fresh-process"
SCRIPTED = [sys.executable, "-m", "reference_harness.stdio", "--scripted"]
FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def _fixture() -> dict[str, object]:
    return json.loads((FIXTURES / f"{FRESH}.json").read_text(encoding="utf-8"))


def test_processes_started_ahead_are_the_steps_two_fresh_processes(monkeypatch):
    """The step runs its fixture in the two processes started ahead (none is started then), each
    runs it as a process that ran nothing before, and both are closed afterwards."""
    adapter = StdioAdapter(SCRIPTED, timeout_s=30.0)
    runtime.start_fresh_processes(adapter)
    [started] = [s for s in runtime._STARTED if s.for_adapter is adapter]
    children = [process._child for process in started.ready()]
    assert None not in children  # each said hello

    def started_again(_adapter: StdioAdapter) -> list[StdioAdapter]:
        pytest.fail("the step started two more processes")

    monkeypatch.setattr(runtime, "_fresh_adapters", started_again)
    per_fixture = runtime.run_in_fresh_processes(adapter, _fixture())
    assert per_fixture is not None
    [pair] = per_fixture
    assert [o["fixture_id"] for o in pair] == [FRESH, FRESH]
    check_same_normalized_observation(*pair).require()
    assert not set(children) & set(live_children())  # both closed


def test_processes_started_ahead_and_never_taken_are_closed(monkeypatch):
    """Started once per session adapter (a second request is a no-op); closed unused at the end."""
    made = []
    real = runtime._fresh_adapters

    def counting(adapter: StdioAdapter) -> list[StdioAdapter]:
        made.append(adapter)
        return real(adapter)

    monkeypatch.setattr(runtime, "_fresh_adapters", counting)
    adapter = StdioAdapter(SCRIPTED, timeout_s=30.0)
    runtime.start_fresh_processes(adapter)
    runtime.start_fresh_processes(adapter)
    [started] = [s for s in runtime._STARTED if s.for_adapter is adapter]
    children = [process._child for process in started.ready()]
    runtime.close_started_processes()
    assert made == [adapter]
    assert None not in children
    assert not set(children) & set(live_children())
    assert runtime._STARTED == []


def test_an_in_process_iut_has_no_processes_started_ahead(monkeypatch):
    """Only a stdio IUT has processes to start."""
    monkeypatch.setattr(runtime, "_fresh_adapters", lambda _a: pytest.fail("started processes"))
    runtime.start_fresh_processes(object())
    assert runtime.run_in_fresh_processes(object(), _fixture()) is None


@pytest.mark.parametrize(
    ("scenario", "started"), [(FRESH, 1), ("duplicate-tool-call-id-is-proposed", 0)]
)
def test_a_session_starts_the_fresh_processes_only_when_it_runs_the_step(
    monkeypatch, scenario, started
):
    """``run_suite`` starts them at collection iff a selected scenario has the step."""
    calls = []
    monkeypatch.setattr(_collector, "start_fresh_processes", calls.append)
    adapter = StdioAdapter(SCRIPTED, timeout_s=30.0)
    try:
        result = run_suite(adapter, scenario_ids=[scenario], property_examples=0)
    finally:
        adapter.close()
    assert [s.outcome for s in result.scenarios] == ["passed"]
    assert calls == [adapter] * started
