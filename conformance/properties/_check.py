"""Run a scenario property, or the global invariants, against any adapter with Hypothesis.

Each run returns a :class:`PropertyResult` (never raises for a failing IUT): how many examples
ran, and for a failure the check's message and the (shrunk, unless shrinking is off) fixture.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from hypothesis import HealthCheck, Phase, example, given, settings

from conformance.adapters import ObservationContractError
from conformance.bdd import THEN_CHECKS, ScenarioContext
from conformance.checks import (
    check_global_invariants,
    check_model_inputs,
    check_observation_contract,
    check_same_normalized_trace,
    expected_outcome,
    fit_to_capabilities,
)
from conformance.strategies import any_fixtures, pinned_fixtures, strategy_for

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from hypothesis import strategies as st

    from conformance.adapters import Adapter
    from conformance.properties._registry import ScenarioProperty

__all__ = [
    "INVARIANTS",
    "PropertyResult",
    "capable",
    "drive",
    "observe",
    "property_settings",
    "run_invariants",
    "run_property",
]

INVARIANTS = "global-invariants"
"""The name of the global invariants property in results."""

Outcome = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class PropertyResult:
    """The outcome of one property run.

    Attributes:
        name: the spec scenario id, or :data:`INVARIANTS`.
        outcome: ``passed``, ``failed`` or ``skipped`` (the IUT lacks a needed capability).
        examples: how many generated examples were run (shrinking replays included).
        message: the failing check's message, then the failing fixture as one line of JSON (the
            shrunk one unless shrinking is off: replay it with ``srdh demo``), the skip reason, or
            ``""``.
        fixture: the failing Scenario Fixture (or contract document), ``None`` otherwise.
        seconds: wall time of the run, in seconds.
    """

    name: str
    outcome: Outcome
    examples: int
    message: str = ""
    fixture: dict[str, Any] | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the property held (a skip is not a pass)."""
        return self.outcome == "passed"


