"""The pytest plugin of the SRDH conformance suite (``-p conformance.bdd.plugin``).

Adds ``--srdh-iut-module MOD:FACTORY`` / ``--srdh-iut-cmd "CMD"`` (and ``--srdh-iut-timeout``),
a session-scoped ``iut`` fixture (the adapter), the per-scenario ``srdh_context`` fixture, the
Given/When/Then step definitions, and maps the Gherkin tags ``@spec``, ``@extension``,
``@requirement:<id>``, ``@scenario:<id>`` and ``@capability:<NAME>`` to registered markers so
``--strict-markers`` holds. A scenario whose capability the IUT does not declare is skipped with
that reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from conformance.adapters import DEFAULT_TIMEOUT_S, AdapterError, adapter_from_options
from conformance.bdd import (
    _any_fixture,
    _given,
    _given_runtime,
    _step_lookup,
    _then,
    _then_runtime,
    _when,
)
from conformance.bdd._any_fixture import EXAMPLES_KEY
from conformance.bdd._context import ScenarioContext

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from conformance.adapters import Adapter

__all__ = [
    "ADAPTER_KEY",
    "EXAMPLES_KEY",
    "MARKERS",
    "iut",
    "pytest_addoption",
    "pytest_bdd_apply_tag",
    "pytest_configure",
    "srdh_context",
]

ADAPTER_KEY = pytest.StashKey["Adapter"]()
"""Where a caller (``run_suite``) stashes a ready adapter; the caller keeps ownership."""


MARKERS = {
    "srdh_spec": "a scenario mirroring a spec Scenario (Gherkin tag @spec)",
    "srdh_extension": "a scenario beyond the spec (Gherkin tag @extension)",
    "srdh_requirement(id)": "the requirement id of a scenario (@requirement:<id>)",
    "srdh_scenario(id)": "the spec scenario id of a scenario (@scenario:<id>)",
    "srdh_capability(name)": "an IUT capability the scenario needs (@capability:<NAME>)",
}
"""The markers this plugin registers, with their help text."""

_VALUE_TAGS = {
    "requirement": "srdh_requirement",
    "scenario": "srdh_scenario",
    "capability": "srdh_capability",
}
_PLAIN_TAGS = {"spec": "srdh_spec", "extension": "srdh_extension"}


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--srdh-iut-*`` options."""
    group = parser.getgroup("srdh", "SRDH conformance suite")
    group.addoption(
        "--srdh-iut-module", default=None, metavar="MOD:FACTORY", help="in-process IUT factory"
    )
    group.addoption("--srdh-iut-cmd", default=None, metavar="CMD", help="stdio IUT command line")
    group.addoption(
        "--srdh-iut-timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help="per-message timeout of the stdio adapter",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers and the step definitions; remember pytest-bdd's step lookups."""
    _step_lookup.install(config)
    for marker, text in MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {text}")
    for module in (_given, _given_runtime, _when, _then, _then_runtime, _any_fixture):
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, f"srdh-steps-{module.__name__}")


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Callable[..., Any]) -> Callable[..., Any] | None:
    """Turn a Gherkin tag of the suite into a registered marker; leave other tags to pytest-bdd."""
    name, separator, value = tag.partition(":")
    if separator and name in _VALUE_TAGS:
        marked: Callable[..., Any] = getattr(pytest.mark, _VALUE_TAGS[name])(value)(function)
        return marked
    if not separator and tag in _PLAIN_TAGS:
        plain: Callable[..., Any] = getattr(pytest.mark, _PLAIN_TAGS[tag])(function)
        return plain
    return None


def _option(config: pytest.Config, name: str) -> Any:  # noqa: ANN401 - an option value
    return config.getoption(name, default=None)


@pytest.fixture(scope="session")
def iut(request: pytest.FixtureRequest) -> Iterator[Adapter]:
    """The adapter of the implementation under test, shared by the session.

    Uses a stashed adapter (``ADAPTER_KEY``) when a caller provides one, else builds one from
    ``--srdh-iut-module`` or ``--srdh-iut-cmd`` and closes it at the end of the session.
    """
    config = request.config
    stashed = config.stash.get(ADAPTER_KEY, None)
    if stashed is not None:
        yield stashed
        return
    module, command = _option(config, "srdh_iut_module"), _option(config, "srdh_iut_cmd")
    try:
        adapter = adapter_from_options(
            module, command, _option(config, "srdh_iut_timeout") or DEFAULT_TIMEOUT_S
        )
    except AdapterError as error:
        pytest.fail(
            f"{error} (pass --srdh-iut-module MOD:FACTORY or --srdh-iut-cmd CMD)", pytrace=False
        )
    yield adapter
    adapter.close()


@pytest.fixture
def srdh_context(iut: Adapter) -> ScenarioContext:
    """A fresh :class:`ScenarioContext` for one scenario, holding the session's ``iut``."""
    return ScenarioContext(iut=iut)
