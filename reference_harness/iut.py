"""The reference Harness as an implementation under test (IUT) of the conformance kit.

``create()`` returns a :class:`ReferenceIUT`; the kit's in-process adapter (``module:factory`` =
``reference_harness.iut:create``) and the stdio entry (``python -m reference_harness.stdio``) both
drive it. Each ``run`` is hermetic and deterministic: a fresh SQLite file (deleted after the Run)
seeded with the fixture's ``prior_runs``, scripted ports built from its turns, a fake
clock (one millisecond per reading) and run ids from a counter, a simulated SSE client. The same
fixture run twice gives the same observation.

The fixture-driven base (:class:`FixtureIUT`, :func:`observe`) lives in
:mod:`reference_harness._fixture_iut`, which the IUT on the OpenAI-compatible ports
(:mod:`reference_harness.openai.iut`) shares; this module adds the scripted and model-endpoint
paths and is the only one of the two that reaches into :mod:`reference_harness.openai`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

from reference_harness._cancellation import CancelScope
from reference_harness._client import SimulatedClient
from reference_harness._fixture_iut import (
    CAPABILITIES,
    IMPLEMENTATION_NAME,
    MODEL_ENDPOINT,
    PROTOCOL_VERSION,
    FixtureIUT,
    ObservationContractError,
    cancelled_run,
    observe,
)
from reference_harness._harness import Harness
from reference_harness._limits import Limits
from reference_harness._model_input import ModelCallLog
from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
from reference_harness._scripted import ScriptedPorts, ScriptedTools
from reference_harness.errors import ScriptError, ScriptUnconsumed
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from reference_harness.ports import AgentPort, ReviewerPort

__all__ = [
    "CAPABILITIES",
    "IMPLEMENTATION_NAME",
    "MODEL_ENDPOINT",
    "PROTOCOL_VERSION",
    "FixtureIUT",
    "ObservationContractError",
    "ReferenceIUT",
    "SimulatedClient",
    "cancelled_run",
    "create",
    "create_with_endpoint",
    "observe",
    "observe_fixture",
]

_TIMEOUT_SHARE: Final = 0.9
"""Share of ``model_call_timeout_ms`` given to one HTTP request over the kit's model endpoint."""
T = TypeVar("T")


class ReferenceIUT(FixtureIUT):
    """The reference Harness on the fixture's scripted ports, or on the kit's model endpoint."""

    async def _observe(
        self, fixture: dict[str, Any], model_endpoint: dict[str, Any] | None
    ) -> dict[str, Any]:
        return await observe_fixture(fixture, model_endpoint)


async def observe_fixture(  # noqa: PLR0913 - the swappable parts of a mutant are the whole seam
    fixture: dict[str, Any],
    model_endpoint: dict[str, Any] | None,
    *,
    agent: Callable[[AgentPort], AgentPort] | None = None,
    reviewer: Callable[[ReviewerPort], ReviewerPort] | None = None,
    client: Callable[[Any], Any] | None = None,
    harness_class: type[Harness] = Harness,
    store_class: type[RunStore] = RunStore,
    retry: RetryPolicy = DEFAULT_RETRY_POLICY,
) -> dict[str, Any]:
    """Run one validated fixture on scripted ports, or on the kit's ``model_endpoint``.

    Scripted path: the fixture's turns play the models, every model call's input is recorded
    (:class:`~reference_harness._model_input.ModelCallLog`) into ``model_calls``, and script
    errors go to ``error``. Endpoint path: the OpenAI-compatible ports
    (:func:`reference_harness.openai._endpoint.endpoint_ports`, built with ``client`` when given)
    call the kit, each HTTP request bounded by 90 % of ``model_call_timeout_ms``; the fixture's
    tool scripts still play the tools (their script errors go to ``error``). ``agent`` and
    ``reviewer`` wrap the model ports; the other arguments are those of :func:`observe`.
    """
    if model_endpoint is None:
        log = ModelCallLog()
        ports = ScriptedPorts.from_fixture(fixture)
        observation = await observe(
            fixture,
            router=log.router(ports.router),
            agent=(agent or _same)(log.agent(ports.agent)),
            reviewer=(reviewer or _same)(log.reviewer(ports.reviewer)),
            tools=ports.tools,
            scope=CancelScope(),
            harness_class=harness_class,
            store_class=store_class,
            retry=retry,
        )
        observation["model_calls"] = log.model_calls(observation["trace"])
        script_error = ports.script_error(cancelled=cancelled_run(observation))
    else:
        from reference_harness.openai._endpoint import endpoint_ports  # noqa: PLC0415 - SDK import

        timeout_s = Limits(**fixture["limits"]).model_call_timeout_s * _TIMEOUT_SHARE
        kwargs = {} if client is None else {"client": client}
        model = endpoint_ports(model_endpoint, timeout_s=timeout_s, **kwargs)
        errors: list[ScriptError] = []
        tools = ScriptedTools(fixture["tools"], errors)
        try:
            observation = await observe(
                fixture,
                router=model.router,
                agent=(agent or _same)(model.agent),
                reviewer=(reviewer or _same)(model.reviewer),
                tools=tools,
                scope=CancelScope(),
                harness_class=harness_class,
                store_class=store_class,
                retry=retry,
            )
        finally:
            model.close()
        script_error = errors[0] if errors else None
        if script_error is None and tools.left and not cancelled_run(observation):
            script_error = ScriptUnconsumed(
                f"script not consumed: tools: {tools.left} turn(s) left"
            )
    if script_error is not None:
        observation["error"] = {"code": script_error.code, "message": str(script_error)[:4000]}
    return observation


def _same(port: T) -> T:
    return port


def create() -> ReferenceIUT:
    """Return a new :class:`ReferenceIUT` (the kit's ``module:factory`` entry; scripted ports)."""
    return ReferenceIUT()


def create_with_endpoint() -> ReferenceIUT:
    """Return a :class:`ReferenceIUT` declaring ``MODEL_ENDPOINT`` (the stdio entry's IUT)."""
    return ReferenceIUT(model_endpoint=True)
