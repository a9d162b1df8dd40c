"""`srdh run --record DIR` writes the NDJSON exchange; `srdh replay DIR` re-judges it alone.

The replay starts no IUT (the recorded IUT's script is deleted first) and judges with the kit's
checks, not with stored verdicts: a recorded observation edited to break a rule fails replay
with that rule's id.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance.adapters import EXCHANGE_FILE, RUN_FILE
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from contracts import validate_document
from tests.cli.conftest import ROOT

SCENARIO = "duplicate-tool-call-id-is-proposed"


def _record(runner: CliRunner, tmp_path: Path, *args: str) -> Path:
    script = tmp_path / "iut.py"
    script.write_text(
        "import runpy\nrunpy.run_module('reference_harness.stdio', run_name='__main__')\n",
        encoding="utf-8",
    )
    recording = tmp_path / "recording"
    examples = () if "--examples" in args else ("--examples", "0")  # Gherkin only unless asked
    iut = f"{sys.executable} {script}"
    result = runner.invoke(app, ["run", "--iut", iut, "--record", str(recording), *examples, *args])
    assert result.exit_code == EXIT_OK, result.output
    assert f"(re-judge it: srdh replay {shlex.quote(str(recording))})" in result.output
    script.unlink()  # replay must not need the IUT
    return recording


@pytest.fixture(scope="module")
def scenario_recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One recording of :data:`SCENARIO` by the reference over stdio, its IUT script deleted.

    Recorded once for the module (each recording is a stdio IUT process and a suite run); the
    tests that edit it take their own copy (:func:`recording_copy`).
    """
    return _record(CliRunner(), tmp_path_factory.mktemp("shared"), "--scenario", SCENARIO)


@pytest.fixture
def recording_copy(scenario_recording: Path, tmp_path: Path) -> Path:
    """This test's own copy of :func:`scenario_recording` (it may edit it)."""
    return Path(shutil.copytree(scenario_recording, tmp_path / "recording"))


def _lines(recording: Path) -> list[dict[str, Any]]:
    text = (recording / EXCHANGE_FILE).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_the_recording_is_the_adapter_message_exchange(recording_copy: Path) -> None:
    """Every line carries a valid adapter message: hello, then a run and its observation."""
    recording = recording_copy
    lines = _lines(recording)
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    kinds = [(line["from"], line["message"]["type"]) for line in lines]
    assert kinds == [("iut", "hello"), ("kit", "run"), ("iut", "observation")]
    for line in lines:
        assert validate_document(line["message"], "adapter-message") == []
    assert json.loads((recording / RUN_FILE).read_text("utf-8"))["scenarios"] == [SCENARIO]


def test_replay_judges_the_recording_without_the_iut(
    runner: CliRunner, tmp_path: Path, recording_copy: Path
) -> None:
    """The recording of a conforming IUT replays green, its script gone."""
    recording = recording_copy
    result = runner.invoke(app, ["replay", str(recording), "--report", str(tmp_path / "r")])
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    (requirement,) = report["requirements"].values()
    assert requirement["scenarios"][SCENARIO]["status"] == "PASSED"


def test_replay_rejudges_an_edited_observation(
    runner: CliRunner, tmp_path: Path, recording_copy: Path
) -> None:
    """Dropping the TOOL_CALL_REJECTED event from the recorded trace fails the rule on replay."""
    recording = recording_copy
    lines = _lines(recording)
    observation = lines[2]["message"]["observation"]
    observation["trace"] = [e for e in observation["trace"] if e["type"] != "TOOL_CALL_REJECTED"]
    for seq, event in enumerate(observation["trace"], start=1):
        event["seq"] = seq
    # the client's frames mirror the edited trace (else R7.client-stream fails as well)
    frames = observation["client_frames"]
    events = iter(observation["trace"])
    observation["client_frames"] = [
        {"event": "run_event", "data": next(events)} if f["event"] == "run_event" else f
        for f in frames
        if f["event"] != "run_event" or f["data"]["type"] != "TOOL_CALL_REJECTED"
    ]
    (recording / EXCHANGE_FILE).write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    result = runner.invoke(app, ["replay", str(recording), "--report", str(tmp_path / "r")])
    assert result.exit_code == EXIT_FAILED, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    (failure,) = report["failures"]
    assert failure["rule_ids"] == ["R2.tool-call-identity"]
    assert "--iut" in failure["reproduce"]


def test_a_fixture_missing_from_the_recording_fails_its_scenario(
    runner: CliRunner, recording_copy: Path
) -> None:
    """Without the run/observation pair, the scenario fails naming the missing fixture."""
    recording = recording_copy
    hello = _lines(recording)[0]
    (recording / EXCHANGE_FILE).write_text(json.dumps(hello) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(recording)])
    assert result.exit_code == EXIT_FAILED
    assert "is not in the recording" in result.stdout


def test_a_malformed_recording_is_refused_with_its_line(
    runner: CliRunner, recording_copy: Path
) -> None:
    """A line that is not strict JSON: exit 2 naming the file and the line."""
    recording = recording_copy
    path = recording / EXCHANGE_FILE
    path.write_text(path.read_text("utf-8") + '{"seq": NaN}\n', encoding="utf-8")
    result = runner.invoke(app, ["replay", str(recording)])
    assert result.exit_code == EXIT_SETUP
    assert f"{path}:4: /seq: not JSON: NaN" in result.stderr
    assert "Traceback" not in result.output


