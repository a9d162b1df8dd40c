"""The linter's verdicts agree with the official OpenSpec CLI on a corpus of specs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.openspec import lint_items

CORPUS = Path(__file__).parent / "corpus"
CASES: dict[str, dict[str, object]] = json.loads(
    (CORPUS / "cases.json").read_text(encoding="utf-8")
)


def _project(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(CORPUS / name, target)
    return target


def test_corpus_is_large_enough() -> None:
    """The corpus holds at least ten malformed cases and some valid ones, each with a folder."""
    invalid = [n for n, c in CASES.items() if c["codes"]]
    valid = [n for n, c in CASES.items() if not c["codes"]]
    assert len(invalid) >= 10
    assert len(valid) >= 2
    assert sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_official_verdicts_match_cli(name: str, tmp_path: Path, openspec_cli) -> None:
    """Per item, the official-rule verdict equals ``openspec validate --all --strict``'s."""
    project = _project(name, tmp_path)
    report = openspec_cli(project)
    cli = {(item["type"], item["id"]): item["valid"] for item in report["items"]}
    ours = {
        (r.kind, r.id): r.valid
        for r in lint_items(project, strict=True, kit_rules=False)
        if r.kind != "archived-change"
    }
    assert ours == cli
    assert all(cli.values()) is CASES[name]["official_valid"]
    assert (report["exit_code"] == 0) is CASES[name]["official_valid"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_kit_reports_the_expected_codes(name: str, tmp_path: Path) -> None:
    """Each malformed case yields the issue codes its rule names; valid cases yield none."""
    project = _project(name, tmp_path)
    reports = lint_items(project, strict=True)
    codes = {issue.code for r in reports for issue in r.issues}
    expected = set(CASES[name]["codes"])  # type: ignore[call-overload]
    assert expected <= codes
    assert all(r.valid for r in reports) is (not expected)
    if not expected:
        assert codes == set()


def test_non_strict_mode_drops_warnings(tmp_path: Path) -> None:
    """Without strict mode a Purpose that is too short is no longer reported (it is a WARNING)."""
    project = _project("purpose-too-short", tmp_path)
    assert [r.valid for r in lint_items(project, strict=False)] == [True]
    assert [r.valid for r in lint_items(project, strict=True)] == [False]
