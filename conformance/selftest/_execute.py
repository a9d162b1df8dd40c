"""Run units of the self-test: in this process, and on the other cores in spawned workers.

Every process (this one and ``jobs - 1`` spawned workers) opens one nested pytest session over
the suite (:func:`conformance.suite.suite_session`) and claims units one at a time from a shared
counter, so the cores stay busy whatever a unit costs. A worker streams each unit's result back
as soon as it has it; a worker that dies, or goes silent for :data:`WORKER_SILENCE_S`, is ended
and the units it had claimed but not reported are run here. Mutants patch reference modules under
a process-wide lock, which is why the parallelism is processes, not threads.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import time
from typing import TYPE_CHECKING, Any

from conformance._cores import default_jobs
from conformance.adapters import AdapterError, InProcessAdapter, StdioAdapter
from conformance.bdd import ThenRegistryError
from conformance.checks import rule_ids_in
from conformance.properties import (
    INVARIANTS,
    PROPERTIES,
    property_settings,
    run_invariants,
    run_property,
)
from conformance.selftest._plan import ProbeResult, UnitResult
from conformance.suite import SuiteSetupError
from conformance.suite._session import suite_session

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from multiprocessing.connection import Connection
    from multiprocessing.sharedctypes import Synchronized

    from conformance.adapters import Adapter
    from conformance.selftest._plan import Probe, Unit
    from conformance.suite._session import ItemOutcome, SuiteSession

__all__ = ["WORKER_SILENCE_S", "UnitPool", "default_jobs", "execute_units"]

WORKER_SILENCE_S = 300.0
"""A worker that reports nothing for this many seconds is ended; its units run here instead."""

_JOIN_S = 10.0


def _scenario(
    session: SuiteSession | None, adapter: Adapter, probe: Probe, unit: Unit
) -> ProbeResult:
    if session is None:  # pragma: no cover - units with scenario probes always get a session
        message = "a scenario probe needs the suite session"
        raise SuiteSetupError(message)

    def stop(outcome: ItemOutcome) -> bool:
        failed = ProbeResult(probe, outcome.outcome == "failed", outcome.rules)
        return unit.stop_at_kill and failed.kills(unit.judge)

    outcomes = (
        session.run_scenario(adapter, probe.name, stop=stop) if probe.name in session.items else []
    )
    failures = [o for o in outcomes if o.outcome == "failed"]
    rules = tuple(dict.fromkeys(r for o in failures for r in o.rules))
    return ProbeResult(
        probe,
        bool(failures),
        rules,
        failures[0].message if failures else "",
        tuple(o.message for o in outcomes if o.message),
    )


def _property(adapter: Adapter, probe: Probe, examples: int) -> ProbeResult:
    config = property_settings(examples, shrink=False)
    if probe.name == INVARIANTS:
        result = run_invariants(adapter, config=config)
    else:
        result = run_property(PROPERTIES[probe.name], adapter, config=config)
    failed = result.outcome == "failed"
    return ProbeResult(
        probe,
        failed,
        rule_ids_in(result.message) if failed else (),
        result.message if failed else "",
        (result.message,) if failed else (),
    )


def run_unit(index: int, unit: Unit, session: SuiteSession | None, examples: int) -> UnitResult:
    """Run ``unit``'s probes in order (stopping at a kill when it says so) on a fresh adapter."""
    started = time.perf_counter()
    command = unit.judge.command
    adapter: Adapter = (
        InProcessAdapter(unit.judge.factory) if command is None else StdioAdapter(list(command))
    )
    results: list[ProbeResult] = []
    error = ""
    try:
        adapter.hello()
        for probe in unit.probes:
            if probe.kind == "scenario":
                result = _scenario(session, adapter, probe, unit)
            else:
                result = _property(adapter, probe, examples)
            results.append(result)
            if unit.stop_at_kill and result.kills(unit.judge):
                break
    except (AdapterError, SuiteSetupError, ThenRegistryError) as failure:
        error = f"{type(failure).__name__}: {failure}"
    finally:
        with contextlib.suppress(AdapterError):
            adapter.close()
    return UnitResult(index, tuple(results), error, time.perf_counter() - started)


def _claim(counter: Synchronized[int], total: int) -> int | None:
    with counter.get_lock():
        index = counter.value
        if index >= total:
            return None
        counter.value = index + 1
    return index


def _in_session(
    needs_session: bool,  # noqa: FBT001
    work: Callable[[SuiteSession | None], None],
    examples: int,
) -> None:
    if needs_session:  # the any-fixture scenario draws the self-test's examples per property
        suite_session(work, property_examples=examples)
    else:
        work(None)


