"""`srdh verify`: the orchestration, the real steps, the summary table and reports."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import conformance.verify
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.cli._output import kit_schemas_dir
from conformance.gate import load_phase_plan, planned_changes
from conformance.reports import Status, StepResult, write_reports
from conformance.verify import STEP_NAMES, VerifyContext, run_verify
from conformance.verify._checks import (
    check_module_tool,
    gate_status,
    schemas_and_examples,
    spec_lint,
)
from conformance.verify._outcome import Outcome, failed, passed

if TYPE_CHECKING:
    import pytest
    from typer.testing import CliRunner


ROOT = Path(__file__).resolve().parents[2]


class _Clock:
    """A fake clock: each reading advances by 0.25 s."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.25
        return self.now


class _Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []

    def start(self, name: str) -> None:
        self.events.append(f"start {name}")

    def end(self, result: StepResult) -> None:
        self.events.append(f"end {result.name} {result.status.value}")


def test_steps_run_in_order_are_timed_and_reported(tmp_path: Path) -> None:
    """Every step runs once, in order, timed by the clock; one failure fails the whole run."""
    steps = [("a", lambda _: passed("ok")), ("b", lambda _: failed("broken"))]
    recorder = _Recorder()
    result = run_verify(tmp_path, tmp_path, progress=recorder, clock=_Clock(), steps=steps)
    assert [(s.name, s.status) for s in result.steps] == [
        ("a", Status.PASSED),
        ("b", Status.FAILED),
    ]
    assert [s.seconds for s in result.steps] == [0.25, 0.25]
    assert recorder.events == ["start a", "end a PASSED", "start b", "end b FAILED"]
    assert not result.passed


def test_the_default_steps_are_the_nine_of_the_brief() -> None:
    """The main job runs exactly these steps, in this order (issue 19 added vocabulary coverage)."""
    assert STEP_NAMES == (
        "spec lint",
        "schemas + examples",
        "freeze lock",
        "codegen drift",
        "traceability",
        "conformance suite",
        "vocabulary coverage",
        "mutant self-test",
        "gate status",
    )


def test_spec_lint_step_passes_on_a_clean_spec_and_fails_on_a_broken_one(spec_repo: Path) -> None:
    """Clean spec: PASSED; a requirement without SHALL: FAILED naming the file."""
    ctx = VerifyContext(spec_repo, kit_schemas_dir())
    assert spec_lint(ctx).status is Status.PASSED
    spec = spec_repo / "openspec" / "specs" / "single-react-diagnosis-harness" / "spec.md"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("The frozen contract set SHALL define", "It defines", 1), "utf-8")
    outcome = spec_lint(ctx)
    assert outcome.status is Status.FAILED
    assert str(spec) in outcome.detail


def test_schemas_step_fails_when_a_contract_has_no_valid_example(tmp_path: Path) -> None:
    """Removing a contract's valid examples is named as a problem of that contract."""
    copy = tmp_path / "schemas"
    shutil.copytree(kit_schemas_dir(), copy)
    shutil.rmtree(copy / "examples" / "public-error" / "valid")
    outcome = schemas_and_examples(VerifyContext(tmp_path, copy))
    assert outcome.status is Status.FAILED
    assert "public-error: no valid example" in outcome.payload


def test_schemas_step_fails_when_an_invalid_example_is_accepted(tmp_path: Path) -> None:
    """A schema-layer 'invalid' example that the contract accepts is a problem naming the file."""
    copy = tmp_path / "schemas"
    shutil.copytree(kit_schemas_dir(), copy)
    bad = copy / "examples" / "public-error" / "invalid" / "accepted.json"
    bad.write_text(json.dumps({"error_code": "INTERNAL_ERROR"}), encoding="utf-8")
    why = {"rule": "schema:enum", "layer": "schema", "pointer": "/error_code", "note": "test"}
    (bad.parent / "accepted.why.json").write_text(json.dumps(why), encoding="utf-8")
    outcome = schemas_and_examples(VerifyContext(tmp_path, copy))
    assert f"{bad}: an invalid example is accepted" in outcome.payload


