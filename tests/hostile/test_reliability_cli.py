"""``srdh`` in a hostile environment (round 3: D1, D15, D16, D17), as a real process.

D1: the reader of ``srdh run``'s output exits early. D15: standard output is ``/dev/full``,
standard error is closed, the output encoding is ASCII. In each case the suite runs to its end
and writes its report; lost output is exit 2 said on standard error, never a verdict. D16: a
file name holding a newline is shown escaped. D17: ``srdh validate`` refuses a document larger
than ``--max-document-bytes`` before reading it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from tests.hostile.conftest import ROOT

SRDH = str(Path(sys.executable).with_name("srdh"))
SCENARIO = "contract-ownership-is-inspected"
WAIT_S = 300
"""Bound on one ``srdh`` process (a hang detector, not a performance bound)."""


def _run_args(report: Path) -> list[str]:
    return [
        SRDH,
        "run",
        "--iut-module",
        "reference_harness.iut:create",
        "--scenario",
        SCENARIO,
        "--examples",
        "0",
        "--report",
        str(report),
    ]


def _report_passed(report: Path) -> bool:
    document = json.loads((report / "report.json").read_text("utf-8"))
    (requirement,) = document["requirements"].values()
    return requirement["scenarios"][SCENARIO]["status"] == "PASSED"


def test_a_reader_that_exits_early_loses_output_not_the_report(tmp_path: Path) -> None:
    """D1: ``srdh run … | head -1``: the suite finishes, the report is written, exit 2 says why."""
    report = tmp_path / "r"
    kit = subprocess.Popen(_run_args(report), stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # noqa: S603
    assert kit.stdout is not None
    assert kit.stdout.readline()  # the first line, then the reader goes away
    kit.stdout.close()
    _, stderr = kit.communicate(timeout=WAIT_S)
    assert kit.returncode == 2, stderr
    assert b"standard output was lost (Broken pipe)" in stderr
    assert _report_passed(report)


@pytest.mark.parametrize("case", ["dev-full", "stderr-closed", "ascii"])
def test_the_report_is_written_whatever_the_terminal(tmp_path: Path, case: str) -> None:
    """D15: /dev/full, a closed stderr, an ASCII encoding: the report is written, no crash."""
    report = tmp_path / "r"
    env = {**os.environ, "PYTHONIOENCODING": "ascii"} if case == "ascii" else None
    with Path("/dev/full" if case == "dev-full" else os.devnull).open("w") as sink:
        done = subprocess.run(  # noqa: S603 - the kit's own command
            _run_args(report),
            stdout=sink if case == "dev-full" else subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=WAIT_S,
            check=False,
            env=env,
            preexec_fn=(lambda: os.close(2)) if case == "stderr-closed" else None,
        )
    assert _report_passed(report)
    if case == "dev-full":
        assert done.returncode == 2
        assert b"standard output was lost (No space left on device)" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert b"run PASSED" in done.stdout
        assert b"internal error" not in done.stdout + done.stderr


def _validate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - the kit's own command
        [SRDH, "validate", *args, "--contract", "public-error"],
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
        cwd=cwd,
    )


def test_a_file_name_with_a_newline_is_shown_escaped(tmp_path: Path) -> None:
    """D16: ``srdh validate $'a\\nb.json'`` names ``a\\x0ab.json`` on one line, found or not."""
    (tmp_path / "a\nb.json").write_text("{}", encoding="utf-8")
    found = _validate("a\nb.json", cwd=tmp_path)
    missing = _validate("x\ny.json", cwd=tmp_path)
    assert found.returncode == 1
    assert "a\\x0ab.json:1: /: expected property 'error_code'" in found.stdout
    assert "a\nb" not in found.stdout
    assert missing.returncode == 2
    assert missing.stderr == "srdh: error: x\\x0ay.json: no such file\n"


def test_validate_refuses_a_document_over_the_size_limit(tmp_path: Path) -> None:
    """D17: a record over --max-document-bytes is refused by name and line, not read."""
    records = [{"error_code": "INTERNAL_ERROR"}, {"error_code": "x" * 5000}]
    (tmp_path / "big.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    (tmp_path / "big.json").write_text(json.dumps(records[1]), "utf-8")
    for name, line in (("big.jsonl", 2), ("big.json", 1)):
        done = _validate(name, "--max-document-bytes", "1000", cwd=tmp_path)
        assert done.returncode == 2
        assert f"srdh: error: {name}:{line}: a document larger than 1000 bytes" in done.stderr
        assert "--max-document-bytes" in done.stderr
    assert _validate("big.jsonl", cwd=tmp_path).returncode == 1  # the default limit reads it


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_run_writes_a_partial_report_and_its_replay_agrees(
    hostile, tmp_path: Path, signum: int
) -> None:
    """D6: a signal while the IUT hangs on its third run: a partial report (what ran keeps its
    verdict, the rest NOT_RUN), exit 128 + signal; ``srdh replay`` of the recording agrees."""
    iut = hostile("hang-on-third")
    report, record = tmp_path / "r", tmp_path / "rec"
    command = [SRDH, "run", "--iut", iut.command, "--report", str(report), "--record", str(record)]
    # Gherkin only: a scenario whose property never ran is NOT_RUN, and the IUT hangs early
    command += ["--examples", "0"]
    kit = subprocess.Popen(  # noqa: S603 - the kit's own command
        [*command, "--timeout", "120"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=iut.env
    )
    hanging = Path(str(iut.pidfile) + ".hanging")
    deadline = time.monotonic() + WAIT_S
    while not hanging.exists() and kit.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hanging.exists()
    kit.send_signal(signum)
    stdout, stderr = kit.communicate(timeout=WAIT_S)
    assert kit.returncode == 128 + signum, stderr
    name = signal.Signals(signum).name
    assert f"interrupted by {name}".encode() in stderr
    assert b"run PARTIAL" in stdout
    document = json.loads((report / "report.json").read_text("utf-8"))
    assert document["partial"] == f"interrupted by {name}"
    assert document["passed"] is False
    statuses = _statuses(document)
    ran = {sid for sid, status in statuses.items() if status != "NOT_RUN"}
    assert "PASSED" in {statuses[sid] for sid in ran}  # the first runs were judged
    assert "NOT_RUN" in statuses.values()
    assert not {"FAILED", "ERROR"} & {statuses[sid] for sid in ran}  # an interruption blames no one
    assert document["warnings"] == []  # the kit killed the IUT: not "exited with code -9 after bye"
    assert b"after bye" not in stderr
    assert iut.leftovers() == []
    # the replay judges the recording in this process (no IUT, no signal: a process start of
    # its own proved nothing more; tests/cli/test_cli_record_replay.py replays the same way)
    replayed_dir = tmp_path / "replayed"
    replay = CliRunner().invoke(app, ["replay", str(record), "--report", str(replayed_dir)])
    assert replay.exit_code == 128 + signum, replay.output
    replayed = json.loads((tmp_path / "replayed" / "report.json").read_text("utf-8"))
    assert replayed["partial"] == document["partial"]
    assert _statuses(replayed) == statuses


def _statuses(document: dict) -> dict[str, str]:
    return {
        sid: scenario["status"]
        for requirement in document["requirements"].values()
        for sid, scenario in requirement["scenarios"].items()
    }


OUTLINE = "a-knowledge-answer-cites-documents-of-a-lookup-that-returned-none"
"""A Scenario Outline of three rows, one Run each (its fixture ids are its example ids)."""
DUPLICATE = "duplicate-tool-call-id-is-proposed"
DISCONNECT = "client-disconnects-during-a-model-call"
MUTANT = "disconnect_not_noticed"
"""Fails :data:`DISCONNECT` (its Gherkin scenario and its property), and nothing else selected."""
SELECTION = (
    DISCONNECT,  # a spec scenario with a property; the mutant fails it
    "the-router-is-unavailable",  # no property: judged by its Gherkin alone
    DUPLICATE,  # with a property
    "contract-ownership-is-inspected",  # its property (no Run) comes first among the properties
    OUTLINE,  # an outline, no property
)
PARTLY = "partly run (the run was interrupted): "


def _selection_args() -> list[str]:
    return [arg for sid in SELECTION for arg in ("--scenario", sid)] + ["--examples", "2"]


def _scenarios(document: dict) -> dict[str, dict]:
    return {
        sid: scenario
        for requirement in document["requirements"].values()
        for sid, scenario in requirement["scenarios"].items()
    }


def _parts(scenario: dict) -> dict[str, str]:
    return {part["id"]: part["status"] for part in scenario["parts"]}


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The selection run to its end by the same mutant (in process): each part's own verdict."""
    report = tmp_path_factory.mktemp("whole") / "r"
    iut = f"reference_harness.mutants:{MUTANT}"
    done = CliRunner().invoke(
        app, ["run", "--iut-module", iut, *_selection_args(), "--report", str(report)]
    )
    assert done.exit_code == 1, done.output
    return _scenarios(json.loads((report / "report.json").read_text("utf-8")))


