"""Then steps of the runtime rules, and the When step that runs a fixture in fresh processes.

Registered by the plugin next to :mod:`conformance.bdd._then`. Each Then step requires shared
checks of :mod:`conformance.checks` (the same the global invariants run).
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

import pytest
from pytest_bdd import then, when

from conformance import checks
from conformance.adapters import StdioAdapter
from conformance.bdd._context import ScenarioContext, scenario_identity, scenario_name
from conformance.builders import cross_process_fixtures
from conformance.checks import CheckResult, Findings
from conformance.checks._view import current_run, events, invocation, model_attempts

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

__all__ = [
    "FRESH_PROCESSES_STEP",
    "RUNTIME_THEN_CHECKS",
    "close_started_processes",
    "run_in_fresh_processes",
    "start_fresh_processes",
]

FRESH_PROCESSES_STEP: Final = "the Run is executed in two fresh IUT processes"
"""The When step that runs its fixture in two fresh stdio IUT processes."""


def _both(*results: CheckResult) -> CheckResult:
    failed = [r for r in results if not r.passed]
    if failed:
        rules = tuple(dict.fromkeys(rule for r in failed for rule in r.rules))
        return CheckResult(passed=False, message="\n".join(r.message for r in failed), rules=rules)
    return CheckResult(passed=True, message="; ".join(r.message for r in results))


def _released_then_left(c: ScenarioContext) -> CheckResult:
    """The release happened before the client left: it stands, and no result frame followed."""
    found = Findings(
        "a Run released before the client left stays released", "R7.durable-run-outcome"
    )
    row = current_run(c.observation) or {}
    found.expect(
        events(c.observation, "RESULT_RELEASED") and row.get("state") == "SUCCESS",
        f"the client left on the RESULT_RELEASED frame, after the release; the Run is "
        f"{row.get('state')}, expected SUCCESS with its published result",
    )
    found.expect(
        row.get("published_result") is not None
        and row.get("published_result") == c.observation.get("published_result"),
        "the released result is not the Run row's published result",
    )
    results = [f for f in c.observation.get("client_frames", []) if f.get("event") == "result"]
    found.expect(
        not results,
        "the client left on the RESULT_RELEASED frame but received a result frame after it",
        rule="R8.nothing-after-disconnect",
    )
    return found.result()


def _cancelled(c: ScenarioContext) -> CheckResult:
    found = Findings("the disconnect is noticed", "R8.disconnect-noticed")
    found.expect(
        events(c.observation, "CANCEL_REQUESTED"),
        "the client disconnected before the release, but no CANCEL_REQUESTED was recorded",
    )
    return _both(
        found.result(),
        checks.check_disconnect(c.observation, c.ran_fixture),
        checks.check_cancelled_nothing_released(c.observation),
    )


def _tool_cancelled(c: ScenarioContext) -> CheckResult:
    found = Findings("tool work in flight is cancelled", "R8.tool-work-cancelled")
    named = [e["data"].get("tool_call_id") for e in events(c.observation, "TOOL_WORK_CANCELLED")]
    found.expect("call_1" in named, f"no TOOL_WORK_CANCELLED for 'call_1' (got {named})")
    records = invocation(c.observation, "call_1")
    states = [(r.get("status"), r.get("evidence_status")) for r in records]
    found.expect(states == [("ERROR", "ERROR")], f"invocation 'call_1' is {states}, not ERROR")
    return _both(found.result(), _cancelled(c))


def _tool_timed_out(c: ScenarioContext) -> CheckResult:
    found = Findings("a blocked tool ends by its own timeout", "R8.tool-stop-recorded")
    records = invocation(c.observation, "call_1")
    ends = [
        (r.get("status"), r.get("evidence_status"), (r.get("error") or {}).get("code"))
        for r in records
    ]
    found.expect(
        ends == [("ERROR", "ERROR", "TOOL_TIMEOUT")],
        f"invocation 'call_1' ended {ends}, expected ERROR/ERROR with code TOOL_TIMEOUT",
    )
    classified = [
        e["data"].get("tool_call_id") for e in events(c.observation, "EVIDENCE_CLASSIFIED")
    ]
    found.expect(
        "call_1" not in classified,
        "the late answer of 'call_1' was classified (EVIDENCE_CLASSIFIED)",
        rule="R8.late-tool-result-discarded",
    )
    return _both(found.result(), checks.check_late_results(c.observation, c.ran_fixture))


def _timed_out(c: ScenarioContext, component: str, error_code: str) -> CheckResult:
    found = Findings(f"a blocked {component} call ends by its timeout", "R8.model-call-timeout")
    outcomes = [a.get("outcome") for a in model_attempts(c.observation, component)]
    found.expect(
        outcomes[-1:] == ["TIMEOUT"],
        f"{component} attempts ended {outcomes}; the blocked call must end TIMEOUT",
    )
    return _both(
        found.result(),
        checks.check_model_calls(c.observation, c.ran_fixture, c.capabilities),
        checks.check_failed_run(c.observation, error_code),
    )


RUNTIME_THEN_CHECKS: dict[str, Callable[[ScenarioContext], CheckResult]] = {
    "the Run ends as the scripted answers and the declared retry policy decide": lambda c: (
        checks.check_model_calls(c.observation, c.ran_fixture, c.capabilities)
    ),
    "the previous turn is the latest same-session DIAGNOSIS + SUCCESS Run by seq, and every newer "
    "same-session Run is skipped with its reason": lambda c: checks.check_previous_turn_rule(
        c.observation, c.ran_fixture
    ),
    "the disconnect cancels the Run layer by layer and nothing is released": _cancelled,
    "the Run stays released and the client receives no result frame after it left": (
        _released_then_left
    ),
    "the tool work in flight is cancelled and recorded, and its invocation never becomes "
    "READY": _tool_cancelled,
    "the Harness ends the blocked call by its own timeout, the Run fails with AGENT_UNAVAILABLE "
    "and the late draft is discarded": lambda c: _timed_out(
        c, "DIAGNOSIS_AGENT", "AGENT_UNAVAILABLE"
    ),
    "the timed-out tool ends ERROR with code TOOL_TIMEOUT and its late answer is never "
    "classified or sent to a model": _tool_timed_out,
    "the Harness ends the blocked Router call by its own timeout and the Run fails with "
    "ROUTER_UNAVAILABLE": lambda c: _timed_out(c, "ROUTER", "ROUTER_UNAVAILABLE"),
    "both processes give the same normalized observation": lambda c: _both(
        checks.check_same_normalized_observation(
            c.observations[0], c.observations[-1], where=c.where or "one process, twice"
        ),
        *(
            checks.check_same_normalized_observation(
                pair[0], pair[-1], where=f"{c.where} (fixture {fixture_id})"
            )
            for fixture_id, pair in c.companions
        ),
    ),
}
"""Then sentence -> the check it runs (extension scenarios of the runtime rules)."""


def _make_step(check: Callable[[ScenarioContext], CheckResult]) -> Callable[..., None]:
    def step(srdh_context: ScenarioContext) -> None:
        check(srdh_context).require()

    return step


for _sentence, _check in RUNTIME_THEN_CHECKS.items():
    then(_sentence)(_make_step(_check))


def _fresh_adapters(adapter: StdioAdapter) -> list[StdioAdapter]:
    """Two adapters on ``adapter``'s command, one per :data:`~conformance.checks.HASH_SEEDS`."""
    return [
        StdioAdapter(
            list(adapter.argv),
            adapter.timeout_s,
            env={**(adapter.env or os.environ), "PYTHONHASHSEED": seed},
            max_message_bytes=adapter.max_message_bytes,
        )
        for seed in checks.HASH_SEEDS
    ]


