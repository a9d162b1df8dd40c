"""`srdh run`: the IUT options and every bad input, each one line and exit 2."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest

from conformance._examples import DEFAULT_EXAMPLES
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.cli._bounds import EXAMPLES

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import CliRunner


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], 'exactly one of --iut "CMD" or --iut-module MOD:FACTORY'),
        (["--iut", "x", "--iut-module", "a:b"], "exactly one of"),
        (["--iut", "   "], "the IUT command is empty"),
        (["--iut-module", "no_colon"], "expected MODULE:FACTORY"),
        (["--iut", "srdh-no-such-binary-here"], "cannot start the IUT 'srdh-no-such-binary-here'"),
        (
            ["--iut", f"{sys.executable} -c pass"],
            "IUT exited (exit code 0) before sending the hello",
        ),
        (
            ["--iut", f"{sys.executable} -c \"import sys; sys.exit('no module named iut_x')\""],
            "IUT stderr: no module named iut_x",
        ),
        (["--iut-module", "no_such_module_xyz:create"], "no_such_module_xyz"),
        (["--iut", "x", "--level", "OUGHT"], "--level 'OUGHT': expected one of MUST, SHOULD, MAY"),
    ],
    ids=[
        "no-iut",
        "both",
        "empty-command",
        "module-without-factory",
        "missing-command",
        "exits-at-once",
        "dies-with-stderr",
        "unknown-module",
        "bad-level",
    ],
)
def test_bad_iut_input_is_one_line_and_exit_2(
    runner: CliRunner, args: list[str], expected: str
) -> None:
    """Each bad IUT option yields exit 2 and a single stderr line naming the problem."""
    result = runner.invoke(app, ["run", *args])
    assert result.exit_code == EXIT_SETUP
    assert expected in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_unwritable_report_dir_is_refused_before_the_iut_starts(
    runner: CliRunner, tmp_path: Path
) -> None:
    """--report under a regular file: exit 2 naming the directory; the IUT is never started."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    marker = tmp_path / "started"
    command = f"{sys.executable} -c \"open('{marker}', 'w')\""
    result = runner.invoke(app, ["run", "--iut", command, "--report", str(blocker / "r")])
    assert result.exit_code == EXIT_SETUP
    assert "is not writable" in result.stderr
    assert not marker.exists()


DUPLICATE = "duplicate-tool-call-id-is-proposed"


