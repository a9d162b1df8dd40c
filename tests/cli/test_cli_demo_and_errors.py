"""`srdh demo`, `srdh serve` bad input, the error boundary, and the console script."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import conformance.gate
import reference_harness.sse
from conformance.cli import EXIT_OK, EXIT_SETUP, app
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


def test_demo_by_scenario_id_shows_the_suite_s_fixture(runner: CliRunner) -> None:
    """A spec scenario id runs that suite scenario; its Run's timeline shows the rejection."""
    result = runner.invoke(app, ["demo", "duplicate-tool-call-id-is-proposed"])
    assert result.exit_code == EXIT_OK, result.output
    kit, spec, first = result.stdout.splitlines()[:3]
    assert (kit.split()[0], spec.split()[0]) == ("kit:", "spec:")
    assert first.startswith("scenario duplicate-tool-call-id-is-proposed: passed")
    assert any(
        "TOOL_CALL_REJECTED" in ln and "reason=DUPLICATE_ID" in ln
        for ln in result.stdout.splitlines()
    )


def test_demo_unknown_scenario_is_a_setup_error(runner: CliRunner) -> None:
    """An id that names no scenario: one line naming it, exit 2."""
    result = runner.invoke(app, ["demo", "no-such-scenario"])
    assert result.exit_code == EXIT_SETUP
    assert "no-such-scenario" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_iut_command_with_an_unbalanced_quote_is_a_setup_error(runner: CliRunner) -> None:
    """``--iut "java -cp 'build Main"``: a user mistake, named as such (exit 2, one line), never
    an internal error; for ``run`` and ``demo`` alike, before anything starts."""
    command = "java -cp 'build dev.srdh.harness.StdioMain"
    for args in (["run", "--iut", command], ["demo", "--iut", command, "no-such-scenario"]):
        result = runner.invoke(app, args)
        assert result.exit_code == EXIT_SETUP, result.stderr
        assert result.stderr.startswith(f"srdh: error: --iut {command!r}: cannot be split"), (
            result.stderr
        )
        assert "No closing quotation" in result.stderr
        assert "internal error" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_demo_unknown_scenario_id_suggests_the_closest_known_one(runner: CliRunner) -> None:
    """A typo in a scenario id: the error suggests the id that was meant."""
    result = runner.invoke(app, ["demo", "duplicate-tool-call-id-is-propsed"])
    assert result.exit_code == EXIT_SETUP
    # the closest known id first (difflib; up to three are named)
    assert "(did you mean 'duplicate-tool-call-id-is-proposed'" in result.stderr


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


