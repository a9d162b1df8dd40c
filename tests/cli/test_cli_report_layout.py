"""report.html reads well at 1,024 and 1,400 pixels: nothing overflows, no column is squeezed.

A headless Chromium (Debian's ``chromium`` package) loads a real failing report, a report with
every level and status, and the spec-sentence table of the kit's own spec, at both widths. It
measures the right edge of every element, the width of each column of both tables and how many
lines each short cell (level, status, examples) and each header takes (one: never "S H A L L"
down a column), and takes a screenshot of the requirements table. Without Chromium this module
is ONE skip naming the install line outside CI, and fails in CI (``CI=true``; ``.ci/run``
installs it; ``tests/conftest.py``: ``require_system_package``); no other module imports from it.
The structural test, which always runs, is ``test_cli_report_stylesheet.py``.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import struct
import subprocess
from typing import TYPE_CHECKING, Any

import pytest

from conformance.cli._output import kit_schemas_dir
from conformance.reports import (
    LEVELS,
    RequirementResult,
    ScenarioResult,
    Status,
    Versions,
    render_html,
)
from conformance.reports import Report as ReportDocument

if TYPE_CHECKING:
    from pathlib import Path

from ..conftest import require_system_package  # noqa: TID252 - importlib mode: no absolute name
from .test_cli_report_sentences import (
    SENTENCE_HEADERS,
    kit_sentences,
    sentence_report,
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
require_system_package(
    "Chromium", present=CHROMIUM is not None, install="apt-get install -y chromium"
)

WINDOW = 1400
WIDTHS = (1024, WINDOW)
"""The window widths the report must read well at (a laptop, a desktop)."""
HEIGHT = 1000

_MEASURE = (
    "<script>var w=0,bad=[],lim=document.documentElement.clientWidth;"
    "document.querySelectorAll('*').forEach(function(e){"
    "var r=e.getBoundingClientRect();w=Math.max(w,r.right);"
    "if(r.right>lim+0.5)bad.push(e.tagName+'#'+e.id);});"
    "w=Math.max(w,document.documentElement.scrollWidth);"
    "document.body.setAttribute('data-width',String(Math.ceil(w)));"
    "document.body.setAttribute('data-bad',bad.slice(0,10).join(' '));</script></body>"
)

_TABLE = """<script>
(function () {
  var table = document.getElementById("results");
  if (MOVE) { document.body.insertBefore(table.parentElement, document.body.firstChild); }
  function lines(cell) {
    var lh = parseFloat(getComputedStyle(cell).lineHeight) || 20, tops = [], count = 0, last = null;
    var walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      var range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      Array.prototype.forEach.call(range.getClientRects(), function (r) {
        if (r.width > 0) { tops.push(r.top); }
      });
    }
    tops.sort(function (a, b) { return a - b; });
    tops.forEach(function (t) {
      if (last === null || t - last > lh / 2) { count += 1; last = t; }
    });
    return count;
  }
  function fits(cell) { return cell.scrollWidth <= cell.clientWidth; }
  var heads = Array.prototype.map.call(table.rows[0].cells, function (c) {
    return {text: c.textContent, width: c.getBoundingClientRect().width, lines: lines(c),
            fits: fits(c)};
  });
  var cells = [];
  Array.prototype.forEach.call(table.rows, function (row, i) {
    if (i === 0) { return; }
    Array.prototype.forEach.call(row.cells, function (c, j) {
      cells.push({column: heads[j].text, text: c.textContent, lines: lines(c), fits: fits(c)});
    });
  });
  document.body.setAttribute("data-layout", JSON.stringify({
    viewport: document.documentElement.clientWidth,
    table: table.getBoundingClientRect().width, heads: heads, cells: cells}));
})();
</script></body>"""
"""Measures the requirements table (``MOVE``: first put it at the top, for a screenshot)."""

_SHORT_COLUMNS = ("level", "status", "examples")
_HEADERS = ["requirement", "level", "scenario", "status", "examples", "message"]


@pytest.fixture(scope="module")
def mixed_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report with a row for every level and status, long ids and a long unbroken message."""
    token = "x" * 300  # no break opportunity: only the message column may wrap it
    requirements = tuple(
        RequirementResult(
            requirement_id=f"{level.lower()}-requirement-with-a-long-identifier-{index}",
            name=f"{level} requirement {index}",
            level=level,
            scenarios=tuple(
                ScenarioResult(
                    scenario_id=f"scenario-{index}-{status.value.lower()}-with-a-long-identifier",
                    name=f"scenario {index} {status.value}",
                    status=status,
                    message=f"{status.value}: {'a long message ' * 20}{token}",
                    examples=100 * index,
                )
                for status in Status
            ),
        )
        for index, level in enumerate((*LEVELS, "SHALL"), start=1)
    )
    report = ReportDocument(
        title="mixed",
        kit=Versions("srdh-conformance-kit", "0"),
        iut=Versions("iut", "0"),
        requirements=requirements,
    )
    path = tmp_path_factory.mktemp("mixed") / "report.html"
    path.write_text(render_html(report, kit_schemas_dir()), "utf-8")
    return path