def test_module_tool_step_reports_a_missing_module_as_not_available(tmp_path: Path) -> None:
    """A check tool that is not installed is FAILED 'not available', never a pass."""
    outcome = check_module_tool("contracts.no_such_tool", VerifyContext(tmp_path, tmp_path))
    assert outcome.status is Status.FAILED
    assert outcome.detail.startswith("not available")


def test_module_tool_step_fails_when_the_tool_exits_non_zero(tmp_path: Path) -> None:
    """A real tool that rejects --check (json.tool) fails the step with its exit code."""
    outcome = check_module_tool("json.tool", VerifyContext(tmp_path, tmp_path))
    assert outcome.status is Status.FAILED
    assert outcome.detail.startswith("exit 2:")


def test_gate_status_passes_when_stage_0_is_committed(spec_repo: Path) -> None:
    """Stage 0 archived and committed: the next stage (1) is allowed."""
    outcome = gate_status(VerifyContext(spec_repo, kit_schemas_dir()))
    assert outcome.status is Status.PASSED
    assert outcome.detail.startswith("next stage 1 allowed; public entry LEGACY")


def test_gate_status_fails_when_changes_were_archived_out_of_order(spec_repo: Path) -> None:
    """Stage 2 archived and committed while stage 1 is not: the serial rule is broken."""
    stage2 = planned_changes(load_phase_plan())[2]
    folder = spec_repo / "openspec" / "changes" / "archive" / f"2026-08-01-{stage2.change_id}"
    shutil.copytree(next((spec_repo / "openspec" / "changes" / "archive").iterdir()), folder)
    for args in (["add", "-A"], ["commit", "-q", "-m", "skip"]):
        subprocess.run(  # noqa: S603 - fixed git arguments
            ["git", "-c", "user.name=t", "-c", "user.email=t@e.invalid", *args],  # noqa: S607
            cwd=spec_repo,
            check=True,
            capture_output=True,
        )
    outcome = gate_status(VerifyContext(spec_repo, kit_schemas_dir()))
    assert outcome.status is Status.FAILED


def test_gate_status_fails_outside_git(tmp_path: Path) -> None:
    """A directory that is not a git repository cannot have committed stages: FAILED."""
    (tmp_path / "openspec").mkdir()
    assert gate_status(VerifyContext(tmp_path, kit_schemas_dir())).status is Status.FAILED


def _fake_steps(monkeypatch: pytest.MonkeyPatch, outcome: Outcome) -> None:
    steps = [("spec lint", lambda _: passed("2 item(s)")), ("gate status", lambda _: outcome)]
    real = conformance.verify.run_verify

    def fake(repo: Path, schemas: Path, *, progress: _Recorder) -> object:
        return real(repo, schemas, steps=steps, progress=progress)

    monkeypatch.setattr(conformance.verify, "run_verify", fake)


