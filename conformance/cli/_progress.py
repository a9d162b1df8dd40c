"""Step progress for long commands: a rich spinner on a terminal, one line each elsewhere."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

from conformance._inert import terminal_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.progress import Progress

    from conformance.cli._output import Output
    from conformance.reports import StepResult

__all__ = ["StepProgress", "step_progress"]


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
