"""From a red `srdh run` to the one failing example: structured failures and re-running one thing.

A lying IUT (a mutant of the reference harness that breaks one rule) makes every field of the
failure appear with the value it must have: requirement, scenario and example id, the fixture
saved in the report folder, the rule and the spec sentences at ``file:line``, expected,
observed, the IUT's trace against the reference's, and a reproduce command that re-runs exactly
that example (and passes against the reference harness).
"""

from __future__ import annotations

import html
import json
import re
import shlex
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import pytest
from markdown_it import MarkdownIt

from conformance.anyfixture import ANY_FIXTURE_SCENARIO
from conformance.checks import RULES
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.suite import load_catalogue
from contracts import load_document
from reference_harness.mutants import MUTANTS
from tests.cli.conftest import ROOT

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import CliRunner

OUTLINE = "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed"
EXAMPLE = f"{OUTLINE}-example-3"
MISSING_ID = "missing_id_executed"
DUPLICATE = "duplicate_overwrites_invocation"
REFERENCE = "reference_harness.iut:create"
PROPERTY_SCENARIO = "duplicate-tool-call-id-is-proposed"


def _run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, ["run", *args])


def _report(directory: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((directory / "report.json").read_text("utf-8"))
    return document


def _words(text: str) -> list[str]:
    return text.split()


@pytest.fixture(scope="module")
def lying_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """One outline example run against the mutant that executes a call with a missing id."""
    from typer.testing import CliRunner  # noqa: PLC0415 - a module-scoped runner

    directory = tmp_path_factory.mktemp("lying") / "report"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--iut-module",
            f"reference_harness.mutants:{MISSING_ID}",
            "--scenario",
            EXAMPLE,
            "--report",
            str(directory),
        ],
    )
    return result, directory


def _only_failure(directory: Path) -> dict[str, Any]:
    (failure,) = _report(directory)["failures"]
    return failure


def test_an_outline_example_id_runs_only_that_row(lying_run: tuple[Any, Path]) -> None:
    """`--scenario <outline>-example-3` runs one example; it fails, exit 1."""
    result, directory = lying_run
    assert result.exit_code == EXIT_FAILED
    (requirement,) = _report(directory)["requirements"].values()
    assert requirement["scenarios"][OUTLINE]["examples"] == 1


def test_the_failure_names_requirement_scenario_and_example(lying_run: tuple[Any, Path]) -> None:
    """The ids come from the catalogue entry of the outline and the row asked for."""
    entry = next(e for e in load_catalogue() if e.scenario_id == OUTLINE)
    failure = _only_failure(lying_run[1])
    assert failure["requirement_id"] == entry.requirement_id
    assert failure["scenario_id"] == OUTLINE
    assert failure["example_id"] == EXAMPLE
    assert failure["source"] == "scenario"
    assert failure["status"] == "FAILED"
    assert failure["check"].startswith("Then ")


def test_the_failing_fixture_is_saved_in_the_report_folder(lying_run: tuple[Any, Path]) -> None:
    """fixture_path names a valid scenario-fixture in the report folder, of that example."""
    failure = _only_failure(lying_run[1])
    path = lying_run[1] / failure["fixture_path"]
    fixture = load_document(path, "scenario-fixture")
    assert fixture.model_dump(mode="json")["fixture_id"] == EXAMPLE


def test_the_rule_is_the_one_the_mutant_breaks_with_its_spec_sentences(
    lying_run: tuple[Any, Path],
) -> None:
    """The mutant's rule id comes first (a failing Then step also names every broken global
    invariant after it); each rule sentence's file:line holds that sentence."""
    failure = _only_failure(lying_run[1])
    rule_id = MUTANTS[MISSING_ID].rule_id
    assert failure["rule_ids"][0] == rule_id
    assert [r["rule_id"] for r in failure["rules"]] == failure["rule_ids"]
    rule = failure["rules"][0]
    assert rule["summary"] == RULES[rule_id].summary
    assert [s["text"] for s in rule["sentences"]] == list(RULES[rule_id].sentences)
    for sentence in rule["sentences"]:
        lines = (ROOT / sentence["file"]).read_text("utf-8").splitlines()
        window = " ".join(lines[sentence["line"] - 1 : sentence["line"] + 2])
        assert " ".join(_words(sentence["text"])) in " ".join(_words(window))
        assert sentence["location"] == f"{sentence['file']}:{sentence['line']}"
    headers = [s for s in failure["spec"] if s["text"].startswith("Requirement: ")]
    (header,) = headers
    spec_lines = (ROOT / header["file"]).read_text("utf-8").splitlines()
    assert spec_lines[header["line"] - 1] == f"### {header['text']}"


