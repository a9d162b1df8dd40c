"""`srdh demo --iut CMD FILE`: the IUT's timeline beside the reference's, first change marked."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from conformance.cli import EXIT_FAILED, EXIT_OK, app
from conformance.cli._demo import compare_rows
from tests.cli.conftest import ROOT

if TYPE_CHECKING:
    from typer.testing import CliRunner

FIXTURE = (
    ROOT
    / "conformance"
    / "fixtures"
    / ("a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed-example-1.json")
)
STDIO_REFERENCE = f"{sys.executable} -m reference_harness.stdio"


def test_compare_rows_marks_only_the_first_difference() -> None:
    """Equal prefix unmarked; the first differing row marked; a shorter trace shows (end)."""
    rows, first = compare_rows(("A", "B", "C"), ("A", "X", "C", "D"))
    assert first == 1
    assert [row[3] != "" for row in rows] == [False, True, False, False]
    assert rows[3][1:3] == ["(end)", "D"]
    assert compare_rows(("A",), ("A",)) == ([["0", "A", "A", ""]], None)


def test_a_stdio_iut_that_behaves_like_the_reference_shows_no_difference(
    runner: CliRunner,
) -> None:
    """The reference harness behind the stdio protocol: identical traces, exit 0."""
    result = runner.invoke(app, ["demo", "--iut", STDIO_REFERENCE, str(FIXTURE)])
    assert result.exit_code == EXIT_OK, result.output
    assert "the normalized traces are identical" in result.stdout
    assert "first difference" not in result.stdout


def test_a_lying_iut_shows_where_it_departs(runner: CliRunner) -> None:
    """A mutant that executes a call with a missing id differs where the reference rejects."""
    result = runner.invoke(
        app,
        ["demo", "--iut-module", "reference_harness.mutants:missing_id_executed", str(FIXTURE)],
    )
    assert result.exit_code == EXIT_FAILED
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("first difference at")]
    reference, iut = line.split(": ", 1)[1].split(" | ")
    assert reference.startswith("TOOL_CALL_REJECTED reason=MISSING_ID")
    assert iut.startswith("TOOL_CALL_ACCEPTED")
    marked = [x for x in result.stdout.splitlines() if x.rstrip().endswith("◀ first difference")]
    assert len(marked) == 1
