"""The parser reads requirements, scenarios and steps with their names, ids, levels and lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from conformance.openspec import (
    Location,
    ParseError,
    lint_items,
    load_tree,
    parse_delta,
    parse_spec,
    slugify,
)

if TYPE_CHECKING:
    from pathlib import Path

SPEC = """# demo Specification

## Purpose

A demo capability used to prove that the parser reads every part of a spec.

## Requirements

### Requirement: Alerts SHALL be deduplicated

The service SHOULD batch alerts and MUST collapse identical ones.

#### Scenario: Two identical alerts arrive

- **GIVEN** a receiver
- **WHEN** two identical alerts arrive
  within a minute
- **THEN** one notification is sent
- **AND** the duplicate is counted
  - a nested detail is part of its step, not a step
- THEN an unbolded bullet

### Requirement: Optional digest

Operators MAY ask for a daily digest.

#### Scenario: Digest requested

- **WHEN** an operator asks for the digest
- **THEN** it is sent once a day

```
#### Scenario: fenced, not a scenario
- **WHEN** fenced
```
"""


def _write(tmp_path: Path, rel: str, text: str) -> Path:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(needle))


def test_spec_structure_and_lines(tmp_path: Path) -> None:
    """Names, ids, levels, steps and 1-based lines come out as written in the file."""
    path = _write(tmp_path, "openspec/specs/demo/spec.md", SPEC)
    spec = parse_spec(path)
    assert spec.capability == "demo"
    assert spec.purpose.startswith("A demo capability")
    first, second = spec.requirements
    assert first.name == "Alerts SHALL be deduplicated"
    assert first.id == "alerts-shall-be-deduplicated"
    assert first.level == "MUST"
    assert second.level == "MAY"
    assert first.location == Location(path, _line_of(SPEC, "### Requirement: Alerts"))
    (scenario,) = first.scenarios
    assert scenario.id == "two-identical-alerts-arrive"
    assert scenario.location.line == _line_of(SPEC, "#### Scenario: Two identical")
    assert [(s.keyword, s.text) for s in scenario.steps] == [
        ("GIVEN", "a receiver"),
        ("WHEN", "two identical alerts arrive within a minute"),
        ("THEN", "one notification is sent"),
        ("AND", "the duplicate is counted"),
    ]
    assert [s.location.line for s in scenario.steps] == [
        _line_of(SPEC, "- **GIVEN**"),
        _line_of(SPEC, "- **WHEN** two"),
        _line_of(SPEC, "- **THEN** one"),
        _line_of(SPEC, "- **AND**"),
    ]
    assert scenario.unparsed_bullets == (
        ("THEN an unbolded bullet", Location(path, _line_of(SPEC, "- THEN an"))),
    )
    assert [s.name for s in second.scenarios] == ["Digest requested"]


def test_unbolded_bullet_is_a_lint_error_at_its_line(tmp_path: Path) -> None:
    """The unparsed bullet and the MAY-only requirement are reported at their lines."""
    path = _write(tmp_path, "openspec/specs/demo/spec.md", SPEC)
    (report,) = lint_items(tmp_path)
    found = {(i.code, i.location) for i in report.issues}
    assert found == {
        ("KIT_STEP_UNPARSED", Location(path, _line_of(SPEC, "- THEN an"))),
        ("OPENSPEC_NO_SHALL_OR_MUST", Location(path, _line_of(SPEC, "### Requirement: Optional"))),
    }


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("No-evidence result is cited", "no-evidence-result-is-cited"),
        ("SemanticGuard returns an invalid schema", "semanticguard-returns-an-invalid-schema"),
        ("DIAGNOSIS + SUCCESS  run", "diagnosis-success-run"),
        ("Café: résumé", "cafe-resume"),
        ("\uff26\uff55\uff4c\uff4c \uff57\uff49\uff44\uff54\uff48", "full-width"),
        ("告警去重", "告警去重"),
        ("静默 到期!", "静默-到期"),
        ("がか", "がか"),
        ("Hindi हिन्दी", "hindi-हिन्दी"),
        ("  --  ", ""),
        ("🚨 🔕", ""),
    ],
)
def test_slugify(name: str, slug: str) -> None:
    """Slugs are lower-case words of any script joined by single dashes; Latin accents fold."""
    assert slugify(name) == slug


def test_delta_sections(tmp_path: Path) -> None:
    """A delta's four kinds of section are read in file order with their entries."""
    text = (
        "## MODIFIED Requirements\n\n### Requirement: A\n\nIt SHALL a.\n\n#### Scenario: s\n\n"
        "- **WHEN** w\n- **THEN** t\n\n## REMOVED Requirements\n\n### Requirement: B\n\n"
        "## RENAMED Requirements\n\n- FROM: `### Requirement: C`\n- TO: `### Requirement: D`\n"
    )
    path = _write(tmp_path, "openspec/changes/x/specs/cap/spec.md", text)
    delta = parse_delta(path)
    assert delta.capability == "cap"
    assert [s.operation for s in delta.sections] == ["MODIFIED", "REMOVED", "RENAMED"]
    assert [r.name for r in delta.requirements("MODIFIED")] == ["A"]
    assert delta.sections[1].removed == ("B",)
    assert [(r.from_name, r.to_name) for r in delta.sections[2].renames] == [("C", "D")]
    assert delta.sections[2].location.line == _line_of(text, "## RENAMED")


