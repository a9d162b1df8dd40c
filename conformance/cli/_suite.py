"""Run the conformance suite (Gherkin scenarios, and with ``--examples`` their properties).

``srdh run --examples N`` also runs every selected spec scenario's Hypothesis property
(``conformance.properties``) with N generated examples through the same adapter; a scenario then
passes only when both its Gherkin scenario and its property pass.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from conformance.cli._suite_report import report_from_suite
from conformance.properties import PROPERTIES, property_settings, run_property
from conformance.reports import Report, RequirementResult, ScenarioResult, Status
from conformance.suite import run_suite
from conformance.verify import requirements_from_suite

if TYPE_CHECKING:
    from collections.abc import Mapping

    from conformance.adapters import Adapter
    from conformance.properties import PropertyResult

__all__ = ["merge_properties", "run_conformance"]

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


def run_conformance(
    adapter: Adapter,
    *,
    scenario_ids: tuple[str, ...],
    level: str | None,
    examples: int | None,
    title: str = "srdh run",
) -> Report:
    """Run the suite through ``adapter`` (all scenarios when ``scenario_ids`` is empty).

    With ``examples``, each selected spec scenario's property runs with that many examples.

    Raises:
        SuiteSetupError: an unknown scenario id or level, or pytest failed before the scenarios.
        AdapterError: the IUT broke the protocol.
    """
    result = run_suite(adapter, scenario_ids=scenario_ids or None, level=level)
    requirements = requirements_from_suite(result)
    if examples is not None:
        selected = {s.scenario_id for s in result.scenarios}
        config = property_settings(examples)
        properties = {
            sid: run_property(prop, adapter, config=config)
            for sid, prop in PROPERTIES.items()
            if sid in selected
        }
        requirements = merge_properties(requirements, properties)
    return report_from_suite(result, title, requirements)
