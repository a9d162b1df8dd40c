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
from collections.abc import Callable
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
    assert kinds == [("iut", "hello"), ("kit", "run"), ("iut", "observation"), ("kit", "bye")]
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
    assert f"{path}:5: /seq: not JSON: NaN" in result.stderr
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


def test_a_recording_of_an_older_kit_without_bye_replays_the_same(
    runner: CliRunner, tmp_path: Path, recording_copy: Path
) -> None:
    """A recording that ends without the kit's bye (older kits wrote none) still replays."""
    recording = recording_copy
    lines = _lines(recording)
    assert lines[-1]["message"] == {"type": "bye"}
    (recording / EXCHANGE_FILE).write_text(
        "".join(json.dumps(line) + "\n" for line in lines[:-1]), encoding="utf-8"
    )
    result = runner.invoke(app, ["replay", str(recording), "--report", str(tmp_path / "r")])
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    (requirement,) = report["requirements"].values()
    assert requirement["scenarios"][SCENARIO]["status"] == "PASSED"


# --- A broken recording is refused before anything is judged --------------------------------
#
# Each corruption edits one file of a valid recording and names the problem it must cause:
# (file, line, JSON pointer, rule). The line of a run.json value is found in the file's text
# by its member name (the file is pretty-printed, one member per line), not by the kit.

Corrupt = Callable[[Path], None]
"""Edits a recording folder in place."""

_RUN_MEMBERS = ("kit", "iut", "iut_module", "scenarios", "level", "examples", "fixture")
_WRONG_TYPE: dict[str, object] = {
    "kit": 1,
    "iut": 5,
    "iut_module": ["a:b"],
    "scenarios": "zzz",
    "level": 5,
    "examples": "3",
    "fixture": False,
}


def _edit_run(edit: Callable[[dict[str, Any]], object]) -> Corrupt:
    def apply(recording: Path) -> None:
        path = recording / RUN_FILE
        options = json.loads(path.read_text("utf-8"))
        edit(options)
        path.write_text(json.dumps(options, indent=2) + "\n", encoding="utf-8")

    return apply


def _edit_lines(edit: Callable[[list[dict[str, Any]]], None]) -> Corrupt:
    def apply(recording: Path) -> None:
        path = recording / EXCHANGE_FILE
        lines = _lines(recording)
        edit(lines)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    return apply


def _edit_text(edit: Callable[[str], str]) -> Corrupt:
    def apply(recording: Path) -> None:
        path = recording / EXCHANGE_FILE
        path.write_text(edit(path.read_text("utf-8")), encoding="utf-8")

    return apply


def _set(index: int, pointer: str, value: object) -> Corrupt:
    """Set the value at ``pointer`` of line ``index`` (0-based) of the exchange."""

    def edit(lines: list[dict[str, Any]]) -> None:
        *parents, last = pointer.strip("/").split("/")
        target: Any = lines[index]
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[last] = value

    return _edit_lines(edit)


def _swap(lines: list[dict[str, Any]]) -> None:
    lines[1], lines[2] = lines[2], lines[1]


def _failure_record(lines: list[dict[str, Any]]) -> None:
    """The observation replaced by the kit's record of a failed Run (valid as it is)."""
    lines[2] = {"seq": 3, "from": "kit", "request_id": "r1", "failure": "IUT hung"}


def _failure_then(pointer: str, value: object) -> Corrupt:
    def edit(lines: list[dict[str, Any]]) -> None:
        _failure_record(lines)
        lines[2][pointer.strip("/")] = value

    return _edit_lines(edit)


def _drop_reply(lines: list[dict[str, Any]]) -> None:
    del lines[2]
    lines[2]["seq"] = 3


def _after_bye(lines: list[dict[str, Any]]) -> None:
    lines.append({**lines[2], "seq": 5})


def _interrupted_then_request(lines: list[dict[str, Any]]) -> None:
    bye = lines.pop()
    lines.append({"seq": 4, "from": "kit", "interrupted": "SIGTERM"})
    lines.append({**lines[1], "seq": 5})
    lines.append({**bye, "seq": 6})


