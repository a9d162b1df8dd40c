"""`srdh selftest` and the verify self-test step: verdicts, survivors, bad mutant names."""

from __future__ import annotations

from typing import TYPE_CHECKING

import conformance.selftest
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.cli._output import kit_schemas_dir
from conformance.reports import Status
from conformance.selftest import MutantVerdict, SelftestResult
from conformance.verify import VerifyContext, _kit_steps

if TYPE_CHECKING:
    from pathlib import Path

    import pytest
    from typer.testing import CliRunner

KILLED = MutantVerdict(
    "missing_id_executed",
    "iut",
    "tool-invocation-identity",
    "MISSING_ID never executed",
    killing_scenarios=("a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed",),
)
SURVIVOR = MutantVerdict("harness_rewrites_draft", "iut", "design-contracts", "byte-identical")


def _fake(monkeypatch: pytest.MonkeyPatch, result: SelftestResult) -> list[dict[str, object]]:
    calls: list[dict[str, object]] = []

    def fake_run_selftest(**kwargs: object) -> SelftestResult:
        calls.append(kwargs)
        progress = kwargs.get("progress")
        for verdict in result.mutants:
            if callable(progress):
                progress(verdict)
        return result

    class FakePending:
        """What ``start_selftest`` returns: ``result()`` hands back the canned result."""

        def __init__(self, **kwargs: object) -> None:
            self.kwargs = kwargs

        def result(self, **kwargs: object) -> SelftestResult:
            return fake_run_selftest(**self.kwargs, **kwargs)

        def cancel(self) -> None:
            """Nothing runs in the background."""

    monkeypatch.setattr(conformance.selftest, "run_selftest", fake_run_selftest)
    monkeypatch.setattr(_kit_steps, "start_selftest", FakePending)
    return calls


def test_selftest_passes_when_every_mutant_is_killed(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All mutants killed, reference clean: a KILLED row naming the killer, exit 0."""
    calls = _fake(monkeypatch, SelftestResult((), (KILLED,), 5))
    result = runner.invoke(app, ["selftest", "--mutant", "missing_id_executed", "--examples", "2"])
    assert result.exit_code == EXIT_OK, result.output
    assert calls[0]["mutants"] == ("missing_id_executed",)
    assert calls[0]["examples"] == 2
    assert calls[0]["fast"] is True
    row = next(ln for ln in result.stdout.splitlines() if ln.startswith("missing_id_executed"))
    assert "KILLED" in row
    assert "a-missing-or-invalid-tool-call-id-is-rejected-and-never-executed" in row
    assert "selftest PASSED: 1/1 mutants killed" in result.stdout


def test_a_surviving_mutant_fails_the_selftest(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One survivor: a SURVIVED row, the survivor named in the summary, exit 1."""
    _fake(monkeypatch, SelftestResult((), (KILLED, SURVIVOR), 5))
    result = runner.invoke(app, ["selftest"])
    assert result.exit_code == EXIT_FAILED
    row = next(ln for ln in result.stdout.splitlines() if ln.startswith("harness_rewrites_draft"))
    assert "SURVIVED" in row
    assert "survivors: harness_rewrites_draft" in result.stdout


def test_full_and_jobs_reach_the_selftest(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--full asks for the slow path (every probe on every mutant); --jobs caps the processes."""
    calls = _fake(monkeypatch, SelftestResult((), (KILLED,), 5))
    result = runner.invoke(app, ["selftest", "--full", "--jobs", "1"])
    assert result.exit_code == EXIT_OK, result.output
    assert calls[0]["fast"] is False
    assert calls[0]["jobs"] == 1


def test_an_unknown_mutant_is_a_setup_error(runner: CliRunner) -> None:
    """A mutant name the catalogue lacks: one line naming it, exit 2 (nothing runs)."""
    result = runner.invoke(app, ["selftest", "--mutant", "no_such_mutant"])
    assert result.exit_code == EXIT_SETUP
    assert "no_such_mutant" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_step_fails_on_a_reference_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference harness failing a scenario fails the step even with every mutant killed."""
    _fake(monkeypatch, SelftestResult(("latest-run-is-a-fallback",), (KILLED,), 5))
    outcome = _kit_steps.mutant_selftest(VerifyContext(tmp_path, kit_schemas_dir()))
    assert outcome.status is Status.FAILED
    assert outcome.detail == "1/1 mutants killed; reference failed: latest-run-is-a-fallback"


def test_verify_step_passes_when_all_are_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every mutant killed and a clean reference: PASSED with the result as payload."""
    expected = SelftestResult((), (KILLED,), 5)
    _fake(monkeypatch, expected)
    outcome = _kit_steps.mutant_selftest(VerifyContext(tmp_path, kit_schemas_dir()))
    assert outcome.status is Status.PASSED
    assert outcome.payload is expected


def test_verify_report_lists_the_mutants(tmp_path: Path) -> None:
    """A verify result with a self-test payload: JSON and HTML list each mutant's verdict."""
    import json  # noqa: PLC0415

    from conformance.cli._verify import verify_report  # noqa: PLC0415
    from conformance.reports import StepResult, write_reports  # noqa: PLC0415
    from conformance.verify import VerifyResult  # noqa: PLC0415

    selftest = SelftestResult((), (KILLED, SURVIVOR), 5)
    steps = (StepResult("mutant self-test", Status.FAILED, "1/2 mutants killed", 1.0),)
    report = verify_report(VerifyResult(steps, {"mutant self-test": selftest}), tmp_path)
    write_reports(report, tmp_path / "r", kit_schemas_dir())
    doc = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert [(m["name"], m["killed"]) for m in doc["mutants"]] == [
        ("missing_id_executed", True),
        ("harness_rewrites_draft", False),
    ]
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert '<table id="mutants">' in html
    assert "SURVIVED" in html
    summary = (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")
    assert "- survived: `harness_rewrites_draft`" in summary
