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
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from unittest import mock

from reference_harness._harness import Harness
from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
from reference_harness.iut import FixtureIUT, observe_fixture
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
        rule_id: the conformance check rule id (``R<n>.<slug>``) a kill must name: the suite
            kills the mutant only through a failure that names this rule.
        harness_class: the Harness class (a subclass breaking the rule, or the reference one).
        store_class: the run store class.
        agent: wraps the scripted Diagnosis Agent port.
        reviewer: wraps the scripted SemanticGuard port.
        retry: the retry policy the Harness gets.
        patches: reference functions wrapped while a Run executes.
        endpoint_client: when set, the mutant declares ``MODEL_ENDPOINT`` and, given the kit's
            model endpoint, talks to it through HTTP clients built by this callable
            (``OpenAIConfig -> ChatClient``), e.g. one whose SDK retries.
        capabilities: the capabilities its ``hello`` declares (``None``: the reference's), e.g.
            without SEMANTIC_RETRY for a mutant that retries what it declares it does not.
        sends_broken_observation: it sends its observation unchecked, as a Harness that does not
            validate its own output would, so the kit sees a Run that breaks a contract rule
            (the reference refuses to send such an observation).
        cross_process: its fault shows only across processes (e.g. hash-seed ordering): the
            self-test judges it through the stdio entry
            (``python -m reference_harness.stdio --mutant NAME``), in fresh processes.
    """

    name: str
    requirement_id: str
    rule: str
    rule_id: str = ""
    harness_class: type[Harness] = Harness
    store_class: type[RunStore] = RunStore
    agent: Callable[[AgentPort], AgentPort] | None = None
    reviewer: Callable[[ReviewerPort], ReviewerPort] | None = None
    retry: RetryPolicy = DEFAULT_RETRY_POLICY
    patches: tuple[Patch, ...] = ()
    endpoint_client: Callable[[Any], Any] | None = None
    capabilities: tuple[str, ...] | None = None
    cross_process: bool = False
    sends_broken_observation: bool = False


class MutantIUT(FixtureIUT):
    """The mutant described by ``spec`` behind the adapter protocol.

    Like :class:`reference_harness.iut.ReferenceIUT` (same ``hello`` capabilities, fixture and
    observation validation), named ``srdh-mutant-<name>``.
    """

    def __init__(self, spec: MutantSpec) -> None:
        """Create the IUT; each ``run`` gets its own store and ports."""
        super().__init__(model_endpoint=spec.endpoint_client is not None)
        self.spec = spec
        self.implementation_name = f"srdh-mutant-{spec.name}"
        self.checks_own_observation = not spec.sends_broken_observation

    def hello(self) -> dict[str, Any]:
        """Return the reference ``hello``, with the spec's capabilities when it names them."""
        message = super().hello()
        if self.spec.capabilities is not None:
            message["capabilities"] = list(self.spec.capabilities)
        return message

    def run(self, fixture: object, model_endpoint: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one Scenario Fixture with the mutant's patches applied, return the observation.

        Raises:
            ContractError: ``fixture`` is not a valid Scenario Fixture.
            ObservationContractError: the mutant produced an observation its contract rejects.
            RuntimeError: the IUT is closed.
        """
        with _PATCH_LOCK, contextlib.ExitStack() as stack:
            for patch in self.spec.patches:
                module = importlib.import_module(patch.module)
                original = getattr(module, patch.attribute)
                stack.enter_context(
                    mock.patch.object(module, patch.attribute, patch.wrap(original))
                )
            return super().run(fixture, model_endpoint)

    async def _observe(
        self, fixture: dict[str, Any], model_endpoint: dict[str, Any] | None
    ) -> dict[str, Any]:
        spec = self.spec
        return await observe_fixture(
            fixture,
            model_endpoint,
            agent=spec.agent,
            reviewer=spec.reviewer,
            client=spec.endpoint_client,
            harness_class=spec.harness_class,
            store_class=spec.store_class,
            retry=spec.retry,
        )
