"""Terminal-aware output: rich tables and progress on a terminal, plain text elsewhere.

Colour follows rich's rules (``NO_COLOR`` disables it; a pipe or file gets none). When standard
output is not a terminal, tables are plain aligned columns and progress is one line per step, so
logs and CI output stay greppable.

Every text printed here passes :func:`~conformance._inert.terminal_text` and is never
read as rich markup: an IUT's name or message cannot move the cursor, retitle the terminal or
break a table, and prints the same on a terminal and in a pipe.
"""

from __future__ import annotations

import json as _json
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

from conformance._inert import terminal_text

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rich.text import Text


def _text(plain: str) -> Text:
    """``plain`` as a rich ``Text`` (never parsed as markup); rich is imported on first use."""
    from rich.text import Text  # noqa: PLC0415 - lazy: `srdh --help` never needs rich

    return Text(plain)


__all__ = ["Output"]


def _cell(text: str) -> str:
    """One table cell: its lines joined by spaces, every control character shown escaped."""
    return terminal_text(" ".join(text.split("\n")).replace("\r", " "))


class Output:
    """Where a command writes: ``out`` for results, ``err`` for diagnostics.

    Consoles are created per command (so a test runner's swapped streams are honoured).
    """

    def __init__(self) -> None:
        """Bind to the current ``sys.stdout``/``sys.stderr``."""
        from rich.console import Console  # noqa: PLC0415 - lazy: `srdh --help` never needs rich

        self.out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
        self.err = Console(file=sys.stderr, highlight=False, soft_wrap=True)

    @property
    def rich(self) -> bool:
        """True when standard output is an interactive terminal."""
        return self.out.is_terminal

    def line(self, text: str = "") -> None:
        """Print plain text (no markup; control characters but LF and TAB shown escaped)."""
        self.out.print(_text(terminal_text(text, keep_newlines=True)))

    def json(self, value: object) -> None:
        """Print ``value`` as indented JSON, ASCII only (inert on a terminal, parseable as is).

        ``json.dumps`` escapes every control and non-ASCII character, so outside text inside
        ``value`` cannot reach the terminal raw; the output is not escaped a second time.
        """
        self.out.file.write(_json.dumps(value, indent=2, ensure_ascii=True) + "\n")
        self.out.file.flush()

    def note(self, text: str) -> None:
        """Print one informational line on standard error (when standard output is data)."""
        self.err.print(_text(terminal_text(text)))

    def error(self, text: str) -> None:
        """Print one diagnostic line on standard error, prefixed ``srdh: error:``."""
        self.err.print(_text(f"srdh: error: {terminal_text(text)}"))

    def warning(self, text: str) -> None:
        """Print one diagnostic line on standard error, prefixed ``srdh: warning:``."""
        self.err.print(_text(f"srdh: warning: {terminal_text(text)}"))

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Print a table: a rich table on a terminal, aligned plain columns elsewhere.

        Cells are text, never markup; line breaks become spaces and every other control
        character is shown escaped.
        """
        title = _cell(title)
        rows = [[_cell(cell) for cell in row] for row in rows]
        if self.rich:
            from rich.table import Table  # noqa: PLC0415 - only a terminal gets a rich table

            table = Table(title=_text(title))
            for header in headers:
                table.add_column(header, overflow="fold")
            for row in rows:
                table.add_row(*(_text(cell) for cell in row))
            self.out.print(table)
            return
        widths = [len(h) for h in headers]
        for row in rows:
            widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
        if title:
            self.line(title)

        def fmt(cells: Sequence[str]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

        self.line(fmt(headers))
        self.line(fmt(["-" * w for w in widths]))
        for row in rows:
            self.line(fmt(row))

    @contextmanager
    def status(self, text: str) -> Iterator[None]:
        """Show a spinner with ``text`` on a terminal while the block runs; nothing elsewhere."""
        if self.rich:
            with self.err.status(text):
                yield
        else:
            yield