class _Started:
    """Fresh processes started ahead of need for one session adapter (``for_adapter``)."""

    def __init__(self, for_adapter: StdioAdapter) -> None:
        self.for_adapter = for_adapter
        self.processes = _fresh_adapters(for_adapter)
        self.threads = [
            threading.Thread(target=_hello, args=(p,), name="srdh-fresh-iut-start", daemon=True)
            for p in self.processes
        ]
        for thread in self.threads:
            thread.start()

    def ready(self) -> list[StdioAdapter]:
        """The processes, once their start (``hello``, whatever it gave) is over."""
        for thread in self.threads:
            thread.join()
        return self.processes


def _hello(process: StdioAdapter) -> None:
    """Start ``process`` and read its ``hello``; a failure is met again by its first Run.

    A start that failed leaves the adapter without a process (it killed what it started), so
    its first ``run`` starts one anew and raises what that start gives, as it did when nothing
    was started ahead.
    """
    with contextlib.suppress(Exception):
        process.hello()


_STARTED: list[_Started] = []
_STARTED_LOCK = threading.Lock()


def start_fresh_processes(adapter: Any) -> None:  # noqa: ANN401 - any adapter
    """Start the two fresh processes of :func:`run_in_fresh_processes` now, in the background.

    For a session whose selected scenarios include :data:`FRESH_PROCESSES_STEP`: the processes
    start (and their IUTs load) while the suite runs the scenarios before it, on a core the
    alternating kit and IUT leave idle, instead of when the step comes. A process that has only
    sent ``hello`` has run nothing: it is as fresh as one started at the step (the scenario
    asks for processes that have run no other fixture; normalized observations hold no time).
    Nothing for an IUT that is not a stdio process, or when processes are already started for
    ``adapter``. :func:`close_started_processes` ends those no step took.
    """
    if not isinstance(adapter, StdioAdapter):
        return
    with _STARTED_LOCK:
        if any(started.for_adapter is adapter for started in _STARTED):
            return
        _STARTED.append(_Started(adapter))


