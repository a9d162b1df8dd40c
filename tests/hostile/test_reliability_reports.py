"""Report folders and formats under hostile text and a hostile environment (round 3: D10-D14).

D10: control characters (NUL, ESC, BEL, DEL, C1 with U+009B) and bidi controls from an IUT show
as visible escapes in every report format. D11: two runs writing one folder at once leave one
run's complete set. D12: a file-size limit while writing leaves no temporary file and names the
file. D13: a planted ``fixtures`` symlink is never written through. D14: a passing run clears
the fixtures of a failing run before it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.reports import (
    REPORT_FILES,
    Report,
    ReportDirError,
    lock_report_dir,
    render_html,
    render_json,
    render_junit,
    render_markdown,
    write_reports,
)
from conformance.reports._writer import LOCK_WAIT_S
from tests.hostile.hostile_reports import hostile_report

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "a\x00b\x1b[31mc\x07d\x7fe\x85f\x9b2Jg\u202eh\u2066i\u061cj\u200fk\u2028l"
"""NUL, ESC (a colour sequence), BEL, DEL, NEL (C1), CSI (C1 U+009B), RLO, LRI, ALM, RLM, LS."""
_RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _report(text: str = HOSTILE, *, failing: tuple[str, ...] = ("ex-1",)) -> Report:
    """A run's report holding ``text`` everywhere; PASSED when nothing is ``failing``."""
    return hostile_report(text, failing=failing, passed=not failing)


@pytest.mark.parametrize(
    "render",
    [render_json, render_junit, render_markdown, lambda r: render_html(r, SCHEMAS)],
    ids=["report.json", "junit.xml", "summary.md", "report.html"],
)
def test_every_format_shows_control_and_bidi_characters_escaped(render) -> None:
    """D10: no raw control or bidi character in any format; each shows as a visible code point."""
    text = render(_report())
    assert _RAW_CONTROL.search(text) is None
    shown = text.lower()
    assert "\\u202e" in shown
    assert "\\x9b" in shown or "\\u009b" in shown
    assert "\\x00" in shown or "\\u0000" in shown


def test_junit_keeps_well_formed_and_json_keeps_the_exact_text() -> None:
    """D10: the escapes are for display; report.json still decodes to the IUT's exact text."""
    ET.fromstring(render_junit(_report()))  # noqa: S314 - the kit's own output
    assert json.loads(render_json(_report()))["iut"]["name"] == HOSTILE


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_planted_fixtures_symlink_is_replaced_never_written_through(tmp_path: Path) -> None:
    """D13: a ``fixtures`` symlink to a folder elsewhere is replaced by a real folder."""
    folder, elsewhere = tmp_path / "reports", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "fixtures").symlink_to(elsewhere)
    (folder / "report.json").symlink_to(elsewhere / "target.json")
    write_reports(_report("x"), folder, SCHEMAS)
    assert list(elsewhere.iterdir()) == []
    assert not (folder / "fixtures").is_symlink()
    assert not (folder / "report.json").is_symlink()
    assert (folder / "fixtures" / "ex-1.json").is_file()


def test_a_passing_run_leaves_no_stale_fixtures(tmp_path: Path) -> None:
    """D14: after a failing run, a passing run's folder holds its own files only."""
    folder = tmp_path / "reports"
    write_reports(_report("x", failing=("ex-1", "ex-2")), folder, SCHEMAS)
    assert (folder / "fixtures" / "ex-2.json").is_file()
    write_reports(_report("x", failing=("ex-3",)), folder, SCHEMAS)
    assert _files(folder) == {*REPORT_FILES, "fixtures", "fixtures/ex-3.json"}
    write_reports(_report("x", failing=()), folder, SCHEMAS)
    assert _files(folder) == set(REPORT_FILES)


