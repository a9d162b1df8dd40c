"""Parse OpenSpec main specs and change delta specs into the value types of ``_model``."""

from __future__ import annotations

from pathlib import Path

from conformance.openspec._blocks import (
    REQUIREMENT_HEADER,
    normalize_name,
    read_requirement,
    requirement_blocks,
)
from conformance.openspec._js import js_regex, js_trim
from conformance.openspec._model import (
    DeltaDocument,
    DeltaSection,
    Operation,
    Rename,
    SpecDocument,
)
from conformance.openspec._source import Source

_REQUIREMENTS = js_regex(r"^##\s+Requirements\s*$", ignore_case=True)
_TOP_SECTION = js_regex(r"^(##)\s+(.+)$")
_SECTION_START = js_regex(r"^##\s+")
_REMOVED_BULLET = js_regex(r"^\s*[-*+]\s*`?###\s*Requirement:\s*(.+?)`?\s*$")
_FROM = js_regex(r"^\s*[-*+]?\s*FROM:\s*`?###\s*Requirement:\s*(.+?)`?\s*$")
_TO = js_regex(r"^\s*[-*+]?\s*TO:\s*`?###\s*Requirement:\s*(.+?)`?\s*$")


def capability_of(path: Path) -> str:
    """Return the capability of a ``…/specs/<capability>/spec.md`` path (nested: ``a/b``)."""
    parts = path.parts
    if "specs" in parts:
        last = len(parts) - 1 - parts[::-1].index("specs")
        return "/".join(parts[last + 1 : -1]) or path.parent.name
    return path.parent.name


def section_content(src: Source, title: str) -> str | None:
    """Return the trimmed text under the first header titled ``title`` (any level), or ``None``.

    The text runs to the next header of the same or a higher level, as the CLI reads it.
    """
    for i in range(len(src.lines)):
        header = src.header(i)
        if header is None or header.title.lower() != title.lower():
            continue
        j = i + 1
        while j < len(src.lines):
            level = src.boundary_level(j)
            if level is not None and level <= header.level:
                break
            j += 1
        return js_trim("\n".join(src.lines[i + 1 : j]))
    return None


def requirements_range(src: Source) -> tuple[int, int] | None:
    """Return 0-based ``(header, end)`` of the ``## Requirements`` section, or ``None``."""
    lines = src.lines
    head = next(
        (i for i, ln in enumerate(lines) if not src.fenced[i] and _REQUIREMENTS.match(ln)), None
    )
    if head is None:
        return None
    end = next(
        (
            j
            for j in range(head + 1, len(lines))
            if not src.fenced[j] and _SECTION_START.match(lines[j])
        ),
        len(lines),
    )
    return head, end


def spec_from_source(src: Source) -> SpecDocument:
    """Build a :class:`SpecDocument` from an already read source."""
    title = next(
        (h.title for i in range(len(src.lines)) if (h := src.header(i)) and h.level == 1), ""
    )
    span = requirements_range(src)
    blocks = requirement_blocks(src, span[0] + 1, span[1]) if span else []
    return SpecDocument(
        path=src.path,
        capability=capability_of(src.path),
        title=title,
        purpose=section_content(src, "Purpose") or "",
        requirements=tuple(read_requirement(src, b) for b in blocks),
    )


def parse_spec(path: Path | str) -> SpecDocument:
    """Parse a main spec ``openspec/specs/<capability>/spec.md``.

    A malformed spec still parses (missing sections give ``""``/``()``); judging it is
    :func:`lint_tree`'s job.

    Raises:
        ParseError: the file cannot be read or is not UTF-8.
    """
    return spec_from_source(Source(Path(path)))


def top_sections(src: Source) -> list[tuple[str, int, int]]:
    """Return ``(title, header, end)`` for every ``## `` section (0-based lines, end exclusive)."""
    heads = [
        (js_trim(m.group(2)), i)
        for i, ln in enumerate(src.lines)
        if not src.fenced[i] and (m := _TOP_SECTION.match(ln))
    ]
    ends = [i for _, i in heads[1:]] + ([len(src.lines)] if heads else [])
    return [(title, i, end) for (title, i), end in zip(heads, ends, strict=True)]


def _removed(src: Source, start: int, end: int) -> tuple[str, ...]:
    names: list[str] = []
    for i in range(start, end):
        if src.fenced[i]:
            continue
        match = REQUIREMENT_HEADER.match(src.lines[i]) or _REMOVED_BULLET.match(src.lines[i])
        if match:
            names.append(normalize_name(match.group(1)))
    return tuple(names)


def renames(src: Source, start: int, end: int) -> tuple[list[Rename], list[tuple[str, str, int]]]:
    """Return the FROM/TO pairs in ``[start, end)`` and the unpaired ``(side, name, line)``."""
    pairs: list[Rename] = []
    unpaired: list[tuple[str, str, int]] = []
    pending: tuple[str, int] | None = None
    for i in range(start, end):
        if src.fenced[i]:
            continue
        if m := _FROM.match(src.lines[i]):
            if pending:
                unpaired.append(("FROM", *pending))
            pending = (normalize_name(m.group(1)), i + 1)
        elif m := _TO.match(src.lines[i]):
            if pending is None:
                unpaired.append(("TO", normalize_name(m.group(1)), i + 1))
                continue
            pairs.append(Rename(pending[0], normalize_name(m.group(1)), src.location(pending[1])))
            pending = None
    if pending:
        unpaired.append(("FROM", *pending))
    return pairs, unpaired


def delta_from_source(src: Source) -> DeltaDocument:
    """Build a :class:`DeltaDocument` from an already read source."""
    sections: list[DeltaSection] = []
    for title, head, end in top_sections(src):
        op = _DELTA_TITLES.get(title.lower())
        if op is None:
            continue
        where = src.location(head + 1)
        if op in {"ADDED", "MODIFIED"}:
            reqs = tuple(read_requirement(src, b) for b in requirement_blocks(src, head + 1, end))
            sections.append(DeltaSection(operation=op, location=where, requirements=reqs))
        elif op == "REMOVED":
            sections.append(
                DeltaSection(operation=op, location=where, removed=_removed(src, head + 1, end))
            )
        else:
            pairs, _ = renames(src, head + 1, end)
            sections.append(DeltaSection(operation=op, location=where, renames=tuple(pairs)))
    return DeltaDocument(
        path=src.path, capability=capability_of(src.path), sections=tuple(sections)
    )


_DELTA_TITLES: dict[str, Operation] = {
    "added requirements": "ADDED",
    "modified requirements": "MODIFIED",
    "removed requirements": "REMOVED",
    "renamed requirements": "RENAMED",
}
"""A ``## `` title, lower-cased, that opens a delta section (the CLI compares it this way)."""


def parse_delta(path: Path | str) -> DeltaDocument:
    """Parse a change's delta spec ``…/specs/<capability>/spec.md`` (sections in file order).

    Raises:
        ParseError: the file cannot be read or is not UTF-8.
    """
    return delta_from_source(Source(Path(path)))
