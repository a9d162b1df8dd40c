"""`srdh gate`, `srdh diff`, `srdh validate` and `srdh spec`: output, exit codes, bad input."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from typing import TYPE_CHECKING

import pytest

from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import CliRunner

PE_ID = "https://srdh.dev/schemas/v1/public-error.schema.json"


def _write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


# --- gate -------------------------------------------------------------------------------------


def test_gate_allows_stage_1_after_stage_0_is_archived_and_committed(
    runner: CliRunner, spec_repo: Path
) -> None:
    """Stage 1's only predecessor (0) is archived and committed: allowed, exit 0, LEGACY."""
    result = runner.invoke(app, ["gate", "1", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    assert "stage 1: allowed" in result.stdout
    assert "public entry: LEGACY" in result.stdout


@pytest.mark.parametrize("label", ["6B", "6b"])
def test_gate_refuses_the_cutover_with_reasons(
    runner: CliRunner, spec_repo: Path, label: str
) -> None:
    """Stage 6B (any case) before stages 1..6A are archived: refused, reasons named, exit 1."""
    result = runner.invoke(app, ["gate", label, "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_FAILED
    assert "stage 6B: refused" in result.stdout
    assert "PREDECESSOR_NOT_ARCHIVED" in result.stdout
    assert "public entry: LEGACY" in result.stdout


def test_gate_unknown_stage_is_a_setup_error(runner: CliRunner, spec_repo: Path) -> None:
    """An unknown stage label is one line on stderr and exit 2, no traceback."""
    result = runner.invoke(app, ["gate", "42", "--repo", str(spec_repo)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith("srdh: error: ")
    assert "42" in result.stderr
    assert "Traceback" not in result.output


def test_gate_on_a_directory_without_git_is_a_setup_error(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A plain directory (no git, no openspec/) is refused with one line and exit 2."""
    result = runner.invoke(app, ["gate", "1", "--repo", str(tmp_path)])
    assert result.exit_code == EXIT_SETUP
    assert len(result.stderr.strip().splitlines()) == 1


# --- diff -------------------------------------------------------------------------------------


def test_diff_of_a_read_contract_flags_required_added_as_breaking(
    runner: CliRunner, tmp_path: Path
) -> None:
    """scenario-fixture is READ: a new required field breaks producers (exit 1, SD002)."""
    old = {"type": "object", "properties": {"a": {"type": "string"}}, "required": []}
    new = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    _write(tmp_path / "old" / "scenario-fixture.schema.json", old)
    _write(tmp_path / "new" / "scenario-fixture.schema.json", new)
    result = runner.invoke(app, ["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--json"])
    assert result.exit_code == EXIT_FAILED
    (change,) = json.loads(result.stdout)["changes"]
    assert change["rule_id"] == "SD002"
    assert change["direction"] == "READ"
    assert change["breaking"] is True


def test_diff_of_an_emit_contract_accepts_required_added(runner: CliRunner, tmp_path: Path) -> None:
    """run-trace-event is EMIT: a new required field is compatible for consumers (exit 0)."""
    old = {"type": "object", "required": []}
    new = {"type": "object", "required": ["a"]}
    a = _write(tmp_path / "a.json", old)
    (tmp_path / "b").mkdir()
    b = _write(tmp_path / "b" / "run-trace-event.schema.json", new)
    result = runner.invoke(app, ["diff", str(a), str(b)])
    assert result.exit_code == EXIT_OK, result.output
    assert "SD002 required-added" in result.stdout
    assert "compatible" in result.stdout


def test_diff_of_an_emit_contract_flags_enum_value_added(runner: CliRunner, tmp_path: Path) -> None:
    """run-trace-event is EMIT: a new enum value breaks consumers (SD004, exit 1)."""
    (tmp_path / "o").mkdir()
    (tmp_path / "n").mkdir()
    _write(tmp_path / "o" / "run-trace-event.schema.json", {"enum": ["A"]})
    _write(tmp_path / "n" / "run-trace-event.schema.json", {"enum": ["A", "B"]})
    result = runner.invoke(app, ["diff", str(tmp_path / "o"), str(tmp_path / "n")])
    assert result.exit_code == EXIT_FAILED
    assert "SD004 enum-value-added" in result.stdout
    assert "BREAKING" in result.stdout


def test_diff_of_directories_reports_removed_and_added_contracts(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A contract only in OLD is SD022 (breaking); one only in NEW is SD021 (compatible)."""
    (tmp_path / "o").mkdir()
    (tmp_path / "n").mkdir()
    _write(tmp_path / "o" / "gone.schema.json", {})
    _write(tmp_path / "n" / "fresh.schema.json", {})
    result = runner.invoke(app, ["diff", str(tmp_path / "o"), str(tmp_path / "n"), "--json"])
    rules = {
        c["contract"]: (c["rule_id"], c["breaking"]) for c in json.loads(result.stdout)["changes"]
    }
    assert rules == {"gone": ("SD022", True), "fresh": ("SD021", False)}
    assert result.exit_code == EXIT_FAILED


def test_diff_of_the_kit_schemas_with_themselves_is_empty(runner: CliRunner) -> None:
    """The kit's schemas compared with themselves: no change, exit 0."""
    from conformance.cli._output import kit_schemas_dir  # noqa: PLC0415

    schemas = str(kit_schemas_dir())
    result = runner.invoke(app, ["diff", schemas, schemas])
    assert result.exit_code == EXIT_OK
    assert "0 change(s), 0 breaking" in result.stdout


def test_diff_missing_file_and_bad_json_are_setup_errors(runner: CliRunner, tmp_path: Path) -> None:
    """A missing path or a file that is not JSON: one line naming it, exit 2."""
    good = _write(tmp_path / "x.schema.json", {})
    bad = tmp_path / "bad.schema.json"
    bad.write_text("{\n nope", encoding="utf-8")
    missing = runner.invoke(app, ["diff", str(good), str(tmp_path / "none.json")])
    assert missing.exit_code == EXIT_SETUP
    assert "none.json: no such file" in missing.stderr
    broken = runner.invoke(app, ["diff", str(good), str(bad)])
    assert broken.exit_code == EXIT_SETUP
    assert "bad.schema.json: line 2: not JSON" in broken.stderr


# --- validate ---------------------------------------------------------------------------------


def test_validate_picks_the_contract_from_schema(runner: CliRunner, tmp_path: Path) -> None:
    """A document whose $schema is an $id of ours is checked against that contract."""
    good = _write(tmp_path / "ok.json", {"$schema": PE_ID, "error_code": "INTERNAL_ERROR"})
    bad = _write(tmp_path / "bad.json", {"$schema": PE_ID, "error_code": "OOPS"})
    assert runner.invoke(app, ["validate", str(good)]).exit_code == EXIT_OK
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == EXIT_FAILED
    assert f"{bad}:1: /error_code: expected one of" in result.stdout


def test_validate_ndjson_names_file_and_line(runner: CliRunner, tmp_path: Path) -> None:
    """Each NDJSON line is a document; errors carry file:line and a JSON pointer."""
    path = tmp_path / "docs.ndjson"
    lines = ['{"error_code": "INTERNAL_ERROR"}', "", '{"error_code": 7}', "{oops"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--contract", "public-error"])
    assert result.exit_code == EXIT_FAILED
    assert f"{path}:3: /error_code: " in result.stdout
    assert f"{path}:4: /: not JSON" in result.stdout
    assert f"{path}:1:" not in result.stdout
    assert "3 document(s), 2 invalid" in result.stdout


def test_validate_missing_file_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """A missing file: one line naming it on stderr, exit 2."""
    result = runner.invoke(app, ["validate", str(tmp_path / "missing.json")])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.strip() == f"srdh: error: {tmp_path / 'missing.json'}: no such file"


def test_validate_without_a_contract_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """No $schema and no --contract: exit 2 with a hint to pass --contract."""
    doc = _write(tmp_path / "anon.json", {"error_code": "INTERNAL_ERROR"})
    result = runner.invoke(app, ["validate", str(doc)])
    assert result.exit_code == EXIT_SETUP
    assert "--contract" in result.stderr


def test_validate_unknown_contract_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """--contract with a name not on the contract sheet: exit 2 naming it."""
    doc = _write(tmp_path / "a.json", {})
    result = runner.invoke(app, ["validate", str(doc), "--contract", "no-such"])
    assert result.exit_code == EXIT_SETUP
    assert "unknown contract 'no-such'" in result.stderr


# --- spec -------------------------------------------------------------------------------------


def test_spec_lint_passes_on_the_kit_spec(runner: CliRunner, spec_repo: Path) -> None:
    """The kit's own openspec/ lints clean: exit 0."""
    result = runner.invoke(app, ["spec", "lint", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    assert "0 invalid" in result.stdout


def test_spec_lint_reports_a_malformed_spec(runner: CliRunner, spec_repo: Path) -> None:
    """A requirement without SHALL/MUST is an issue naming file:line; exit 1."""
    spec = spec_repo / "openspec" / "specs" / "single-react-diagnosis-harness" / "spec.md"
    text = spec.read_text(encoding="utf-8").replace(
        "The frozen contract set SHALL define", "It defines", 1
    )
    spec.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["spec", "lint", str(spec_repo)])
    assert result.exit_code == EXIT_FAILED
    assert f"{spec}:" in result.stdout


def test_spec_commands_without_openspec_are_setup_errors(runner: CliRunner, tmp_path: Path) -> None:
    """A directory without openspec/: one line naming it, exit 2 (lint and show)."""
    for args in (["spec", "lint", str(tmp_path)], ["spec", "show", str(tmp_path), "--json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == EXIT_SETUP
        assert result.stderr.strip() == (
            f"srdh: error: {tmp_path}: no openspec/ directory (expected {tmp_path / 'openspec'})"
        )


def test_spec_show_json_lists_requirements_and_scenarios(
    runner: CliRunner, spec_repo: Path
) -> None:
    """`spec show --json` keys requirements by id with their level and scenarios."""
    result = runner.invoke(app, ["spec", "show", str(spec_repo), "--json"])
    assert result.exit_code == EXIT_OK
    doc = json.loads(result.stdout)
    reqs = doc["specs"]["single-react-diagnosis-harness"]["requirements"]
    ids = {r["id"] for r in reqs}
    assert "phase-gates-shall-remain-serial" in ids
    scenario = next(r for r in reqs if r["id"] == "phase-gates-shall-remain-serial")["scenarios"][0]
    assert scenario["id"] == "stage-4-completes-internal-agent-tests"
    assert [s["keyword"] for s in scenario["steps"]] == ["WHEN", "THEN"]
    assert [c["archived"] for c in doc["changes"]] == [True]


def test_a_terminal_gets_a_rich_table_without_colour_under_no_color(
    runner: CliRunner, spec_repo: Path
) -> None:
    """FORCE_COLOR (a terminal) draws a rich table; NO_COLOR removes every colour code."""
    env = {"FORCE_COLOR": "1", "NO_COLOR": "1", "COLUMNS": "200"}
    result = runner.invoke(app, ["spec", "show", str(spec_repo)], env=env)
    assert result.exit_code == EXIT_OK
    assert "┃" in result.stdout or "│" in result.stdout
    assert "phase-gates-shall-remain-serial" in result.stdout
    assert not re.search(r"\x1b\[(?:3|4|9|10)\d(?:;\d+)*m", result.stdout)


def test_plain_output_has_no_escape_codes_and_no_box_drawing(
    runner: CliRunner, spec_repo: Path
) -> None:
    """Off a terminal (no FORCE_COLOR), tables are plain aligned text."""
    result = runner.invoke(app, ["spec", "show", str(spec_repo)], env={"FORCE_COLOR": ""})
    assert result.exit_code == EXIT_OK
    assert "\x1b[" not in result.stdout
    assert "│" not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0].startswith("kit: ")
    assert lines[1] == f"spec: {spec_repo.resolve() / 'openspec'}"
    assert lines[3].split() == ["requirement", "level", "scenario"]


def test_an_unreadable_spec_is_one_line_and_exit_2(runner: CliRunner, spec_repo: Path) -> None:
    """A spec.md that is not UTF-8 cannot be read: `spec show` names the file, exit 2."""
    spec = spec_repo / "openspec" / "specs" / "single-react-diagnosis-harness" / "spec.md"
    spec.write_bytes(b"# spec\n\xff\xfe broken\n")
    result = runner.invoke(app, ["spec", "show", str(spec_repo)])
    assert result.exit_code == EXIT_SETUP
    assert result.stderr.startswith(f"srdh: error: {spec}")
    assert len(result.stderr.strip().splitlines()) == 1


def test_validate_errors_carry_nested_json_pointers(runner: CliRunner, tmp_path: Path) -> None:
    """A bad value deep inside a document is reported at its RFC 6901 pointer."""
    run_id = "https://srdh.dev/schemas/v1/diagnosis-run.schema.json"
    doc = {
        "$schema": run_id,
        "run_id": "run-1",
        "session_id": "s-1",
        "seq": 1,
        "user_message": "hi",
        "intent": "DIAGNOSIS",
        "state": "SLEEPING",
        "published_result": None,
        "fallback_type": None,
        "error_code": None,
        "created_at_ms": 0,
        "finished_at_ms": None,
    }
    path = _write(tmp_path / "run.json", doc)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == EXIT_FAILED
    assert f"{path}:1: /state: expected one of RUNNING" in result.stdout


def test_every_registered_contract_has_its_direction() -> None:
    """`srdh diff` knows the direction of every contract of the registry, as registered."""
    from conformance.cli._diff import contract_directions  # noqa: PLC0415
    from contracts import CONTRACTS  # noqa: PLC0415

    directions, default = contract_directions()
    assert {n: d.value for n, d in directions.items()} == {
        n: info.direction.value for n, info in CONTRACTS.items()
    }
    assert default.value == "BOTH"


def test_diff_direction_option_overrides_the_registry(runner: CliRunner, tmp_path: Path) -> None:
    """--direction READ on an EMIT contract: an added enum value becomes compatible (exit 0)."""
    (tmp_path / "o").mkdir()
    (tmp_path / "n").mkdir()
    _write(tmp_path / "o" / "run-trace-event.schema.json", {"enum": ["A"]})
    _write(tmp_path / "n" / "run-trace-event.schema.json", {"enum": ["A", "B"]})
    args = ["diff", str(tmp_path / "o"), str(tmp_path / "n"), "--direction", "READ"]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_OK, result.output
    assert "compatible" in result.stdout


def test_version_and_short_help(runner: CliRunner) -> None:
    """`--version` prints the installed distribution's version; `-h` is help."""
    shown = runner.invoke(app, ["--version"])
    assert shown.exit_code == 0
    assert shown.stdout.strip() == f"srdh {version('srdh-conformance-kit')}"
    short = runner.invoke(app, ["gate", "-h"])
    assert short.exit_code == 0
    assert "Usage:" in short.stdout
