"""The per-scenario state shared by the Given, When and Then steps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from conformance.builders import FixtureBuilder
from conformance.checks import declined_retries, fit_to_run

if TYPE_CHECKING:
    import pytest

    from conformance.adapters import Adapter

__all__ = ["ScenarioContext", "scenario_identity", "scenario_name"]

_ID_CHARS = re.compile(r"[^A-Za-z0-9._:-]+")
_MAX_ID = 128


@dataclass
class ScenarioContext:
    """What one Gherkin scenario has built and observed so far.

    Attributes:
        iut: the adapter of the implementation under test.
        builder: the Scenario Fixture under construction (Given steps).
        fixture: the fixture that was run (When), ``None`` before; the Then checks judge
            :attr:`ran_fixture`, the same fixture trimmed to the optional retries the (first)
            Run took.
        observations: the RunObservations of the fixture's runs, in order.
        contracts: the stage-zero contract data read by contract-only scenarios
            (``"component-registry"``, ``"phase-plan"``).
        optional: optional (RFC 2119 MAY) behaviours the IUT declares it does not implement and
            that a Then step judged by the declared policy instead; the report shows each as
            "optional, not implemented".
        where: how the observations were made, for messages (e.g. two fresh IUT processes).
        companions: further fixtures run in the same fresh processes, as (fixture id, the
            observation of each process), judged by the same determinism Then step.
        timeout_scale: factor applied to the model-call and tool timeouts a Given step sets
            (default 1). A test module whose IUT pays real HTTP and SDK costs on a shared machine
            may raise it; the fixture that is run holds the scaled values, so every check judges
            the timeouts the IUT was actually given.
    """

    iut: Adapter | None = None
    builder: FixtureBuilder = field(default_factory=FixtureBuilder)
    fixture: dict[str, Any] | None = None
    observations: list[dict[str, Any]] = field(default_factory=list)
    contracts: dict[str, dict[str, Any]] = field(default_factory=dict)
    optional: list[str] = field(default_factory=list)
    where: str = ""
    companions: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    timeout_scale: int = 1
    property_result: Any = None
    _judged: tuple[int, int, dict[str, Any], frozenset[str] | None] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def declared(self) -> frozenset[str] | None:
        """The IUT's declared capabilities, ``None`` without an IUT (then: all of them)."""
        return None if self.iut is None else frozenset(self.iut.capabilities)

    @property
    def declined(self) -> dict[str, str]:
        """The declared optional retries the (first) Run did not take: capability -> outcome.

        ``SEMANTIC_RETRY`` / ``ROUTER_RETRY`` are a *may* per trigger
        (:func:`~conformance.checks.declined_retries`); empty before any Run.
        """
        if not self.observations:
            return {}
        return declined_retries(self.observations[0], self.declared)

    def _judged_run(self) -> tuple[dict[str, Any], frozenset[str] | None]:
        """(fixture, capabilities) the Then checks judge the (first) Run by, computed once."""
        assert self.fixture is not None, "no Run was executed before this Then step"  # noqa: S101
        if not self.observations:
            return self.fixture, self.declared
        key = (id(self.fixture), id(self.observations[0]))
        if self._judged is None or self._judged[:2] != key:
            fixture, capabilities = fit_to_run(self.observations[0], self.fixture, self.declared)
            self._judged = (*key, fixture, capabilities)
        return self._judged[2], self._judged[3]

    @property
    def capabilities(self) -> frozenset[str] | None:
        """The capabilities the Then checks judge by.

        The declared ones (``None`` without an IUT: all of them) less each optional retry the
        (first) Run declined.
        """
        if self.fixture is None or not self.observations:
            return self.declared
        return self._judged_run()[1]

    @property
    def as_declared(self) -> tuple[dict[str, Any], frozenset[str] | None]:
        """Return (the fixture as run, the declared capabilities): the global invariants' input.

        They judge each Run's declined retries themselves, and the turns those leave unread.

        Raises:
            AssertionError: no run happened yet.
        """
        assert self.fixture is not None, "no Run was executed before this Then step"  # noqa: S101
        return self.fixture, self.declared

    @property
    def observation(self) -> dict[str, Any]:
        """The (first) RunObservation.

        Raises:
            AssertionError: no run happened yet (a Then step before any When).
        """
        assert self.observations, "no Run was executed before this Then step"  # noqa: S101
        return self.observations[0]

    @property
    def ran_fixture(self) -> dict[str, Any]:
        """The fixture that was run, trimmed to the optional retries the (first) Run took.

        A declared Router or SemanticGuard retry the Run declined (a *may*, per trigger) is
        judged like an undeclared one: the fixture trimmed to one attempt of that component
        (:func:`~conformance.checks.fit_to_run`). Otherwise :attr:`fixture` itself.

        Raises:
            AssertionError: no run happened yet.
        """
        return self._judged_run()[0]


def _marker_value(item: pytest.Item, name: str) -> str | None:
    marker = item.get_closest_marker(name)
    return str(marker.args[0]) if marker is not None and marker.args else None


def scenario_name(item: pytest.Item) -> str:
    """Return the Gherkin scenario name of a pytest-bdd test item (its test name otherwise)."""
    from pytest_bdd.scenario import (  # noqa: PLC0415 - pytest-bdd's own lookup (generation.py)
        scenario_wrapper_template_registry,
    )

    template = scenario_wrapper_template_registry.get(getattr(item, "obj", None))  # type: ignore[arg-type]  # the registry accepts any key
    if template is not None:
        return str(template.name)
    doc = getattr(getattr(item, "obj", None), "__doc__", None) or ""
    _, separator, name = doc.partition(": ")
    return name if separator else item.name


def scenario_identity(item: pytest.Item) -> tuple[str | None, str | None, str]:
    """Return (requirement id, scenario id, fixture id) of a Gherkin test item.

    Ids come from the ``@requirement:``/``@scenario:`` tags; an extension scenario without a
    scenario tag gets the kebab slug of its name. The fixture id adds ``-example-N`` (1-based row)
    for a Scenario Outline and is trimmed to the identifier grammar.
    """
    from conformance.openspec import slugify  # noqa: PLC0415 - only needed once per test

    requirement = _marker_value(item, "srdh_requirement")
    scenario = _marker_value(item, "srdh_scenario")
    if scenario is None:
        scenario = slugify(scenario_name(item))
    callspec = getattr(item, "callspec", None)
    suffix = ""
    if callspec is not None:
        index = callspec.indices.get("_pytest_bdd_example")
        suffix = f"-example-{index + 1}" if index is not None else f"-{callspec.id}"
    fixture_id = _ID_CHARS.sub("-", f"{scenario}{suffix}").strip("-.:_")[:_MAX_ID]
    return requirement, scenario, fixture_id or "scenario"
