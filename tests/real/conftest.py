"""Shared fixtures of the real-path tests: a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from conformance.bdd import plugin
from reference_harness.openai import OpenAIConfig
from reference_harness.openai.testing import ScriptedOpenAIServer

if TYPE_CHECKING:
    from collections.abc import Iterator

TIMEOUT_S = 2.0
"""Per-call timeout of the adapters under test: bounds every blocking call of these tests."""


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    """A started scripted server with empty scripts; stopped (holds released) after the test.

    Teardown fails the test if a scripted reply was never requested or a request found none.
    """
    with ScriptedOpenAIServer() as started:
        yield started
    started.check_consumed()


@pytest.fixture(params=[False, True], ids=["json", "stream"])
def config(request: pytest.FixtureRequest, server: ScriptedOpenAIServer) -> OpenAIConfig:
    """An adapter configuration pointing at ``server``, once with JSON answers, once streamed."""
    return OpenAIConfig(server.base_url, "scripted-model", "test-key", TIMEOUT_S, request.param)


def pytest_configure(config: pytest.Config) -> None:
    """Register the conformance plugin (Gherkin steps, ``iut`` fixture) for the Gherkin run."""
    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "srdh-conformance")
