"""The official CLI's rules for a change folder (``openspec validate --strict`` on a change).

Mirrors ``Validator.validateChangeDeltaSpecs`` of ``@fission-ai/openspec`` 1.13.2: delta spec
discovery, delta sections and entries, requirement bodies and scenarios, duplicates and conflicts
between sections, scenario loss against the main spec, and the tasks.md checkbox/numbering lint.
Codes start with ``OPENSPEC_``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conformance.openspec._blocks import (
    REQUIREMENT_HEADER,
    Block,
    body_text,
    contains_shall_or_must,
    normalize_name,
    read_requirement,
    requirement_blocks,
)
from conformance.openspec._js import js_regex, js_trim
from conformance.openspec._model import LintIssue, Location, Rename, Severity
from conformance.openspec._parser import renames, requirements_range, top_sections
from conformance.openspec._source import Source

if TYPE_CHECKING:
    from pathlib import Path

_DELTA_TITLES = ("ADDED", "MODIFIED", "REMOVED", "RENAMED")
_TASK_LINE = js_regex(r"^\s*(?:[-*+]|\d{1,9}[.)])\s*\[(?:\s*([^\]\s]?)\s*\](?![(\[])|\s+\])\s*(.*)")
_LIST_ITEM = js_regex(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+\S")
_GROUP_HEADING = js_regex(r"^ {0,3}##(?!#)(?:[ \t]+|[ \t]*$)")
_NUMBERED_GROUP = js_regex(r"^ {0,3}##[ \t]+(\d+)\.(?:[ \t]|$)")
_REMOVED_BULLET = js_regex(r"^\s*[-*+]\s*`?###\s*Requirement:\s*(.+?)`?\s*$")
_CODE_INDENT = 4
_TASK_ID = js_regex(r"^(\d+(?:\.\d+)+(?:[A-Za-z]+)?)(?=\s|$)")
_WHITESPACE_RUN = js_regex(r"\s+")


def discover_delta_specs(specs_dir: Path) -> list[Path]:
    """Return every ``spec.md`` below a capability folder of ``specs_dir`` (any depth), sorted."""
    if not specs_dir.is_dir():
        return []
    return sorted(
        p
        for p in specs_dir.rglob("spec.md")
        if p.is_file()
        and p.parent != specs_dir
        and not any(part.startswith(".") for part in p.relative_to(specs_dir).parts)
    )


def _sections(src: Source) -> dict[str, list[tuple[int, int]]]:
    found: dict[str, list[tuple[int, int]]] = {}
    for title, head, end in top_sections(src):
        for op in _DELTA_TITLES:
            if title.lower() == f"{op} requirements".lower():
                found.setdefault(op, []).append((head, end))
    return found


def _has_delta_section(src: Source) -> bool:
    return bool(_sections(src))


def _fold(name: str) -> str:
    return _WHITESPACE_RUN.sub(" ", normalize_name(name).lower())


@dataclass
class _Scan:
    """What one delta spec declares, for the duplicate and conflict rules."""

    entries: int = 0
    names: dict[str, set[str]] = field(default_factory=lambda: {op: set() for op in _DELTA_TITLES})
    pairs: list[Rename] = field(default_factory=list)
    froms: set[str] = field(default_factory=set)
    tos: set[str] = field(default_factory=set)
    modified: list[tuple[str, list[str], Location]] = field(default_factory=list)


class _Checker:
    def __init__(self, change_dir: Path, specs_root: Path | None, *, strict: bool) -> None:
        self.change_dir = change_dir
        self.specs_root = specs_root
        self.strict = strict
        self.issues: list[LintIssue] = []
        self.total = 0

    def add(self, level: Severity, code: str, message: str, where: Location) -> None:
        if level == "ERROR" or self.strict:
            self.issues.append(LintIssue(level, code, message, where))

    def run(self) -> list[LintIssue]:
        specs_dir = self.change_dir / "specs"
        root_spec = specs_dir / "spec.md"
        if root_spec.is_file():
            self.add(
                "ERROR",
                "OPENSPEC_DELTA_AT_SPECS_ROOT",
                "a delta spec must live under specs/<capability>/spec.md",
                Location(root_spec, 0),
            )
        for path in discover_delta_specs(specs_dir):
            self._delta(Source(path))
        unread = (
            [
                p
                for p in sorted(specs_dir.rglob("*.md"))
                if p.name != "spec.md" and p.is_file() and _has_delta_section(Source(p))
            ]
            if specs_dir.is_dir()
            else []
        )
        for path in unread:
            self.add(
                "ERROR",
                "OPENSPEC_UNREAD_DELTA_FILE",
                "delta sections outside a spec.md are ignored by apply and archive",
                Location(path, 0),
            )
        if self.total == 0 and not root_spec.is_file() and not unread:
            self.add(
                "ERROR",
                "OPENSPEC_NO_DELTAS",
                "change must have at least one delta (## ADDED/MODIFIED/REMOVED/RENAMED sections)",
                Location(self.change_dir, 0),
            )
        self._tasks()
        return self.issues

    def _delta(self, src: Source) -> None:
        """One pass over a delta spec, rule by rule as the CLI does."""
        sections = _sections(src)
        scan = _Scan()
        for op in ("ADDED", "MODIFIED"):
            for head, end in sections.get(op, []):
                for block in requirement_blocks(src, head + 1, end):
                    self._requirement(src, op, block, scan)
        for head, end in sections.get("REMOVED", []):
            self._removed(src, head + 1, end, scan)
        for head, end in sections.get("RENAMED", []):
            self._renamed(src, head + 1, end, scan)
        self.total += scan.entries
        self._scenario_loss(src, scan)
        self._conflicts(src, scan)
        self._orphans(src, sections)
        if scan.entries == 0:
            here = Location(src.path, 0)
            if sections:
                msg = "delta sections were found but no requirement entries parsed"
                self.add("ERROR", "OPENSPEC_EMPTY_DELTA_SECTIONS", msg, here)
            else:
                msg = 'no delta sections found; add "## ADDED Requirements" (or MODIFIED/…)'
                self.add("ERROR", "OPENSPEC_NO_DELTA_SECTIONS", msg, here)

    def _requirement(self, src: Source, op: str, block: Block, scan: _Scan) -> None:
        scan.entries += 1
        where = src.location(block.start + 1)
        label = f'{op} "{block.name}"'
        if block.name in scan.names[op]:
            self.add("ERROR", "OPENSPEC_DUPLICATE_REQUIREMENT", f"duplicate {label}", where)
        scan.names[op].add(block.name)
        text = body_text(src, block.start + 1, block.end)
        if not text:
            msg = f"{label} has no requirement text (it must state SHALL or MUST)"
            self.add("ERROR", "OPENSPEC_NO_BODY", msg, where)
        elif not contains_shall_or_must(text):
            msg = f"{label} should contain SHALL or MUST in its body"
            self.add("WARNING", "OPENSPEC_NO_SHALL_OR_MUST", msg, where)
        req = read_requirement(src, block)
        if not any(s.has_body for s in req.scenarios):
            msg = f"{label} must include at least one scenario with a body"
            self.add("ERROR", "OPENSPEC_NO_SCENARIO", msg, where)
        if op == "MODIFIED":
            scan.modified.append((block.name, [s.name for s in req.scenarios], where))

    def _removed(self, src: Source, start: int, end: int, scan: _Scan) -> None:
        for i in range(start, end):
            if src.fenced[i]:
                continue
            m = REQUIREMENT_HEADER.match(src.lines[i]) or _REMOVED_BULLET.match(src.lines[i])
            if m is None:
                continue
            scan.entries += 1
            name = normalize_name(m.group(1))
            if name in scan.names["REMOVED"]:
                msg = f'duplicate REMOVED "{name}"'
                self.add("ERROR", "OPENSPEC_DUPLICATE_REQUIREMENT", msg, src.location(i + 1))
            scan.names["REMOVED"].add(name)

    def _renamed(self, src: Source, start: int, end: int, scan: _Scan) -> None:
        found, unpaired = renames(src, start, end)
        for side, name, line in unpaired:
            other = "TO" if side == "FROM" else "FROM"
            msg = f'RENAMED {side}: "{name}" has no matching {other}: line'
            self.add("ERROR", "OPENSPEC_UNPAIRED_RENAME", msg, src.location(line))
        for pair in found:
            scan.entries += 1
            scan.pairs.append(pair)
            if pair.from_name in scan.froms:
                msg = f'duplicate FROM in RENAMED: "{pair.from_name}"'
                self.add("ERROR", "OPENSPEC_DUPLICATE_RENAME", msg, pair.location)
            if pair.to_name in scan.tos:
                msg = f'duplicate TO in RENAMED: "{pair.to_name}"'
                self.add("ERROR", "OPENSPEC_DUPLICATE_RENAME", msg, pair.location)
            scan.froms.add(pair.from_name)
            scan.tos.add(pair.to_name)

    def _conflicts(self, src: Source, scan: _Scan) -> None:
        names = scan.names
        for a, b in (("MODIFIED", "REMOVED"), ("MODIFIED", "ADDED"), ("ADDED", "REMOVED")):
            for name in sorted(names[a] & names[b]):
                msg = f'requirement "{name}" is in both {a} and {b}'
                self.add("ERROR", "OPENSPEC_SECTION_CONFLICT", msg, Location(src.path, 0))
        folded_removed = {_fold(n) for n in names["REMOVED"]}
        for pair in scan.pairs:
            clashes = (
                (pair.from_name in names["MODIFIED"], "MODIFIED uses the old name of a RENAMED"),
                (pair.to_name in names["ADDED"], "RENAMED TO collides with ADDED"),
                (_fold(pair.from_name) in folded_removed, "requirement both RENAMED and REMOVED"),
            )
            for clash, what in clashes:
                if clash:
                    msg = f'{what}: "{pair.from_name}" -> "{pair.to_name}"'
                    self.add("ERROR", "OPENSPEC_SECTION_CONFLICT", msg, pair.location)

    def _orphans(self, src: Source, sections: dict[str, list[tuple[int, int]]]) -> None:
        inside = {i for spans in sections.values() for head, end in spans for i in range(head, end)}
        for i, line in enumerate(src.lines):
            if i in inside or src.fenced[i]:
                continue
            if m := REQUIREMENT_HEADER.match(line):
                self.add(
                    "WARNING",
                    "OPENSPEC_ORPHAN_REQUIREMENT",
                    f'"{normalize_name(m.group(1))}" is outside every delta section (ignored)',
                    src.location(i + 1),
                )

    def _scenario_loss(self, src: Source, scan: _Scan) -> None:
        """MODIFIED blocks must keep every scenario of the current main-spec block (CLI rule).

        As ``Validator.findScenarioLossIssues``: the current block of a name is the last one of
        that name in the main spec; a MODIFIED naming a RENAMED target is compared with the
        renamed block (renames chain); a MODIFIED naming a name the delta renames away is skipped.
        """
        if self.specs_root is None or not scan.modified:
            return
        main = self.specs_root / src.path.parent.relative_to(self.change_dir / "specs") / "spec.md"
        if not main.is_file():
            return
        msrc = Source(main)
        span = requirements_range(msrc)
        current = {
            block.name: block
            for block in (requirement_blocks(msrc, span[0] + 1, span[1]) if span else [])
        }
        renamed_from = {pair.to_name: pair.from_name for pair in scan.pairs}
        renamed_away = {pair.from_name for pair in scan.pairs}
        for name, incoming, where in scan.modified:
            if name in renamed_away:
                continue
            block = _current_block(current, renamed_from, name)
            if block is None:
                continue
            have = Counter(s.name for s in read_requirement(msrc, block).scenarios)
            missing = sorted((have - Counter(incoming)).elements())
            if missing:
                self.add(
                    "ERROR",
                    "OPENSPEC_SCENARIO_LOSS",
                    f'MODIFIED "{name}" omits current scenario(s): {", ".join(missing)}',
                    where,
                )

    def _tasks(self) -> None:
        path = self.change_dir / "tasks.md"
        if not path.is_file():
            return
        lines = Source(path).lines
        if not any(_TASK_LINE.match(ln) for ln in lines):
            first = next((i for i, ln in enumerate(lines) if _is_list_item(ln)), None)
            if first is not None:
                msg = 'no task line is a checkbox; write tasks as "- [ ] 1.1 Description"'
                self.add(
                    "WARNING", "OPENSPEC_TASKS_WITHOUT_CHECKBOX", msg, Location(path, first + 1)
                )
        if any(_NUMBERED_GROUP.match(ln) for ln in lines):
            self._task_numbers(path, lines)

    def _task_numbers(self, path: Path, lines: list[str]) -> None:
        group: str | None = None
        seen: dict[str, int] = {}
        for i, ln in enumerate(lines):
            if _GROUP_HEADING.match(ln):
                m = _NUMBERED_GROUP.match(ln)
                group = m.group(1) if m else None
            task = _TASK_LINE.match(ln)
            tid = _TASK_ID.match(js_trim(task.group(2))) if task else None
            if group is None or tid is None:
                continue
            task_id = tid.group(1)
            where = Location(path, i + 1)
            if task_id.split(".")[0].lstrip("0") != group.lstrip("0"):
                msg = f'task "{task_id}" is under group {group}'
                self.add("WARNING", "OPENSPEC_TASK_GROUP_MISMATCH", msg, where)
            if task_id in seen:
                msg = f'task id "{task_id}" repeats line {seen[task_id]}'
                self.add("WARNING", "OPENSPEC_DUPLICATE_TASK_ID", msg, where)
            seen.setdefault(task_id, i + 1)


def _current_block(
    current: dict[str, Block], renamed_from: dict[str, str], name: str
) -> Block | None:
    """Follow RENAMED TO -> FROM links from ``name`` to a current block (cycles stop)."""
    seen: set[str] = set()
    key: str | None = name
    while key is not None and key not in seen:
        if key in current:
            return current[key]
        seen.add(key)
        key = renamed_from.get(key)
    return None


def _is_list_item(line: str) -> bool:
    """A list item that is not an indented code block (the CLI's checkbox lint)."""
    return bool(_LIST_ITEM.match(line)) and len(line) - len(line.lstrip(" ")) < _CODE_INDENT


def lint_change_dir(change_dir: Path, specs_root: Path | None, *, strict: bool) -> list[LintIssue]:
    """Apply the official change rules to ``change_dir``; WARNINGs only when ``strict``.

    ``specs_root`` (``openspec/specs``) enables the MODIFIED scenario-loss check.
    """
    return _Checker(change_dir, specs_root, strict=strict).run()


def lint_archived_change(change_dir: Path) -> list[LintIssue]:
    """The official CLI's rule for an archived change (``openspec validate --archived``).

    ``validate --all`` skips ``changes/archive/`` entirely: an archive is history, its deltas
    already merged, so it is never re-checked against today's specs (a MODIFIED block that a
    later change extended, a requirement since removed...). The one check the CLI makes of an
    archive is ``validate --archived``'s (``runArchivedTaskValidation``, 1.13.2): every task of
    its tracked tasks file (``tasks.md`` for the ``spec-driven`` schema) is done. A task line is
    the CLI's (``TASK_LINE_PATTERN``; any marker but ``x``/``X`` is not done); an absent file
    has no tasks; a file that exists but cannot be read is an error.
    """
    path = change_dir / "tasks.md"
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    except OSError:
        msg = "could not read task file"
        return [LintIssue("ERROR", "OPENSPEC_ARCHIVED_TASKS_UNREADABLE", msg, Location(path, 0))]
    marks = [m.group(1) or "" for line in text.split("\n") if (m := _TASK_LINE.match(line))]
    done = sum(1 for mark in marks if mark.lower() == "x")
    open_tasks = len(marks) - done
    if open_tasks <= 0:
        return []
    plural = "" if open_tasks == 1 else "s"
    msg = f"{open_tasks} incomplete task{plural} ({done}/{len(marks)} completed)"
    return [LintIssue("ERROR", "OPENSPEC_ARCHIVED_TASKS_INCOMPLETE", msg, Location(path, 0))]
