"""A mutant as an implementation under test: the reference IUT with one part swapped.

:class:`MutantIUT` speaks the same ``hello``/``run``/``close`` protocol as
:class:`reference_harness.iut.ReferenceIUT` and runs a fixture the same hermetic way (fresh SQLite
store seeded with ``prior_runs``, scripted ports, fake clock, simulated SSE client), but builds it
from a :class:`MutantSpec`: a Harness subclass, a run-store subclass, wrapped model ports, another
retry policy, and/or wrapped guard functions of the reference modules (patched only while this
mutant's own ``run`` executes, under a process-wide lock).
"""

from __future__ import annotations

import contextlib
import importlib
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest import mock

from contracts import DiagnosisRun, load_document
from reference_harness._cancellation import CancelScope
from reference_harness._client import SimulatedClient
from reference_harness._harness import Harness, RunJournal
from reference_harness._limits import Limits
from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
from reference_harness._scripted import ScriptedPorts
from reference_harness.iut import (
    CAPABILITIES,
    CLOCK_START_MS,
    PROTOCOL_VERSION,
    _FakeClock,
    _run_coroutine,
    _run_document,
    _run_ids,
)
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from reference_harness.ports import AgentPort, ReviewerPort

__all__ = ["MutantIUT", "MutantSpec", "Patch"]

_PATCH_LOCK = threading.RLock()


@dataclass(frozen=True)
class Patch:
    """Replace ``module.attribute`` by ``wrap(original)`` while the mutant runs."""

    module: str
    attribute: str
    wrap: Callable[[Any], Any]


@dataclass(frozen=True)
class MutantSpec:
    """One broken harness: which rule it breaks and how it is built.

    Attributes:
        name: the factory name (``reference_harness.mutants:<name>``).
        requirement_id: the requirement whose rule it breaks.
        rule: the one rule it breaks, in a sentence.
        harness_class: the Harness class (a subclass breaking the rule, or the reference one).
        store_class: the run store class.
        agent: wraps the scripted Diagnosis Agent port.
        reviewer: wraps the scripted SemanticGuard port.
        retry: the retry policy the Harness gets.
        patches: reference functions wrapped while a Run executes.
    """

    name: str
    requirement_id: str
    rule: str
    harness_class: type[Harness] = Harness
    store_class: type[RunStore] = RunStore
    agent: Callable[[AgentPort], AgentPort] | None = None
    reviewer: Callable[[ReviewerPort], ReviewerPort] | None = None
    retry: RetryPolicy = DEFAULT_RETRY_POLICY
    patches: tuple[Patch, ...] = ()


class MutantIUT:
    """The mutant described by ``spec`` behind the adapter protocol."""

    def __init__(self, spec: MutantSpec) -> None:
        """Create the IUT; each ``run`` gets its own store and ports."""
        self.spec = spec
        self._closed = False

    def hello(self) -> dict[str, Any]:
        """Return the ``hello`` message: the reference capabilities, the mutant's name."""
        return {
            "type": "hello",
            "protocol_version": PROTOCOL_VERSION,
            "implementation": {"name": f"srdh-mutant-{self.spec.name}", "version": "0.0.0"},
            "capabilities": list(CAPABILITIES),
        }

    def run(self, fixture: object) -> dict[str, Any]:
        """Run one Scenario Fixture and return the Run Observation (not self-validated).

        Raises:
            ContractError: ``fixture`` is not a valid Scenario Fixture.
            RuntimeError: the IUT is closed.
        """
        if self._closed:
            msg = f"mutant {self.spec.name} is closed"
            raise RuntimeError(msg)
        load_document(fixture, "scenario-fixture")
        if not isinstance(fixture, dict):  # pragma: no cover - load_document accepted an object
            msg = "expected a JSON object"
            raise TypeError(msg)
        with _PATCH_LOCK, contextlib.ExitStack() as stack:
            for patch in self.spec.patches:
                module = importlib.import_module(patch.module)
                original = getattr(module, patch.attribute)
                stack.enter_context(
                    mock.patch.object(module, patch.attribute, patch.wrap(original))
                )
            return _run_coroutine(_observe(fixture, self.spec))

    def close(self) -> None:
        """Release the IUT (idempotent)."""
        self._closed = True


async def _observe(fixture: dict[str, Any], spec: MutantSpec) -> dict[str, Any]:
    prior = [DiagnosisRun.model_validate(run) for run in fixture["prior_runs"]]
    times = [
        int(run.get(key) or 0)
        for run in fixture["prior_runs"]
        for key in ("created_at_ms", "finished_at_ms")
    ]
    ports = ScriptedPorts.from_fixture(fixture)
    scope = CancelScope()
    client = SimulatedClient(fixture["client"], scope)
    journal = RunJournal()
    with tempfile.TemporaryDirectory(prefix="srdh-mutant-") as directory:
        store = spec.store_class(Path(directory) / "runs.sqlite3")
        try:
            store.seed(prior)
            harness = spec.harness_class(
                store=store,
                router=ports.router,
                agent=spec.agent(ports.agent) if spec.agent else ports.agent,
                reviewer=spec.reviewer(ports.reviewer) if spec.reviewer else ports.reviewer,
                tools=ports.tools,
                limits=Limits(**fixture["limits"]),
                retry=spec.retry,
                clock=_FakeClock(max([CLOCK_START_MS, *times])),
                run_ids=_run_ids({run.run_id for run in prior}),
            )
            final = await harness.run(
                fixture["session_id"],
                fixture["user_message"],
                sink=client,
                cancel=scope,
                journal=journal,
            )
            runs = [_run_document(run) for run in store.list_session(fixture["session_id"])]
        finally:
            store.close()
    observation: dict[str, Any] = {
        "fixture_id": fixture["fixture_id"],
        "run_id": final.run_id,
        "trace": journal.events,
        "client_frames": client.frames,
        "runs": runs,
        "published_result": journal.published_result,
        "invocations": journal.invocations,
    }
    error = ports.script_error()
    if error is not None:
        observation["error"] = {"code": error.code, "message": str(error)[:4000]}
    return observation
