"""A Scenario Fixture run on the reference Harness, as the base of every fixture-driven IUT.

:class:`FixtureIUT` answers the adapter protocol's ``hello`` and ``run`` (fixture and observation
checked against their contracts); :func:`observe` runs one fixture on the Harness with the given
ports, hermetically and deterministically. The reference IUT (:mod:`reference_harness.iut`), the
IUT on the OpenAI-compatible ports (:mod:`reference_harness.openai.iut`), the mutants and the
latitude variants all build on these, and this module imports none of them.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.metadata
import itertools
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from contracts import (
    ContractError,
    DiagnosisRun,
    capability_vocabulary,
    check_document,
    validate_document,
)
from reference_harness._client import SimulatedClient
from reference_harness._harness import Harness, RunJournal
from reference_harness._limits import Limits
from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Iterator

    from contracts import ContractViolation
    from reference_harness._cancellation import CancelScope
    from reference_harness.ports import AgentPort, ReviewerPort, RouterPort, ToolBackend

__all__ = [
    "CAPABILITIES",
    "CLOCK_START_MS",
    "IMPLEMENTATION_NAME",
    "MODEL_ENDPOINT",
    "PROTOCOL_VERSION",
    "FixtureIUT",
    "ObservationContractError",
    "cancelled_run",
    "observe",
]

PROTOCOL_VERSION: Final = "2.0"
IMPLEMENTATION_NAME: Final = "srdh-reference-harness"


MODEL_ENDPOINT: Final = "MODEL_ENDPOINT"
"""The capability of taking the kit's model endpoint from the ``run`` message."""
CAPABILITIES: Final = tuple(
    capability for capability in capability_vocabulary() if capability != MODEL_ENDPOINT
)
"""The reference Harness's behavioural capabilities: every one of the protocol's vocabulary.

``MODEL_ENDPOINT`` is a way of running, not a behaviour: an IUT built with ``model_endpoint=True``
(the stdio entry) adds it."""
T = TypeVar("T")

CLOCK_START_MS: Final = 1_767_225_600_000
"""Fake clock start (2026-01-01T00:00:00Z) when the fixture has no prior runs."""


def _version() -> str:
    try:
        return importlib.metadata.version("srdh-conformance-kit")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - not installed
        return "0.0.0"


class _FakeClock:
    """Milliseconds that advance by one on every reading."""

    def __init__(self, start_ms: int) -> None:
        self._now = start_ms

    def __call__(self) -> int:
        self._now += 1
        return self._now


def _run_ids(taken: set[str]) -> Callable[[], str]:
    def counter() -> Iterator[str]:
        number = 0
        while True:
            number += 1
            candidate = f"iut-run-{number}"
            if candidate not in taken:
                yield candidate

    ids = counter()
    return lambda: next(ids)


_SCRATCH: dict[tuple[int, str], Path] = {}
"""This process's folder for Run stores, per temporary-files folder (``tempfile.gettempdir()``)."""
_SCRATCH_LOCK = threading.Lock()
_RUN_FILES = itertools.count(1)
_SQLITE_SUFFIXES: Final = ("", "-wal", "-shm", "-journal")


def _remove_scratch(pid: int, folder: Path) -> None:
    if os.getpid() == pid:  # a forked child that exits normally leaves its parent's folder
        shutil.rmtree(folder, ignore_errors=True)


def _run_store_path() -> Path:
    """A path no Run of this process has used, in this process's scratch folder.

    The folder (``srdh-iut-*`` under ``tempfile.gettempdir()``) is made once per process and
    temporary-files folder, and removed when the process exits; each Run's SQLite file is
    deleted after the Run (:func:`_remove_run_store`). Creating and removing a folder per Run
    cost as much as a third of opening the store.
    """
    key = (os.getpid(), tempfile.gettempdir())
    with _SCRATCH_LOCK:
        folder = _SCRATCH.get(key)
        if folder is None or not folder.is_dir():
            folder = Path(tempfile.mkdtemp(prefix="srdh-iut-"))
            atexit.register(_remove_scratch, key[0], folder)
            _SCRATCH[key] = folder
    return folder / f"runs-{next(_RUN_FILES)}.sqlite3"