def test_run_over_stdio_passes_and_writes_parseable_reports(
    runner: CliRunner, tmp_path: Path
) -> None:
    """The reference harness over stdio passes a scenario; the reports name it and the IUT."""
    out = tmp_path / "reports"
    command = f"{sys.executable} -m reference_harness.stdio"
    args = ["run", "--iut", command, "--scenario", DUPLICATE, "--examples", "0"]
    args += ["--report", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_OK, result.output
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert doc["iut"]["name"] == "srdh-reference-harness"
    (requirement,) = doc["requirements"].values()
    assert requirement["scenarios"][DUPLICATE]["status"] == "PASSED"
    assert doc["compliance"]["MUST"]["compliant"] is True
    root = ET.parse(out / "junit.xml").getroot()  # noqa: S314 - the kit's own output
    assert [c.get("name") for c in root.iter("testcase")] == [DUPLICATE]


def test_run_against_a_broken_iut_exits_1(runner: CliRunner, broken_iut: str) -> None:
    """An IUT that hides its Tool Call ID rejections fails the duplicate-id scenario: exit 1."""
    args = ["--iut-module", broken_iut, "--scenario", DUPLICATE, "--examples", "0"]
    result = runner.invoke(app, ["run", *args])
    assert result.exit_code == EXIT_FAILED, result.output
    assert "FAILED" in result.stdout
    assert "MUST 0/1 requirements passed" in result.stdout


def test_run_with_an_unknown_scenario_id_is_a_setup_error(runner: CliRunner) -> None:
    """An unknown --scenario id: exit 2, one line naming it."""
    args = ["run", "--iut-module", "reference_harness.iut:create", "--scenario", "no-such-id"]
    result = runner.invoke(app, args)
    assert result.exit_code == EXIT_SETUP
    assert "no-such-id" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_properties_fold_into_scenario_results() -> None:
    """A failed property fails a passed scenario, a skipped one leaves it NOT_TESTED."""
    from conformance.cli._suite import merge_properties  # noqa: PLC0415
    from conformance.properties import PropertyResult  # noqa: PLC0415
    from conformance.reports import RequirementResult, ScenarioResult, Status  # noqa: PLC0415

    scenarios = tuple(
        ScenarioResult(sid, sid, Status.PASSED, 1.0, "", 1) for sid in ("a", "b", "c")
    )
    reqs = (RequirementResult("r", "R", "MUST", scenarios),)
    props = {
        "a": PropertyResult("a", "failed", 7, "AssertionError: no rejection", None, 2.0),
        "b": PropertyResult("b", "skipped", 0, "IUT lacks capability CANCELLATION"),
    }
    (merged,) = merge_properties(reqs, props)
    by_id = {s.scenario_id: s for s in merged.scenarios}
    assert by_id["a"].status is Status.FAILED
    assert by_id["a"].examples == 8
    assert "property: AssertionError: no rejection" in by_id["a"].message
    assert by_id["b"].status is Status.NOT_TESTED
    assert by_id["c"] == scenarios[2]
    # each property is a part of its scenario's verdict, named as --scenario takes it
    assert [(p.part_id, p.source, p.status) for p in by_id["a"].parts] == [
        ("a-property", "property", Status.FAILED)
    ]
    assert by_id["b"].parts[0].message == "IUT lacks capability CANCELLATION"


def test_an_interrupted_run_judges_each_scenario_by_the_parts_that_ran() -> None:
    """docs/cli.md "Interrupted runs": a part that failed fails its scenario whatever did not
    run; all parts ran and passed: PASSED (a scenario without a property too); some ran, none
    failed: NOT_RUN saying what ran; none ran: NOT_RUN. Each part keeps its own status."""
    from conformance.cli._suite import _not_run  # noqa: PLC0415 - the unit under test
    from conformance.reports import (  # noqa: PLC0415
        PartResult,
        RequirementResult,
        ScenarioResult,
        Status,
    )

    def scenario(sid: str, status: Status, *parts: Status, message: str = "") -> ScenarioResult:
        made = tuple(PartResult(f"{sid}-example-{n}", "scenario", s) for n, s in enumerate(parts))
        return ScenarioResult(sid, sid, status, message=message, examples=1, parts=made)

    passed, failed, not_run = Status.PASSED, Status.FAILED, Status.NOT_RUN
    given = (
        scenario("failed", failed, passed, failed, not_run, message="Then x: failed"),
        scenario("gherkin-only", passed, passed, passed),
        scenario("property-left", passed, passed),
        scenario("outline-cut", not_run, passed, not_run, not_run),
        scenario("unreached", not_run, not_run),
        scenario("none", not_run),
    )
    (judged,) = _not_run((RequirementResult("r", "R", "MUST", given),), {"property-left"})
    by_id = {s.scenario_id: s for s in judged.scenarios}
    partly = "partly run (the run was interrupted): "
    assert by_id["failed"].status is failed
    assert (
        by_id["failed"].message == f"{partly}Gherkin 1 PASSED, 1 FAILED, 1 NOT_RUN | Then x: failed"
    )
    assert by_id["gherkin-only"] == given[1]  # no property to wait for: PASSED as it ran
    assert by_id["property-left"].status is not_run
    assert by_id["property-left"].message == f"{partly}Gherkin PASSED; property NOT_RUN"
    assert [(p.part_id, p.source, p.status) for p in by_id["property-left"].parts] == [
        ("property-left-example-0", "scenario", passed),
        ("property-left-property", "property", not_run),
    ]
    assert by_id["outline-cut"].status is not_run
    assert by_id["outline-cut"].message == f"{partly}Gherkin 1 PASSED, 2 NOT_RUN"
    assert by_id["outline-cut"].parts == given[3].parts
    for sid in ("unreached", "none"):
        assert by_id[sid].status is not_run
        assert by_id[sid].message == "not run: the run was interrupted"


def test_run_with_examples_also_runs_the_property(runner: CliRunner, tmp_path: Path) -> None:
    """--examples 2: the scenario's property runs too; the report counts its examples."""
    out = tmp_path / "r"
    scenario = "latest-run-is-a-fallback"
    args = ["run", "--iut-module", "reference_harness.iut:create", "--scenario", scenario]
    result = runner.invoke(app, [*args, "--examples", "2", "--report", str(out)])
    assert result.exit_code == EXIT_OK, result.output
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    (requirement,) = doc["requirements"].values()
    # one Gherkin example plus at least one (at most two) generated property examples
    assert 2 <= requirement["scenarios"][scenario]["examples"] <= 3


def test_a_plain_run_explores_each_property_with_the_default_examples(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Without --examples the scenario's property runs DEFAULT_EXAMPLES (10) examples; 0: none."""
    scenario = "latest-run-is-a-fallback"
    args = ["run", "--iut-module", "reference_harness.iut:create", "--scenario", scenario]
    counts = []
    for extra in ([], ["--examples", "0"]):
        out = tmp_path / f"r{len(counts)}"
        result = runner.invoke(app, [*args, *extra, "--report", str(out)])
        assert result.exit_code == EXIT_OK, result.output
        doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
        (requirement,) = doc["requirements"].values()
        counts.append(requirement["scenarios"][scenario]["examples"])
    assert DEFAULT_EXAMPLES == 10
    assert counts == [1 + DEFAULT_EXAMPLES, 1]  # one Gherkin example, then the property's


def test_run_help_shows_the_default_examples(runner: CliRunner) -> None:
    """`srdh run --help` names the default count, its range and what 0 means."""
    result = runner.invoke(app, ["run", "--help"])
    assert result.exit_code == EXIT_OK
    words = " ".join(result.output.split())  # the help is wrapped to the terminal's width
    assert f"[default: {DEFAULT_EXAMPLES}; 0<=x<={EXAMPLES.high}]" in words
    assert "(0: the Gherkin scenarios only)" in words


def test_a_failure_after_the_iut_started_ahead_closes_it(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`srdh run` starts a stdio IUT before it loads the suite: when something fails in between
    (here: reading the kit's spec), the started process is closed before the error leaves."""
    import os  # noqa: PLC0415
    import pathlib  # noqa: PLC0415
    import time  # noqa: PLC0415

    from conformance.cli import _failures  # noqa: PLC0415

    pid_file = tmp_path / "pid"
    script = tmp_path / "iut.py"
    script.write_text(
        "import os, pathlib, sys, time\n"
        f"pathlib.Path({str(pid_file)!r}).write_text(str(os.getpid()))\n"
        "sys.stdin.read()\n",
        encoding="utf-8",
    )

    def broken() -> None:
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        message = "spec index exploded"
        raise RuntimeError(message)

    monkeypatch.setattr(_failures.SpecIndex, "of_kit", staticmethod(broken))
    result = runner.invoke(app, ["run", "--iut", f"{sys.executable} {script}"])
    assert result.exit_code != 0
    assert "spec index exploded" in result.output
    pid = int(pid_file.read_text(encoding="utf-8"))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return  # gone and reaped
    status = (pathlib.Path("/proc") / str(pid) / "status").read_text(encoding="utf-8")
    message = f"the IUT started ahead is still there: {status.splitlines()[2]}"
    raise AssertionError(message)
