"""Report files: JSON keyed by ids, JUnit XML, Markdown, one self-contained HTML with diagrams."""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conformance.reports import (
    REPORT_FILES,
    MatrixRow,
    Report,
    ReportDirError,
    RequirementResult,
    ScenarioResult,
    Status,
    StepResult,
    Versions,
    write_reports,
)

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def _report(
    *, must_status: Status = Status.PASSED, should_status: Status = Status.FAILED
) -> Report:
    return Report(
        title="srdh run",
        kit=Versions("srdh-conformance-kit", "0.1.0"),
        iut=Versions("reference-harness", "9.9.9"),
        requirements=(
            RequirementResult(
                "tool-call-id-req",
                "Tool invocation identity SHALL use the framework Tool Call ID",
                "SHALL",
                (ScenarioResult("dup-id", "Duplicate Tool Call ID is proposed", must_status, 0.5),),
            ),
            RequirementResult(
                "nice-to-have",
                "A SHOULD requirement",
                "SHOULD",
                (ScenarioResult("nice", "Nice", should_status, 0.1, "THEN did not hold"),),
            ),
        ),
        steps=(StepResult("spec lint", Status.PASSED, "0 issues", 0.2),),
        matrix=(MatrixRow("tool-call-id-req", "dup-id", "Duplicate", {"gherkin": "features/02"}),),
        matrix_columns=("gherkin",),
    )


def _enum(contract: str, name: str) -> list[str]:
    doc = json.loads((SCHEMAS / f"{contract}.schema.json").read_text(encoding="utf-8"))
    return doc["$defs"][name]["enum"]


def test_must_compliance_ignores_should_failures_but_not_untested_musts() -> None:
    """A failed SHOULD leaves MUST compliant; an untested MUST makes the report fail."""
    ok = _report()
    assert ok.compliance()["MUST"].compliant
    assert not ok.compliance()["SHOULD"].compliant
    assert ok.passed
    untested = _report(must_status=Status.NOT_TESTED)
    assert untested.compliance()["MUST"].not_tested == 1
    assert not untested.passed


def test_all_report_files_are_written_and_parse(tmp_path: Path) -> None:
    """JSON loads and is keyed by requirement then scenario id; JUnit XML parses with etree."""
    written = write_reports(_report(), tmp_path / "out", SCHEMAS)
    assert [p.name for p in written] == list(REPORT_FILES)
    doc = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert doc["iut"] == {"name": "reference-harness", "version": "9.9.9"}
    assert doc["kit"]["name"] == "srdh-conformance-kit"
    assert doc["requirements"]["tool-call-id-req"]["scenarios"]["dup-id"]["status"] == "PASSED"
    assert doc["compliance"]["SHOULD"]["failed"] == 1
    root = ET.parse(tmp_path / "out" / "junit.xml").getroot()  # noqa: S314 - our own output
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"tool-call-id-req", "nice-to-have", "verify"}
    assert suites["nice-to-have"].find("testcase/failure") is not None
    assert suites["tool-call-id-req"].find("testcase/failure") is None
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "| MUST | 1 | 1 | 0 | 0 | yes |" in summary


def test_report_files_get_the_umask_mode_not_mkstemp_s(tmp_path: Path) -> None:
    """Reports are ordinary files: 0644 under umask 022 (mkstemp alone would leave 0600)."""
    previous = os.umask(0o022)
    try:
        written = write_reports(_report(), tmp_path / "out", SCHEMAS)
    finally:
        os.umask(previous)
    assert {stat.S_IMODE(path.stat().st_mode) for path in written} == {0o644}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_html_is_self_contained_with_matrix_and_one_svg_per_diagram(tmp_path: Path) -> None:
    """The HTML holds the matrix table and three SVGs; no script, link or external source."""
    write_reports(_report(), tmp_path, SCHEMAS)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    parser = _Collector()
    parser.feed(html)
    tags = parser.tags
    assert ("table", {"id": "traceability-matrix"}) in tags
    svg_ids = [attrs.get("id") for tag, attrs in tags if tag == "svg"]
    assert svg_ids == ["invocation-lifecycle", "run-states", "release-pipeline"]
    assert not [t for t, a in tags if t in {"script", "link", "img", "iframe"}]
    assert not [a for _, a in tags if str(a.get("src", "")).startswith("http")]


def test_diagram_states_come_from_the_schema_enums(tmp_path: Path) -> None:
    """Every Run state and invocation status in the schemas is a node of its diagram."""
    write_reports(_report(), tmp_path, SCHEMAS)
    parser = _Collector()
    parser.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    states = {a.get("data-state") for t, a in parser.tags if t == "g"}
    assert set(_enum("diagnosis-run", "RunState")) <= states
    assert set(_enum("tool-invocation", "InvocationStatus")) <= states
    assert set(_enum("safe-fallback", "FallbackType")) <= states


def test_diagram_follows_a_renamed_enum_value(tmp_path: Path) -> None:
    """A schema whose Run state enum gains a value draws that value (not a hand-drawn list)."""
    copy = tmp_path / "schemas"
    copy.mkdir()
    for path in SCHEMAS.glob("*.schema.json"):
        (copy / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    run = json.loads((copy / "diagnosis-run.schema.json").read_text(encoding="utf-8"))
    run["$defs"]["RunState"]["enum"].append("PAUSED")
    (copy / "diagnosis-run.schema.json").write_text(json.dumps(run), encoding="utf-8")
    write_reports(_report(), tmp_path / "out", copy)
    assert 'data-state="PAUSED"' in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


def test_uncreatable_report_directory_is_refused_before_writing(tmp_path: Path) -> None:
    """A directory that cannot be created (its parent is a file) raises ReportDirError."""
    blocker = tmp_path / "blocker"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(ReportDirError, match="not writable"):
        write_reports(_report(), blocker / "reports", SCHEMAS)
    assert blocker.read_text(encoding="utf-8") == "x"


def test_report_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    """A path that is a regular file cannot be a report directory."""
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(ReportDirError, match="is a file"):
        write_reports(_report(), target, SCHEMAS)
