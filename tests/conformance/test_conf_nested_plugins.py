"""A nested suite session loads the suite's own pytest plugins, and no other installed one."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io

import pytest

from conformance.suite._run import NESTED_PLUGINS, Bootstrap, nested_args


class _Registered:
    """Records the names of the plugins registered when the nested session is configured."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        self.names = {name for name, _ in config.pluginmanager.list_name_plugin()}


def _installed_plugins() -> set[str]:
    """Every pytest plugin installed in this environment (``pytest11`` entry point names)."""
    return {
        entry.name
        for dist in importlib.metadata.distributions()
        for entry in dist.entry_points
        if entry.group == "pytest11"
    }


def test_a_nested_session_loads_only_the_suites_plugins():
    """pytest-bdd and Hypothesis's plugin are registered; the other installed plugins (this
    environment has pytest-xdist, pytest-timeout, anyio's and typeguard's) are not."""
    installed = _installed_plugins()
    others = installed - set(NESTED_PLUGINS)
    assert set(NESTED_PLUGINS) <= installed
    assert {"xdist", "timeout"} <= others  # the test shows something: unrelated plugins exist
    registered = _Registered()
    with contextlib.redirect_stdout(io.StringIO()):
        code = pytest.main([*nested_args(), "--collect-only"], plugins=[Bootstrap(), registered])
    assert code == 0
    assert set(NESTED_PLUGINS) <= registered.names
    assert registered.names & others == set()
