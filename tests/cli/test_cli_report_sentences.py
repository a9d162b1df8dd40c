"""The spec author's report: every spec sentence with its level, rules, mutants and status.

report.html has a "Spec sentences" table readable at 1,024 and 1,400 px (measured in a headless
Chromium, as the requirements table is); report.json has the same rows with rules and mutants as
lists, not comma-joined strings.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.cli._output import kit_schemas_dir
from conformance.cli._trace import build_matrix_rows
from conformance.cli._verify import sentence_trace
from conformance.reports import Report, SentenceTrace, Versions, render_html, report_to_dict
from tests.cli.test_cli_report_layout import _TABLE, WIDTHS, _chromium

ROOT = Path(__file__).resolve().parents[2]
_HEADERS = ["sentence", "level", "text", "rules", "mutants", "status"]


def _kit_sentences() -> tuple[SentenceTrace, ...]:
    return tuple(sentence_trace(row) for row in build_matrix_rows(ROOT).sentences)


def _report(sentences: tuple[SentenceTrace, ...]) -> Report:
    return Report(
        title="srdh verify",
        kit=Versions("srdh-conformance-kit", "0"),
        iut=Versions("iut", "0"),
        requirements=(),
        sentences=sentences,
    )


def test_the_kit_sentences_are_traced_with_lists() -> None:
    """Every sentence of the spec is a row; report.json carries rules and mutants as lists."""
    sentences = _kit_sentences()
    spec = (ROOT / "openspec/specs/single-react-diagnosis-harness/spec.md").read_text("utf-8")
    assert sentences
    assert all(t.text in " ".join(spec.split()) or t.text in spec for t in sentences)
    rows = report_to_dict(_report(sentences))["sentences"]
    assert isinstance(rows, list)
    assert len(rows) == len(sentences)
    tested = [r for r in rows if r["status"] == "tested"]
    assert tested
    for row in tested:
        assert isinstance(row["rules"], list)
        assert row["rules"]
        assert all(isinstance(rule, str) and "," not in rule for rule in row["rules"])
        assert isinstance(row["mutants"], list)
    assert {r["status"] for r in rows} <= {"tested", "untested", "note", "condition"}
    conditions = [r for r in rows if r["kind"] == "condition"]
    assert all(r["level"] == "" and r["status"] == "condition" for r in conditions)


def test_an_untested_must_sentence_is_marked_untested() -> None:
    """A MUST sentence no rule quotes reads 'untested' (a failure), a MAY one 'note'."""
    must = SentenceTrace("r#1", "r", "", "body", "MUST", "The Harness SHALL x.", "spec.md:3")
    may = SentenceTrace("r#2", "r", "", "body", "MAY", "The Harness may y.", "spec.md:4")
    assert (must.status, may.status) == ("untested", "note")
    page = render_html(_report((must, may)), kit_schemas_dir())
    assert 'id="spec-sentences"' in page
    assert "The Harness SHALL x." in page


def _layout(page: Path, tmp_path: Path, width: int) -> dict[str, Any]:
    script = _TABLE.replace("MOVE", "false").replace(
        'getElementById("results")', 'getElementById("spec-sentences")'
    )
    measured = tmp_path / f"sentences-{width}.html"
    measured.write_text(page.read_text("utf-8").replace("</body>", script), "utf-8")
    dom = _chromium("--dump-dom", measured.as_uri(), cwd=tmp_path, width=width)
    found = re.search(r'data-layout="([^"]*)"', dom)
    assert found is not None, "the measuring script did not run"
    layout: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return layout


@pytest.mark.parametrize("width", WIDTHS)
def test_the_sentence_table_is_readable(tmp_path: Path, width: int) -> None:
    """Headers and short cells on one line, nothing spills, the text gets the most room."""
    page = tmp_path / "report.html"
    page.write_text(render_html(_report(_kit_sentences()), kit_schemas_dir()), "utf-8")
    layout = _layout(page, tmp_path, width)
    heads = {h["text"]: h for h in layout["heads"]}
    assert list(heads) == _HEADERS
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
