"""``python -m bench [--quick] [--only NAME] [--json PATH]``: run, print tables, write JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rich.console import Console
from rich.table import Table

from bench._machine import load_average, machine
from bench._registry import BENCHMARKS, run_benchmark

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bench._result import BenchResult

__all__ = ["DEFAULT_JSON", "main"]

DEFAULT_JSON: Final = Path(__file__).resolve().parent / "out" / "results.json"
"""Where the JSON report goes by default (git-ignored)."""


_LOG_WIDTH: Final = 180
"""Console width when the output is not a terminal (a log file keeps whole table rows)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=(
            "Cost of the SRDH kit as ratios against baselines measured side by side "
            "in the same process."
        ),
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller sizes and fewer rounds (no 1M-Run store)"
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=list(BENCHMARKS),
        metavar="NAME",
        help=f"run only this benchmark (repeatable): {', '.join(BENCHMARKS)}",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=DEFAULT_JSON,
        metavar="PATH",
        help=f"where to write the JSON results (default: {DEFAULT_JSON})",
    )
    return parser


def _table(result: BenchResult) -> Table:
    table = Table(title=f"[{result.name}] {result.title}", title_justify="left")
    for column in result.columns:
        table.add_column(column, overflow="fold")
    for row in result.rows:
        table.add_row(*row)
    return table


def _show(console: Console, result: BenchResult, seconds: float) -> None:
    console.print(_table(result))
    for target in result.targets:
        mark = "[green]met[/green]" if target.met else "[red]missed[/red]"
        console.print(f"  target {mark}: {target.goal} - {target.measured}; {target.margin}")
    if result.verdicts_agree is not None:
        agree = "[green]yes[/green]" if result.verdicts_agree else "[red]NO[/red]"
        console.print(f"  verdicts agree: {agree}")
    for note in result.notes:
        console.print(f"  note: {note}")
    console.print(f"  ({seconds:.1f} s)\n")


def _write_json(path: Path, report: dict[str, Any]) -> None:
    """Write ``report`` to ``path`` atomically (a temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".results-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(report, stream, indent=2)
            stream.write("\n")
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen benchmarks; return 0, or 1 if one crashed or found differing verdicts."""
    arguments = _parser().parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=_LOG_WIDTH)
    names = arguments.only or list(BENCHMARKS)
    report: dict[str, Any] = {
        "machine": machine(),
        "quick": arguments.quick,
        "benchmarks": [],
        "errors": {},
    }
    failed = False
    for name in names:
        console.print(f"[bold]running {name}[/bold] ...")
        start = time.perf_counter()
        try:
            result = run_benchmark(name, quick=arguments.quick)
        except Exception as error:  # noqa: BLE001 - one broken benchmark must not hide the others
            failed = True
            report["errors"][name] = f"{type(error).__name__}: {error}"
            console.print(f"[red]{name} failed[/red]: {type(error).__name__}: {error}")
            console.print(traceback.format_exc(), markup=False, highlight=False)
            continue
        seconds = time.perf_counter() - start
        _show(console, result, seconds)
        entry = result.as_dict()
        entry["seconds"] = seconds
        report["benchmarks"].append(entry)
        failed = failed or result.verdicts_agree is False
    report["load_average_end"] = load_average()
    try:
        _write_json(arguments.json, report)
    except OSError as error:
        console.print(f"[red]cannot write {arguments.json}[/red]: {error.strerror or error}")
        return 1
    console.print(f"results written to {arguments.json}")
    return 1 if failed else 0
