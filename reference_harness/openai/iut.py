"""The reference Harness on the real path, as a conformance-kit IUT (``module:factory``).

Two factories:

``reference_harness.openai.iut:create``
    The Harness with the **OpenAI-compatible adapters** talking HTTP to a
    :class:`~reference_harness.openai.testing.ScriptedOpenAIServer` on loopback that plays the
    fixture's ``router`` / ``agent`` / ``semantic_guard`` turns. Everything else is as in
    ``reference_harness.iut:create`` (fresh SQLite file seeded with ``prior_runs``, scripted tool
    backends, fake clock, counter run ids, simulated SSE client), so the suite's verdicts through
    the real adapter code must equal the scripted ones. The turns already force each scenario's
    WHEN, so ``perturbations`` are not applied. ``block_until_cancelled`` turns are held by the
    server until the Harness sets the call's ``interrupt`` (cancellation or its own timeout).
``reference_harness.openai.iut:create_streaming``
    The same, with every answer streamed (server-sent event chunks assembled by the adapter).
``reference_harness.openai.iut:create_real``
    The Harness with the adapters on the endpoint named by ``SRDH_OPENAI_BASE_URL``,
    ``SRDH_OPENAI_MODEL``, ``SRDH_OPENAI_API_KEY``: a real model plays the model turns (the
    fixture's model turns are ignored) and the fixture's ``perturbations`` force the WHEN. Raises
    :class:`~reference_harness.openai.ConfigError` ("no endpoint configured: set
    SRDH_OPENAI_BASE_URL") when the endpoint is not configured.

The adapter timeout of each call is 90 % of the fixture's ``model_call_timeout_ms``, so that a call
that never answers ends by its HTTP timeout inside the Harness's own bound (Requirement 8).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from contracts import ContractError, DiagnosisRun, load_document, validate_document
from reference_harness import CancelScope, Harness, Limits, RunJournal, ScriptedTools
from reference_harness._client import SimulatedClient  # private, same package: the fixture's client
from reference_harness.iut import (
    CAPABILITIES,
    CLOCK_START_MS,
    PROTOCOL_VERSION,
    _FakeClock,  # private, same package: the reference IUT's deterministic clock
    _run_coroutine,  # private, same package: run a Run from sync or async callers
    _run_document,  # private, same package: the observation's row documents
    _run_ids,  # private, same package: deterministic run ids
    _version,  # private, same package: the kit's version
)
from reference_harness.openai._config import ConfigError, OpenAIConfig
from reference_harness.openai._perturb import ModelPorts, perturb
from reference_harness.openai._ports import OpenAIAgent, OpenAIReviewer, OpenAIRouter
from reference_harness.openai.testing import ScriptedOpenAIServer
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from reference_harness.errors import ScriptError
    from reference_harness.ports import (
        AgentAnswer,
        AgentPort,
        AgentRequest,
        ReviewAnswer,
        ReviewerPort,
        ReviewRequest,
    )

__all__ = [
    "IMPLEMENTATION_NAME",
    "NO_ENDPOINT",
    "OpenAIIUT",
    "create",
    "create_real",
    "create_streaming",
]

IMPLEMENTATION_NAME: Final = "srdh-reference-harness-openai"
NO_ENDPOINT: Final = "no endpoint configured: set SRDH_OPENAI_BASE_URL"
"""The skip reason of a real-model run without an endpoint."""
_TIMEOUT_SHARE: Final = 0.9

Endpoint = Literal["scripted", "env"]


class _ReleaseOnInterrupt:
    """Lets the scripted server answer a held request once the Harness sets ``interrupt``."""

    def __init__(self, server: ScriptedOpenAIServer, bound_s: float) -> None:
        self._server = server
        self._bound_s = bound_s

    def watch(self, interrupt: threading.Event) -> None:
        def release_when_interrupted() -> None:
            if interrupt.wait(self._bound_s):
                self._server.release()

        threading.Thread(target=release_when_interrupted, daemon=True).start()


class _HeldAgent:
    def __init__(self, inner: AgentPort, release: _ReleaseOnInterrupt) -> None:
        self._inner = inner
        self._release = release

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        self._release.watch(interrupt)
        return self._inner.step(request, interrupt)


class _HeldReviewer:
    def __init__(self, inner: ReviewerPort, release: _ReleaseOnInterrupt) -> None:
        self._inner = inner
        self._release = release

    def review(self, request: ReviewRequest, interrupt: threading.Event) -> ReviewAnswer:
        self._release.watch(interrupt)
        return self._inner.review(request, interrupt)


class OpenAIIUT:
    """The Harness with OpenAI-compatible ports behind the adapter protocol.

    Args:
        endpoint: ``"scripted"`` (a scripted server per fixture) or ``"env"`` (``SRDH_OPENAI_*``).
        apply_perturbations: wrap the ports with the fixture's ``perturbations``.
        stream: ask the scripted endpoint for streamed answers (``"env"`` reads
            ``SRDH_OPENAI_STREAM``).

    Raises:
        ConfigError: ``endpoint="env"`` and ``SRDH_OPENAI_BASE_URL`` is unset (message
            :data:`NO_ENDPOINT`) or another ``SRDH_OPENAI_*`` variable is missing or malformed
            (the message names it).
    """

    def __init__(
        self, *, endpoint: Endpoint, apply_perturbations: bool, stream: bool = False
    ) -> None:
        """Check the endpoint configuration now, so a missing one fails before any run."""
        self._endpoint = endpoint
        self._perturb = apply_perturbations
        self._stream = stream
        self._env_config: OpenAIConfig | None = None
        if endpoint == "env":
            if not os.environ.get("SRDH_OPENAI_BASE_URL", "").strip():
                raise ConfigError(NO_ENDPOINT)
            self._env_config = OpenAIConfig.from_env()
        self._closed = False

    def hello(self) -> dict[str, Any]:
        """Return the adapter-message ``hello`` (protocol 1.0, the reference capabilities)."""
        return {
            "type": "hello",
            "protocol_version": PROTOCOL_VERSION,
            "implementation": {"name": IMPLEMENTATION_NAME, "version": _version()},
            "capabilities": list(CAPABILITIES),
        }

    def run(self, fixture: object) -> dict[str, Any]:
        """Run one Scenario Fixture through the OpenAI adapters; return its Run Observation.

        Raises:
            ContractError: ``fixture`` is not a valid Scenario Fixture.
            RuntimeError: the IUT is closed, or the observation breaks its contract.
        """
        if self._closed:
            message = "this OpenAIIUT is closed"
            raise RuntimeError(message)
        load_document(fixture, "scenario-fixture")
        if not isinstance(fixture, dict):  # pragma: no cover - load_document accepted an object
            message = "expected a JSON object"
            raise ContractError(message, expected="object")
        observation: dict[str, Any] = _run_coroutine(self._observe(fixture))
        violations = validate_document(observation, "run-observation")
        if violations:
            detail = "; ".join(f"{v.pointer or '(root)'}: {v.message}" for v in violations[:5])
            message = f"the observation breaks the run-observation contract: {detail}"
            raise RuntimeError(message)
        return observation

    def close(self) -> None:
        """Release the IUT (idempotent)."""
        self._closed = True

    async def _observe(self, fixture: dict[str, Any]) -> dict[str, Any]:
        limits = Limits(**fixture["limits"])
        timeout_s = limits.model_call_timeout_ms / 1000 * _TIMEOUT_SHARE
        with contextlib.ExitStack() as stack:
            server: ScriptedOpenAIServer | None = None
            if self._env_config is None:
                server = stack.enter_context(ScriptedOpenAIServer.from_fixture(fixture))
                config = OpenAIConfig(
                    server.base_url, "scripted", "scripted", timeout_s, self._stream
                )
            else:
                config = self._env_config.with_timeout(timeout_s)
            errors: list[ScriptError] = []
            tools = ScriptedTools(fixture["tools"], errors)
            observation = await self._run_harness(fixture, limits, config, server, tools)
            script_error = _script_error(server, tools, errors)
        if script_error is not None:
            observation["error"] = script_error
        return observation

    async def _run_harness(
        self,
        fixture: dict[str, Any],
        limits: Limits,
        config: OpenAIConfig,
        server: ScriptedOpenAIServer | None,
        tools: ScriptedTools,
    ) -> dict[str, Any]:
        prior = [DiagnosisRun.model_validate(run) for run in fixture["prior_runs"]]
        start = max(
            [CLOCK_START_MS]
            + [_ms(run.created_at_ms) for run in prior]
            + [_ms(run.finished_at_ms) for run in prior]
        )
        scope = CancelScope()
        loop = asyncio.get_running_loop()
        ports = ModelPorts(OpenAIRouter(config), OpenAIAgent(config), OpenAIReviewer(config))
        if server is not None:
            release = _ReleaseOnInterrupt(server, limits.model_call_timeout_ms / 1000)
            ports = ModelPorts(
                ports.router,
                _HeldAgent(ports.agent, release),
                _HeldReviewer(ports.reviewer, release),
            )
        if self._perturb:

            def disconnect() -> None:
                loop.call_soon_threadsafe(scope.cancel, "CLIENT_DISCONNECTED")

            ports = perturb(
                ports,
                fixture["perturbations"],
                disconnect=disconnect,
                wait_s=limits.model_call_timeout_ms / 1000,
            )
        client = SimulatedClient(fixture["client"], scope)
        journal = RunJournal()
        with tempfile.TemporaryDirectory(prefix="srdh-openai-iut-") as directory:
            store = RunStore(Path(directory) / "runs.sqlite3")
            try:
                store.seed(prior)
                harness = Harness(
                    store=store,
                    router=ports.router,
                    agent=ports.agent,
                    reviewer=ports.reviewer,
                    tools=tools,
                    limits=limits,
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
        return {
            "fixture_id": fixture["fixture_id"],
            "run_id": final.run_id,
            "trace": journal.events,
            "client_frames": client.frames,
            "runs": runs,
            "published_result": journal.published_result,
            "invocations": journal.invocations,
        }


def _ms(value: object) -> int:
    """A time field of a generated model (an int, a root model around one, or ``None``)."""
    inner = getattr(value, "root", value)
    return inner if isinstance(inner, int) else 0


def _script_error(
    server: ScriptedOpenAIServer | None, tools: ScriptedTools, errors: list[ScriptError]
) -> dict[str, str] | None:
    exhausted = [*(server.script_errors() if server is not None else ()), *map(str, errors)]
    if exhausted:
        return {"code": "SCRIPT_EXHAUSTED", "message": exhausted[0][:4000]}
    left = {str(c): n for c, n in (server.unconsumed() if server is not None else {}).items()}
    if server is not None and tools.left:  # a real model may leave scripted tool answers unused
        left["tools"] = tools.left
    if left:
        detail = ", ".join(f"{name}: {count} turn(s) left" for name, count in left.items())
        return {"code": "SCRIPT_UNCONSUMED", "message": f"script not consumed: {detail}"}
    return None


def create() -> OpenAIIUT:
    """The Harness on OpenAI adapters against a scripted loopback server (no perturbations)."""
    return OpenAIIUT(endpoint="scripted", apply_perturbations=False)


def create_streaming() -> OpenAIIUT:
    """As :func:`create`, with every answer streamed as server-sent events (``stream: true``)."""
    return OpenAIIUT(endpoint="scripted", apply_perturbations=False, stream=True)


def create_real() -> OpenAIIUT:
    """The Harness on OpenAI adapters against ``SRDH_OPENAI_BASE_URL``, with perturbations.

    Raises:
        ConfigError: no endpoint configured (message starts with :data:`NO_ENDPOINT`).
    """
    return OpenAIIUT(endpoint="env", apply_perturbations=True)
