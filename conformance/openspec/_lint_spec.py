"""The official CLI's rules for a main spec (``openspec validate --strict`` on ``specs/<id>``).

Each rule mirrors ``Validator.validateSpec`` of ``@fission-ai/openspec`` 1.13.2; codes start with
``OPENSPEC_``. The CLI stops at a missing Purpose or Requirements section, and so does this.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conformance.openspec._blocks import (
    body_text,
    contains_shall_or_must,
    normalize_name,
    requirement_blocks,
)
from conformance.openspec._js import js_length, js_regex, js_trim
from conformance.openspec._model import LintIssue, Location
from conformance.openspec._parser import requirements_range, section_content
from conformance.openspec._source import code_fence_mask

if TYPE_CHECKING:
    from conformance.openspec._source import Source

MIN_PURPOSE_LENGTH = 50
"""Strict mode wants a Purpose of at least this many characters (CLI ``MIN_PURPOSE_LENGTH``)."""

_DELTA_HEADER = js_regex(
    r"^##\s+(ADDED|MODIFIED|REMOVED|RENAMED)\s+Requirements\s*$", ignore_case=True
)
# The structure check of the CLI wants a blank after ``###``; the block reader does not.
_STRUCTURE_REQUIREMENT = js_regex(r"^###\s+Requirement:\s*(.+)\s*$", ignore_case=True)
_PLACEHOLDER_PREFIX = "TBD - created by archiving change "
_PLACEHOLDER_SUFFIX = ". Update Purpose after archive."
_MARKER = re.compile(r"^(?:TBD|TODO)", re.IGNORECASE | re.ASCII)
_MARKER_PUNCTUATION = re.compile(r"[ \t]*(?:\Z|\n|[:\-\u2013\u2014.,;()\[\]{}])")


@dataclass
class _Node:
    level: int
    title: str
    line: int
    content: str
    children: list[_Node] = field(default_factory=list)


def _tree(src: Source) -> list[_Node]:
    """The CLI's section tree: every header nests under the nearest shallower one."""
    roots: list[_Node] = []
    stack: list[_Node] = []
    n = len(src.lines)
    for i in range(n):
        header = src.header(i)
        if header is None:
            continue
        j = i + 1
        while j < n and ((level := src.boundary_level(j)) is None or level > header.level):
            j += 1
        node = _Node(header.level, header.title, i + 1, js_trim("\n".join(src.lines[i + 1 : j])))
        while stack and stack[-1].level >= header.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def _find(nodes: list[_Node], title: str) -> _Node | None:
    for node in nodes:
        if node.title.lower() == title.lower():
            return node
        if (found := _find(node.children, title)) is not None:
            return found
    return None


def _word_ends(text: str, at: int) -> bool:
    r"""The CLI's ``(?![\p{L}\p{N}\p{M}_])`` at ``at``: no letter, number, mark or ``_`` next."""
    if at >= len(text):
        return True
    char = text[at]
    return char != "_" and unicodedata.category(char)[0] not in "LNM"


def _is_placeholder(purpose: str) -> bool:
    lines = purpose.split("\n")
    prose = js_trim(
        "\n".join(ln for ln, f in zip(lines, code_fence_mask(lines), strict=True) if not f)
    )
    marker = _MARKER.match(prose)
    if marker is not None and _word_ends(prose, marker.end()):
        shouted = marker.group(0) in {"TBD", "TODO"}
        if shouted or _MARKER_PUNCTUATION.match(prose, marker.end()):
            return True
    at = prose.find(_PLACEHOLDER_SUFFIX)
    return at != -1 and prose.rfind(_PLACEHOLDER_PREFIX, 0, at) != -1


def requirement_titles(src: Source) -> list[tuple[str, int]] | None:
    """The CLI's spec-path requirements: ``(title, line)`` of each header under ``## Requirements``.

    ``openspec show``/``list`` count these (any child header, ``### Requirement:`` or not);
    :func:`~conformance.openspec.parse_spec` keeps only ``### Requirement:`` blocks, and the kit
    reports every other child header (``KIT_NOT_A_REQUIREMENT_HEADER``). ``None`` when the CLI
    cannot parse the spec (no non-empty Purpose, or no Requirements section).
    """
    tree = _tree(src)
    purpose = _find(tree, "Purpose")
    node = _find(tree, "Requirements")
    if purpose is None or not purpose.content or node is None:
        return None
    return [(child.title, child.line) for child in node.children]


