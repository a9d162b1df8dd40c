"""Terminal-aware output: rich tables and progress on a terminal, plain text elsewhere.

Colour follows rich's rules (``NO_COLOR`` disables it; a pipe or file gets none). When standard
output is not a terminal, tables are plain aligned columns and progress is one line per step, so
logs and CI output stay greppable.

Every text printed here passes :func:`~conformance._inert.terminal_text` and is never
read as rich markup: an IUT's name or message cannot move the cursor, retitle the terminal or
break a table, and prints the same on a terminal and in a pipe.

Also here: step progress for long commands (:func:`step_progress`), a Run trace as a readable
timeline (:func:`timeline_rows`), where the kit's own data lives, and the lines every command
prints first (:func:`announce`): which kit runs (version and package folder) and which spec it
judges, the ``openspec/`` of the repository it was given or the kit's own (its Gherkin mirror,
step definitions, checks and mutants). They go to standard output before the results, or to
standard error when standard output is machine-readable (``--json``), so JSON stays parseable.
"""

from __future__ import annotations

import json as _json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance._inert import terminal_text

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rich.progress import Progress
    from rich.text import Text

    from conformance.reports import StepResult

__all__ = [
    "KIT_NAME",
    "Output",
    "StepProgress",
    "announce",
    "event_summary",
    "kit_line",
    "kit_schemas_dir",
    "kit_spec_line",
    "kit_version",
    "repo_spec_lines",
    "step_progress",
    "timeline_rows",
]


def _text(plain: str) -> Text:
    """``plain`` as a rich ``Text`` (never parsed as markup); rich is imported on first use."""
    from rich.text import Text  # noqa: PLC0415 - lazy: `srdh --help` never needs rich

    return Text(plain)


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
        self._first: tuple[tuple[str, ...], bool] | None = None

    def first(self, lines: Sequence[str], *, machine: bool = False) -> None:
        """Print ``lines`` (see :func:`announce`) just before this command's first output.

        A user mistake found before any result is printed (a missing file, an unknown id, a
        document naming no contract) is then one ``srdh: error:`` line with nothing before it,
        as docs/cli.md promises; any result, table, JSON or warning prints them first.
        """
        self._first = (tuple(lines), machine)

    def _announce_first(self) -> None:
        if self._first is not None:
            lines, machine = self._first
            self._first = None
            announce(self, lines, machine=machine)

    @property
    def rich(self) -> bool:
        """True when standard output is an interactive terminal."""
        return self.out.is_terminal

    def line(self, text: str = "") -> None:
        """Print plain text (no markup; control characters but LF and TAB shown escaped)."""
        self._announce_first()
        self.out.print(_text(terminal_text(text, keep_newlines=True)))

    def json(self, value: object) -> None:
        """Print ``value`` as indented JSON, ASCII only (inert on a terminal, parseable as is).

        ``json.dumps`` escapes every control and non-ASCII character, so outside text inside
        ``value`` cannot reach the terminal raw; the output is not escaped a second time.
        """
        self._announce_first()
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
        self._announce_first()
        self.err.print(_text(f"srdh: warning: {terminal_text(text)}"))

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Print a table: a rich table on a terminal, aligned plain columns elsewhere.

        Cells are text, never markup; line breaks become spaces and every other control
        character is shown escaped.
        """
        self._announce_first()
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


class StepProgress:
    """Callbacks ``start(name)`` and ``end(result)`` that show progress."""

    def __init__(self, output: Output, progress: Progress | None, total: int) -> None:
        """Show progress on ``progress`` (a terminal) or as plain lines on stderr."""
        self._output = output
        self._progress = progress
        self._total = total
        self._done = 0
        self._task = progress.add_task("starting", total=total) if progress else None

    def start(self, name: str) -> None:
        """A step begins."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=f"{terminal_text(name)}…")
        else:
            line = f"[{self._done + 1}/{self._total}] {terminal_text(name)} …"
            self._output.err.print(line, markup=False, highlight=False)

    def end(self, result: StepResult) -> None:
        """A step ended."""
        self._done += 1
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=1)
            line = f"{result.status.value:<10} {terminal_text(result.name)}"
            self._progress.console.print(line, markup=False, highlight=False)


