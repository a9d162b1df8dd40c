"""Run the conformance suite (Gherkin scenarios, and with ``--examples`` their properties).

``srdh run --examples N`` also runs every selected spec scenario's Hypothesis property
(``conformance.properties``) with N generated examples through the same adapter; a scenario then
passes only when both its Gherkin scenario and its property pass.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from conformance.cli._failures import (
    failures_from_properties,
    failures_from_suite,
    property_example_id,
    safe_run,
)
from conformance.cli._suite_report import report_from_suite
from conformance.properties import (
    PROPERTIES,
    property_settings,
    property_test_id,
    run_property,
)
from conformance.reports import Report, RequirementResult, ScenarioResult, Status
from conformance.suite import run_suite
from conformance.verify import requirements_from_suite

if TYPE_CHECKING:
    from collections.abc import Mapping

    from conformance.adapters import Adapter
    from conformance.cli._failures import FailureContext
    from conformance.properties import PropertyResult

__all__ = ["DEFAULT_PROPERTY_EXAMPLES", "merge_properties", "run_conformance", "split_property_ids"]

DEFAULT_PROPERTY_EXAMPLES = 100
"""Examples per property when a property id is asked for without ``--examples``."""

_PROPERTY_STATUS = {"passed": Status.PASSED, "failed": Status.FAILED}
_WORST = (Status.FAILED, Status.ERROR, Status.NOT_TESTED, Status.PASSED)


def _merge(scenario: ScenarioResult, prop: PropertyResult) -> ScenarioResult:
    status = _PROPERTY_STATUS.get(prop.outcome, Status.NOT_TESTED)
    worst = next(s for s in _WORST if s in {scenario.status, status})
    message = scenario.message
    if prop.message:
        message = " | ".join(m for m in (message, f"property: {prop.message}") if m)
    return dataclasses.replace(
        scenario,
        status=worst,
        message=message,
        seconds=scenario.seconds + prop.seconds,
        examples=scenario.examples + prop.examples,
    )


def merge_properties(
    requirements: tuple[RequirementResult, ...], properties: Mapping[str, PropertyResult]
) -> tuple[RequirementResult, ...]:
    """Fold property results (by scenario id) into the scenarios' results (worst status wins)."""
    return tuple(
        dataclasses.replace(
            req,
            scenarios=tuple(
                _merge(sc, properties[sc.scenario_id]) if sc.scenario_id in properties else sc
                for sc in req.scenarios
            ),
        )
        for req in requirements
    )


def split_property_ids(ids: tuple[str, ...]) -> tuple[tuple[str, ...], set[str]]:
    """Replace property ids by their scenario ids.

    A property id is ``<scenario id>-property`` (as failures name it) or the property test's
    pytest node id (as the traceability matrix shows it).

    Returns the ids to run in the suite and the scenario ids whose property was asked for.
    """
    wanted: set[str] = set()
    suite_ids: list[str] = []
    for asked in ids:
        owner = next(
            (s for s in PROPERTIES if asked in {property_example_id(s), property_test_id(s)}), None
        )
        if owner is None:
            suite_ids.append(asked)
        else:
            wanted.add(owner)
            suite_ids.append(owner)
    return tuple(dict.fromkeys(suite_ids)), wanted


def run_conformance(  # noqa: PLR0913 - the options of `srdh run`
    adapter: Adapter,
    *,
    scenario_ids: tuple[str, ...],
    level: str | None,
    examples: int | None,
    title: str = "srdh run",
    failures: FailureContext | None = None,
) -> Report:
    """Run the suite through ``adapter`` (all scenarios when ``scenario_ids`` is empty).

    ``scenario_ids`` may name scenarios, outline examples (``<scenario>-example-<n>``) and
    properties (``<scenario>-property``: that scenario and its property, with ``examples`` or
    :data:`DEFAULT_PROPERTY_EXAMPLES` examples). With ``examples``, each selected spec
    scenario's property runs with that many examples. With ``failures``, the report carries a
    structured :class:`~conformance.reports.Failure` for every failing example.

    Raises:
        SuiteSetupError: an unknown scenario id or level, or pytest failed before the scenarios.
        AdapterError: the IUT broke the protocol.
    """
    suite_ids, asked_properties = split_property_ids(scenario_ids)
    result = run_suite(adapter, scenario_ids=suite_ids or None, level=level)
    requirements = requirements_from_suite(result)
    selected = {s.scenario_id for s in result.scenarios}
    to_run = set(selected) if examples is not None else asked_properties & selected
    properties: dict[str, PropertyResult] = {}
    if to_run:
        config = property_settings(examples or DEFAULT_PROPERTY_EXAMPLES)
        properties = {
            sid: run_property(prop, adapter, config=config)
            for sid, prop in PROPERTIES.items()
            if sid in to_run
        }
        requirements = merge_properties(requirements, properties)
    report = report_from_suite(result, title, requirements)
    if failures is None:
        return report
    found = failures_from_suite(result, failures)
    found += failures_from_properties(
        (
            (PROPERTIES[sid].requirement_id, sid, PROPERTIES[sid].then, prop)
            for sid, prop in properties.items()
        ),
        failures,
        rerun=safe_run(adapter),
    )
    return dataclasses.replace(report, failures=tuple(found))