def worker_main(
    units: Sequence[Unit], examples: int, counter: Synchronized[int], conn: Connection
) -> None:
    """A spawned worker: claim units until none is left, send each result, then ``done``."""

    def work(session: SuiteSession | None) -> None:
        # This process is the self-test's own (spawned for these units, ended after them):
        # what its imports and the suite's collection built lives until then, so the garbage
        # collector stops walking it (docs/decisions/test-speed.md, Session 8).
        gc.freeze()
        while (index := _claim(counter, len(units))) is not None:
            conn.send(("claimed", index))
            conn.send(("result", run_unit(index, units[index], session, examples)))

    try:
        _in_session(_needs_session(units), work, examples)
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which re-runs units
        with contextlib.suppress(OSError, ValueError):
            conn.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        with contextlib.suppress(OSError, ValueError):
            conn.send(("done", None))
            conn.close()


def _needs_session(units: Sequence[Unit]) -> bool:
    return any(p.kind == "scenario" for u in units for p in u.probes)


class _Worker:
    """One spawned worker and what it has told us."""

    def __init__(self, context: Any, args: tuple[Any, ...]) -> None:  # noqa: ANN401 - mp context
        self.conn, child = context.Pipe(duplex=False)
        self.process = context.Process(
            target=worker_main, args=(*args, child), name="srdh-selftest-worker", daemon=True
        )
        self.process.start()
        child.close()
        self.claimed: set[int] = set()
        self.done = False
        self.heard = time.monotonic()

    def drain(self, deliver: Callable[[UnitResult], None], wait_s: float = 0.0) -> None:
        while not self.done and self.conn.poll(wait_s):
            try:
                kind, payload = self.conn.recv()
            except (EOFError, OSError):
                self.done = True
                break
            self.heard = time.monotonic()
            if kind == "claimed":
                self.claimed.add(payload)
            elif kind == "result":
                self.claimed.discard(payload.index)
                deliver(payload)
            elif kind == "done":
                self.done = True
            wait_s = 0.0

    def finish(self, deliver: Callable[[UnitResult], None]) -> set[int]:
        """Wait for the worker (bounded by its silence); return the units it left unreported."""
        while not self.done:
            self.drain(deliver, wait_s=1.0)
            silent = time.monotonic() - self.heard > WORKER_SILENCE_S
            if not self.done and (silent or not self.process.is_alive()):
                self.drain(deliver)
                break
        if self.process.is_alive():
            self.process.join(_JOIN_S)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(_JOIN_S)
        self.conn.close()
        return set(self.claimed)


class UnitPool:
    """Units being run by ``jobs - 1`` spawned workers from now on; :meth:`run` joins in.

    Creating the pool starts the workers at once, so that they work (and pay their start-up)
    while this process does something else, e.g. ``srdh verify``'s earlier steps. :meth:`run`
    then claims the remaining units here, collects every result, and re-runs here whatever a
    dead or silent worker left; :meth:`close` ends the workers without waiting for them.
    """

    def __init__(self, units: Sequence[Unit], *, examples: int, jobs: int) -> None:
        """Start ``min(jobs, len(units)) - 1`` workers on ``units``."""
        self.units = list(units)
        self.examples = examples
        context = multiprocessing.get_context("spawn")
        self._counter: Synchronized[int] = context.Value("i", 0)
        spawned = max(1, min(jobs, len(self.units))) - 1
        self._workers = [
            _Worker(context, (self.units, examples, self._counter)) for _ in range(spawned)
        ]

    def close(self) -> None:
        """End every worker still running (idempotent)."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(_JOIN_S)

    def run(self, on_result: Callable[[UnitResult], None] | None = None) -> list[UnitResult]:
        """Run the units not yet claimed here, gather every result; results in unit order.

        ``on_result`` is called with each result as soon as this process knows it.

        Raises:
            SuiteSetupError: the suite could not be collected in this process.
        """
        results: dict[int, UnitResult] = {}
        units, examples = self.units, self.examples

        def deliver(result: UnitResult) -> None:
            results[result.index] = result
            if on_result is not None:
                on_result(result)

        def work(session: SuiteSession | None) -> None:
            left: set[int] = set()
            try:
                while (index := _claim(self._counter, len(units))) is not None:
                    for worker in self._workers:
                        worker.drain(deliver)
                    deliver(run_unit(index, units[index], session, examples))
                for worker in self._workers:
                    left |= worker.finish(deliver)
            finally:
                self.close()
            for index in sorted(left | (set(range(len(units))) - set(results))):
                deliver(run_unit(index, units[index], session, examples))

        _in_session(_needs_session(units), work, examples)
        return [results[i] for i in range(len(units))]


def execute_units(
    units: Sequence[Unit],
    *,
    examples: int,
    jobs: int,
    on_result: Callable[[UnitResult], None] | None = None,
) -> list[UnitResult]:
    """Run every unit (``jobs`` processes, this one included); results in unit order.

    ``on_result`` is called with each result as soon as it is known (from this process).

    Raises:
        SuiteSetupError: the suite could not be collected in this process.
    """
    pool = UnitPool(units, examples=examples, jobs=jobs)
    try:
        return pool.run(on_result)
    finally:
        pool.close()
