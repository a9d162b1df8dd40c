"""The linter's verdicts agree with the official OpenSpec CLI on a corpus of specs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conformance.openspec import lint_items

from .conftest import VALIDATE_ALL, timeless

CORPUS = Path(__file__).parent / "corpus"
CASES: dict[str, dict[str, Any]] = json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def corpus_copies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each corpus case copied to its own temporary project root."""
    base = tmp_path_factory.mktemp("corpus")
    return {name: Path(shutil.copytree(CORPUS / name, base / name)) for name in CASES}


@pytest.fixture(scope="module")
def official_reports(corpus_copies: dict[str, Path], openspec_validate_many) -> dict[str, Any]:
    """``openspec validate --all --strict --json`` of each corpus case, in one Node process."""
    names = sorted(corpus_copies)
    reports = openspec_validate_many([corpus_copies[n] for n in names], VALIDATE_ALL)
    return dict(zip(names, reports, strict=True))


@pytest.mark.parametrize("name", ["added-and-removed-conflict", "valid-change-all-operations"])
def test_the_batched_referee_reports_what_the_cli_prints(
    name: str, corpus_copies: dict[str, Path], official_reports, openspec_cli
) -> None:
    """The one-process batch (``validate_batch.mjs``) is the CLI: the same report and exit code
    as ``openspec validate --all --strict --json --no-interactive``, on an invalid and a valid
    case (all 46 agreed when the batch was introduced; docs/decisions/test-speed.md)."""
    cli = openspec_cli(corpus_copies[name])
    assert CASES[name]["official_valid"] is (cli["exit_code"] == 0)
    assert timeless(official_reports[name]) == timeless(cli)


def test_corpus_is_large_enough() -> None:
    """The corpus holds at least ten malformed cases and some valid ones, each with a folder."""
    invalid = [n for n, c in CASES.items() if c["codes"]]
    valid = [n for n, c in CASES.items() if not c["codes"]]
    assert len(invalid) >= 10
    assert len(valid) >= 2
    assert sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_official_verdicts_match_cli(
    name: str, corpus_copies: dict[str, Path], official_reports
) -> None:
    """Per item, the official-rule verdict equals ``openspec validate --all --strict``'s."""
    report = official_reports[name]
    cli = {(item["type"], item["id"]): item["valid"] for item in report["items"]}
    ours = {
        (r.kind, r.id): r.valid
        for r in lint_items(corpus_copies[name], strict=True, kit_rules=False)
        if r.kind != "archived-change"
    }
    assert ours == cli
    assert all(cli.values()) is CASES[name]["official_valid"]
    assert (report["exit_code"] == 0) is CASES[name]["official_valid"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_kit_reports_the_expected_codes(name: str, corpus_copies: dict[str, Path]) -> None:
    """Each malformed case yields the issue codes its rule names; valid cases yield none."""
    reports = lint_items(corpus_copies[name], strict=True)
    codes = {issue.code for r in reports for issue in r.issues}
    expected = set(CASES[name]["codes"])
    assert expected <= codes
    assert all(r.valid for r in reports) is (not expected)
    if not expected:
        assert codes == set()


def test_non_strict_mode_drops_warnings(corpus_copies: dict[str, Path]) -> None:
    """Without strict mode a Purpose that is too short is no longer reported (it is a WARNING)."""
    project = corpus_copies["purpose-too-short"]
    assert [r.valid for r in lint_items(project, strict=False)] == [True]
    assert [r.valid for r in lint_items(project, strict=True)] == [False]


def test_issues_name_file_and_line(corpus_copies: dict[str, Path]) -> None:
    """A duplicate requirement is reported at the line of the second header, in its file."""
    project = corpus_copies["duplicate-requirement-names"]
    spec = project / "openspec/specs/alerting/spec.md"
    headers = [
        n
        for n, line in enumerate(spec.read_text(encoding="utf-8").splitlines(), start=1)
        if line.startswith("### Requirement: Alerts SHALL be deduplicated")
    ]
    (report,) = lint_items(project)
    dup = [i for i in report.issues if i.code == "OPENSPEC_DUPLICATE_REQUIREMENT"]
    assert [(i.location.path, i.location.line) for i in dup] == [(spec, headers[1])]
    assert str(dup[0]).startswith(f"{spec}:{headers[1]}: ERROR OPENSPEC_DUPLICATE_REQUIREMENT")