def test_expected_and_observed_are_the_rule_and_the_findings(lying_run: tuple[Any, Path]) -> None:
    """Expected states the rule; observed holds every finding line of the message, in full."""
    failure = _only_failure(lying_run[1])
    assert failure["expected"] == "\n".join(
        f"[{rule_id}] {RULES[rule_id].summary}" for rule_id in failure["rule_ids"]
    )
    findings = re.findall(r"^\s*- \[(R\d+\.[a-z0-9-]+)\] (.*)$", failure["message"], re.MULTILINE)
    assert findings
    by_rule = [f"[{r}] {text}" for rule in failure["rule_ids"] for r, text in findings if r == rule]
    assert failure["observed"] == "\n".join(by_rule)
    assert "MISSING_ID" in failure["observed"]


def test_the_trace_drill_down_marks_the_first_difference(lying_run: tuple[Any, Path]) -> None:
    """The reference rejects the call the IUT accepted: traces agree up to the marked event."""
    failure = _only_failure(lying_run[1])
    observed, reference = failure["observed_trace"], failure["reference_trace"]
    index = failure["first_difference"]
    assert any(line.startswith("TOOL_CALL_REJECTED") for line in reference)
    assert not any(line.startswith("TOOL_CALL_REJECTED") for line in observed)
    assert observed[:index] == reference[:index]
    assert observed[index] != reference[index]


def test_the_reproduce_command_reruns_that_example_alone(
    lying_run: tuple[Any, Path], runner: CliRunner, tmp_path: Path
) -> None:
    """The printed reproduce command fails the same example again; the reference passes it."""
    result, directory = lying_run
    failure = _only_failure(directory)
    assert f"reproduce: {failure['reproduce']}" in result.stdout
    args = shlex.split(failure["reproduce"])
    assert args[:2] == ["srdh", "run"]
    again = runner.invoke(app, [*args[1:], "--report", str(tmp_path / "again")])
    assert again.exit_code == EXIT_FAILED
    assert _only_failure(tmp_path / "again")["example_id"] == EXAMPLE
    module = args.index("--iut-module")
    args[module + 1] = REFERENCE
    assert runner.invoke(app, args[1:]).exit_code == EXIT_OK


def test_junit_and_markdown_carry_the_same_fields(lying_run: tuple[Any, Path]) -> None:
    """junit.xml's failure text and summary.md hold example id, rule, location and reproduce."""
    directory = lying_run[1]
    failure = _only_failure(directory)
    root = ET.fromstring((directory / "junit.xml").read_text("utf-8"))  # noqa: S314 - our own file
    (junit,) = [f.text or "" for f in root.iter("failure")]
    rendered = (
        MarkdownIt("commonmark")
        .enable("table")
        .render((directory / "summary.md").read_text("utf-8"))
    )
    markdown = html.unescape(re.sub("<[^>]+>", "", rendered))
    location = failure["rules"][0]["sentences"][0]["location"]
    for text in (junit, markdown):
        for value in (EXAMPLE, failure["rule_ids"][0], failure["fixture_path"], location):
            assert value in text
        assert f"reproduce: {failure['reproduce']}" in text
        assert failure["observed"].splitlines()[0] in text


def test_the_html_report_shows_failures_first_and_a_drill_down(
    lying_run: tuple[Any, Path],
) -> None:
    """The failures section precedes compliance; the drill-down marks the first difference."""
    page = (lying_run[1] / "report.html").read_text("utf-8")
    assert page.index('id="failures"') < page.index('id="compliance"')
    assert 'id="drill-down"' in page
    assert page.count('class="first-difference"') == 1
    results = page.split('id="results"', 1)[1].split("</table>", 1)[0]
    assert f'<a href="#drill-1"><code>{OUTLINE}</code></a>' in results
    assert 'id="drill-1"' in page


