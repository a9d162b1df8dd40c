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
import threading
from typing import TYPE_CHECKING, Any, Final, Literal

from reference_harness import CancelScope, Limits, ScriptedTools
from reference_harness._fixture_iut import FixtureIUT, cancelled_run, observe
from reference_harness._model_input import ModelCallLog
from reference_harness.openai._config import ConfigError, OpenAIConfig
from reference_harness.openai._perturb import ModelPorts, perturb
from reference_harness.openai._ports import OpenAIAgent, OpenAIReviewer, OpenAIRouter
from reference_harness.openai._prompts import AGENT_SYSTEM, REVIEWER_SYSTEM, ROUTER_SYSTEM
from reference_harness.openai.testing import ScriptedOpenAIServer

if TYPE_CHECKING:
    from collections.abc import Sequence

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


class OpenAIIUT(FixtureIUT):
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

    implementation_name = IMPLEMENTATION_NAME

    def __init__(
        self, *, endpoint: Endpoint, apply_perturbations: bool, stream: bool = False
    ) -> None:
        """Check the endpoint configuration now, so a missing one fails before any run."""
        super().__init__()
        self._endpoint = endpoint
        self._perturb = apply_perturbations
        self._stream = stream
        self._env_config: OpenAIConfig | None = None
        if endpoint == "env":
            if not os.environ.get("SRDH_OPENAI_BASE_URL", "").strip():
                raise ConfigError(NO_ENDPOINT)
            self._env_config = OpenAIConfig.from_env()

    async def _observe(
        self,
        fixture: dict[str, Any],
        model_endpoint: dict[str, Any] | None,  # noqa: ARG002 - this IUT does not declare MODEL_ENDPOINT
    ) -> dict[str, Any]:
        limits = Limits(**fixture["limits"])
        timeout_s = limits.model_call_timeout_s * _TIMEOUT_SHARE
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
            script_error = _script_error(
                server,
                tools,
                errors,
                cancelled=cancelled_run(observation),
                trace=observation.get("trace") or [],
            )
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
        scope = CancelScope()
        loop = asyncio.get_running_loop()
        log = ModelCallLog()  # what each port sends, after its system prompt
        ports = ModelPorts(
            log.router(OpenAIRouter(config), ROUTER_SYSTEM),
            log.agent(OpenAIAgent(config), AGENT_SYSTEM),
            log.reviewer(OpenAIReviewer(config), REVIEWER_SYSTEM),
        )
        if server is not None:
            release = _ReleaseOnInterrupt(server, limits.model_call_timeout_s)
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
                wait_s=limits.model_call_timeout_s,
            )
        observation = await observe(
            fixture,
            router=ports.router,
            agent=ports.agent,
            reviewer=ports.reviewer,
            tools=tools,
            scope=scope,
        )
        observation["model_calls"] = log.model_calls(observation["trace"])
        return observation


def _script_error(
    server: ScriptedOpenAIServer | None,
    tools: ScriptedTools,
    errors: list[ScriptError],
    *,
    cancelled: bool = False,
    trace: list[dict[str, Any]] | tuple[()] = (),
) -> dict[str, str] | None:
    exhausted = [*(server.script_errors() if server is not None else ()), *map(str, errors)]
    if exhausted:
        return {"code": "SCRIPT_EXHAUSTED", "message": exhausted[0][:4000]}
    if cancelled:  # a cancelled Run may leave turns unread wherever the disconnect stopped it
        return None
    left: dict[str, int] = {}
    if server is not None:
        left = {
            str(c): n
            for c, n in server.unconsumed().items()
            if not _timed_out_unsent(trace, str(c), n, server.request_count(c))
        }
    if server is not None and tools.left:  # a real model may leave scripted tool answers unused
        left["tools"] = tools.left
    if left:
        detail = ", ".join(f"{name}: {count} turn(s) left" for name, count in left.items())
        return {"code": "SCRIPT_UNCONSUMED", "message": f"script not consumed: {detail}"}
    return None


def _timed_out_unsent(
    trace: Sequence[dict[str, Any]], component: str, left: int, sent: int
) -> bool:
    """Whether ``left`` turns of ``component`` were asked for by attempts that timed out unsent.

    A model-call timeout can end an attempt before its HTTP request reaches the server (1 ms, the
    contract's lower bound): the attempt is recorded ``TIMEOUT`` and sent nothing, so its turn
    stays unread though the Harness did ask for it. The kit's model endpoint excuses the same
    turns (``conformance.adapters._endpoint``); a scripted port in process takes its turn when the
    call starts, so only HTTP paths need this.
    """
    finished = [
        (event.get("data") or {}).get("outcome")
        for event in trace
        if event.get("type") == "MODEL_CALL_FINISHED"
        and (event.get("data") or {}).get("component") == component
    ]
    return len(finished) - sent >= left and finished.count("TIMEOUT") >= left


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
