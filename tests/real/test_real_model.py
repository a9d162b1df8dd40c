"""The conformance scenarios against a real OpenAI-compatible model, forced by perturbations.

Runs only when an endpoint is configured (``SRDH_OPENAI_BASE_URL``, ``SRDH_OPENAI_MODEL``,
``SRDH_OPENAI_API_KEY``); otherwise each test is reported as skipped with the reason "no endpoint
configured: set SRDH_OPENAI_BASE_URL" — never passed silently.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from conformance import fixtures as fx
from reference_harness.openai import ConfigError, OpenAIConfig
from reference_harness.openai import iut as openai_iut

_ENV = ("SRDH_OPENAI_BASE_URL", "SRDH_OPENAI_MODEL", "SRDH_OPENAI_API_KEY")
_LOGS = {"search_logs": fx.tool_script(default=fx.rows("checkout: HTTP 500 from payment"))}
_LIMITS = {**fx.DEFAULT_LIMITS, "model_call_timeout_ms": 60_000}


@pytest.fixture
def real_iut() -> Any:
    """The real-model IUT, or a reported skip when no endpoint is configured."""
    if not os.environ.get("SRDH_OPENAI_BASE_URL"):
        pytest.skip(openai_iut.NO_ENDPOINT)
    iut = openai_iut.create_real()
    yield iut
    iut.close()


def test_missing_endpoint_is_a_clear_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without SRDH_OPENAI_BASE_URL, create_real refuses with the skip reason and the variable."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    assert not any(os.environ.get(name) for name in _ENV)
    with pytest.raises(ConfigError, match=r"^no endpoint configured: set SRDH_OPENAI_BASE_URL$"):
        openai_iut.create_real()


def test_endpoint_without_model_names_the_model_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a base URL but no model, create_real names SRDH_OPENAI_MODEL, not the base URL."""
    monkeypatch.setenv("SRDH_OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.delenv("SRDH_OPENAI_MODEL", raising=False)
    monkeypatch.setenv("SRDH_OPENAI_API_KEY", "k")
    with pytest.raises(ConfigError, match=r"^SRDH_OPENAI_MODEL is not set"):
        openai_iut.create_real()


@pytest.mark.parametrize("missing", _ENV)
def test_each_missing_variable_is_named(missing: str) -> None:
    """OpenAIConfig.from_env names exactly the variable that is missing."""
    env = {
        "SRDH_OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
        "SRDH_OPENAI_MODEL": "m",
        "SRDH_OPENAI_API_KEY": "k",
    }
    del env[missing]
    with pytest.raises(ConfigError, match=f"^{missing} is not set"):
        OpenAIConfig.from_env(env)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SRDH_OPENAI_TIMEOUT_S", "0"),
        ("SRDH_OPENAI_TIMEOUT_S", "soon"),
        ("SRDH_OPENAI_STREAM", "maybe"),
        ("SRDH_OPENAI_BASE_URL", "ftp://x"),
    ],
)
def test_malformed_variables_are_named(name: str, value: str) -> None:
    """A malformed optional variable (or a non-HTTP base URL) is refused with its name and value."""
    env = {
        "SRDH_OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
        "SRDH_OPENAI_MODEL": "m",
        "SRDH_OPENAI_API_KEY": "k",
        name: value,
    }
    with pytest.raises(ConfigError, match=f"^{name}="):
        OpenAIConfig.from_env(env)


def test_config_reads_optional_variables_and_masks_the_key() -> None:
    """Timeout and streaming are read; the API key never appears in the repr."""
    env = {
        "SRDH_OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
        "SRDH_OPENAI_MODEL": "m",
        "SRDH_OPENAI_API_KEY": "sk-secret",
        "SRDH_OPENAI_TIMEOUT_S": "2.5",
        "SRDH_OPENAI_STREAM": "true",
    }
    config = OpenAIConfig.from_env(env)
    assert (config.timeout_s, config.stream) == (2.5, True)
    assert "sk-secret" not in repr(config)


def test_real_model_duplicate_tool_call_id_is_rejected(real_iut: Any) -> None:
    """On a real model, DUPLICATE_FIRST_TOOL_CALL_ID leads to a DUPLICATE_ID rejection."""
    fixture = fx.scenario_fixture(
        "real-dup",
        router=[],
        tools=_LOGS,
        limits=_LIMITS,
        perturbations=["DUPLICATE_FIRST_TOOL_CALL_ID"],
        user_message="Checkout fails since 10:00. Search the logs of checkout, then diagnose.",
    )
    observation = real_iut.run(fixture)
    rejected = [e["data"] for e in observation["trace"] if e["type"] == "TOOL_CALL_REJECTED"]
    accepted = [e["data"] for e in observation["trace"] if e["type"] == "TOOL_CALL_ACCEPTED"]
    assert accepted, "the model called no tool: the scenario's WHEN did not happen"
    first = accepted[0]
    # The perturbation gives the second call of the first tool step the first call's id.
    duplicate = (first["step"], 1, json.dumps(first["tool_call_id"]), "DUPLICATE_ID")
    found = [(r["step"], r["position"], r["presented_id"], r["reason"]) for r in rejected]
    assert found[:1] == [duplicate]
    assert [a["tool_call_id"] for a in accepted].count(first["tool_call_id"]) == 1


def test_real_model_disconnect_cancels_the_run(real_iut: Any) -> None:
    """On a real model, DISCONNECT_DURING_MODEL_CALL ends CANCELLED with nothing released."""
    fixture = fx.scenario_fixture(
        "real-disconnect",
        router=[],
        tools=_LOGS,
        limits=_LIMITS,
        perturbations=["DISCONNECT_DURING_MODEL_CALL"],
    )
    observation = real_iut.run(fixture)
    assert observation["runs"][-1]["state"] == "CANCELLED"
    assert observation["published_result"] is None
    assert any(e["type"] == "LATE_RESULT_DISCARDED" for e in observation["trace"])
