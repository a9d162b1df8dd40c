"""The property registry: spec scenario id -> its property (strategy + the Gherkin THEN check).

Each entry names the spec's THEN sentence: the property checks it with ``THEN_CHECKS[then]``, the
very function the Gherkin Then step runs, so a scenario and its property cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

from conformance.strategies import phase_plan_variants, registry_variants, strategy_for

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from hypothesis import strategies as st

__all__ = ["PROPERTIES", "PROPERTY_TESTS", "ScenarioProperty", "property_test_id"]

_TEST_FILE: Final = "tests/properties/test_prop_spec_scenarios.py"


@dataclass(frozen=True)
class ScenarioProperty:
    """The property of one spec Scenario.

    Attributes:
        scenario_id: the spec scenario id (kebab slug of its name).
        requirement_id: its requirement's id.
        then: the spec's THEN sentence, a key of :data:`conformance.bdd.THEN_CHECKS`.
        kind: ``run`` (fixtures run through an adapter) or ``contract`` (variants of the
            stage-zero contract data, checked without an IUT).
        strategy: returns the Hypothesis strategy of fixtures (``run``) or
            :class:`~conformance.strategies.ContractVariant` values (``contract``).
        contract: for ``contract`` properties, the contract the variants are of.
        capabilities: the IUT capabilities a ``run`` property needs.
    """

    scenario_id: str
    requirement_id: str
    then: str
    kind: Literal["run", "contract"]
    strategy: Callable[[], st.SearchStrategy[Any]]
    contract: str = ""
    capabilities: frozenset[str] = frozenset({"DIAGNOSIS"})


def _run(scenario: str, requirement: str, then: str, *capabilities: str) -> ScenarioProperty:
    return ScenarioProperty(
        scenario,
        requirement,
        then,
        "run",
        strategy_for(scenario),
        capabilities=frozenset({"DIAGNOSIS", *capabilities}),
    )


_ALL: Final = (
    ScenarioProperty(
        "contract-ownership-is-inspected",
        "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning",
        "no Harness contract assigns Planner, Executor, Composer, workflow routing, or diagnosis "
        "reasoning responsibilities to Harness",
        "contract",
        registry_variants,
        contract="component-registry",
        capabilities=frozenset(),
    ),
    _run(
        "duplicate-tool-call-id-is-proposed",
        "tool-invocation-identity-shall-use-the-framework-tool-call-id",
        "the contract classifies the second action as an error and prohibits overwriting the "
        "first canonical invocation",
    ),
    _run(
        "successful-query-returns-no-evidence",
        "invocation-status-and-evidence-status-shall-be-independent",
        "invocation status is READY and evidence status is NO_EVIDENCE",
    ),
    _run(
        "no-evidence-result-is-cited",
        "invocation-status-and-evidence-status-shall-be-independent",
        "the Analysis kind MUST be NEGATIVE_OBSERVATION and MUST remain bounded to the Tool "
        "query scope",
        "STRUCTURAL_REPAIR",
    ),
    _run(
        "draft-contains-an-analysis-item",
        "diagnosis-draft-shall-expose-typed-report-structure",
        "every Analysis has a unique analysis ID, a fixed Analysis kind and at least one Tool "
        "Call ID",
        "STRUCTURAL_REPAIR",
    ),
    ScenarioProperty(
        "knowledge-answer-cites-an-unknown-document",
        "knowledge-answers-shall-use-exact-rag-bindings",
        "later Harness validation rejects the answer instead of publishing the fabricated citation",
        "run",
        strategy_for("knowledge-answer-cites-an-unknown-document"),
        capabilities=frozenset({"KNOWLEDGE_QUERY", "STRUCTURAL_REPAIR"}),
    ),
    _run(
        "evidence-validation-fails-twice",
        "safe-fallback-shall-use-a-fixed-schema",
        "the fallback type is EVIDENCE_VALIDATION_FAILED and verified sources are empty",
        "STRUCTURAL_REPAIR",
    ),
    _run(
        "latest-run-is-a-fallback",
        "previous-turn-shall-come-from-a-safe-durable-run-result",
        "it is not used as Diagnosis previous turn and selection continues to the latest "
        "eligible DIAGNOSIS + SUCCESS Run",
        "PREVIOUS_TURN",
    ),
    _run(
        "client-disconnects-during-a-model-call",
        "cancellation-shall-be-layered-and-observable",
        "the system prevents later Draft release, requests interruption, records an internal "
        "cancelled terminal state and discards any late model result",
        "CANCELLATION",
    ),
    _run(
        "semanticguard-returns-an-invalid-schema",
        "retry-attempts-shall-be-owned-by-harness",
        "Harness may execute one second attempt with the same verified snapshot and records "
        "both attempts",
    ),
    ScenarioProperty(
        "stage-4-completes-internal-agent-tests",
        "phase-gates-shall-remain-serial",
        "the public Chat entry remains on the old path and stage 6B cutover is prohibited",
        "contract",
        phase_plan_variants,
        contract="phase-plan",
        capabilities=frozenset(),
    ),
)

PROPERTIES: Final[Mapping[str, ScenarioProperty]] = MappingProxyType(
    {p.scenario_id: p for p in _ALL}
)
"""Spec scenario id -> its property, in spec order (all eleven spec Scenarios)."""


def property_test_id(scenario_id: str) -> str:
    """Return the pytest node id of the property test of ``scenario_id``."""
    return f"{_TEST_FILE}::test_prop_spec_scenario[{scenario_id}]"


PROPERTY_TESTS: Final[Mapping[str, str]] = MappingProxyType(
    {scenario_id: property_test_id(scenario_id) for scenario_id in PROPERTIES}
)
"""Spec scenario id -> the property test's pytest node id (the traceability matrix's column)."""