def lint_spec_source(src: Source, *, strict: bool) -> list[LintIssue]:
    """Apply the official main-spec rules to ``src``; WARNINGs are emitted only when ``strict``."""
    found: list[LintIssue] = []
    tree = _tree(src)
    purpose_node = _find(tree, "Purpose")
    requirements_node = _find(tree, "Requirements")
    if purpose_node is None or not purpose_node.content:
        msg = 'spec must have a non-empty "## Purpose" section'
        found.append(LintIssue("ERROR", "OPENSPEC_NO_PURPOSE", msg, Location(src.path, 0)))
    elif requirements_node is None:
        msg = 'spec must have a "## Requirements" section'
        found.append(LintIssue("ERROR", "OPENSPEC_NO_REQUIREMENTS_SECTION", msg, src.location(0)))
    else:
        found += _requirement_nodes(src, requirements_node)
        found += _structure(src)
        found += _purpose(src, purpose_node.line)
        found += _bodies(src)
    return [i for i in found if strict or i.level == "ERROR"]


def _requirement_nodes(src: Source, section: _Node) -> list[LintIssue]:
    """Every header under ``## Requirements`` is a requirement needing a scenario with a body."""
    issues: list[LintIssue] = []
    if not section.children:
        msg = "spec must have at least one requirement"
        issues.append(
            LintIssue("ERROR", "OPENSPEC_NO_REQUIREMENTS", msg, src.location(section.line))
        )
    for child in section.children:
        if not any(s.content for s in child.children):
            msg = f'requirement "{child.title}" must have at least one scenario with a body'
            issues.append(LintIssue("ERROR", "OPENSPEC_NO_SCENARIO", msg, src.location(child.line)))
    return issues


def _purpose(src: Source, line: int) -> list[LintIssue]:
    purpose = section_content(src, "Purpose") or ""
    where = src.location(line)
    if _is_placeholder(purpose):
        msg = "Purpose is still a placeholder (TBD/TODO)"
        return [LintIssue("WARNING", "OPENSPEC_PURPOSE_PLACEHOLDER", msg, where)]
    if js_length(purpose) < MIN_PURPOSE_LENGTH:
        msg = f"Purpose has {js_length(purpose)} characters; strict wants {MIN_PURPOSE_LENGTH}"
        return [LintIssue("WARNING", "OPENSPEC_PURPOSE_TOO_SHORT", msg, where)]
    return []


def _bodies(src: Source) -> list[LintIssue]:
    """Each ``### Requirement:`` body must exist and should hold SHALL or MUST."""
    issues: list[LintIssue] = []
    span = requirements_range(src)
    for block in requirement_blocks(src, span[0] + 1, span[1]) if span else []:
        text = body_text(src, block.start + 1, block.end)
        where = src.location(block.start + 1)
        if not text:
            msg = f'requirement "{block.name}" has no body text; it must state SHALL or MUST'
            issues.append(LintIssue("ERROR", "OPENSPEC_NO_BODY", msg, where))
        elif not contains_shall_or_must(text):
            msg = f'requirement "{block.name}" body should contain SHALL or MUST'
            issues.append(LintIssue("WARNING", "OPENSPEC_NO_SHALL_OR_MUST", msg, where))
    return issues


def _structure(src: Source) -> list[LintIssue]:
    span = requirements_range(src)
    seen: dict[str, int] = {}
    issues: list[LintIssue] = []
    for i, line in enumerate(src.lines):
        if src.fenced[i] or not js_trim(line):
            continue
        where = Location(src.path, i + 1)
        if _DELTA_HEADER.match(line):
            issues.append(
                LintIssue(
                    "ERROR",
                    "OPENSPEC_DELTA_HEADER_IN_SPEC",
                    f'main spec contains delta header "{js_trim(line)}"',
                    where,
                )
            )
            continue
        match = _STRUCTURE_REQUIREMENT.match(line)
        if match is None:
            continue
        if span is None or not span[0] < i < span[1]:
            issues.append(
                LintIssue(
                    "ERROR",
                    "OPENSPEC_REQUIREMENT_OUTSIDE_SECTION",
                    f'"{line.strip()}" is outside the "## Requirements" section',
                    where,
                )
            )
            continue
        name = normalize_name(match.group(1))
        if name in seen:
            issues.append(
                LintIssue(
                    "ERROR",
                    "OPENSPEC_DUPLICATE_REQUIREMENT",
                    f'requirement "{name}" duplicates the one on line {seen[name]}',
                    where,
                )
            )
        else:
            seen[name] = i + 1
    return issues
