"""`srdh demo`, `srdh serve` bad input, the error boundary, and the console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.cli import EXIT_OK, EXIT_SETUP, _cmd_gate, app
from conformance.fixtures import (
    analysis,
    diagnosis_draft,
    diagnosis_fixture,
    rows,
    supported_turn,
    tool_call,
    tool_script,
)

if TYPE_CHECKING:
    import pytest
    from typer.testing import CliRunner

SRDH = Path(sys.executable).parent / "srdh"


def _duplicate_id_fixture(path: Path) -> Path:
    fixture = diagnosis_fixture(
        "demo-duplicate-id",
        steps=[[tool_call("call_1"), tool_call("call_1")]],
        draft=diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])]),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(rows("checkout 503 upstream timeout"))},
    )
    path.write_text(json.dumps(fixture), encoding="utf-8")
    return path


def test_demo_prints_the_trace_as_a_timeline(runner: CliRunner, tmp_path: Path) -> None:
    """A fixture with a duplicate Tool Call ID: the timeline shows the rejection, in seq order."""
    fixture = _duplicate_id_fixture(tmp_path / "dup.json")
    result = runner.invoke(app, ["demo", str(fixture)])
    assert result.exit_code == EXIT_OK, result.output
    lines = result.stdout.splitlines()
    events = [ln.split()[1] for ln in lines if ln[:1].isdigit()]
    assert events[0] == "RUN_STARTED"
    assert events[-1] == "RUN_FINISHED"
    seqs = [int(ln.split()[0]) for ln in lines if ln[:1].isdigit()]
    assert seqs == sorted(seqs)
    assert any("TOOL_CALL_REJECTED" in ln and "reason=DUPLICATE_ID" in ln for ln in lines)
    assert "state SUCCESS, result DIAGNOSIS_DRAFT" in result.stdout


def test_demo_unknown_scenario_is_a_setup_error(runner: CliRunner) -> None:
    """An id that names no scenario fixture: one line naming it, exit 2."""
    result = runner.invoke(app, ["demo", "no-such-scenario"])
    assert result.exit_code == EXIT_SETUP
    assert "unknown scenario 'no-such-scenario'" in result.stderr


def test_demo_invalid_fixture_file_names_file_and_pointer(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A fixture file that breaks its contract: exit 2, the file and a JSON pointer named."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"fixture_id": "x"}), encoding="utf-8")
    result = runner.invoke(app, ["demo", str(path)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith(f"srdh: error: {path}")
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_without_openspec_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """`srdh serve --repo DIR` without openspec/: exit 2 before anything listens."""
    result = runner.invoke(app, ["serve", "--repo", str(tmp_path), "--port", "0"])
    assert result.exit_code == EXIT_SETUP
    assert "no openspec/ directory" in result.stderr


def test_an_unexpected_exception_is_one_line_and_exit_2(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kit bug (an undocumented exception) is reported in one line, exit 2, no traceback."""

    def broken(*_args: object) -> object:
        msg = "boom"
        raise RuntimeError(msg)

    monkeypatch.setattr(_cmd_gate, "evaluate_gate", broken)
    result = runner.invoke(app, ["gate", "1", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith("srdh: internal error: RuntimeError: boom")
    assert "Traceback" not in result.output


def test_usage_errors_exit_2(runner: CliRunner) -> None:
    """A missing argument is a usage error: exit 2."""
    result = runner.invoke(app, ["gate"])
    assert result.exit_code == EXIT_SETUP


def test_console_script_reports_a_missing_file_in_one_plain_line(tmp_path: Path) -> None:
    """The installed `srdh` (a real subprocess): exit 2, one line, no colour codes."""
    missing = tmp_path / "missing.json"
    done = subprocess.run(  # noqa: S603 - the kit's own console script
        [str(SRDH), "validate", str(missing)],
        capture_output=True,
        text=True,
        check=False,
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == EXIT_SETUP
    assert done.stderr == f"srdh: error: {missing}: no such file\n"
    assert done.stdout == ""