def _remove_run_store(path: Path) -> None:
    """Delete a Run's SQLite file and whatever SQLite left beside it (WAL, shared memory)."""
    for suffix in _SQLITE_SUFFIXES:
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def _run_document(run: DiagnosisRun) -> dict[str, Any]:
    document = run.model_dump(mode="json")
    if run.published_result is not None:
        document["published_result"] = run.published_result.model_dump(
            mode="json", exclude_none=True
        )
    return document


async def _into(box: dict[str, Any], coroutine: Coroutine[Any, Any, Any]) -> None:
    box["result"] = await coroutine


def _run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a fresh event loop, in a helper thread if this one has a loop.

    ``asyncio.run`` runs a wrapper that stores the result and returns ``None``: on the main
    thread, ``asyncio.run`` looks up its SIGINT handler (a partial holding the main task) twice,
    and Python 3.11's ``signal.getsignal`` formats ``repr`` of that task, result included, each
    time; with a whole Run Observation as the result that cost about 2 ms per Run. Same loop,
    same cancellation and shutdown, same exceptions.
    """
    box: dict[str, Any] = {}  # "result": T or "error": BaseException
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(_into(box, coroutine))
    else:

        def target() -> None:
            try:
                asyncio.run(_into(box, coroutine))
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                box["error"] = error

        thread = threading.Thread(target=target, name="srdh-iut-run")
        thread.start()
        thread.join()
        if "error" in box:
            raise box["error"]
    result: T = box["result"]
    return result


def cancelled_run(observation: dict[str, Any]) -> bool:
    """Whether the observed Run ended CANCELLED (its script may then be left unconsumed)."""
    return any(
        row.get("run_id") == observation.get("run_id") and row.get("state") == "CANCELLED"
        for row in observation.get("runs", [])
    )


class ObservationContractError(RuntimeError):
    """The reference Harness produced an observation its contract rejects (a kit bug)."""


class FixtureIUT:
    """An implementation under test driven by Scenario Fixtures: ``hello``, ``run``, ``close``.

    Subclasses supply :meth:`_observe` (how a fixture becomes a Run Observation); this base
    validates the fixture and the observation against their contracts, runs the coroutine from
    sync or async callers, and answers the adapter-message ``hello``.
    """

    implementation_name: str = IMPLEMENTATION_NAME

    def __init__(self, *, model_endpoint: bool = False) -> None:
        """Create an IUT; every ``run`` gets its own store and ports.

        Args:
            model_endpoint: declare ``MODEL_ENDPOINT`` and accept ``run(fixture,
                model_endpoint=...)``.
        """
        self._closed = False
        self._endpoint_capable = model_endpoint

    def hello(self) -> dict[str, Any]:
        """Return the adapter-message ``hello``: protocol 2.0, implementation, capabilities."""
        endpoint = [MODEL_ENDPOINT] if self._endpoint_capable else []
        return {
            "type": "hello",
            "protocol_version": PROTOCOL_VERSION,
            "implementation": {"name": self.implementation_name, "version": _version()},
            "capabilities": [*CAPABILITIES, *endpoint],
        }

    def run(self, fixture: object, model_endpoint: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one Scenario Fixture and return its Run Observation document.

        Script errors (exhausted or unconsumed turns) are reported in ``observation.error``.
        Without ``model_endpoint`` the fixture's scripted turns play the models and the
        observation reports each model call's input (``model_calls``); with it (the run
        message's ``model_endpoint`` object) the Harness's OpenAI-compatible ports call the kit's
        endpoint, which records the requests itself.

        Raises:
            ContractError: ``fixture`` is not a valid Scenario Fixture (pointer and expectation
                say where and what).
            ObservationContractError: the observation broke its own contract (a Harness bug).
            RuntimeError: the IUT is closed, or ``model_endpoint`` was given to an IUT that did
                not declare ``MODEL_ENDPOINT``.
        """
        if self._closed:
            msg = f"this {type(self).__name__} is closed"
            raise RuntimeError(msg)
        if model_endpoint is not None and not self._endpoint_capable:
            msg = f"this {type(self).__name__} did not declare {MODEL_ENDPOINT}"
            raise RuntimeError(msg)
        # The fixture's contract (schema, then invariants); its model is not needed here.
        check_document(fixture, "scenario-fixture")  # raises ContractError with a pointer
        if not isinstance(fixture, dict):  # pragma: no cover - check_document accepted an object
            msg = "expected a JSON object"
            raise ContractError(msg, expected="object")
        observation = _run_coroutine(self._observe(fixture, model_endpoint))
        violations = self._own_contract_violations(observation)
        if violations:
            detail = "; ".join(f"{v.pointer or '(root)'}: {v.message}" for v in violations[:5])
            msg = f"the observation breaks the run-observation contract: {detail}"
            raise ObservationContractError(msg)
        return observation

    checks_own_observation: bool = True
    """Whether the IUT refuses to send an observation that breaks its contract (the reference
    does; a mutant standing for a Harness that does not check its output sends it as is)."""

    def _own_contract_violations(self, observation: dict[str, Any]) -> list[ContractViolation]:
        """The RunObservation contract violations of ``observation`` (checked before sending)."""
        if not self.checks_own_observation:
            return []
        return validate_document(observation, "run-observation")

    def close(self) -> None:
        """Release the IUT (idempotent)."""
        self._closed = True

    async def _observe(
        self, fixture: dict[str, Any], model_endpoint: dict[str, Any] | None
    ) -> dict[str, Any]:
        raise NotImplementedError


