"""Wires the conformance plugin into the project's own test run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.bdd import plugin

if TYPE_CHECKING:
    import pytest


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "srdh-conformance")