def test_verify_prints_a_summary_table_and_exits_0_when_all_pass(
    runner: CliRunner, spec_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All steps PASSED: plain table (no ANSI codes off a terminal), exit 0."""
    _fake_steps(monkeypatch, passed("next stage 1 allowed"))
    result = runner.invoke(app, ["verify", str(spec_repo)])
    assert result.exit_code == EXIT_OK, result.output
    assert "step" in result.stdout
    assert "gate status  PASSED  next stage 1 allowed" in result.stdout
    assert "\x1b[" not in result.stdout
    assert "verify PASSED: 2/2 steps passed" in result.stdout


def test_verify_exits_1_and_writes_reports_when_a_step_fails(
    runner: CliRunner, spec_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FAILED step: exit 1; the report's JSON lists the steps and `passed` is false."""
    _fake_steps(monkeypatch, failed("refused"))
    out = tmp_path / "reports"
    result = runner.invoke(app, ["verify", str(spec_repo), "--report", str(out)])
    assert result.exit_code == EXIT_FAILED
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert doc["passed"] is False
    assert [s["status"] for s in doc["steps"]] == ["PASSED", "FAILED"]


def test_verify_without_openspec_is_a_setup_error(runner: CliRunner, tmp_path: Path) -> None:
    """A directory without openspec/: one line, exit 2, no step runs."""
    result = runner.invoke(app, ["verify", str(tmp_path)])
    assert result.exit_code == EXIT_SETUP
    assert "no openspec/ directory" in result.stderr
    assert "spec lint" not in result.stdout


def test_verify_with_an_unwritable_report_dir_stops_before_any_step(
    runner: CliRunner, spec_repo: Path, tmp_path: Path
) -> None:
    """--report under a regular file: exit 2 naming the directory, before the steps run."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["verify", str(spec_repo), "--report", str(blocker / "r")])
    assert result.exit_code == EXIT_SETUP
    assert f"report directory {blocker / 'r'} is not writable" in result.stderr
    assert result.stdout == ""


def test_verify_report_carries_suite_results_and_the_traced_matrix(tmp_path: Path) -> None:
    """A verify result with a real suite payload: the report keys that scenario's result, and
    the HTML matrix row shows its Gherkin mirror and the suite's outcome."""
    from conformance.adapters import InProcessAdapter  # noqa: PLC0415
    from conformance.cli._verify import verify_report  # noqa: PLC0415
    from conformance.suite import run_suite  # noqa: PLC0415
    from conformance.verify import REFERENCE_IUT, VerifyResult  # noqa: PLC0415

    adapter = InProcessAdapter(REFERENCE_IUT)
    try:
        suite = run_suite(adapter, scenario_ids=["latest-run-is-a-fallback"])
    finally:
        adapter.close()
    steps = (StepResult("conformance suite", Status.PASSED, "1 scenario", 1.0),)
    result = VerifyResult(steps, {"conformance suite": suite})
    report = verify_report(result, ROOT)
    (requirement,) = report.requirements
    assert [s.scenario_id for s in requirement.scenarios] == ["latest-run-is-a-fallback"]
    row = next(m for m in report.matrix if m.scenario_id == "latest-run-is-a-fallback")
    assert row.cells["gherkin"].startswith("features/07-")
    assert row.cells["result"].upper() == "PASSED"
    written = write_reports(report, tmp_path, kit_schemas_dir())
    html = written[-1].read_text(encoding="utf-8")
    assert row.cells["gherkin"] in html


def _one_scenario(monkeypatch: pytest.MonkeyPatch, scenario_id: str) -> None:
    """Make the suite step run one real scenario (the full suite is proven by `srdh run`)."""
    from conformance.suite import run_suite  # noqa: PLC0415
    from conformance.verify import _kit_steps  # noqa: PLC0415

    monkeypatch.setattr(
        _kit_steps, "run_suite", lambda adapter: run_suite(adapter, scenario_ids=[scenario_id])
    )


def test_suite_step_passes_on_the_reference_harness(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference harness passes the scenario: PASSED, the SuiteResult as payload."""
    from conformance.verify._kit_steps import conformance_suite  # noqa: PLC0415

    _one_scenario(monkeypatch, "duplicate-tool-call-id-is-proposed")
    outcome = conformance_suite(VerifyContext(tmp_path, kit_schemas_dir()))
    assert outcome.status is Status.PASSED, outcome.detail
    assert outcome.detail == "1 scenario(s): 1 passed, 0 failed, 0 not tested"
    assert outcome.payload.scenario("duplicate-tool-call-id-is-proposed").outcome == "passed"


def test_suite_step_fails_when_the_harness_breaks_a_must(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken_iut: str
) -> None:
    """A harness that hides its rejections fails a MUST scenario: FAILED naming it."""
    from conformance.verify import _kit_steps  # noqa: PLC0415

    monkeypatch.setattr(_kit_steps, "REFERENCE_IUT", broken_iut)
    _one_scenario(monkeypatch, "duplicate-tool-call-id-is-proposed")
    outcome = _kit_steps.conformance_suite(VerifyContext(tmp_path, kit_schemas_dir()))
    assert outcome.status is Status.FAILED
    assert "duplicate-tool-call-id-is-proposed FAILED" in outcome.detail