_CORRUPTIONS: list[Any] = [
    *(
        pytest.param(
            _edit_run(lambda o, m=member: o.pop(m)),
            (RUN_FILE, 1, "/", "schema:required"),
            id=f"run-{member}-removed",
        )
        for member in _RUN_MEMBERS
    ),
    *(
        pytest.param(
            _edit_run(lambda o, m=member: o.__setitem__(m, _WRONG_TYPE[m])),
            (RUN_FILE, f'"{member}"', f"/{member}", "schema:type"),
            id=f"run-{member}-wrong-type",
        )
        for member in _RUN_MEMBERS
    ),
    pytest.param(
        _edit_run(lambda o: o.__setitem__("colour", "blue")),
        (RUN_FILE, 1, "/", "schema:additionalProperties"),
        id="run-unknown-member",
    ),
    pytest.param(
        _edit_run(lambda o: o["kit"].__setitem__("colour", "blue")),
        (RUN_FILE, '"kit"', "/kit", "schema:additionalProperties"),
        id="run-kit-unknown-member",
    ),
    pytest.param(
        _edit_run(lambda o: o["kit"].pop("version")),
        (RUN_FILE, '"kit"', "/kit", "schema:required"),
        id="run-kit-version-removed",
    ),
    pytest.param(
        _edit_run(lambda o: o["kit"].__setitem__("version", "latest")),
        (RUN_FILE, '"version"', "/kit/version", "schema:pattern"),
        id="run-kit-version-not-a-version",
    ),
    pytest.param(
        _edit_run(lambda o: o["kit"].__setitem__("name", "other-kit")),
        (RUN_FILE, '"name"', "/kit/name", "schema:const"),
        id="run-kit-name-another-kit",
    ),
    pytest.param(
        _edit_run(lambda o: o.__setitem__("examples", -1)),
        (RUN_FILE, '"examples"', "/examples", "schema:minimum"),
        id="run-examples-negative",
    ),
    pytest.param(
        _edit_run(lambda o: o.__setitem__("scenarios", [SCENARIO, 7])),
        (RUN_FILE, "7", "/scenarios/1", "schema:type"),
        id="run-scenario-not-a-string",
    ),
    pytest.param(
        _edit_run(lambda o: o.__setitem__("iut_module", "pkg:factory")),
        (RUN_FILE, '"iut_module"', "/iut_module", "schema:type"),
        id="run-both-iut-and-iut-module",
    ),
    pytest.param(
        _edit_text(lambda t: "[]\n" + t), (EXCHANGE_FILE, 1, "/", "schema:type"), id="record-array"
    ),
    pytest.param(_set(0, "/seq", "1"), (EXCHANGE_FILE, 1, "/seq", "schema:type"), id="seq-string"),
    pytest.param(_set(2, "/from", 42), (EXCHANGE_FILE, 3, "/from", "schema:enum"), id="from-42"),
    pytest.param(
        _set(1, "/message", "run"), (EXCHANGE_FILE, 2, "/message", "schema:type"), id="message-str"
    ),
    pytest.param(
        _set(1, "/message/type", 5),
        (EXCHANGE_FILE, 2, "/message/type", "schema:enum"),
        id="message-type-number",
    ),
    pytest.param(
        _set(2, "/message/request_id", 1),
        (EXCHANGE_FILE, 3, "/message/request_id", "schema:type"),
        id="observation-request-id-number",
    ),
    pytest.param(
        _set(2, "/message/observation/run_id", 1),
        (EXCHANGE_FILE, 3, "/message/observation/run_id", "schema:type"),
        id="observation-field-wrong-type",
    ),
    pytest.param(
        _set(1, "/message/fixture/fixture_id", 1),
        (EXCHANGE_FILE, 2, "/message/fixture/fixture_id", "schema:type"),
        id="fixture-field-wrong-type",
    ),
    pytest.param(
        _set(0, "/extra", True), (EXCHANGE_FILE, 1, "/", "schema:additionalProperties"), id="extra"
    ),
    pytest.param(
        _failure_then("/request_id", 1),
        (EXCHANGE_FILE, 3, "/request_id", "schema:type"),
        id="failure-request-id-number",
    ),
    pytest.param(
        _failure_then("/failure", ["IUT hung"]),
        (EXCHANGE_FILE, 3, "/failure", "schema:type"),
        id="failure-reason-list",
    ),
    pytest.param(
        _failure_then("/from", "iut"), (EXCHANGE_FILE, 3, "/from", "schema:const"), id="failure-iut"
    ),
    pytest.param(
        _failure_then("/request_id", "r2"),
        (EXCHANGE_FILE, 3, "/request_id", "recording-request-id"),
        id="failure-of-another-request",
    ),
    pytest.param(
        _set(3, "/from", "iut"), (EXCHANGE_FILE, 4, "/from", "schema:const"), id="bye-from-iut"
    ),
    pytest.param(
        _set(2, "/from", "kit"), (EXCHANGE_FILE, 3, "/from", "schema:const"), id="observation-kit"
    ),
    pytest.param(
        _set(1, "/from", "iut"), (EXCHANGE_FILE, 2, "/from", "schema:const"), id="run-iut"
    ),
    pytest.param(
        _edit_lines(_swap),
        (EXCHANGE_FILE, 2, "/message/request_id", "recording-order"),
        id="reply-before-request",
    ),
    pytest.param(
        _set(2, "/message/request_id", "r2"),
        (EXCHANGE_FILE, 3, "/message/request_id", "recording-request-id"),
        id="reply-to-another-request",
    ),
    pytest.param(
        _edit_lines(_drop_reply),
        (EXCHANGE_FILE, 2, "/message", "recording-missing-reply"),
        id="missing-reply",
    ),
    pytest.param(
        _set(2, "/seq", 7), (EXCHANGE_FILE, 3, "/seq", "recording-seq"), id="seq-out-of-order"
    ),
    pytest.param(
        _edit_lines(_after_bye), (EXCHANGE_FILE, 5, "/", "recording-after-bye"), id="after-bye"
    ),
    pytest.param(
        _edit_lines(_interrupted_then_request),
        (EXCHANGE_FILE, 5, "/message", "recording-order"),
        id="request-after-interruption",
    ),
    pytest.param(
        _edit_text(lambda t: t[: len(t) - 20]),
        (EXCHANGE_FILE, 4, "/from", "json-syntax"),  # the bye cut after its "from"
        id="truncated-last-line",
    ),
    pytest.param(
        _edit_text(lambda t: t[:-1]),
        (EXCHANGE_FILE, 4, "/", "recording-truncated"),
        id="last-line-without-lf",
    ),
    pytest.param(
        _edit_text(lambda t: t.replace("\n", "\n\n", 1)),
        (EXCHANGE_FILE, 2, "/", "recording-blank-line"),
        id="blank-line",
    ),
]


