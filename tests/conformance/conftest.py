"""Wires the conformance plugin into the project's own test run; shared reference observations.

``reference_observation(name)``: fixture ``conformance/fixtures/<name>.json`` and the reference
Harness's observation of it, made once per test process (read only).
``reference_observation_copy(name)``: the same with a deep copy of the observation, for a test
that edits it into a wrong one.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.bdd import plugin
from contracts import load_json_file
from reference_harness.iut import ReferenceIUT

if TYPE_CHECKING:
    import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "srdh-conformance")


@functools.cache
def reference_observation(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(fixture, observation) of the reference Harness on fixture ``name``; do not edit them."""
    fixture = load_json_file(FIXTURES / f"{name}.json")
    iut = ReferenceIUT()
    iut.hello()
    try:
        return fixture, iut.run(fixture)
    finally:
        iut.close()


def reference_observation_copy(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`reference_observation` with an observation of its own, to edit."""
    fixture, observation = reference_observation(name)
    return fixture, copy.deepcopy(observation)