async def observe(  # noqa: PLR0913 - ports, scope and the swappable parts are the whole seam
    fixture: dict[str, Any],
    *,
    router: RouterPort,
    agent: AgentPort,
    reviewer: ReviewerPort,
    tools: ToolBackend,
    scope: CancelScope,
    harness_class: type[Harness] = Harness,
    store_class: type[RunStore] = RunStore,
    retry: RetryPolicy = DEFAULT_RETRY_POLICY,
) -> dict[str, Any]:
    """Run one validated Scenario Fixture on the Harness with the given ports.

    Hermetic and deterministic: a fresh SQLite file in this process's temporary folder (deleted
    after the Run, so it is opened with ``durable=False``: no ``fsync``) seeded with the fixture's
    ``prior_runs``, a fake clock starting after every prior time (one millisecond per
    reading), run ids ``iut-run-N`` that skip prior ids, and a simulated SSE client that cancels
    ``scope`` with CLIENT_DISCONNECTED on ``client.disconnect_on``. ``harness_class``,
    ``store_class`` and ``retry`` let a mutant (``reference_harness.mutants``) swap one part.

    Returns:
        The Run Observation document (without ``error``; the caller adds script errors).
    """
    prior = [DiagnosisRun.model_validate(run) for run in fixture["prior_runs"]]
    times = [
        int(run.get(key) or 0)
        for run in fixture["prior_runs"]
        for key in ("created_at_ms", "finished_at_ms")
    ]
    start = max([CLOCK_START_MS, *times])
    client = SimulatedClient(fixture["client"], scope)
    journal = RunJournal()
    path = _run_store_path()
    try:
        store = store_class(path, durable=False)
        try:
            store.seed(prior)
            harness = harness_class(
                store=store,
                router=router,
                agent=agent,
                reviewer=reviewer,
                tools=tools,
                limits=Limits(**fixture["limits"]),
                retry=retry,
                clock=_FakeClock(start),
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
    finally:
        _remove_run_store(path)
    return {
        "fixture_id": fixture["fixture_id"],
        "run_id": final.run_id,
        "trace": journal.events,
        "client_frames": client.frames,
        "runs": runs,
        "published_result": journal.published_result,
        "invocations": journal.invocations,
    }
