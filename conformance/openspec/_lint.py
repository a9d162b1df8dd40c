"""``lint_tree``: the official OpenSpec CLI's rules plus the kit's own, as one list of issues."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from conformance.openspec._blocks import REQUIREMENT_HEADER, requirement_blocks
from conformance.openspec._lint_change import lint_archived_change, lint_change_dir
from conformance.openspec._lint_kit import lint_change_files, lint_requirements
from conformance.openspec._lint_spec import lint_spec_source, requirement_titles
from conformance.openspec._model import LintIssue, Location, ParseError
from conformance.openspec._parser import requirements_range, spec_from_source
from conformance.openspec._source import Source
from conformance.openspec._tree import change_dirs, load_change, main_spec_files, openspec_dir

if TYPE_CHECKING:
    from pathlib import Path

ItemKind = Literal["spec", "change", "archived-change"]


@dataclass(frozen=True, slots=True)
class ItemReport:
    """The verdict on one item: a main spec, an active change or an archived change.

    ``kind``/``id`` match the official CLI's ``validate --json`` items (``type``/``id``) for
    specs and active changes. Archived changes get the official CLI's rule for them, that of
    ``validate --archived`` (every task done; ``validate --all`` skips archives and never
    re-checks history against today's specs), plus the kit's own ``KIT_*`` rules.
    ``valid`` is true iff no ERROR (and, in strict mode, no WARNING) is among ``issues``.
    """

    kind: ItemKind
    id: str
    path: Path
    valid: bool
    issues: tuple[LintIssue, ...]


def _unreadable(error: ParseError) -> LintIssue:
    return LintIssue("ERROR", "KIT_UNREADABLE", error.reason, error.location)


def lint_requirement_headers(src: Source) -> list[LintIssue]:
    """Every header under ``## Requirements`` must read ``### Requirement: <name>`` (kit rule).

    The official CLI validates any child header there as a requirement, but its merge path and
    the kit only read ``### Requirement:`` blocks: such a requirement would go untraced. The
    converse too: ``###Requirement: x`` (no blank) is a block for the merge path but no header
    for the CLI's spec reader. Either way the two readers see different requirements.
    """
    issues: list[LintIssue] = []
    titles = requirement_titles(src) or []
    header_lines = {line for _, line in titles}
    span = requirements_range(src)
    blocks = requirement_blocks(src, span[0] + 1, span[1]) if span else []
    issues.extend(
        LintIssue(
            "ERROR",
            "KIT_NOT_A_REQUIREMENT_HEADER",
            f'requirement "{block.name}": write "### Requirement: <name>" (a blank after ###, '
            "at column 0): the CLI's spec reader does not see this header",
            src.location(block.start + 1),
        )
        for block in blocks
        if block.start + 1 not in header_lines
    )
    for title, line in titles:
        if REQUIREMENT_HEADER.match(src.lines[line - 1]) is None:
            issues.append(
                LintIssue(
                    "ERROR",
                    "KIT_NOT_A_REQUIREMENT_HEADER",
                    f'"{title}" sits under ## Requirements but is not a '
                    '"### Requirement: <name>" header',
                    src.location(line),
                )
            )
    return issues


def _spec_item(spec_id: str, path: Path, *, strict: bool, kit: bool) -> list[LintIssue]:
    try:
        src = Source(path)
    except ParseError as exc:
        return [_unreadable(exc)]
    issues = lint_spec_source(src, strict=strict)
    if kit:
        issues += lint_requirement_headers(src)
        issues += lint_requirements(spec_from_source(src).requirements)
    del spec_id
    return issues


def _change_item(  # noqa: PLR0913 - the item and the rule layers that apply to it
    folder: Path,
    specs_root: Path,
    *,
    archived: bool,
    strict: bool,
    kit: bool,
    archived_tasks: bool,
) -> list[LintIssue]:
    try:
        if not archived:
            issues = lint_change_dir(folder, specs_root, strict=strict)
        else:  # history: never re-checked against today's specs (validate --all skips it)
            issues = lint_archived_change(folder) if archived_tasks else []
        change = load_change(folder, archived=archived)
    except ParseError as exc:
        return [_unreadable(exc)]
    if kit:
        issues += lint_change_files(change)
        for delta in change.deltas:
            issues += lint_requirements(
                delta.requirements("ADDED") + delta.requirements("MODIFIED")
            )
    return issues


def lint_items(
    root: Path | str, *, strict: bool = True, kit_rules: bool = True, archived_tasks: bool = False
) -> list[ItemReport]:
    """Lint every item of ``<root>/openspec``: main specs, then active, then archived changes.

    ``kit_rules=False`` applies only the official CLI's rules (the differential tests compare
    those verdicts with ``openspec validate --all --strict --json``). Archived changes get no
    official rule by default, as ``validate --all`` gives them none: their deltas are history,
    merged when they were archived, and are never compared with today's specs.
    ``archived_tasks=True`` adds the rule of ``openspec validate --archived`` (every task of an
    archive done; :func:`~conformance.openspec._lint_change.lint_archived_change`). Never
    raises for a malformed or unreadable spec: that is an issue of its item.
    """
    osdir = openspec_dir(root)
    if not osdir.is_dir():
        issue = LintIssue(
            "ERROR", "KIT_NO_OPENSPEC_DIR", "expected an openspec/ folder", Location(osdir, 0)
        )
        return [ItemReport("spec", "", osdir, valid=False, issues=(issue,))]
    reports: list[ItemReport] = []
    for spec_id, path in main_spec_files(osdir).items():
        found = _spec_item(spec_id, path, strict=strict, kit=kit_rules)
        reports.append(
            ItemReport(
                "spec", spec_id, path, valid=_valid(found, strict=strict), issues=tuple(found)
            )
        )
    for folder, archived in change_dirs(osdir):
        found = _change_item(
            folder,
            osdir / "specs",
            archived=archived,
            strict=strict,
            kit=kit_rules,
            archived_tasks=archived_tasks,
        )
        kind: ItemKind = "archived-change" if archived else "change"
        reports.append(
            ItemReport(
                kind, folder.name, folder, valid=_valid(found, strict=strict), issues=tuple(found)
            )
        )
    return reports


def _valid(issues: list[LintIssue], *, strict: bool) -> bool:
    return not any(i.level == "ERROR" or (strict and i.level == "WARNING") for i in issues)


def lint_tree(root: Path | str, *, strict: bool = True) -> list[LintIssue]:
    """Return every issue of ``<root>/openspec`` under the official rules plus the kit's own.

    Official rules (codes ``OPENSPEC_*``, from ``openspec validate`` 1.13.2): requirement headers
    ``### Requirement:``, SHALL/MUST in the body before the first scenario, at least one
    ``#### Scenario:`` with a body per requirement, Purpose and Requirements sections, Purpose of
    at least 50 characters (strict), no duplicate requirement names, delta sections with
    entries, RENAMED pairs, no conflicts between delta sections, tasks.md checkboxes. Kit rules
    (codes ``KIT_*``): WHEN/THEN bullets parse, every scenario has a WHEN and a THEN and no THEN
    before its first WHEN (``KIT_THEN_BEFORE_WHEN``), non-empty (``KIT_EMPTY_ID``) and unique
    ids, every requirement written ``### Requirement: <name>`` so that the CLI's two readers see
    the same requirements (``KIT_NOT_A_REQUIREMENT_HEADER``), a proposal.md per change. In
    non-strict mode WARNINGs are not reported.

    Never raises on a malformed spec (implements the kit's "spec lint" of ``srdh verify``).
    """
    return [issue for report in lint_items(root, strict=strict) for issue in report.issues]