def _take_started(adapter: StdioAdapter) -> list[StdioAdapter] | None:
    with _STARTED_LOCK:
        started = next((s for s in _STARTED if s.for_adapter is adapter), None)
        if started is None:
            return None
        _STARTED.remove(started)
    return started.ready()


def close_started_processes() -> None:
    """Close every process :func:`start_fresh_processes` started that no step took."""
    with _STARTED_LOCK:
        left = list(_STARTED)
        _STARTED.clear()
    for started in left:
        for process in started.ready():
            process.close()


def run_in_fresh_processes(
    adapter: Any,  # noqa: ANN401 - any adapter
    fixture: dict[str, Any],
    companions: Sequence[dict[str, Any]] = (),
) -> list[list[dict[str, Any]]] | None:
    """Run ``fixture``, then each of ``companions``, in each of two fresh stdio IUT processes.

    Each process is the adapter's command with ``PYTHONHASHSEED`` set to one of
    :data:`conformance.checks.HASH_SEEDS` (other IUTs ignore it) and runs every fixture in order;
    both are closed afterwards. The processes are independent, so they start and run side by
    side (one thread each): their start-up, the larger part of this step, is paid once in wall
    time, not once per process; processes :func:`start_fresh_processes` started ahead for
    ``adapter`` (having run nothing) are used instead of starting two more. Returns one list per
    fixture (``fixture`` first) holding the observation of each process, in
    :data:`~conformance.checks.HASH_SEEDS` order; ``None`` for an IUT that is not a stdio
    process.

    Raises:
        AdapterError: a process broke the protocol (the first such process's error; the other
            process still runs to its end and is closed).
    """
    if not isinstance(adapter, StdioAdapter):
        return None
    fixtures = [fixture, *companions]
    processes = _take_started(adapter) or _fresh_adapters(adapter)
    with ThreadPoolExecutor(len(processes), thread_name_prefix="srdh-fresh-iut") as pool:
        pending = [pool.submit(_run_each, process, fixtures) for process in processes]
        per_process = [future.result() for future in pending]
    return [list(observations) for observations in zip(*per_process, strict=True)]


def _run_each(process: StdioAdapter, fixtures: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run every fixture in order in ``process``, then close it (whatever happened)."""
    try:
        return [process.run(each) for each in fixtures]
    finally:
        process.close()


def _companions(capabilities: Collection[str]) -> list[dict[str, Any]]:
    """The cross-process fixtures an IUT with ``capabilities`` can run, fitted to them."""
    usable = []
    for each in cross_process_fixtures():
        fixture = checks.fit_to_capabilities(each, capabilities)
        routed = {str(t.get("intent")) for t in fixture["router"] if t.get("kind") == "intent"}
        needed = routed & {"DIAGNOSIS", "KNOWLEDGE_QUERY"} or {"DIAGNOSIS"}
        if fixture["prior_runs"]:
            needed.add("PREVIOUS_TURN")
        if checks.expected_outcome(fixture).repair_requested:
            needed.add("STRUCTURAL_REPAIR")
        if needed <= set(capabilities):
            usable.append(fixture)
    return usable


@when(FRESH_PROCESSES_STEP)
def _fresh_processes(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
    requirement, _, fixture_id = scenario_identity(request.node)
    fixture = srdh_context.builder.build(
        fixture_id, requirement_id=requirement, description=scenario_name(request.node)
    )
    iut = srdh_context.iut
    assert iut is not None  # noqa: S101 - the srdh_context fixture always sets it
    if "DIAGNOSIS" not in iut.capabilities:
        pytest.skip("IUT lacks capability DIAGNOSIS (declared in its hello)")
    srdh_context.fixture = checks.fit_to_capabilities(fixture, iut.capabilities)
    companions = _companions(iut.capabilities)
    fresh = run_in_fresh_processes(iut, srdh_context.fixture, companions)
    if fresh is None:  # an in-process IUT: one process, run twice
        srdh_context.observations = [iut.run(srdh_context.fixture) for _ in range(2)]
        srdh_context.where = "one process, twice (in-process IUT)"
    else:
        srdh_context.observations = fresh[0]
        srdh_context.companions = [
            (str(fixture["fixture_id"]), pair)
            for fixture, pair in zip(companions, fresh[1:], strict=True)
        ]
        srdh_context.where = (
            f"two fresh IUT processes (PYTHONHASHSEED {', '.join(checks.HASH_SEEDS)})"
        )