@contextmanager
def step_progress(output: Output, total: int) -> Iterator[StepProgress]:
    """Yield progress callbacks for ``total`` steps (rich on a terminal, plain elsewhere)."""
    if not output.err.is_terminal:
        yield StepProgress(output, None, total)
        return
    from rich.progress import (  # noqa: PLC0415 - only a terminal gets a spinner
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn())
    with Progress(*columns, console=output.err, transient=True) as progress:
        yield StepProgress(output, progress, total)


KIT_NAME = "srdh-conformance-kit"
"""The distribution name."""

_PACKAGE = Path(__file__).resolve().parents[1]


def kit_schemas_dir() -> Path:
    """The kit's contract schema folder (``contracts/_schemas`` installed, else ``schemas/``)."""
    from contracts import schema_dir  # noqa: PLC0415 - lazy: `srdh --help` needs no contracts

    return schema_dir()


def kit_version() -> str:
    """The installed kit version, or ``"0+unknown"`` when not installed as a distribution."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - lazy

    try:
        return version(KIT_NAME)
    except PackageNotFoundError:
        return "0+unknown"


def kit_line() -> str:
    """One line naming the running kit: ``kit: srdh-conformance-kit <version> (<package dir>)``.

    Commands print it so that a report or log says which kit judged (an installed wheel, or
    which checkout of an editable install).
    """
    return f"kit: {KIT_NAME} {kit_version()} ({_PACKAGE})"


def kit_spec_line() -> str:
    """``spec: the kit's own …`` for commands that judge with the kit's suite, not a repository's.

    Names the Gherkin mirror folder the suite runs and, in a source checkout, the ``openspec/``
    it mirrors.
    """
    from conformance.suite import features_dir  # noqa: PLC0415 - light, but not for every import

    features = features_dir().resolve()
    spec = _PACKAGE.parent / "openspec"
    mirrored = f", mirroring {spec}" if (spec / "specs").is_dir() else ""
    return f"spec: the kit's own (features {features}{mirrored})"


def repo_spec_lines(repo: Path) -> tuple[str, ...]:
    """``spec:`` and ``features:`` lines for a command that judges ``repo``'s ``openspec/``.

    The features line says which Gherkin mirror is read with the kit's step definitions: the
    repository's ``features/`` (and whether it equals the kit's copy, first difference named), or
    the kit's when the repository has none. Never raises for a difference: this only describes.
    """
    from conformance.verify import features_for, kit_sources  # noqa: PLC0415 - lazy
    from conformance.verify._sources import describe_copy  # noqa: PLC0415 - lazy

    root = Path(repo).resolve()
    kit = kit_sources()
    features = features_for(root)
    if features == kit.features.resolve():
        where = f"features: the kit's {features}"
        if features != (root / "features").resolve():
            where += " (the repository has no features/)"
    else:
        where = f"features: {features} ({describe_copy(features, kit.features)})"
    return (
        f"spec: {root / 'openspec'}",
        f"{where}; step definitions, checks and properties: the kit's ({_PACKAGE})",
    )


def announce(out: Output, lines: Sequence[str], *, machine: bool = False) -> None:
    """Print ``lines`` first: on standard output, or on standard error when ``machine``."""
    for line in lines:
        if machine:
            out.note(line)
        else:
            out.line(line)


_MAX_CELL = 90
_DIGEST_SHOWN = 12


def _value(value: Any) -> str:  # noqa: ANN401 - any JSON value
    if isinstance(value, str):
        return value
    text = _json.dumps(value, separators=(",", ":"))
    return text if len(text) <= _MAX_CELL else text[: _MAX_CELL - 1] + "…"


def _short(key: str, value: Any) -> str:  # noqa: ANN401 - any JSON value
    """Digests are shown by their first 12 hex digits."""
    if key.endswith("digest") and isinstance(value, str) and len(value) > _DIGEST_SHOWN:
        return value[:_DIGEST_SHOWN] + "…"
    return _value(value)


def event_summary(data: Any) -> str:  # noqa: ANN401 - any JSON value
    """``key=value`` pairs of an event's ``data`` (nulls and empty lists dropped), one line."""
    if not isinstance(data, dict):
        return _value(data)
    parts = [f"{k}={_short(k, v)}" for k, v in data.items() if v not in (None, [], {})]
    return " ".join(parts)


def timeline_rows(observation: dict[str, Any]) -> list[list[str]]:
    """Rows ``[seq, type, details]`` for every trace event of a RunObservation, in order."""
    trace = observation.get("trace", [])
    return [
        [str(event.get("seq", "")), str(event.get("type", "")), event_summary(event.get("data"))]
        for event in trace
    ]
