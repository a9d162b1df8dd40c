"""The hostile-IUT table (shared/cases/hostile-iut.md H1-H12) through ``srdh run``.

Each row runs one scenario against ``hostile_iut.py MODE`` and checks the exit code docs/cli.md
promises (0 passed, 1 a scenario failed, 2 the IUT could not start), the report, and that no
process of the IUT is left. H4 (``srdh`` itself is stopped) runs ``srdh`` as a real
subprocess.
"""

from __future__ import annotations

import functools
import json
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from conformance.adapters import InProcessAdapter, RecordingAdapter
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.suite import run_suite
from tests.hostile.hostile_reports import start_tags

if TYPE_CHECKING:
    from pathlib import Path

SCENARIO = "duplicate-tool-call-id-is-proposed"
ENDS_BEFORE_S = 25.0
"""Hang detector: hostile children sleep 30 s and hostile waits are forever."""
SRDH = [sys.executable, "-c", "from conformance.cli import main; main()"]


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


@functools.cache
def _recorded() -> dict[str, dict]:
    """The reference Harness's observations of SCENARIO's fixtures, recorded once in process."""
    recorder = RecordingAdapter(InProcessAdapter("reference_harness.iut:create"))
    try:
        run_suite(recorder, scenario_ids=[SCENARIO])
    finally:
        recorder.close()
    return {fixture["fixture_id"]: observation for fixture, observation in recorder.runs}


def _run(iut, *args: str, timeout: float = 10.0):
    iut.replay(_recorded())
    started = time.monotonic()
    selection = ["--scenario", SCENARIO, "--examples", "0", "--timeout", str(timeout)]
    result = CliRunner(env=iut.env).invoke(app, ["run", "--iut", iut.command, *selection, *args])
    assert time.monotonic() - started < ENDS_BEFORE_S
    return result


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("never-hello", "no complete message within the timeout while the hello message was due"),
        ("exit-at-once", "IUT exited (exit code 3) before sending the hello message"),
        ("escapes-then-exit", "IUT stderr: \\x1b]0;OWNED\\x07\\x1b[2J fatal [/INST]"),
        ("garbage-hello", "sent invalid JSON instead of the hello message"),
        ("deep-hello", "nested deeper than 64"),
        ("huge-hello", "message too large while the hello message was due"),
        ("wrong-version", "protocol version '1.0'"),
    ],
)
def test_an_iut_without_a_usable_hello_is_exit_2_in_one_inert_line(hostile, mode, reason):
    """No usable hello: ``srdh: error: …`` on one line, exit 2, IUT text escaped, nothing left."""
    iut = hostile(mode)
    result = _run(iut, timeout=1.0 if mode == "never-hello" else 10.0)
    assert result.exit_code == EXIT_SETUP, result.output
    assert result.stderr.startswith("srdh: error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert reason in result.stderr
    assert "\x1b" not in result.stderr
    assert iut.leftovers() == []


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash-mid-line", "sent invalid JSON instead of the observation of req-1"),
        ("wrong-request-id", "answered request 'req-999', expected 'req-1'"),
        ("setsid-escapee", "IUT exited (exit code 5)"),
        ("many-children", "no complete message within the timeout"),
    ],
)
def test_a_broken_run_fails_its_scenario_with_exit_1(hostile, mode, reason):
    """A run the IUT breaks fails that scenario (exit 1), with nothing of the IUT left."""
    iut = hostile(mode)
    result = _run(iut, timeout=1.0 if mode == "many-children" else 10.0)
    assert result.exit_code == EXIT_FAILED, result.output
    assert reason in result.stdout
    assert iut.leftovers() == []


def test_h1_blank_lines_do_not_extend_the_deadline(hostile):
    """H1: one blank line every 0.2 s fails the scenario after the timeout; the run ends."""
    iut = hostile("blank-lines")
    result = _run(iut, timeout=2.0)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "no complete message within the timeout" in result.stdout
    assert iut.leftovers() == []


def test_h2_a_child_holding_stdout_does_not_block_and_is_killed(hostile):
    """H2: the IUT exits 4 leaving ``sleep 30`` on its stdout: reported at once, child killed."""
    iut = hostile("child-holds-stdout")
    result = _run(iut)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "IUT exited (exit code 4)" in result.stdout
    assert len(iut.pids()) == 2
    assert iut.leftovers() == []


