"""Requirement and scenario blocks, read the way the official OpenSpec CLI reads them.

A requirement block starts at a ``### Requirement: <name>`` line and runs to the next such line
or the next ``## `` section. Its body is the non-blank text before the first header; every
``#### `` header inside it opens a scenario whose body runs to the next header of level 1-4.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.openspec._js import js_regex, js_trim
from conformance.openspec._model import Level, Location, Requirement, Scenario, Step, StepKeyword
from conformance.openspec._slug import slugify

if TYPE_CHECKING:
    from conformance.openspec._source import Source

REQUIREMENT_HEADER = js_regex(r"^###\s*Requirement:\s*(.+)\s*$", ignore_case=True)
SECTION_HEADER = js_regex(r"^##\s+")
_ANY_HEADER = js_regex(r"^#{1,6}\s")
_SCENARIO_HEADER = js_regex(r"^####\s+")
_SCENARIO_END = js_regex(r"^#{1,4}\s")
_SCENARIO_PREFIX = js_regex(r"^Scenario:\s*", ignore_case=True)
_METADATA = js_regex(r"^\*\*[^*]+\*\*:")
_TRAILING_HASHES = js_regex(r"[ \t]+#+[ \t]*$")
_STEP = re.compile(r"^\*\*(WHEN|THEN|AND|GIVEN)\*\*:?\s+(\S.*)$")
_LEVELS: tuple[Level, ...] = ("MUST", "SHALL", "SHOULD", "MAY")
_SHALL_OR_MUST = js_regex(r"\b(SHALL|MUST)\b")
_KEYWORDS: dict[str, StepKeyword] = {"WHEN": "WHEN", "THEN": "THEN", "AND": "AND", "GIVEN": "GIVEN"}


def normalize_name(name: str) -> str:
    """Drop a closing ``#`` sequence and surrounding blanks from a header name (CLI rule)."""
    return js_trim(_TRAILING_HASHES.sub("", name, count=1))


def contains_shall_or_must(text: str) -> bool:
    """Whether ``text`` holds SHALL or MUST as a whole word (the CLI's normative check)."""
    return _SHALL_OR_MUST.search(text) is not None


def strongest_level(text: str) -> Level | None:
    """Return the strongest RFC 2119 keyword (MUST > SHALL > SHOULD > MAY) in ``text``."""
    for level in _LEVELS:
        if re.search(rf"\b{level}\b", text, re.ASCII):
            return level
    return None


@dataclass(frozen=True, slots=True)
class Block:
    """The raw extent of one requirement block: 0-based ``[start, end)`` lines, header first."""

    name: str
    start: int
    end: int


def requirement_blocks(src: Source, start: int, end: int) -> list[Block]:
    """Return the requirement blocks in 0-based lines ``[start, end)`` of ``src``."""
    blocks: list[Block] = []
    i = start
    while i < end:
        match = None if src.fenced[i] else REQUIREMENT_HEADER.match(src.lines[i])
        if match is None:
            i += 1
            continue
        j = i + 1
        while j < end and (
            src.fenced[j]
            or not (REQUIREMENT_HEADER.match(src.lines[j]) or SECTION_HEADER.match(src.lines[j]))
        ):
            j += 1
        blocks.append(Block(name=normalize_name(match.group(1)), start=i, end=j))
        i = j
    return blocks


def body_text(src: Source, start: int, end: int) -> str:
    r"""Return the body of lines ``[start, end)`` up to the first header (CLI rule).

    Blank and fenced lines are skipped; ``**Key**: value`` metadata lines count only when
    nothing else is there. Lines are trimmed and joined with ``\n``.
    """
    captured: list[str] = []
    metadata: list[str] = []
    for i in range(start, end):
        if src.fenced[i]:
            continue
        line = src.lines[i]
        if _ANY_HEADER.match(line):
            break
        trimmed = js_trim(line)
        if not trimmed:
            continue
        (metadata if _METADATA.match(trimmed) else captured).append(trimmed)
    return "\n".join(captured or metadata)


def _scenario(src: Source, header: int, end: int) -> Scenario:
    stop = header + 1
    while stop < end and (src.fenced[stop] or not _SCENARIO_END.match(src.lines[stop])):
        stop += 1
    raw = _SCENARIO_HEADER.sub("", src.lines[header])
    name = js_trim(_SCENARIO_PREFIX.sub("", normalize_name(raw), count=1))
    steps: list[Step] = []
    unparsed: list[tuple[str, Location]] = []
    for bullet in src.bullets_between(header + 2, stop + 1):
        where = src.location(bullet.line)
        match = _STEP.match(bullet.text)
        if match is None:
            unparsed.append((bullet.text, where))
        else:
            steps.append(
                Step(keyword=_KEYWORDS[match.group(1)], text=match.group(2), location=where)
            )
    return Scenario(
        name=name,
        id=slugify(name),
        steps=tuple(steps),
        location=src.location(header + 1),
        unparsed_bullets=tuple(unparsed),
        has_body=bool(js_trim("\n".join(src.lines[header + 1 : stop]))),
    )


def scenario_headers(src: Source, start: int, end: int) -> list[int]:
    """Return the 0-based lines of the ``#### `` headers in ``[start, end)`` (fences excluded)."""
    return [
        i for i in range(start, end) if not src.fenced[i] and _SCENARIO_HEADER.match(src.lines[i])
    ]


def read_requirement(src: Source, block: Block) -> Requirement:
    """Build the :class:`Requirement` of ``block`` (every ``#### `` header is a scenario)."""
    text = body_text(src, block.start + 1, block.end)
    scenarios = tuple(
        _scenario(src, h, block.end) for h in scenario_headers(src, block.start + 1, block.end)
    )
    return Requirement(
        name=block.name,
        id=slugify(block.name),
        level=strongest_level(text),
        text=text,
        scenarios=scenarios,
        location=src.location(block.start + 1),
    )
