"""A pytest plugin that selects suite scenarios and records their outcomes and messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from conformance._kitfault import KitFault, is_kit_fault
from conformance.adapters import AdapterError
from conformance.bdd import ScenarioContext, scenario_identity
from conformance.bdd._then_runtime import FRESH_PROCESSES_STEP, start_fresh_processes
from conformance.bdd.plugin import ADAPTER_KEY, EXAMPLES_KEY
from conformance.checks import rule_ids_in

if TYPE_CHECKING:
    from collections.abc import Generator

    from conformance.adapters import Adapter

__all__ = ["Outcome", "ResultCollector", "kit_fault_of", "message_of"]


@dataclass
class Outcome:
    """What happened to one test item, merged over its setup, call and teardown phases."""

    scenario_id: str
    outcome: str = "not-run"
    """``not-run`` until its ``call`` phase passes (``passed``), or a phase fails or skips: an
    item a stopped session never reached is never counted as passed."""
    message: str = ""
    duration_s: float = 0.0
    optional: list[str] = field(default_factory=list)
    """Optional (RFC 2119 MAY) behaviours a Then step found not implemented (as declared)."""
    example_id: str = ""
    step: str = ""
    fixture: dict[str, Any] | None = None
    observations: tuple[dict[str, Any], ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids the failure message names, in order (empty unless failed)."""
        return tuple(rule_ids_in(self.message)) if self.outcome == "failed" else ()


def message_of(call: pytest.CallInfo[None]) -> str:
    """The message of a phase: the check's text, the skip reason, the IUT's failure, or else.

    A failed check (``AssertionError``) and an IUT's failure (an
    :class:`~conformance.adapters.AdapterError`) are their text alone, no class name; any other
    exception keeps its type's name (``KeyError: 'run_id'``).
    """
    excinfo = call.excinfo
    if excinfo is None:
        return ""
    if isinstance(excinfo.value, pytest.skip.Exception):
        return str(excinfo.value.msg)
    text = str(excinfo.value)
    # a check's failure and an IUT's protocol failure are sentences for the user; anything
    # else (a kit bug, an in-process IUT's own exception) keeps its type's name
    plain = isinstance(excinfo.value, AssertionError | AdapterError)
    return text if plain and text else excinfo.exconly()


def kit_fault_of(call: pytest.CallInfo[None], where: str) -> KitFault | None:
    """The :class:`~conformance._kitfault.KitFault` of a phase that the kit's own code failed.

    ``None`` when the phase passed, or failed by a verdict on the IUT (a check's
    ``AssertionError``, an ``AdapterError``) or a pytest outcome (see
    :func:`~conformance._kitfault.is_kit_fault`); ``where`` names what was being judged.
    """
    error = call.excinfo.value if call.excinfo is not None else None
    if error is None or not is_kit_fault(error):
        return None
    return error if isinstance(error, KitFault) else KitFault(error, where)


def _has_step(item: pytest.Item, sentence: str) -> bool:
    """Whether ``item`` is a Gherkin scenario with the step ``sentence`` (any keyword)."""
    from pytest_bdd.scenario import scenario_wrapper_template_registry  # noqa: PLC0415

    function = getattr(item, "obj", None)
    template = scenario_wrapper_template_registry.get(function) if callable(function) else None
    return template is not None and any(step.name == sentence for step in template.steps)


@dataclass
class ResultCollector:
    """Keeps only the ``wanted`` scenario ids, stashes the adapter, and records every item.

    ``examples`` narrows a scenario to some of its examples: scenario id -> the example
    (fixture) ids to keep (``<scenario>-example-<n>`` of an outline); a scenario not in it keeps
    every example. ``seen_examples`` lists every example id collected for a wanted scenario.
    ``property_examples`` (when set) is the run's generated examples per property, handed to
    the suite's property scenarios.
    """

    adapter: Adapter
    wanted: set[str]
    examples: dict[str, set[str]] = field(default_factory=dict)
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    seen_examples: set[str] = field(default_factory=set)
    property_examples: int | None = None
    kit_fault: KitFault | None = None
    """The first exception of the kit's own code (not a verdict): the session stops at it and
    :func:`~conformance.suite.run_suite` raises it."""

    def pytest_configure(self, config: pytest.Config) -> None:
        """Hand the caller's adapter (and examples per property) to the plugin."""
        config.stash[ADAPTER_KEY] = self.adapter
        if self.property_examples is not None:
            config.stash[EXAMPLES_KEY] = self.property_examples

    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Deselect the scenarios that were not asked for."""
        kept, dropped = [], []
        for item in items:
            _, scenario_id, example_id = scenario_identity(item)
            if scenario_id in self.wanted:
                self.seen_examples.add(example_id)
            only = self.examples.get(str(scenario_id))
            if scenario_id in self.wanted and (only is None or example_id in only):
                kept.append(item)
                self.outcomes[item.nodeid] = Outcome(
                    scenario_id=str(scenario_id), example_id=example_id
                )
            else:
                dropped.append(item)
        items[:] = kept
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        if any(_has_step(item, FRESH_PROCESSES_STEP) for item in kept):
            start_fresh_processes(self.adapter)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Record the outcome and the precise message of each phase."""
        report = yield
        outcome = self.outcomes.get(item.nodeid)
        if outcome is not None:
            outcome.duration_s += report.duration
            for name, value in report.user_properties:
                if name == "srdh_optional" and str(value) not in outcome.optional:
                    outcome.optional.append(str(value))
            fault = kit_fault_of(call, _where(outcome)) if report.failed else None
            if fault is not None and self.kit_fault is None:
                self.kit_fault = fault
                item.session.shouldstop = f"a fault of the kit: {fault}"
            if report.failed:
                outcome.outcome = "failed"
                outcome.message = outcome.message or message_of(call)
            elif report.skipped and outcome.outcome != "failed":
                outcome.outcome = "skipped"
                outcome.message = message_of(call)
            elif report.when == "call" and report.passed and outcome.outcome == "not-run":
                outcome.outcome = "passed"
        return report

    def _keep_context(self, request: pytest.FixtureRequest) -> None:
        outcome = self.outcomes.get(request.node.nodeid)
        if outcome is None or "srdh_context" not in request.fixturenames:
            return
        context = request.getfixturevalue("srdh_context")
        if isinstance(context, ScenarioContext) and context.fixture is not None:
            outcome.fixture = context.fixture
            outcome.observations = tuple(context.observations)

    def pytest_bdd_after_step(self, request: pytest.FixtureRequest) -> None:
        """Keep the fixture and observations of the example after each step."""
        self._keep_context(request)

    def pytest_bdd_step_error(
        self,
        request: pytest.FixtureRequest,
        step: Any,  # noqa: ANN401 - pytest-bdd's Step (pluggy passes only the named arguments)
    ) -> None:
        """Remember the Gherkin step that failed (``Then …``) and what the example ran."""
        outcome = self.outcomes.get(request.node.nodeid)
        self._keep_context(request)
        if outcome is not None and not outcome.step:
            kind = str(getattr(step, "type", "") or getattr(step, "keyword", ""))
            outcome.step = f"{kind.capitalize()} {step.name}".strip()


def _where(outcome: Outcome) -> str:
    """``scenario ID (example EX), step "Then …"``: what a kit fault interrupted."""
    where = f"scenario {outcome.scenario_id}"
    if outcome.example_id and outcome.example_id != outcome.scenario_id:
        where += f" (example {outcome.example_id})"
    return f"{where}, step {outcome.step!r}" if outcome.step else where