def _page(request: pytest.FixtureRequest, name: str) -> Path:
    page: Path = request.getfixturevalue(name)
    return page


def _chromium(*args: str, cwd: Path, width: int = WINDOW) -> str:
    binary = CHROMIUM
    assert binary is not None  # the module is skipped (or fails in CI) without Chromium
    command = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={cwd / 'profile'}",
        f"--window-size={width},{HEIGHT}",
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


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_sticks_out_of_the_window(report_html: Path, tmp_path: Path, width: int) -> None:
    """Every element's right edge, and the page's scroll width, stay within the window."""
    page = tmp_path / "measured.html"
    page.write_text(report_html.read_text("utf-8").replace("</body>", _MEASURE), "utf-8")
    dom = _chromium("--dump-dom", page.as_uri(), cwd=tmp_path, width=width)
    found: dict[str, Any] = dict(re.findall(r'data-(width|bad)="([^"]*)"', dom))
    assert found, "the measuring script did not run"
    assert int(found["width"]) <= width, found["bad"]
    assert found["bad"] == ""


def _layout(
    page: Path, tmp_path: Path, width: int, *, move: bool = False, table: str = "results"
) -> dict[str, Any]:
    """The measured layout of the table with id ``table`` (the measuring page: ``table-WIDTH``)."""
    script = _TABLE.replace("MOVE", "true" if move else "false").replace(
        'getElementById("results")', f'getElementById("{table}")'
    )
    measured = tmp_path / f"table-{width}.html"
    measured.write_text(page.read_text("utf-8").replace("</body>", script), "utf-8")
    dom = _chromium("--dump-dom", measured.as_uri(), cwd=tmp_path, width=width)
    found = re.search(r'data-layout="([^"]*)"', dom)
    assert found is not None, "the measuring script did not run"
    layout: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return layout


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["report_html", "mixed_html"])
def test_the_requirements_table_is_readable(
    request: pytest.FixtureRequest, tmp_path: Path, name: str, width: int
) -> None:
    """Short columns hold their values on one line, ids and messages get room, nothing spills.

    At 1,400 px the level column used to be squeezed to one letter a line ("S H A L L") by a
    long message; at 1,024 px the message column must still get a third of the table.
    """
    layout = _layout(_page(request, name), tmp_path, width)
    heads = {h["text"]: h for h in layout["heads"]}
    assert list(heads) == _HEADERS
    assert layout["table"] <= layout["viewport"] <= width
    for head in heads.values():
        assert head["lines"] == 1, head
        assert head["fits"], head
    for cell in layout["cells"]:
        assert cell["fits"], cell  # no text spills out of its cell (nor over its neighbour)
        if cell["column"] in _SHORT_COLUMNS:
            assert cell["lines"] == 1, cell
    assert heads["level"]["width"] >= 60
    assert heads["status"]["width"] >= 100  # NOT_TESTED, bold
    assert heads["requirement"]["width"] >= 140
    assert heads["scenario"]["width"] >= 140
    assert heads["message"]["width"] >= layout["table"] / 3


@pytest.mark.parametrize("width", WIDTHS)
def test_a_screenshot_of_the_requirements_table_is_taken(
    mixed_html: Path, tmp_path: Path, width: int
) -> None:
    """The browser renders the table (moved to the top of the page) into a screenshot.

    The screenshots stay in the test's temporary folder for a reader to look at.
    """
    layout = _layout(mixed_html, tmp_path, width, move=True)
    assert [h["text"] for h in layout["heads"]] == _HEADERS
    page = tmp_path / f"table-{width}.html"
    shot = tmp_path / f"requirements-{width}.png"
    _chromium(f"--screenshot={shot}", page.as_uri(), cwd=tmp_path, width=width)
    assert _png_size(shot) == (width, HEIGHT)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_sentence_table_is_readable(tmp_path: Path, width: int) -> None:
    """Headers and short cells on one line, nothing spills, the text gets the most room."""
    page = tmp_path / "report.html"
    page.write_text(render_html(sentence_report(kit_sentences()), kit_schemas_dir()), "utf-8")
    layout = _layout(page, tmp_path, width, table="spec-sentences")
    heads = {h["text"]: h for h in layout["heads"]}
    assert list(heads) == SENTENCE_HEADERS
    assert layout["table"] <= layout["viewport"] <= width
    for head in heads.values():
        assert head["lines"] == 1, head
    for cell in layout["cells"]:
        assert cell["fits"], cell
        if cell["column"] in ("level", "status"):
            assert cell["lines"] == 1, cell
    assert heads["text"]["width"] >= layout["table"] / 4
    assert heads["rules"]["width"] >= 150
    assert heads["mutants"]["width"] >= 150
