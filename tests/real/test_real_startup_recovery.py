"""The served Harness recovers crashed Runs at startup (issue 3, Requirement 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from reference_harness.openai import OpenAIConfig
from reference_harness.sse import openai_harness_factory
from reference_harness.sse._factory import UnconfiguredTools
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from pathlib import Path


def test_real_startup_turns_running_rows_into_failed(tmp_path: Path) -> None:
    """A RUNNING row left in the file by a crash is FAILED once the server's factory opens it."""
    path = tmp_path / "runs.sqlite3"
    with RunStore(path) as store:
        store.create_run(run_id="crashed-1", session_id="s1", user_message="why?", now_ms=1)
    config = OpenAIConfig("http://127.0.0.1:9/v1", "m", "k")
    openai_harness_factory(path, tools=UnconfiguredTools(), config=config)
    with RunStore(path) as store:
        run = store.get("crashed-1")
        selection = store.select_previous_turn("s1", before_seq=2)
    assert run.state.value == "FAILED"
    assert run.error_code is not None
    assert run.error_code.value == "INTERNAL_ERROR"
    assert selection.selected is None


def test_real_served_budget_follows_the_endpoint_timeout(tmp_path: Path) -> None:
    """With no explicit limits, SRDH_OPENAI_TIMEOUT_S is the HTTP timeout, inside the bound."""
    config = OpenAIConfig("http://127.0.0.1:9/v1", "m", "k", timeout_s=45.0)
    factory = openai_harness_factory(
        tmp_path / "runs.sqlite3", tools=UnconfiguredTools(), config=config
    )
    harness = factory()
    http_timeout_s = harness._agent._client.config.timeout_s
    assert http_timeout_s == pytest.approx(45.0, abs=0.01)
    assert harness.limits.model_call_timeout_ms / 1000 > http_timeout_s
