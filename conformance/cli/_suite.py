"""Run the conformance suite (``conformance.suite.run_suite``) and report its result."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from conformance.cli._errors import CliSetupError
from conformance.cli._suite_report import report_from_suite
from conformance.suite import run_suite

if TYPE_CHECKING:
    from conformance.adapters import Adapter
    from conformance.reports import Report

__all__ = ["run_conformance"]


def run_conformance(
    adapter: Adapter,
    *,
    scenario_ids: tuple[str, ...],
    level: str | None,
    examples: int | None,
    title: str = "srdh run",
) -> Report:
    """Run the suite through ``adapter`` (all scenarios when ``scenario_ids`` is empty).

    Raises:
        CliSetupError: ``examples`` was given but this suite cannot bound its examples.
        SuiteSetupError: an unknown scenario id or level, or pytest failed before the scenarios.
        AdapterError: the IUT broke the protocol.
    """
    kwargs: dict[str, Any] = {"scenario_ids": scenario_ids or None, "level": level}
    if examples is not None:
        if "examples" not in inspect.signature(run_suite).parameters:
            msg = "--examples: this version of the suite does not take an example count"
            raise CliSetupError(msg)
        kwargs["examples"] = examples
    result = run_suite(adapter, **kwargs)
    return report_from_suite(result, title)