def test_a_fixture_file_s_schema_error_names_its_line(runner: CliRunner, tmp_path: Path) -> None:
    """A pretty-printed fixture with a wrong value: ``file:line: /pointer: expected …`` (the
    line ``srdh validate`` names), for ``srdh demo FILE`` and ``srdh run --fixture FILE``."""
    fixture = json.loads(_duplicate_id_fixture(tmp_path / "ok.json").read_text("utf-8"))
    fixture["limits"]["max_steps"] = "five"
    path = tmp_path / "bad.json"
    text = json.dumps(fixture, indent=2)
    path.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"five"' in row)
    reference = f"{sys.executable} -m reference_harness.stdio"
    for args in (["demo", str(path)], ["run", "--iut", reference, "--fixture", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == EXIT_SETUP, result.output
        assert f"srdh: error: {path}:{line}: /limits/max_steps: expected type integer" in (
            result.stderr
        )
    # the file is judged before the IUT starts: a command that cannot start does not hide it
    result = runner.invoke(
        app, ["run", "--iut", str(tmp_path / "no-such-iut"), "--fixture", str(path)]
    )
    assert result.exit_code == EXIT_SETUP
    assert f"srdh: error: {path}:{line}: /limits/max_steps" in result.stderr


def test_serve_without_openspec_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """`srdh serve --repo DIR` without openspec/: exit 2 before anything listens."""
    result = runner.invoke(app, ["serve", "--repo", str(tmp_path), "--port", "0"])
    assert result.exit_code == EXIT_SETUP
    assert "no openspec/ directory" in result.stderr


def test_serve_passes_the_gate_s_public_entry_to_the_server(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stage 6B not committed: the server is started with public entry LEGACY, host and port."""
    calls: list[tuple[object, ...]] = []

    def fake_serve(host: str, port: int, repo: Path, *, public_entry: str, **_: object) -> None:
        calls.append((host, port, repo, public_entry))

    monkeypatch.setattr(reference_harness.sse, "serve", fake_serve)
    monkeypatch.setenv("SRDH_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SRDH_OPENAI_MODEL", "m")
    monkeypatch.setenv("SRDH_OPENAI_API_KEY", "k")
    args = ["serve", "--host", "127.0.0.1", "--port", "8123", "--repo", str(spec_repo)]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_OK, result.output
    assert calls == [("127.0.0.1", 8123, spec_repo, "LEGACY")]


def test_serve_hands_whatever_the_gate_decides_to_the_server(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI decides the public entry with the gate; the server takes it as an input."""
    calls: list[object] = []
    decided: list[object] = []

    def gate_decides(state: object) -> str:
        decided.append(state)
        return "SINGLE_REACT"

    def fake_serve(*_args: object, public_entry: str, **_: object) -> None:
        calls.append(public_entry)

    monkeypatch.setattr(conformance.gate, "public_entry_of", gate_decides)
    monkeypatch.setattr(reference_harness.sse, "serve", fake_serve)
    monkeypatch.setenv("SRDH_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SRDH_OPENAI_MODEL", "m")
    monkeypatch.setenv("SRDH_OPENAI_API_KEY", "k")
    result = runner.invoke(app, ["serve", "--port", "8123", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    assert len(decided) == 1
    assert calls == ["SINGLE_REACT"]
    assert "public entry SINGLE_REACT" in result.stderr


def test_the_server_requires_the_public_entry_as_an_input() -> None:
    """No default: a caller of reference_harness.sse.serve states the gate's decision."""
    parameter = inspect.signature(reference_harness.sse.serve).parameters["public_entry"]
    assert parameter.default is inspect.Parameter.empty
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY


def test_serve_without_model_configuration_is_a_setup_error(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No SRDH_OPENAI_BASE_URL: exit 2 with the variable named, before anything listens."""
    monkeypatch.delenv("SRDH_OPENAI_BASE_URL", raising=False)
    result = runner.invoke(app, ["serve", "--repo", str(spec_repo), "--port", "0"])
    assert result.exit_code == EXIT_SETUP
    assert "srdh: error: SRDH_OPENAI_BASE_URL is not set" in result.stderr
    assert "srdh serve: http" not in result.stderr  # no URL is announced for a server that fails


def test_an_unexpected_exception_is_one_line_and_exit_2(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kit bug (an undocumented exception) is reported in one line, exit 2, no traceback."""

    def broken(*_args: object) -> object:
        msg = "boom"
        raise RuntimeError(msg)

    monkeypatch.setattr(conformance.gate, "evaluate_gate", broken)
    result = runner.invoke(app, ["gate", "1", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith("srdh: internal error: RuntimeError: boom")
    assert "Traceback" not in result.output


def test_usage_errors_exit_2(runner: CliRunner) -> None:
    """A missing argument is a usage error: exit 2, naming the argument, nothing on stdout."""
    result = runner.invoke(app, ["gate"])
    assert result.exit_code == EXIT_SETUP
    assert "Missing argument 'stage'" in result.stderr
    assert result.stdout == ""


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


def test_the_cli_starts_without_importing_the_heavy_parts() -> None:
    """`import conformance.cli` loads no suite, contracts, OpenAI client or SQLAlchemy."""
    code = (
        "import sys, conformance.cli; "
        "print(sorted(m for m in ('contracts', 'conformance.suite', 'openai', 'sqlalchemy') "
        "if m in sys.modules))"
    )
    done = subprocess.run(  # noqa: S603 - our interpreter, fixed code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_run_timeout_default_matches_the_adapters() -> None:
    """`srdh run --timeout` defaults to the adapters' own per-message timeout."""
    from conformance.adapters import DEFAULT_TIMEOUT_S  # noqa: PLC0415
    from conformance.cli._run import DEFAULT_TIMEOUT_S as CLI_DEFAULT  # noqa: PLC0415

    assert CLI_DEFAULT == DEFAULT_TIMEOUT_S
