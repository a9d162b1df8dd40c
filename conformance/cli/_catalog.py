"""Scenario fixtures by spec scenario id, for ``srdh demo``."""

from __future__ import annotations

from typing import Any

from conformance.cli._errors import CliSetupError

__all__ = ["scenario_fixture_for"]


def scenario_fixture_for(scenario_id: str) -> dict[str, Any]:
    """The representative fixture of spec scenario ``scenario_id``.

    Raises:
        CliSetupError: no fixture is known for that id (the message lists the known ids).
    """
    catalog: dict[str, dict[str, Any]] = {}
    if scenario_id not in catalog:
        known = ", ".join(sorted(catalog)) or "none yet"
        msg = (
            f"unknown scenario {scenario_id!r}: expected a scenario-fixture file or one of {known}"
        )
        raise CliSetupError(msg)
    return catalog[scenario_id]