def _sent_fixture_ids(record: Path) -> list[str]:
    """The fixture id of every run request of a recording, in order."""
    lines = [json.loads(line) for line in (record / "exchange.ndjson").read_text().splitlines()]
    return [
        line["message"]["fixture"]["fixture_id"]
        for line in lines
        if line["from"] == "kit" and line.get("message", {}).get("type") == "run"
    ]


def _row(stdout: str, scenario_id: str) -> str:
    """The terminal row of ``scenario_id``: ``status  message``, its padding squeezed."""
    (row,) = re.findall(rf"^\S+ +SHALL +{scenario_id} +(\S.*)$", stdout, re.MULTILINE)
    return re.sub(r"^(\S+) +", r"\1  ", row.rstrip())


def _check_parts(scenarios: dict[str, dict], whole_run: dict[str, dict], sent: list[str]) -> None:
    """Each part keeps the whole run's verdict or is NOT_RUN; a scenario follows its parts."""
    answered = set(sent[:-1]) - {sent[-1]}  # the last request was in flight
    assert scenarios.keys() == whole_run.keys()
    for sid, scenario in scenarios.items():
        parts, whole = _parts(scenario), _parts(whole_run[sid])
        assert parts.keys() == whole.keys(), sid  # no part lost, none invented
        for part_id, status in parts.items():
            assert status in {whole[part_id], "NOT_RUN"}, (sid, part_id)  # its own verdict
            if part_id in answered and not part_id.endswith("-property"):
                assert status == whole[part_id], (sid, part_id)  # its Run was answered
        statuses = set(parts.values())
        if "FAILED" in statuses:
            assert scenario["status"] == "FAILED", sid
        elif statuses == {"PASSED"}:
            assert scenario["status"] == "PASSED", sid
        else:
            assert scenario["status"] == "NOT_RUN", sid
        partly = bool(statuses - {"NOT_RUN"}) and "NOT_RUN" in statuses
        assert (PARTLY in scenario["message"]) == partly, sid