def test_a_property_failure_saves_its_shrunk_fixture_and_its_replay_command(
    runner: CliRunner, tmp_path: Path
) -> None:
    """`--scenario X-property` runs the property; its counterexample replays with --fixture."""
    directory = tmp_path / "report"
    result = _run(
        runner,
        "--iut-module",
        f"reference_harness.mutants:{DUPLICATE}",
        "--scenario",
        f"{PROPERTY_SCENARIO}-property",
        "--examples",
        "5",
        "--report",
        str(directory),
    )
    assert result.exit_code == EXIT_FAILED
    failures = {f["example_id"]: f for f in _report(directory)["failures"]}
    failure = failures[f"{PROPERTY_SCENARIO}-property"]
    assert failure["source"] == "property"
    assert failure["rule_ids"] == [MUTANTS[DUPLICATE].rule_id]
    saved = directory / failure["fixture_path"]
    load_document(saved, "scenario-fixture")
    assert failure["reproduce"].endswith(f"--fixture {shlex.quote(str(saved))}")
    assert f"reproduce: {failure['reproduce']}" in result.stdout
    replay = runner.invoke(app, shlex.split(failure["reproduce"])[1:])
    assert replay.exit_code == EXIT_FAILED
    assert MUTANTS[DUPLICATE].rule_id in replay.stdout
    on_reference = _run(runner, "--iut-module", REFERENCE, "--fixture", str(saved))
    assert on_reference.exit_code == EXIT_OK
    assert "Then check of scenario" in on_reference.stdout


