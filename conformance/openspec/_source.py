r"""A Markdown file read for OpenSpec parsing: its lines, fenced-code mask and bullet items.

Fenced code blocks are found exactly as the official CLI finds them (:func:`code_fence_mask`,
its ``buildCodeFenceMask``): any line matching ``^\s*(`{3,}|~{3,})`` opens a fence, at any
indentation and inside list items, and the fence closes on a line holding only the same
character repeated at least as often (surrounding white space allowed). CommonMark disagrees
(indentation limits, list containers end fences): the CLI's rule wins, so the kit finds the same
requirements and scenarios as ``openspec validate``. Bullet list items (the kit's WHEN/THEN
steps) come from markdown-it-py run over the text with the fenced lines blanked, so a bullet
inside a code example is never a step. Line numbers are 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

from conformance.openspec._js import js_regex, js_trim
from conformance.openspec._model import Location, ParseError

if TYPE_CHECKING:
    from pathlib import Path

_MD = MarkdownIt("commonmark")
_BULLETS = frozenset("-*+")
_HEADER = js_regex(r"^(#{1,6})\s+(.+)$")
_BOUNDARY = js_regex(r"^(#{1,6})\s+")
_FENCE_OPEN = js_regex(r"^\s*(`{3,}|~{3,})")
_FENCE_CLOSE = js_regex(r"^\s*(`{3,}|~{3,})\s*$")


def code_fence_mask(lines: list[str]) -> list[bool]:
    """Return, per line, whether it belongs to a fenced code block (fence lines included).

    The official CLI's ``buildCodeFenceMask``: an unclosed fence runs to the end of ``lines``.
    """
    mask = [False] * len(lines)
    active: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        if active is None:
            opener = _FENCE_OPEN.match(line)
            if opener is not None:
                active = (opener.group(1)[0], len(opener.group(1)))
                mask[i] = True
            continue
        mask[i] = True
        closer = _FENCE_CLOSE.match(line)
        if closer and closer.group(1)[0] == active[0] and len(closer.group(1)) >= active[1]:
            active = None
    return mask


@dataclass(frozen=True, slots=True)
class Bullet:
    """A bullet list item: the text of its first paragraph and its 1-based first line."""

    text: str
    line: int


@dataclass(frozen=True, slots=True)
class Header:
    """An ATX header written at column 0 (the only form OpenSpec reads)."""

    level: int
    title: str
    line: int


class Source:
    """The lines of one Markdown file (BOM dropped, line endings normalised to LF).

    Raises:
        ParseError: the file is missing, unreadable or not UTF-8 (with the line of the bad byte).
    """

    def __init__(self, path: Path, text: str | None = None) -> None:
        """Read ``path`` (or take ``text`` as its content) and index its structure."""
        self.path = path
        content = _read(path) if text is None else text
        content = content.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        self.text = content
        self.lines: list[str] = content.split("\n")
        self.fenced: list[bool] = code_fence_mask(self.lines)
        self.bullets: list[Bullet] = []
        self._index()

    def _index(self) -> None:
        unfenced = "\n".join("" if f else ln for ln, f in zip(self.lines, self.fenced, strict=True))
        tokens = _MD.parse(unfenced)
        for i, token in enumerate(tokens):
            if token.map is None:
                continue
            if token.type == "list_item_open" and token.level == 1 and token.markup in _BULLETS:
                inline = next(
                    (t for t in tokens[i + 1 : i + 4] if t.type == "inline"),
                    None,
                )
                text = " ".join(inline.content.split()) if inline is not None else ""
                self.bullets.append(Bullet(text=text, line=token.map[0] + 1))

    def location(self, line: int) -> Location:
        """Return the location of 1-based ``line`` in this file."""
        return Location(self.path, line)

    def header(self, index: int) -> Header | None:
        """Return the header on 0-based line ``index``, or ``None`` (fenced lines never are)."""
        if self.fenced[index]:
            return None
        match = _HEADER.match(self.lines[index])
        if match is None:
            return None
        return Header(level=len(match.group(1)), title=js_trim(match.group(2)), line=index + 1)

    def boundary_level(self, index: int) -> int | None:
        r"""Return the level of a header *boundary* on 0-based line ``index``, or ``None``.

        The CLI ends a section's content at ``^(#{1,6})\s+`` (no title needed), a looser test
        than the one that opens a section (:meth:`header`): ``###\u3000a\u2028b`` ends the
        content before it without starting a section of its own.
        """
        if self.fenced[index]:
            return None
        match = _BOUNDARY.match(self.lines[index])
        return None if match is None else len(match.group(1))

    def bullets_between(self, start: int, end: int) -> list[Bullet]:
        """Return the bullets whose first line lies in 1-based ``[start, end)``."""
        return [b for b in self.bullets if start <= b.line < end]


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError(Location(path, 0), f"cannot read the file ({exc.strerror})") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        reason = f"expected UTF-8 text, found byte 0x{data[exc.start]:02x}"
        raise ParseError(Location(path, line), reason) from exc
