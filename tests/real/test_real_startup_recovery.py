"""The served Harness recovers crashed Runs at startup (issue 3, Requirement 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
