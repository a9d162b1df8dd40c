"""The spec author's report: every spec sentence with its level, rules, mutants and status.

report.json has the rows with rules and mutants as lists, not comma-joined strings; report.html has
a "Spec sentences" table. Its layout at 1,024 and 1,400 px is measured in a headless Chromium by
``test_cli_report_layout.py`` (the module that needs Chromium, skipped as one without it), so
that this module runs on a machine without Chromium.
"""

from __future__ import annotations

from pathlib import Path

from conformance.cli._output import kit_schemas_dir
from conformance.cli._trace import build_matrix_rows
from conformance.cli._verify import sentence_trace
from conformance.reports import Report, SentenceTrace, Versions, render_html, report_to_dict

ROOT = Path(__file__).resolve().parents[2]
SENTENCE_HEADERS = ["sentence", "level", "text", "rules", "mutants", "status"]
"""The columns of the spec-sentence table, in order."""


def kit_sentences() -> tuple[SentenceTrace, ...]:
    """Every sentence of the kit's spec, traced to its rules and mutants (as ``srdh verify``)."""
    return tuple(sentence_trace(row) for row in build_matrix_rows(ROOT).sentences)


def sentence_report(sentences: tuple[SentenceTrace, ...]) -> Report:
    """A report with no requirements and these spec-sentence rows."""
    return Report(
        title="srdh verify",
        kit=Versions("srdh-conformance-kit", "0"),
        iut=Versions("iut", "0"),
        requirements=(),
        sentences=sentences,
    )


def test_the_kit_sentences_are_traced_with_lists() -> None:
    """Every sentence of the spec is a row; report.json carries rules and mutants as lists."""
    sentences = kit_sentences()
    spec = (ROOT / "openspec/specs/single-react-diagnosis-harness/spec.md").read_text("utf-8")
    assert sentences
    assert all(t.text in " ".join(spec.split()) or t.text in spec for t in sentences)
    rows = report_to_dict(sentence_report(sentences))["sentences"]
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
    page = render_html(sentence_report((must, may)), kit_schemas_dir())
    assert 'id="spec-sentences"' in page
    assert "The Harness SHALL x." in page