def _check_stopped_in_the_outline(scenarios: dict[str, dict], stdout: str) -> None:
    outline = scenarios[OUTLINE]
    assert _parts(outline) == {
        f"{OUTLINE}-example-1": "PASSED",
        f"{OUTLINE}-example-2": "NOT_RUN",
        f"{OUTLINE}-example-3": "NOT_RUN",
    }
    assert outline["message"] == f"{PARTLY}Gherkin 1 PASSED, 2 NOT_RUN"
    assert _row(stdout, OUTLINE) == f"NOT_RUN  {PARTLY}Gherkin 1 PASSED, 2 NOT_RUN"
    properties = [p for s in scenarios.values() for p in s["parts"] if p["source"] == "property"]
    assert {p["status"] for p in properties} == {"NOT_RUN"}  # none started


def _check_stopped_in_the_properties(
    scenarios: dict[str, dict], stdout: str, failures: list[dict]
) -> None:
    for sid in (OUTLINE, "the-router-is-unavailable"):  # no property: every part ran
        assert scenarios[sid]["status"] == "PASSED", sid
        assert _row(stdout, sid) == "PASSED", sid
    ownership = "contract-ownership-is-inspected"
    assert _parts(scenarios[ownership]) == {ownership: "PASSED", f"{ownership}-property": "PASSED"}
    assert scenarios[ownership]["status"] == "PASSED"
    disconnect = scenarios[DISCONNECT]  # failed before the interruption: FAILED
    assert _parts(disconnect) == {DISCONNECT: "FAILED", f"{DISCONNECT}-property": "NOT_RUN"}
    assert disconnect["status"] == "FAILED"
    assert disconnect["message"].startswith(f"{PARTLY}Gherkin FAILED; property NOT_RUN | ")
    assert "R8.layered-cancellation" in disconnect["message"]  # the failure follows
    assert [f["example_id"] for f in failures] == [DISCONNECT]
    duplicate = scenarios[DUPLICATE]  # its property was in flight
    assert _parts(duplicate) == {DUPLICATE: "PASSED", f"{DUPLICATE}-property": "NOT_RUN"}
    assert duplicate["status"] == "NOT_RUN"
    assert duplicate["message"] == f"{PARTLY}Gherkin PASSED; property NOT_RUN"
    assert _row(stdout, DUPLICATE) == f"NOT_RUN  {PARTLY}Gherkin PASSED; property NOT_RUN"


