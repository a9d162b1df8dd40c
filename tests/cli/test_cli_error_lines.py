"""Error lines a fresh user meets: bounded, alike across commands, alone, and echoing as given.

docs/cli.md: every error is one ``srdh: error:`` line naming what is wrong; a user mistake found
before any work has nothing before it; outside values are shown inert and bounded (at most 120
characters, then ``… (N characters)``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from conformance.cli import EXIT_OK, EXIT_SETUP, app
from tests.cli.conftest import ROOT

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import CliRunner

FIXTURE = (
    ROOT
    / "conformance"
    / "fixtures"
    / "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed-example-1.json"
)
STDIO_REFERENCE = f"{sys.executable} -m reference_harness.stdio"
SRDH = [sys.executable, "-c", "from conformance.cli import main; main()"]
LONGEST_ERROR = 400
"""An error line a reader can take in: far below the ~9 KB and 20 KB lines of before."""


def _one_error_line(result) -> str:
    """The whole standard error, asserted to be one ``srdh: error:`` line; returned."""
    assert result.exit_code == EXIT_SETUP, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("srdh: error: "), line
    return line


def test_an_unknown_scenario_id_names_close_ids_not_the_whole_catalogue(runner: CliRunner):
    """``srdh demo no-such-scenario``: a short line, where to list the ids, no other id named;
    a typo names the closest ids (difflib); nothing is printed before it."""
    line = _one_error_line(runner.invoke(app, ["demo", "no-such-scenario"]))
    assert len(line) < LONGEST_ERROR, line
    assert "'no-such-scenario' (no close match)" in line
    assert "`srdh spec show`" in line
    assert "a-backend-answers-with-an-in-band-error" not in line  # the first id of the catalogue
    assert runner.invoke(app, ["demo", "no-such-scenario"]).stdout == ""
    typo = _one_error_line(runner.invoke(app, ["demo", "duplicate-tool-call-id-is-propsed"]))
    assert "did you mean 'duplicate-tool-call-id-is-proposed'" in typo
    assert len(typo) < LONGEST_ERROR, typo


def test_a_huge_value_in_a_fixture_is_echoed_bounded(runner: CliRunner, tmp_path: Path):
    """A 20,000-character ``user_message`` over its maxLength: the line shows a prefix, an
    ellipsis and the length, not the whole value."""
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    fixture["user_message"] = "x" * 20_000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(fixture, indent=2), encoding="utf-8")
    line = _one_error_line(
        runner.invoke(app, ["run", "--iut", STDIO_REFERENCE, "--fixture", str(path)])
    )
    assert "/user_message: expected maxLength" in line
    assert "… (20000 characters)" in line
    assert len(line) < LONGEST_ERROR, len(line)


def test_a_directory_given_as_a_file_is_one_message_everywhere(runner: CliRunner, tmp_path):
    """``demo DIR``, ``run --fixture DIR`` and ``validate DIR`` say the same, with no pointer."""
    folder = tmp_path / "dir.json"
    folder.mkdir()
    commands = [
        ["demo", str(folder)],
        ["run", "--iut", STDIO_REFERENCE, "--fixture", str(folder)],
        ["validate", str(folder)],
    ]
    lines = {_one_error_line(runner.invoke(app, args)) for args in commands}
    assert lines == {f"srdh: error: {folder}: is a directory, expected a file"}


def test_the_whole_document_is_pointed_at_as_slash_everywhere(runner: CliRunner, tmp_path):
    """A fixture that is not an object: ``/`` as ``srdh validate`` names the root, not
    ``(root)``."""
    path = tmp_path / "list.json"
    path.write_text("[]", encoding="utf-8")
    line = _one_error_line(runner.invoke(app, ["demo", str(path)]))
    assert f"{path}:1: /: expected" in line or f"{path}: /: expected" in line, line
    assert "(root)" not in line


@pytest.mark.parametrize(
    ("args", "setup"),
    [
        (["diff", "old-does-not-exist", "new-does-not-exist"], None),
        (["validate", "{doc}"], "{}"),
    ],
    ids=["diff-missing-file", "validate-no-schema"],
)
def test_a_user_mistake_is_one_error_line_with_nothing_before_it(
    runner: CliRunner, tmp_path: Path, args, setup
):
    """A missing schema file for ``diff``, a document naming no contract for ``validate``: no
    ``kit:`` line, no ``old:``/``schemas:`` line, on either stream, before the error."""
    doc = tmp_path / "doc.json"
    if setup is not None:
        doc.write_text(setup, encoding="utf-8")
    result = runner.invoke(app, [arg.format(doc=doc) for arg in args])
    _one_error_line(result)
    assert result.stdout == ""


def test_a_click_usage_error_is_one_srdh_error_line(runner: CliRunner) -> None:
    """``srdh gate`` without a stage, an unknown option or command: ``srdh: error: …`` naming
    where the help is, exit 2, not click's three-line ``Error:`` block."""
    for args, said in (
        (["gate"], "Missing argument 'stage'. (see 'srdh gate --help')"),
        # a numeric option names its range too (tests/cli/test_cli_bounds.py)
        (["run", "--examples", "many"], "--examples 'many': expected an integer from 0 to"),
        (["no-such-command"], "No such command 'no-such-command'. (see 'srdh --help')"),
    ):
        result = runner.invoke(app, args)
        line = _one_error_line(result)
        assert said in line, line
        assert "Usage:" not in result.output


def test_the_help_is_still_shown_for_a_bare_group(runner: CliRunner) -> None:
    """``srdh`` alone still prints its help (click's no-args-is-help), not an error line."""
    result = runner.invoke(app, [])
    assert "Usage: srdh" in result.output
    assert "srdh: error" not in result.output


def test_an_unknown_stage_is_echoed_as_given(runner: CliRunner) -> None:
    """``srdh gate $'6B\\x1b[31m'``: the value as given (its ``m`` kept), escaped."""
    line = _one_error_line(runner.invoke(app, ["gate", "6B\x1b[31m", "--repo", str(ROOT)]))
    assert "unknown stage '6B\\x1b[31m'" in line, line


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"broken\n', "unterminated string: the line ends where a closing '\"' was expected"),
        ('{"a": "b\n', "unterminated string"),
    ],
)
def test_an_unterminated_string_is_named_so(runner: CliRunner, tmp_path: Path, text, said):
    """A string cut by the end of its line is an unterminated string, not an "invalid control
    character"."""
    path = tmp_path / "broken.ndjson"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert said in result.stdout, result.stdout
    assert "Invalid control character" not in result.stdout


def test_an_empty_ndjson_file_says_it_holds_no_documents(runner: CliRunner, tmp_path: Path):
    """An empty NDJSON stream is valid (exit 0: nothing fails), but said, never ``0 invalid``."""
    path = tmp_path / "empty.ndjson"
    path.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == EXIT_OK, result.output
    assert f"{path}: no documents (the file is empty or blank)" in result.stdout
    assert "no documents checked" in result.stdout
    assert "0 invalid" not in result.stdout


def test_lost_output_of_validate_does_not_speak_of_reports(tmp_path: Path) -> None:
    """``srdh validate … > /dev/full``: the lost output is named, and no report is claimed."""
    doc = tmp_path / "doc.json"
    doc.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    with open("/dev/full", "wb") as full:  # noqa: PTH123 - a real full device
        done = subprocess.run(  # noqa: S603 - this interpreter, fixed arguments
            [*SRDH, "validate", str(doc), "--contract", "scenario-fixture"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    assert done.returncode == EXIT_SETUP, done.stderr
    assert "standard output was lost" in done.stderr
    assert "report" not in done.stderr
