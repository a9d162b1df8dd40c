"""Run a scenario property, or the global invariants, against any adapter with Hypothesis.

Each run returns a :class:`PropertyResult` (never raises for a failing IUT): how many examples
ran, and for a failure the check's message and the (shrunk, unless shrinking is off) fixture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance._examples import DEFAULT_EXAMPLES
from conformance.anyfixture._engine import (
    PropertyResult,
    capable,
    drive,
    observe,
    property_settings,
)
from conformance.bdd import ScenarioContext, then_check
from conformance.checks import (
    check_global_invariants,
    check_model_inputs,
    check_same_normalized_trace,
    fit_to_capabilities,
)
from conformance.strategies import any_fixtures, pinned_fixtures, strategy_for

if TYPE_CHECKING:
    from hypothesis import settings

    from conformance.adapters import Adapter
    from conformance.properties._registry import ScenarioProperty

__all__ = [
    "DEFAULT_EXAMPLES",
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
    check = then_check(prop.then)
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