def test_the_terminal_shortens_a_long_message_but_the_report_keeps_it(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A message over 500 characters ends in a pointer to report.json, which holds it whole."""
    directory = tmp_path / "report"
    result = _run(
        runner,
        "--iut-module",
        f"reference_harness.mutants:{DUPLICATE}",
        "--scenario",
        PROPERTY_SCENARIO,
        "--examples",
        "0",
        "--report",
        str(directory),
    )
    assert result.exit_code == EXIT_FAILED
    assert f"(full text: {directory / 'report.json'})" in result.stdout
    (requirement,) = _report(directory)["requirements"].values()
    message = requirement["scenarios"][PROPERTY_SCENARIO]["message"]
    assert len(message) > 500
    assert "…" not in message


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--scenario", f"{OUTLINE}-example-99"], f"unknown example id(s) {OUTLINE}-example-99"),
        (["--fixture", "no-such-fixture.json"], "no-such-fixture.json"),
        (["--fixture", "x.json", "--scenario", OUTLINE], "cannot be combined with --scenario"),
    ],
    ids=["unknown-example", "missing-fixture-file", "fixture-with-scenario"],
)
def test_bad_selection_is_one_line_and_exit_2(
    runner: CliRunner, args: list[str], expected: str
) -> None:
    """An unknown example id or an unreadable fixture file: exit 2, one line naming it."""
    result = _run(runner, "--iut-module", REFERENCE, *args)
    assert result.exit_code == EXIT_SETUP
    assert expected in result.stderr
    assert "Traceback" not in result.output


def test_an_invalid_fixture_file_names_its_pointer(runner: CliRunner, tmp_path: Path) -> None:
    """A fixture file breaking its schema is refused with the JSON pointer, exit 2."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"fixture_id": 3}), encoding="utf-8")
    result = _run(runner, "--iut-module", REFERENCE, "--fixture", str(path))
    assert result.exit_code == EXIT_SETUP
    assert "bad.json" in result.stderr


def test_a_passing_run_reports_no_failures(runner: CliRunner, tmp_path: Path) -> None:
    """The reference harness on the same example: no failure, no fixtures folder."""
    directory = tmp_path / "report"
    result = _run(
        runner, "--iut-module", REFERENCE, "--scenario", EXAMPLE, "--report", str(directory)
    )
    assert result.exit_code == EXIT_OK
    assert _report(directory)["failures"] == []
    assert not (directory / "fixtures").exists()


def test_a_late_protocol_violation_becomes_a_structured_failure() -> None:
    """A violation blamed on a scenario fails it (ERROR) and adds a protocol failure for it."""
    from conformance.adapters import ProtocolViolation  # noqa: PLC0415 - only here
    from conformance.cli._run import fold_violations  # noqa: PLC0415 - only here
    from conformance.reports import (  # noqa: PLC0415 - only here
        Report,
        RequirementResult,
        ScenarioResult,
        Status,
        Versions,
    )

    scenarios = (
        ScenarioResult("a-scenario", "A", Status.PASSED),
        ScenarioResult("b-scenario", "B", Status.PASSED),
    )
    report = Report(
        "srdh run",
        Versions("k", "1"),
        Versions("i", "1"),
        (RequirementResult("req-1", "R", "MUST", scenarios),),
    )
    violation = ProtocolViolation("r7", "b-scenario-example-2", None, "a second observation")
    folded = fold_violations(report, [violation])
    (failure,) = folded.failures
    assert (failure.requirement_id, failure.scenario_id, failure.example_id) == (
        "req-1",
        "b-scenario",
        "b-scenario-example-2",
    )
    assert (failure.source, failure.status, failure.observed) == (
        "protocol",
        Status.ERROR,
        "a second observation",
    )
    states = [s.status for s in folded.requirements[0].scenarios]
    assert states == [Status.PASSED, Status.ERROR]


def test_scenario_ids_name_scenarios_outline_rows_and_properties() -> None:
    """Example ids narrow a known scenario; property ids (both forms) select scenario+property."""
    from conformance.cli._suite import split_property_ids  # noqa: PLC0415 - only here
    from conformance.properties import property_test_id  # noqa: PLC0415 - only here
    from conformance.suite import split_example_ids  # noqa: PLC0415 - only here

    known = {OUTLINE, PROPERTY_SCENARIO}
    assert split_example_ids([EXAMPLE], known) == ([OUTLINE], {OUTLINE: {EXAMPLE}})
    assert split_example_ids([EXAMPLE, OUTLINE], known) == ([OUTLINE], {})
    assert split_example_ids(["nope-example-1"], known) == (["nope-example-1"], {})
    for asked in (f"{PROPERTY_SCENARIO}-property", property_test_id(PROPERTY_SCENARIO)):
        assert split_property_ids((asked, OUTLINE)) == (
            (PROPERTY_SCENARIO, OUTLINE),
            {PROPERTY_SCENARIO},
        )


def test_a_fixture_without_a_scenario_is_judged_by_the_global_invariants(
    runner: CliRunner, tmp_path: Path
) -> None:
    """An extension fixture run with --fixture: a rewriting harness breaks a global invariant."""
    path = (
        ROOT
        / "conformance"
        / "fixtures"
        / "a-released-diagnosis-draft-is-the-agent-s-own-draft.json"
    )
    directory = tmp_path / "report"
    mutant = "harness_rewrites_draft"
    result = _run(
        runner,
        "--iut-module",
        f"reference_harness.mutants:{mutant}",
        "--fixture",
        str(path),
        "--report",
        str(directory),
    )
    assert result.exit_code == EXIT_FAILED
    failure = _only_failure(directory)
    assert failure["source"] == "fixture"
    assert failure["check"] == "Then every global invariant holds"
    assert failure["rule_ids"] == [MUTANTS[mutant].rule_id]
    assert failure["requirement_id"] == MUTANTS[mutant].requirement_id
    assert (directory / failure["fixture_path"]).is_file()


def test_an_any_fixture_failure_replays_with_its_saved_fixture(
    runner: CliRunner, tmp_path: Path
) -> None:
    """The any-fixture scenario judges its failing fixture by every check, as `--fixture` does:
    its reproduce line is `--fixture` with the saved file (seconds), not `--scenario` (every pin
    again). Found by a new user (session 5)."""
    mutant = MISSING_ID  # a pinned fixture presents a call without a Tool Call ID
    directory = tmp_path / "report"
    result = _run(
        runner,
        "--iut-module",
        f"reference_harness.mutants:{mutant}",
        "--scenario",
        ANY_FIXTURE_SCENARIO,
        "--examples",
        "0",
        "--report",
        str(directory),
    )
    assert result.exit_code == EXIT_FAILED
    (failure,) = _report(directory)["failures"]
    assert failure["scenario_id"] == ANY_FIXTURE_SCENARIO
    saved = directory / failure["fixture_path"]
    load_document(saved, "scenario-fixture")
    assert failure["reproduce"].endswith(f"--fixture {shlex.quote(str(saved))}")
    replay = runner.invoke(app, shlex.split(failure["reproduce"])[1:])
    assert replay.exit_code == EXIT_FAILED
    assert MUTANTS[mutant].rule_id in replay.stdout
    assert _run(runner, "--iut-module", REFERENCE, "--fixture", str(saved)).exit_code == EXIT_OK