def property_settings(max_examples: int = 100, *, shrink: bool = True) -> settings:
    """Return derandomized settings without deadline or example database.

    ``shrink=False`` stops at the first failing example (what the mutant self-test wants).
    """
    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else [])]
    return settings(
        max_examples=max_examples,
        derandomize=True,
        deadline=None,
        database=None,
        phases=phases,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class _Recorder:
    def __init__(self) -> None:
        self.examples = 0
        self.failing: dict[str, Any] | None = None


def drive(
    name: str,
    strategy: st.SearchStrategy[Any],
    body: Callable[[Any], None],
    config: settings,
    explicit: Sequence[Any] = (),
) -> PropertyResult:
    """Run ``body`` on every value of ``strategy`` (after the ``explicit`` ones) under ``config``.

    Never raises for a failing value: the result says ``failed`` with the exception's message
    and the failing fixture (shrunk unless ``config`` has no shrink phase) as one line of JSON.
    """
    recorder = _Recorder()

    def test(value: Any) -> None:  # noqa: ANN401 - a drawn fixture or contract variant
        recorder.examples += 1
        try:
            body(value)
        except Exception:
            document = getattr(value, "document", value)
            recorder.failing = document if isinstance(document, dict) else None
            raise

    wrapped = given(strategy)(test)
    for value in explicit:
        wrapped = example(value)(wrapped)
    started = time.perf_counter()
    try:
        config(wrapped)()
    except Exception as error:  # noqa: BLE001 - any failure of the IUT or its check is a result
        message = f"{type(error).__name__}: {error}"
        if recorder.failing is not None:
            replay = json.dumps(recorder.failing, ensure_ascii=True, sort_keys=True)
            message += (
                "\nfailing fixture (JSON; save it and replay with `srdh run --fixture FILE` or "
                f"`srdh demo FILE`):\n{replay}"
            )
        return PropertyResult(
            name,
            "failed",
            recorder.examples,
            message,
            recorder.failing,
            time.perf_counter() - started,
        )
    return PropertyResult(name, "passed", recorder.examples, seconds=time.perf_counter() - started)


def run_property(
    prop: ScenarioProperty, adapter: Adapter | None, *, config: settings | None = None
) -> PropertyResult:
    """Run ``prop`` with ``config`` (default: :func:`property_settings`).

    A ``run`` property runs each generated fixture once through ``adapter`` and requires the
    scenario's Then check; it is skipped when the adapter lacks a capability it needs. A
    ``contract`` property checks each generated contract variant with the Then check and
    requires its verdict to equal the variant's ``keeps_rule``, and the stage-zero document to
    pass.

    Raises:
        ValueError: a ``run`` property without an adapter.
    """
    config = config or property_settings()
    check = THEN_CHECKS[prop.then]
    if prop.kind == "contract":

        def contract_body(variant: Any) -> None:  # noqa: ANN401 - a ContractVariant
            verdict = check(ScenarioContext(contracts={prop.contract: variant.document}))
            if verdict.passed != variant.keeps_rule:
                expected = "keeps" if variant.keeps_rule else "breaks"
                message = f"{prop.contract} variant ({variant.change}) {expected} the rule but "
                raise AssertionError(message + f"the check says: {verdict.message}")

        return drive(prop.scenario_id, prop.strategy(), contract_body, config)
    if adapter is None:
        message = f"property {prop.scenario_id} runs fixtures and needs an adapter"
        raise ValueError(message)
    missing = sorted(prop.capabilities - adapter.capabilities)
    if missing:
        reason = f"IUT lacks capability {', '.join(missing)} (declared in its hello)"
        return PropertyResult(prop.scenario_id, "skipped", 0, reason)

    def run_body(drawn: dict[str, Any]) -> None:
        fixture = fit_to_capabilities(drawn, adapter.capabilities)
        (observation,) = observe(adapter, fixture, 1)
        context = ScenarioContext(iut=adapter, fixture=fixture, observations=[observation])
        check(context).require()

    return drive(prop.scenario_id, prop.strategy(), run_body, config)


def observe(adapter: Adapter, fixture: dict[str, Any], times: int) -> list[dict[str, Any]]:
    """Run ``fixture`` ``times`` times; an observation breaking its contract fails by rule.

    Raises:
        AssertionError: an observation broke its RunObservation contract (its lines name rules).
        AdapterError: any other protocol failure of the IUT.
    """
    try:
        return [adapter.run(fixture) for _ in range(times)]
    except ObservationContractError as error:
        check_observation_contract(error.violations).require()
        raise


def run_invariants(adapter: Adapter, *, config: settings | None = None) -> PropertyResult:
    """Run the global invariants over a mix of every scenario strategy plus random faults.

    Each fixture runs twice: both observations keep every global invariant (nothing
    unvalidated released, no draft text in a fallback, at most one repair, attempts within the
    retry policy, …) and their normalized traces are identical. The run starts with the
    :func:`~conformance.strategies.pinned_fixtures`. Fixtures needing a capability the adapter
    lacks are not drawn.
    """
    from conformance.properties._registry import PROPERTIES  # noqa: PLC0415 - import cycle

    usable = [
        strategy_for(p.scenario_id)
        for p in PROPERTIES.values()
        if p.kind == "run" and p.capabilities <= adapter.capabilities
    ]

    capabilities = adapter.capabilities

    def body(drawn: dict[str, Any]) -> None:
        fixture = fit_to_capabilities(drawn, capabilities)
        first, second = observe(adapter, fixture, 2)
        for result in (
            check_global_invariants(first, fixture, capabilities),
            check_global_invariants(second, fixture, capabilities),
            check_model_inputs(first, fixture),
            check_model_inputs(second, fixture),
            check_same_normalized_trace(first, second),
        ):
            result.require()

    pinned = [f for f in pinned_fixtures() if capable(f, adapter.capabilities)]
    return drive(INVARIANTS, any_fixtures(usable), body, config or property_settings(), pinned)


def capable(fixture: dict[str, Any], capabilities: frozenset[str]) -> bool:
    """Whether an IUT with ``capabilities`` can run ``fixture`` (optional retries aside)."""
    needed = {"DIAGNOSIS"}
    if fixture["client"]:
        needed.add("CANCELLATION")
    # An optional retry the IUT does not declare is not needed: the fixture is fitted to it.
    if any(t.get("intent") == "KNOWLEDGE_QUERY" for t in fixture["router"]):
        needed.add("KNOWLEDGE_QUERY")
    if fixture["prior_runs"]:
        needed.add("PREVIOUS_TURN")
    if expected_outcome(fixture).repair_requested:
        needed.add("STRUCTURAL_REPAIR")
    return needed <= capabilities
