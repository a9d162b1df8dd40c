r"""Text from outside (an IUT's names, messages, stderr) made inert for each output format.

An IUT may write anything: terminal escape sequences, rich markup, characters XML forbids, raw
HTML, backticks, lone surrogates. Every renderer passes outside text through one function of
this module, so the text stays data:

* :func:`scrub` — lone surrogates (``\ud800``-``\udfff``) become U+FFFD, so the text can be
  encoded as UTF-8 at all;
* :func:`terminal_text` — control characters (C0, DEL, C1 — ESC and CSI among them) and the
  bidirectional-override characters are shown as visible escapes (``\x1b``, ``\u202e``);
* :func:`shown_path` — a file name inside a one-line message: :func:`terminal_text` of it, so a
  name holding a newline or an escape sequence cannot split or forge the line;
* :func:`echo` — any outside value quoted inside the kit's own message (an IUT's error text, a
  value a document holds, an argument): :func:`terminal_text` of it, so a line feed is ``\x0a``
  in every format that shows the message (terminal, Markdown, HTML, JUnit), bounded to
  :data:`ECHO_CHARS` characters (a prefix, an ellipsis and the length);
* :func:`xml_text` — characters XML 1.0 does not allow are shown as visible escapes;
* :func:`markdown_text` — every ASCII punctuation character is backslash-escaped (no raw HTML,
  no emphasis, no links, no table-cell breaks), line breaks become spaces;
* :func:`markdown_code` — a code span whose backtick fence is longer than any run inside it.

Only the standard library is imported: the CLI uses this module at start-up.
"""

from __future__ import annotations

import os
import re
import string
from typing import Final

__all__ = [
    "ECHO_CHARS",
    "echo",
    "markdown_code",
    "markdown_text",
    "scrub",
    "shown_path",
    "terminal_text",
    "xml_text",
]

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_TERMINAL_UNSAFE: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_TERMINAL_UNSAFE_LINE: Final = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_XML_UNSAFE: Final = re.compile(
    "[^\x09\x0a\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
    "|[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_MARKDOWN_PUNCTUATION: Final = re.compile("([" + re.escape(string.punctuation) + "])")
_BACKTICK_RUN: Final = re.compile("`+")
_LINE_BREAK: Final = re.compile("\r\n|[\r\n]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"  # noqa: PLR2004 - one byte


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (so it encodes as UTF-8)."""
    return _SURROGATE.sub("\ufffd", text)


def terminal_text(text: str, *, keep_newlines: bool = False) -> str:
    r"""``text`` safe to print on a terminal: no control sequence can reach it.

    C0 controls (except TAB, and LF when ``keep_newlines``), DEL, C1 controls and the
    bidirectional-control characters become visible escapes such as ``\x1b``. Rich markup is
    not interpreted by the caller's printing (print it with ``markup=False`` or as ``Text``).
    """
    pattern = _TERMINAL_UNSAFE if keep_newlines else _TERMINAL_UNSAFE_LINE
    return pattern.sub(_visible, scrub(text))


ECHO_CHARS: Final = 120
"""The most characters of an outside value :func:`echo` shows (before escaping)."""


def echo(value: object, *, limit: int = ECHO_CHARS, quote: bool = False) -> str:
    r"""``value`` (``str()`` of it) as quoted in one line of the kit's own text: inert and bounded.

    Control characters, line breaks included, and bidirectional controls become visible escapes
    (:func:`terminal_text`: ``a\nb`` is shown ``a\x0ab``), so outside text can neither split the
    kit's message into two lines (two bullets in Markdown, a dropped tail in a one-line error)
    nor act on a terminal. A value longer than ``limit`` characters is cut: its first ``limit``
    characters, then ``… (N characters)`` with its whole length. ``quote`` wraps the shown text
    in single quotes (the cut-off note outside them).
    """
    text = str(value)
    shown, more = text[:limit], len(text) > limit
    inert = terminal_text(shown)
    if quote:
        inert = f"'{inert}'"
    return f"{inert}… ({len(text)} characters)" if more else inert


def shown_path(path: object) -> str:
    r"""A file name (``str`` or path-like) as shown in a message: control characters escaped.

    ``a\nb.json`` is shown ``a\x0ab.json``: one line, and the name is still recognisable.
    """
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if isinstance(name, bytes):
        name = name.decode("utf-8", errors="surrogateescape")
    return terminal_text(str(name))


def xml_text(text: str) -> str:
    """``text`` holding only characters XML 1.0 allows (others as visible escapes).

    The XML writer still escapes ``&``, ``<``, ``>`` and quotes; this removes what no escaping
    can make well-formed (NUL, ESC, other C0 controls, lone surrogates, U+FFFE, U+FFFF), and CR,
    which an XML parser would silently turn into LF. DEL, the C1 controls (U+009B, a one-character
    CSI, among them) and the bidirectional controls are allowed by XML but would act on a
    terminal or reorder the text shown by a CI page: they are shown as visible escapes too.
    """
    return _XML_UNSAFE.sub(_visible, scrub(text))


def markdown_text(text: str) -> str:
    """``text`` as inert Markdown inline text, fit for a paragraph or a table cell.

    Line breaks become spaces, control characters visible escapes, and every ASCII punctuation
    character is backslash-escaped (CommonMark allows that for all of them), so no HTML tag,
    entity, emphasis, link, code span or table-cell separator can start inside it; a leading
    space is written ``&#32;`` so that it cannot indent a code block.
    """
    flat = _LINE_BREAK.sub(" ", terminal_text(text, keep_newlines=True).replace("\t", " "))
    escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", flat)
    # A leading space could start an indented code block (e.g. in a list item): as an entity
    # it is still a space, but no longer indentation.
    return "&#32;" + escaped[1:] if escaped.startswith(" ") else escaped


def markdown_code(text: str, *, in_table: bool = False) -> str:
    r"""``text`` as one Markdown code span that nothing inside it can close early.

    The fence is one backtick longer than the longest run of backticks in ``text``, padded with
    a space when ``text`` starts or ends with a backtick or a space. In a table cell
    (``in_table``) a ``|`` is written ``\|``, as GFM requires even inside code spans. Empty
    text gives an empty string.
    """
    flat = _LINE_BREAK.sub(" ", terminal_text(text, keep_newlines=True).replace("\t", " "))
    if not flat:
        return ""
    if in_table:
        flat = flat.replace("|", "\\|")
    longest = max((len(run) for run in _BACKTICK_RUN.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat[0] in "` " or flat[-1] in "` " else ""
    return f"{fence}{pad}{flat}{pad}{fence}"