def test_two_runs_writing_one_folder_leave_one_complete_set(tmp_path: Path) -> None:
    """D11: concurrent writers are serialised by the folder's lock: never a mixed set."""
    folder = tmp_path / "reports"
    runs = {
        "A": _report("run-A", failing=("a-1", "a-2")),
        "B": _report("run-B", failing=("b-1",)),
    }
    for _ in range(15):
        threads = [
            threading.Thread(target=write_reports, args=(report, folder, SCHEMAS))
            for report in runs.values()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        title = json.loads((folder / "report.json").read_text("utf-8"))["title"]
        winner = "A" if "run-A" in title else "B"
        expected = {f"fixtures/{f.example_id}.json" for f in runs[winner].failures}
        assert _files(folder) == {*REPORT_FILES, "fixtures", *expected}
        for name in ("junit.xml", "summary.md", "report.html"):
            assert f"run-{winner}" in (folder / name).read_text("utf-8")


_FULL_DISK = """
import resource, signal, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from tests.hostile.test_reliability_reports import _report, SCHEMAS
from conformance.reports import ReportDirError, write_reports
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
try:
    write_reports(_report("x" * 20000), Path(sys.argv[1]), SCHEMAS)
except ReportDirError as error:
    print(error)
    sys.exit(2)
"""


def test_file_size_limit_leaves_no_temporary_file_and_names_the_file(tmp_path: Path) -> None:
    """D12: a write that fails (EFBIG under RLIMIT_FSIZE) removes its temporary files."""
    folder = tmp_path / "reports"
    script = _FULL_DISK.format(tests=str(ROOT))
    done = subprocess.run(  # noqa: S603 - this interpreter and a script of this test
        [sys.executable, "-c", script, str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stdout
    assert re.search(
        r"cannot write (report\.json|junit\.xml|summary\.md|report\.html)", done.stdout
    )
    assert "File too large" in done.stdout
    leftovers = [p.name for p in folder.rglob(".*")]
    assert leftovers == []
    assert not (folder / "report.json").exists()


def test_a_refused_lock_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """D11: a folder locked past the wait is refused with a clear error, nothing written."""
    import fcntl  # noqa: PLC0415 - only here

    from conformance.reports import _writer  # noqa: PLC0415 - the wait is a module setting

    folder = tmp_path / "reports"
    folder.mkdir()
    monkeypatch.setattr(_writer, "LOCK_WAIT_S", 0.2)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another run writing this folder
    try:
        with pytest.raises(ReportDirError, match="being written by another srdh run"):
            write_reports(_report("x"), folder, SCHEMAS)
    finally:
        os.close(fd)
    assert _files(folder) == set()


def test_a_report_folder_name_with_a_newline_is_shown_escaped(tmp_path: Path) -> None:
    """D16: the writer's errors name the folder on one line (``\\x0a`` for a newline)."""
    folder = tmp_path / "a-file\nnamed"
    folder.write_text("", encoding="utf-8")
    with pytest.raises(ReportDirError) as caught:
        write_reports(_report("x"), folder, SCHEMAS)
    assert "\n" not in str(caught.value)
    assert "a-file\\x0anamed is a file" in str(caught.value)


_GATED_IUT = """
import os, sys, time
from pathlib import Path
started, gate = Path(sys.argv[1]), Path(sys.argv[2])
with started.open("a", encoding="utf-8") as log:
    log.write(f"{os.getppid()}\\n")
deadline = time.monotonic() + 240
while not gate.exists() and time.monotonic() < deadline:
    time.sleep(0.02)
os.execv(sys.executable, [sys.executable, "-m", "reference_harness.stdio"])
"""
"""A stdio IUT that logs its kit's pid, then waits for the gate file before it answers."""
_SRDH = str(Path(sys.executable).with_name("srdh"))
_SCENARIO = "contract-ownership-is-inspected"
_RUN_S = 300
"""Bound on one ``srdh`` process (a hang detector, not a performance bound)."""


def _gated_run(folder: Path, started: Path, gate: Path) -> list[str]:
    script = folder.parent / "gated_iut.py"
    script.write_text(_GATED_IUT, encoding="utf-8")
    return [
        _SRDH,
        "run",
        "--iut",
        f"{sys.executable} {script} {started} {gate}",
        "--scenario",
        _SCENARIO,
        "--examples",
        "0",
        "--timeout",
        "240",
        "--report",
        str(folder),
    ]


def _finished_run(folder: Path, started: Path, gate: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - the kit's own command
        _gated_run(folder, started, gate),
        capture_output=True,
        text=True,
        timeout=_RUN_S,
        check=False,
        cwd=ROOT,
    )


def _started_by(started: Path) -> list[int]:
    """The kit pids whose IUT started (one line each)."""
    if not started.exists():
        return []
    return [int(line) for line in started.read_text("utf-8").split()]


def _wait_started(started: Path, kit: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + _RUN_S
    while not _started_by(started):
        assert kit.poll() is None, kit.communicate()
        assert time.monotonic() < deadline, "the first run's IUT never started"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_second_run_into_a_folder_in_use_is_refused_naming_the_first(tmp_path: Path) -> None:
    """D11: the first run holds the folder from its start; the second exits 2 before its IUT.

    Two real ``srdh run --report DIR`` processes: the first is held at its IUT's ``hello``
    (past the point where it locked the folder), the second is started meanwhile. The second
    says which folder and which pid, starts no IUT and writes nothing; the first then ends
    with its own complete set.
    """
    folder, started, gate = tmp_path / "reports", tmp_path / "started", tmp_path / "gate"
    first = subprocess.Popen(  # noqa: S603 - the kit's own command
        _gated_run(folder, started, gate), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    try:
        _wait_started(started, first)
        second = _finished_run(folder, started, gate)
        assert second.returncode == 2, second.stdout + second.stderr
        assert second.stderr.strip() == (
            f"srdh: error: report directory {folder} is in use by another srdh run "
            f"(pid {first.pid}); wait for it to finish or choose another --report folder"
        )
        assert _started_by(started) == [first.pid]  # the second run started no IUT
        assert _files(folder) == set()
    finally:
        gate.touch()
        stdout, stderr = first.communicate(timeout=_RUN_S)
    assert first.returncode == 0, stdout + stderr
    assert _files(folder) == set(REPORT_FILES)
    document = json.loads((folder / "report.json").read_text("utf-8"))
    (requirement,) = document["requirements"].values()
    assert requirement["scenarios"][_SCENARIO]["status"] == "PASSED"


@pytest.mark.slow
def test_a_killed_run_leaves_its_folder_free(tmp_path: Path) -> None:
    """D11: ``kill -9`` of the run holding the folder frees it: the next run writes its set."""
    folder, started, gate = tmp_path / "reports", tmp_path / "started", tmp_path / "gate"
    first = subprocess.Popen(  # noqa: S603 - the kit's own command
        _gated_run(folder, started, gate),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        _wait_started(started, first)
    finally:
        first.kill()
        first.wait(timeout=_RUN_S)
    gate.touch()
    again = _finished_run(folder, started, gate)
    assert again.returncode == 0, again.stdout + again.stderr
    assert _files(folder) == set(REPORT_FILES)


def test_the_run_lock_refuses_a_second_holder_and_writes_through_the_held_one(
    tmp_path: Path,
) -> None:
    """D11: a held lock refuses another (this very pid named); ``held=`` writes without waiting."""
    folder = tmp_path / "reports"
    with lock_report_dir(folder) as held:
        with pytest.raises(ReportDirError) as caught:
            lock_report_dir(folder)
        assert f"in use by another srdh run (pid {os.getpid()})" in str(caught.value)
        started = time.monotonic()
        write_reports(_report("x"), folder, SCHEMAS, held=held)
        assert time.monotonic() - started < LOCK_WAIT_S
    assert _files(folder) == {*REPORT_FILES, "fixtures", "fixtures/ex-1.json"}
    lock_report_dir(folder).release()  # free again once released
    with pytest.raises(ReportDirError, match="lock was already released"):
        write_reports(_report("x"), folder, SCHEMAS, held=held)
