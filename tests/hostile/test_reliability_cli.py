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
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app

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
