"""Field faults F1, F2 and F13 (issue 11): fences as the official CLI finds them, ids in any
script, and a THEN before its WHEN flagged with file:line.

The corpus cases ``fence-in-list-item``, ``nonlatin-names``, ``then-before-when`` and
``emoji-only-name`` are also judged against the official CLI by ``test_openspec_differential``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.openspec import lint_items, load_tree

CORPUS = Path(__file__).parent / "corpus"


def _copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(CORPUS / name, tmp_path / name))


def _line_of(path: Path, prefix: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if line.startswith(prefix))


def test_f1_fence_in_list_item_hides_its_requirement_header(tmp_path: Path) -> None:
    """A fence opened inside a bullet masks the ``### Requirement:`` it holds (CLI rule)."""
    project = _copy("fence-in-list-item", tmp_path)
    spec = load_tree(project).specs["alerting"]
    assert [r.name for r in spec.requirements] == [
        "Alerts SHALL be deduplicated",
        "Silences SHALL be honoured",
    ]
    assert [len(r.scenarios) for r in spec.requirements] == [1, 1]
    steps = [s.keyword for s in spec.requirements[0].scenarios[0].steps]
    assert steps == ["WHEN", "THEN", "AND"]
    (report,) = lint_items(project)
    assert report.valid
    assert report.issues == ()


@pytest.mark.parametrize(
    ("lines", "fenced"),
    [
        (["  ```md", "### x", "  ```", "y"], [True, True, True, False]),
        (["    ~~~~", "```", "~~~", "~~~~  ", "z"], [True, True, True, True, False]),
        (["```", "``` not a closer", "text"], [True, True, True]),
        (["- ```js", "```"], [False, True]),
        (["\u3000```", "# h", "```\u00a0"], [True, True, True]),
        (["\u0085```", "# h"], [False, False]),
    ],
)
def test_fence_mask_is_the_cli_rule(lines: list[str], fenced: list[bool]) -> None:
    """Any indentation opens a fence; only the same character, as long or longer, closes it.

    JavaScript white space counts (U+3000, NBSP) and Python-only white space (U+0085) does not.
    """
    from conformance.openspec._source import code_fence_mask  # noqa: PLC0415 - internal

    assert code_fence_mask(lines) == fenced


def test_f2_nonlatin_names_get_distinct_ids(tmp_path: Path) -> None:
    """Chinese requirement and scenario names give non-empty, distinct ids; lint is clean."""
    project = _copy("nonlatin-names", tmp_path)
    requirements = load_tree(project).specs["alerting"].requirements
    ids = [r.id for r in requirements]
    assert ids == ["告警去重", "静默到期"]
    scenario_ids = [s.id for r in requirements for s in r.scenarios]
    assert all(scenario_ids)
    assert len(set(scenario_ids)) == len(scenario_ids)
    result = CliRunner().invoke(app, ["spec", "show", str(project), "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)["specs"]["alerting"]["requirements"]
    assert [r["id"] for r in shown] == ids
    lint = CliRunner().invoke(app, ["spec", "lint", str(project)])
    assert lint.exit_code == 0, lint.output


def test_a_name_without_letters_is_one_clear_error(tmp_path: Path) -> None:
    """A requirement named only with symbols is KIT_EMPTY_ID at its header line."""
    project = _copy("emoji-only-name", tmp_path)
    spec = project / "openspec/specs/alerting/spec.md"
    (report,) = lint_items(project)
    assert [(i.code, i.location.line) for i in report.issues] == [
        ("KIT_EMPTY_ID", _line_of(spec, "### Requirement:"))
    ]
    assert "needs at least one letter or digit" in report.issues[0].message


def test_two_scripts_folding_to_one_id_are_a_duplicate(tmp_path: Path) -> None:
    """Names that differ only by width or accents share an id: a duplicate, naming the line."""
    project = _copy("nonlatin-names", tmp_path)
    spec = project / "openspec/specs/alerting/spec.md"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace("告警去重\n", "\uff21lert dedup\n", 1).replace(
            "静默到期\n", "Alert dedup\n", 1
        ),
        encoding="utf-8",
    )
    (report,) = lint_items(project)
    codes = [(i.code, i.location.line) for i in report.issues]
    assert codes == [("KIT_DUPLICATE_REQUIREMENT_ID", _line_of(spec, "### Requirement: Alert"))]
    first = _line_of(spec, "### Requirement: \uff21lert")
    assert f"line {first}" in report.issues[0].message


def test_f13_then_before_when_is_flagged_with_file_and_line(tmp_path: Path) -> None:
    """``srdh spec lint`` names the THEN bullet that precedes its WHEN, as path:line."""
    project = _copy("then-before-when", tmp_path)
    spec = project / "openspec/specs/alerting/spec.md"
    line = _line_of(spec, "- **THEN**")
    result = CliRunner().invoke(app, ["spec", "lint", str(project)])
    assert result.exit_code == 1
    assert f"{spec}:{line}: ERROR KIT_THEN_BEFORE_WHEN" in result.stdout


def test_then_after_when_and_and_steps_are_not_flagged(tmp_path: Path) -> None:
    """WHEN, AND, THEN, AND, WHEN, THEN is a valid order (several condition/outcome pairs)."""
    project = _copy("then-before-when", tmp_path)
    spec = project / "openspec/specs/alerting/spec.md"
    text = spec.read_text(encoding="utf-8")
    head = text[: text.index("- **THEN**")]
    spec.write_text(
        head + "- **WHEN** a\n- **AND** b\n- **THEN** c\n- **AND** d\n- **WHEN** e\n- **THEN** f\n",
        encoding="utf-8",
    )
    (report,) = lint_items(project)
    assert report.issues == ()