def test_h3_a_child_left_after_bye_is_killed_and_the_run_passes(hostile):
    """H3: a correct IUT that leaves a child on bye: exit 0 and no process left."""
    iut = hostile("child-after-bye")
    result = _run(iut)
    assert result.exit_code == EXIT_OK, result.output
    assert len(iut.pids()) == 2
    assert iut.leftovers() == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_h4_stopping_srdh_ends_the_iut_process_group(hostile, signum):
    """H4: SIGTERM or SIGINT to ``srdh`` while the IUT hangs: the IUT's group ends too (SIGHUP
    takes the same handler)."""
    iut = hostile("grandchildren-hang")
    command = [*SRDH, "run", "--iut", iut.command, "--scenario", SCENARIO, "--timeout", "60"]
    command += ["--examples", "0"]
    srdh = subprocess.Popen(  # noqa: S603 - the kit's own CLI
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + ENDS_BEFORE_S
        while len(iut.pids()) < 7 and time.monotonic() < deadline:  # IUT, 3 children, 3 sleeps
            time.sleep(0.05)
        assert len(iut.pids()) == 7
        srdh.send_signal(signum)
        code = srdh.wait(ENDS_BEFORE_S)
    finally:
        srdh.kill()
        srdh.wait()
    assert code == 128 + signum  # D6: what ran is reported (partial), then 130 or 143
    assert iut.leftovers() == []


def test_h5_an_unparsable_answer_is_an_adapter_error_naming_the_iut(hostile):
    """H5: ``[`` x 100000: an adapter error (no RecursionError), the scenario fails."""
    iut = hostile("deep-answer")
    result = _run(iut)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "nested deeper than 64" in result.stdout
    assert "RecursionError" not in result.output
    assert iut.leftovers() == []


@pytest.mark.parametrize(
    ("mode", "warning"),
    [
        ("ignore-bye", None),
        ("bad-exit-after-bye", "IUT exited with code 7 after bye, expected 0"),
    ],
)
def test_h6_results_are_kept_however_the_iut_ends(hostile, tmp_path: Path, mode, warning):
    """H6: an IUT that ignores bye (or exits badly) keeps its results and reports, warned."""
    iut = hostile(mode)
    out = tmp_path / "R"
    result = _run(iut, "--report", str(out))
    assert result.exit_code == EXIT_OK, result.output
    assert f"{SCENARIO}" in result.stdout
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["passed"] is True
    if warning is None:
        assert report["warnings"] == []
        assert "warning" not in result.stderr
    else:
        assert [warning in w for w in report["warnings"]] == [True]
        assert result.stderr.startswith("srdh: warning: ")
        assert warning in result.stderr
        summary = (out / "summary.md").read_text(encoding="utf-8")
        assert warning in MarkdownIt("commonmark").render(summary)
    assert iut.leftovers() == []


def test_h7_a_100_mb_line_is_message_too_large(hostile):
    """H7: one 100 MB line fails the scenario with "message too large" and names the limit
    (its memory cost is measured at the adapter: test_hostile_adapter.py)."""
    iut = hostile("huge-line")
    result = _run(iut)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "message too large" in result.stdout
    assert "max_message_bytes" in result.stdout
    assert iut.leftovers() == []


def test_h8_two_observations_for_one_run_fail_that_scenario(hostile, tmp_path: Path):
    """H8: a second observation is a protocol error blamed on that IUT and request."""
    iut = hostile("two-observations")
    out = tmp_path / "R"
    result = _run(iut, "--report", str(out))
    assert result.exit_code == EXIT_FAILED, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    (requirement,) = report["requirements"].values()
    scenario = requirement["scenarios"][SCENARIO]
    assert scenario["status"] == "ERROR"
    assert "protocol error (req-1" in scenario["message"]
    assert "unsolicited message(s) after answering req-1" in scenario["message"]
    assert iut.leftovers() == []


def test_h9_escape_sequences_on_stderr_keep_junit_well_formed(hostile, tmp_path: Path):
    """H9: ESC, NUL and invalid UTF-8 on stderr, exit 1: junit.xml parses; text is inert."""
    iut = hostile("stderr-escapes")
    out = tmp_path / "R"
    result = _run(iut, "--report", str(out))
    assert result.exit_code == EXIT_FAILED, result.output
    root = ET.parse(out / "junit.xml").getroot()  # noqa: S314 - the kit's own output
    (failure,) = root.iter("failure")
    assert "\\x1b[31mERROR" in (failure.text or "")
    assert "\x1b" not in result.output
    assert "\\x1b[31mERROR" in result.stdout
    assert iut.leftovers() == []


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_h10_rich_markup_in_iut_text_is_printed_as_text(hostile, monkeypatch, terminal):
    """H10: ``[/INST]`` in an IUT's error: the same result on a terminal as in a pipe."""
    if terminal:
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setenv("COLUMNS", "400")
    iut = hostile("markup-error")
    result = _run(iut)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "internal error" not in result.output
    assert "[/INST]" in result.stdout
    assert "\x1b[2J" not in result.stdout
    assert iut.leftovers() == []


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_h11_terminal_escapes_in_the_hello_are_shown_inert(hostile, monkeypatch, terminal):
    """H11: a hello name holding OSC/CSI sequences is printed escaped, never raw."""
    if terminal:
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setenv("COLUMNS", "400")
    iut = hostile("escape-name")
    result = _run(iut)
    assert result.exit_code == EXIT_OK, result.output
    assert "\\x1b]0;TITLE\\x07evil\\x1b[2J" in result.stdout
    assert "]0;TITLE\x07" not in result.stdout
    assert "\x1b[2J" not in result.stdout
    assert iut.leftovers() == []


def test_h12_html_and_backticks_in_the_hello_stay_text_in_markdown(hostile, tmp_path: Path):
    """H12: a backtick and ``<img onerror>`` in the name, ``<script>`` in the version: no raw
    HTML in the rendered summary, and the IUT's code span holds the whole name."""
    iut = hostile("html-name")
    out = tmp_path / "R"
    result = _run(iut, "--report", str(out))
    assert result.exit_code == EXIT_OK, result.output
    markdown = (out / "summary.md").read_text(encoding="utf-8")
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)
    assert not {"img", "script"} & set(start_tags(rendered))
    expected = "a`b&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;"
    assert f"<code>{expected}</code>" in rendered
    html = (out / "report.html").read_text(encoding="utf-8")
    assert not {"img", "script"} & set(start_tags(html))
    assert iut.leftovers() == []