def test_load_tree_reads_active_and_archived(tmp_path: Path) -> None:
    """Active and archived changes are found, with archive date and change id split."""
    _write(tmp_path, "openspec/specs/demo/spec.md", SPEC)
    _write(tmp_path, "openspec/changes/add-x/proposal.md", "## Why\n")
    _write(tmp_path, "openspec/changes/archive/2026-01-02-old-x/design.md", "# d\n")
    tree = load_tree(tmp_path)
    assert list(tree.specs) == ["demo"]
    assert [(c.id, c.archived, c.archive_date) for c in tree.changes] == [
        ("add-x", False, None),
        ("old-x", True, "2026-01-02"),
    ]
    assert tree.active_changes[0].proposal == tmp_path / "openspec/changes/add-x/proposal.md"
    assert tree.archived_changes[0].proposal is None


def test_missing_file_raises_parse_error(tmp_path: Path) -> None:
    """Reading a missing spec raises ParseError naming the file."""
    missing = tmp_path / "nope.md"
    with pytest.raises(ParseError) as caught:
        parse_spec(missing)
    assert caught.value.location == Location(missing, 0)
    assert str(missing) in str(caught.value)


def test_bad_utf8_raises_parse_error_with_line(tmp_path: Path) -> None:
    """A byte that is not UTF-8 is reported with the line it is on."""
    path = tmp_path / "spec.md"
    path.write_bytes(b"# t\n\n## Purpose\n\xff bad\n")
    with pytest.raises(ParseError) as caught:
        parse_spec(path)
    assert caught.value.location == Location(path, 4)
    assert "UTF-8" in caught.value.reason


def test_linter_reports_unreadable_spec_instead_of_raising(tmp_path: Path) -> None:
    """lint_items turns an undecodable spec into one KIT_UNREADABLE issue of its item."""
    path = tmp_path / "openspec/specs/demo/spec.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"## Purpose\n\xfe\n")
    (report,) = lint_items(tmp_path)
    assert not report.valid
    assert [(i.code, i.location) for i in report.issues] == [("KIT_UNREADABLE", Location(path, 2))]


def test_linter_without_openspec_folder(tmp_path: Path) -> None:
    """A root without openspec/ is one ERROR, not an exception."""
    (report,) = lint_items(tmp_path)
    assert [i.code for i in report.issues] == ["KIT_NO_OPENSPEC_DIR"]
    with pytest.raises(ParseError):
        load_tree(tmp_path)
