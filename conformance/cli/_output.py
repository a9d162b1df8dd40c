"""Terminal-aware output: rich tables and progress on a terminal, plain text elsewhere.

Colour follows rich's rules (``NO_COLOR`` disables it; a pipe or file gets none). When standard
output is not a terminal, tables are plain aligned columns and progress is one line per step, so
logs and CI output stay greppable.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["Output"]


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
        """Print one line of plain text (no markup interpretation)."""
        self.out.print(text, markup=False)

    def error(self, text: str) -> None:
        """Print one diagnostic line on standard error, prefixed ``srdh: error:``."""
        self.err.print(f"srdh: error: {text}", markup=False)

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Print a table: a rich table on a terminal, aligned plain columns elsewhere."""
        if self.rich:
            from rich.table import Table  # noqa: PLC0415 - only a terminal gets a rich table

            table = Table(title=title)
            for header in headers:
                table.add_column(header, overflow="fold")
            for row in rows:
                table.add_row(*row)
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