SHOWN_NEWLINE_ERROR = "first line\\x0a# heading\\u202e second line"
"""The newline-error IUT's message as every format shows it: one line, visible escapes."""


def test_a_line_feed_in_iut_text_is_one_visible_escape_everywhere(hostile, tmp_path: Path):
    """An IUT error message holding a line feed: ``\\x0a`` on the terminal and in summary.md
    (one bullet, no new item or heading made by the IUT), as in the HTML report."""
    iut = hostile("newline-error")
    out = tmp_path / "R"
    result = _run(iut, "--report", str(out))
    assert result.exit_code == EXIT_FAILED, result.output
    assert SHOWN_NEWLINE_ERROR in result.stdout
    tokens = MarkdownIt("commonmark").parse((out / "summary.md").read_text(encoding="utf-8"))
    items = [t.content for t in tokens if t.type == "inline" and "heading" in t.content]
    assert items, "the message is in the summary"
    assert all("first line" in item for item in items), items  # never split off its start
    assert SHOWN_NEWLINE_ERROR in (out / "report.html").read_text(encoding="utf-8")
    assert iut.leftovers() == []


def test_demo_of_an_iut_answering_errors_is_a_difference_exit_1(hostile):
    """``srdh demo --iut``: an IUT that answers a Run with an error differs from the reference
    (exit 1, said plainly, the whole message shown escaped), not a setup error (exit 2)."""
    iut = hostile("newline-error")
    result = CliRunner(env=iut.env).invoke(
        app, ["demo", "--iut", iut.command, "--timeout", "10", SCENARIO]
    )
    assert result.exit_code == EXIT_FAILED, result.output
    assert "srdh: error" not in result.stderr
    assert f"the IUT produced no trace: IUT reported error 'E': {SHOWN_NEWLINE_ERROR}" in (
        result.stdout
    )
    assert "(end)" in result.stdout
    assert iut.leftovers() == []