def test_replay_of_a_folder_that_is_no_recording_is_exit_2(
    runner: CliRunner, tmp_path: Path
) -> None:
    """No run.json: one line naming it, exit 2."""
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == EXIT_SETUP
    assert RUN_FILE in result.stderr


def test_a_failed_run_is_recorded_and_fails_again_on_replay(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An IUT that raises on run: a `failure` line is recorded; replay fails with its reason."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "conformance" / "iuts"))
    recording = tmp_path / "recording"
    args = ["--scenario", SCENARIO, "--examples", "0", "--record", str(recording)]
    result = runner.invoke(app, ["run", "--iut-module", "broken_factories:raises", *args])
    assert result.exit_code == EXIT_FAILED
    failures = [line for line in _lines(recording) if "failure" in line]
    assert failures
    assert "harness exploded" in failures[0]["failure"]
    assert failures[0]["request_id"] == _lines(recording)[1]["message"]["request_id"]
    replayed = runner.invoke(app, ["replay", str(recording), "--report", str(tmp_path / "r")])
    assert replayed.exit_code == EXIT_FAILED
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    (failure,) = report["failures"]
    assert "(recorded) " in failure["message"]
    assert "harness exploded" in failure["message"]


def test_an_observation_breaking_its_contract_replays_to_the_same_rule(
    runner: CliRunner, tmp_path: Path
) -> None:
    """A stdio IUT whose observation breaks its contract (a NO_EVIDENCE invocation with
    matches): the run names ``R3.invocation-outcome``; the recording keeps the observation as
    sent (not only the failure's text), so the replay judges it again and names the same rule
    (it used to replay as a protocol error naming no rule)."""
    recording = tmp_path / "recording"
    scenario = "a-backend-reports-more-matches-than-the-rows-it-returns-example-2"
    iut = f"{sys.executable} -m reference_harness.stdio --mutant no_evidence_when_no_items"
    args = ["--scenario", scenario, "--examples", "0", "--record", str(recording)]
    result = runner.invoke(app, ["run", "--iut", iut, *args, "--report", str(tmp_path / "run")])
    assert result.exit_code == EXIT_FAILED, result.output
    (kept,) = [line for line in _lines(recording) if "failure" in line]
    assert kept["answer"]["type"] == "observation"
    assert kept["answer"]["request_id"] == kept["request_id"]  # the recording's own request id
    replayed = runner.invoke(app, ["replay", str(recording), "--report", str(tmp_path / "re")])
    assert replayed.exit_code == EXIT_FAILED, replayed.output
    run, replay = (
        json.loads((tmp_path / name / "report.json").read_text("utf-8"))["failures"]
        for name in ("run", "re")
    )
    assert [f["rule_ids"] for f in replay] == [f["rule_ids"] for f in run]
    assert "R3.invocation-outcome" in run[0]["rule_ids"]
    assert [f["observed"] for f in replay] == [f["observed"] for f in run]
    # the observation as sent is shown, not an empty trace ("event 0: IUT (end)")
    assert run[0]["observed_trace"][0].startswith("RUN_STARTED")
    assert run[0]["first_difference"] is None or run[0]["first_difference"] > 0
    assert [f["observed_trace"] for f in replay] == [f["observed_trace"] for f in run]


@pytest.mark.parametrize("trace", [5, [5], [{"type": "RUN_STARTED", "data": {}}, "x"]])
def test_a_trace_the_normalizer_cannot_read_is_one_line_saying_so(trace: object) -> None:
    """A contract-breaking observation's trace may be anything: shown as one line, never a
    crash of the report (a kit 'internal error' for the IUT's fault)."""
    from conformance.cli._failures import trace_lines  # noqa: PLC0415 - the unit under test

    assert trace_lines({"trace": trace}) == (
        "(the trace breaks its contract and cannot be normalized)",
    )


def test_a_property_run_replays_to_the_same_failures(runner: CliRunner, tmp_path: Path) -> None:
    """Properties are derandomized: replay regenerates (and shrinks) the recorded fixtures."""
    recording = tmp_path / "recording"
    iut = "reference_harness.mutants:duplicate_overwrites_invocation"
    selection = ["--scenario", f"{SCENARIO}-property", "--examples", "5"]
    first = tmp_path / "first"
    result = runner.invoke(
        app,
        [
            "run",
            "--iut-module",
            iut,
            *selection,
            "--record",
            str(recording),
            "--report",
            str(first),
        ],
    )
    assert result.exit_code == EXIT_FAILED
    again = tmp_path / "again"
    replayed = runner.invoke(app, ["replay", str(recording), "--report", str(again)])
    assert replayed.exit_code == EXIT_FAILED

    def summary(directory: Path) -> list[tuple[str, list[str], str]]:
        report = json.loads((directory / "report.json").read_text("utf-8"))
        return [(f["example_id"], f["rule_ids"], f["observed"]) for f in report["failures"]]

    assert summary(again) == summary(first)
    assert [f[0] for f in summary(first)] == [SCENARIO, f"{SCENARIO}-property"]