@pytest.mark.parametrize(("corrupt", "expected"), _CORRUPTIONS)
def test_a_broken_recording_is_refused_naming_file_line_and_pointer(
    runner: CliRunner,
    recording_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    corrupt: Corrupt,
    expected: tuple[str, int | str, str, str],
) -> None:
    """Exit 2 before anything is judged: one `srdh: error:` line per problem, the expected one
    naming the file as given (relative here), its line, the JSON pointer and the rule; no
    traceback, no report folder."""
    corrupt(recording_copy)
    monkeypatch.chdir(recording_copy.parent)
    name, line, pointer, rule = expected
    if isinstance(line, str):  # in run.json: the line the value at fault starts (its text)
        text = (recording_copy / name).read_text("utf-8").splitlines()
        line = next(n for n, t in enumerate(text, start=1) if t.strip().startswith(line))
    result = runner.invoke(app, ["replay", "recording", "--report", "reports"])
    assert result.exit_code == EXIT_SETUP, result.output
    errors = result.stderr.splitlines()
    assert errors
    assert all(error.startswith("srdh: error: recording/") for error in errors), errors
    wanted = f"srdh: error: recording/{name}:{line}: {pointer}: "
    matching = [error for error in errors if error.startswith(wanted)]
    assert any(error.endswith(f" [{rule}]") for error in matching), errors
    assert all("expected" in error for error in matching), errors
    assert "Traceback" not in result.output
    assert "replaying" not in result.stdout  # nothing was judged
    assert not Path("reports").exists()


def test_every_problem_of_both_files_is_reported(runner: CliRunner, recording_copy: Path) -> None:
    """run.json and exchange.ndjson both broken: each problem its own line, both files named."""
    _edit_run(lambda o: o.pop("level"))(recording_copy)
    _set(2, "/from", 42)(recording_copy)
    result = runner.invoke(app, ["replay", str(recording_copy)])
    assert result.exit_code == EXIT_SETUP
    errors = result.stderr.splitlines()
    run_json, exchange = recording_copy / RUN_FILE, recording_copy / EXCHANGE_FILE
    assert errors[0].startswith(f"srdh: error: {run_json}:1: /: expected property 'level' ")
    assert any(e.startswith(f"srdh: error: {exchange}:3: /from: expected ") for e in errors)
    assert all(e.startswith("srdh: error: ") for e in errors)
