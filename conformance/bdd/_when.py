"""When steps: run the fixture through the IUT adapter (or read the stage-zero contracts)."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_bdd import when

from conformance.adapters import AdapterError, ObservationContractError
from conformance.bdd._context import ScenarioContext, scenario_identity, scenario_name
from conformance.checks import check_observation_contract, fit_to_capabilities
from conformance.checks._runtime_oracle import is_blocking

__all__ = ["SPEC_RUN_SENTENCES"]

SPEC_RUN_SENTENCES = (
    "two Tool actions in one Run present the same framework Tool Call ID",
    "a Tool executes successfully and its bounded projection contains zero matching evidence",
    "a Diagnosis Draft cites a NO_EVIDENCE Tool result",
    "the Diagnosis Agent emits a structured Draft",
    "an answer item references a document ID absent from the bounded lookup result",
    "initial validation and the single no-Tool structural repair both fail",
    "the latest same-session Run ended with FALLBACK",
    "an SSE client disconnects while a synchronous model call is in flight",
    "the first SemanticGuard attempt returns an invalid structured result",
)
"""The spec's WHEN sentences whose step runs the scenario's fixture once."""


def _required_capabilities(request: pytest.FixtureRequest, fixture: dict[str, Any]) -> set[str]:
    needed = {str(m.args[0]) for m in request.node.iter_markers("srdh_capability") if m.args}
    intents = [t.get("intent") for t in fixture.get("router", []) if t.get("kind") == "intent"]
    needed.add("KNOWLEDGE_QUERY" if "KNOWLEDGE_QUERY" in intents else "DIAGNOSIS")
    return needed


def _run(request: pytest.FixtureRequest, context: ScenarioContext, times: int) -> None:
    requirement, scenario, fixture_id = scenario_identity(request.node)
    spec_scenario = request.node.get_closest_marker("srdh_scenario") is not None
    fixture = context.builder.build(
        fixture_id,
        requirement_id=requirement,
        scenario_id=scenario if spec_scenario else None,
        description=scenario_name(request.node),
    )
    iut = context.iut
    assert iut is not None  # noqa: S101 - the srdh_context fixture always sets it
    missing = sorted(_required_capabilities(request, fixture) - iut.capabilities)
    if missing:
        pytest.skip(f"IUT lacks capability {', '.join(missing)} (declared in its hello)")
    # An IUT that declares no optional retry (ROUTER_RETRY, SEMANTIC_RETRY) gets the turns it
    # consumes without it; the checks then judge it by the policy it declares (RFC 2119 "may").
    fixture = fit_to_capabilities(fixture, iut.capabilities)
    context.fixture = fixture
    try:
        context.observations = [iut.run(fixture) for _ in range(times)]
    except ObservationContractError as error:
        # A Run no conforming Harness can report: a conformance failure naming its rule. The
        # observation as sent (stdio) stays in the context: the report shows its trace beside
        # the reference's, rather than an empty one.
        sent = error.answer.get("observation") if error.answer is not None else None
        if isinstance(sent, dict):
            context.observations = [sent]
        check_observation_contract(error.violations).require()
        raise
    except AdapterError as error:
        raise _hung_on_blocked_call(fixture, error) from error


def _hung_on_blocked_call(fixture: dict[str, Any], error: AdapterError) -> Exception:
    """Name the rule when an IUT gives no observation for a fixture with a blocked model call.

    Such a call must end by the Harness's own ``model_call_timeout_ms`` (or the Run's
    cancellation); an IUT that hangs instead waits far past its limit (Requirement
    "Cancellation SHALL be layered and observable": "HTTP timeout for already-blocking
    synchronous model calls"). Other adapter errors are returned unchanged.
    """
    blocked = [
        turn
        for part in ("router", "agent", "semantic_guard")
        for turn in fixture.get(part, [])
        if is_blocking(turn)
    ]
    if not blocked:
        return error
    limit = fixture.get("limits", {}).get("model_call_timeout_ms", 5000)
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    return AssertionError(
        f"[R8.model-call-timeout] the IUT gave no observation ({first}) for a fixture whose "
        f"blocked model call must end by model_call_timeout_ms={limit} ms: the Harness waited "
        "far past its own timeout"
    )


@when("the Run is executed")
def _executed(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
    _run(request, srdh_context, 1)


@when("the Run is executed twice")
def _executed_twice(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
    _run(request, srdh_context, 2)


def _spec_run_step(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
    _run(request, srdh_context, 1)


for _sentence in SPEC_RUN_SENTENCES:
    when(_sentence)(_spec_run_step)


@when("a later phase reads the stage-zero contracts")
def _reads_contracts(srdh_context: ScenarioContext) -> None:
    assert "component-registry" in srdh_context.contracts  # noqa: S101 - set by the Given step


@when("stage 4 passes its focused tests but stage 5 Guards are not implemented")
def _stage_four_done(srdh_context: ScenarioContext) -> None:
    assert "phase-plan" in srdh_context.contracts  # noqa: S101 - set by the Given step
