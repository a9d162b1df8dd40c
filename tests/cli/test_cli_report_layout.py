"""report.html fits a 1,400-pixel window: failures first, matrix and diagrams without overflow.

A headless Chromium (Debian's ``chromium`` package; the test is skipped when it is not
installed) loads a real failing report at 1400x1000, measures the right edge of every element
and takes a screenshot. A structural test, which always runs, checks the stylesheet itself.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import struct
import subprocess
from typing import TYPE_CHECKING, Any

import pytest

from conformance.cli import EXIT_FAILED, app

if TYPE_CHECKING:
    from pathlib import Path

WINDOW = 1400
_MEASURE = (
    "<script>var w=0,bad=[];document.querySelectorAll('*').forEach(function(e){"
    "var r=e.getBoundingClientRect();w=Math.max(w,r.right);"
    f"if(r.right>{WINDOW})bad.push(e.tagName+'#'+e.id);}});"
    "w=Math.max(w,document.documentElement.scrollWidth);"
    "document.body.setAttribute('data-width',String(Math.ceil(w)));"
    "document.body.setAttribute('data-bad',bad.slice(0,10).join(' '));</script></body>"
)


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real report of a failing run: failures, drill-down, the full matrix and diagrams."""
    from typer.testing import CliRunner  # noqa: PLC0415 - a module-scoped runner

    directory = tmp_path_factory.mktemp("layout") / "report"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--iut-module",
            "reference_harness.mutants:duplicate_overwrites_invocation",
            "--scenario",
            "duplicate-tool-call-id-is-proposed",
            "--report",
            str(directory),
        ],
    )
    assert result.exit_code == EXIT_FAILED, result.output
    return directory / "report.html"


def _chromium(*args: str, cwd: Path) -> str:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    command = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={cwd / 'profile'}",
        f"--window-size={WINDOW},1000",
        *args,
    ]
    process = subprocess.Popen(  # noqa: S603 - a fixed browser command on our own file
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        out, _ = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return out.decode("utf-8", "replace")


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_nothing_sticks_out_of_a_1400_pixel_window(report_html: Path, tmp_path: Path) -> None:
    """Every element's right edge, and the page's scroll width, stay within 1,400 pixels."""
    page = tmp_path / "measured.html"
    page.write_text(report_html.read_text("utf-8").replace("</body>", _MEASURE), "utf-8")
    dom = _chromium("--dump-dom", page.as_uri(), cwd=tmp_path)
    found: dict[str, Any] = dict(re.findall(r'data-(width|bad)="([^"]*)"', dom))
    assert found, "the measuring script did not run"
    assert int(found["width"]) <= WINDOW, found["bad"]
    assert found["bad"] == ""


def test_a_screenshot_of_the_report_is_taken_at_1400_pixels(
    report_html: Path, tmp_path: Path
) -> None:
    """The browser renders the page (failures first) into a 1400-pixel-wide screenshot."""
    shot = tmp_path / "report.png"
    _chromium(f"--screenshot={shot}", report_html.as_uri(), cwd=tmp_path)
    assert _png_size(shot) == (WINDOW, 1000)


def test_the_stylesheet_has_no_fixed_width_and_scales_diagrams(report_html: Path) -> None:
    """No CSS width over 1,400 px; long cells wrap; SVG diagrams scale to the page."""
    page = report_html.read_text("utf-8")
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    widths = [int(w) for w in re.findall(r"width:\s*(\d+)px", style)]
    assert all(w <= WINDOW for w in widths)
    assert re.search(r"svg\s*\{[^}]*max-width:\s*100%", style)
    assert re.search(r"td\s*\{[^}]*overflow-wrap:\s*anywhere", style)
    assert page.index('id="failures"') < page.index('id="compliance"')
    assert page.index('id="drill-down"') < page.index('id="traceability-matrix"')