@pytest.mark.parametrize(
    ("signal_at", "phase"),
    [(f"{OUTLINE}-example-2#1", "gherkin"), (f"{DUPLICATE}#2", "properties")],
)
def test_an_interrupted_run_keeps_the_verdict_of_every_part_that_ran(
    hostile, tmp_path: Path, whole_run: dict[str, dict], signal_at: str, phase: str
) -> None:
    """Ctrl-C after some Runs (the IUT signals ``srdh`` on a chosen request, which it never
    answers): each part of a scenario that ran (Gherkin scenario, outline row, property) keeps
    the verdict the whole run gives it, the rest is NOT_RUN; a scenario is FAILED when a part
    that ran failed, PASSED when all its parts ran and passed (a scenario without a property
    included: it used to be NOT_RUN "property not run"), else NOT_RUN saying what ran, in
    report.json and on the terminal; the replay of the recording agrees. ``gherkin``: stopped
    in an outline's second row, before any property; ``properties``: in the first example of
    :data:`DUPLICATE`'s property, after every Gherkin scenario."""
    iut = hostile("signal-kit")
    iut.env.update(HOSTILE_SIGNAL_AT=signal_at, HOSTILE_MUTANT=MUTANT, PYTHONPATH=str(ROOT))
    report, record = tmp_path / "r", tmp_path / "rec"
    command = [SRDH, "run", "--iut", iut.command, *_selection_args(), "--timeout", "120"]
    command += ["--report", str(report), "--record", str(record)]
    kit = subprocess.run(  # noqa: S603 - the kit's own command
        command, capture_output=True, text=True, env=iut.env, timeout=WAIT_S, check=False
    )
    assert kit.returncode == 130, kit.stdout + kit.stderr
    assert Path(f"{iut.pidfile}.signalled").exists()  # the IUT's signal stopped it
    assert iut.leftovers() == []
    document = json.loads((report / "report.json").read_text("utf-8"))
    assert document["partial"] == "interrupted by SIGINT"
    scenarios = _scenarios(document)
    sent = _sent_fixture_ids(record)
    assert f"{sent[-1]}#{sent.count(sent[-1])}" == signal_at  # the last request: in flight
    _check_parts(scenarios, whole_run, sent)
    if phase == "gherkin":
        _check_stopped_in_the_outline(scenarios, kit.stdout)
    else:
        _check_stopped_in_the_properties(scenarios, kit.stdout, document["failures"])
    replayed_dir = tmp_path / "replayed"
    replay = CliRunner().invoke(app, ["replay", str(record), "--report", str(replayed_dir)])
    assert replay.exit_code == 130, replay.output
    replayed = _scenarios(json.loads((replayed_dir / "report.json").read_text("utf-8")))
    assert replayed == {
        sid: {**scenario, "seconds": replayed[sid]["seconds"]}
        for sid, scenario in scenarios.items()
    }
