"""Benchmark 8: start-up of ``srdh --help`` and ``srdh validate`` next to a bare interpreter.

Each command runs in a fresh process from the repository root (``python -c`` calling the CLI's
``main``, as the ``srdh`` script does), alternating the order round by round:

* ``python -c pass``: the interpreter alone (the floor nothing can go below);
* ``srdh --help``: import the CLI and print the command list;
* ``srdh validate --contract tool-invocation <one valid example>``: import what validation
  needs, validate one document, print one line.

Which modules each command imports is checked by ``tests/cli/test_cli_startup.py``; this
benchmark only times them. The commands run with bytecode caching on, as a user's do
(``PYTHONDONTWRITEBYTECODE`` is removed from their environment; the warm-up rounds write the
cache), so the time is the start-up, not the compilation of every module.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave

__all__ = ["MAX_START_S", "NAME", "measure", "run"]

NAME: Final = "startup"
MAX_START_S: Final = 0.3
"""Target: ``srdh --help`` and ``srdh validate`` start (and finish) in at most 0.3 s."""

_REPO = Path(__file__).resolve().parents[1]
_CLI = "import sys; from conformance.cli import main; sys.argv = ['srdh', *sys.argv[1:]]; main()"
_VALID = min((_REPO / "schemas" / "examples" / "tool-invocation" / "valid").glob("*.json"))


_ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""A user's environment: bytecode is cached (the warm-up rounds write it)."""


def _timed(argv: list[str]) -> float:
    start = time.perf_counter_ns()
    done = subprocess.run(  # noqa: S603 - our interpreter
        argv, cwd=_REPO, capture_output=True, check=False, timeout=120, env=_ENVIRONMENT
    )
    elapsed = time.perf_counter_ns() - start
    if done.returncode != 0:
        msg = f"{argv[3:]} exited {done.returncode}: {done.stderr[-400:]!r}"
        raise RuntimeError(msg)
    return float(elapsed)


def measure(*, rounds: int = 15, warmup: int = 2) -> BenchResult:
    """Time the three commands ``rounds`` times each, interleaved."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "srdh --help": [sys.executable, "-c", _CLI, "--help"],
        "srdh validate (1 valid document)": [
            sys.executable,
            "-c",
            _CLI,
            "validate",
            "--contract",
            "tool-invocation",
            str(_VALID),
        ],
    }
    contenders = {name: (lambda argv=argv: _timed(argv)) for name, argv in commands.items()}
    values = interleave(contenders, rounds=rounds, warmup=warmup)
    floor = Summary.of(values["python -c pass"]).scaled(1e-6)
    result = BenchResult(
        name=NAME,
        title="Start-up of srdh --help and srdh validate (fresh processes)",
        columns=["command", "rounds", "wall ms, median (IQR)", "minus bare interpreter, ms"],
    )
    data: dict[str, object] = {"bytecode_cache": True}
    for name, raw in values.items():
        summary = Summary.of(raw).scaled(1e-6)
        data[name] = summary.as_dict()
        extra = "-" if name == "python -c pass" else f"{summary.median - floor.median:,.0f}"
        result.rows.append([name, str(summary.n), summary.text(0), extra])
        if name != "python -c pass":
            seconds = summary.median / 1000
            result.targets.append(
                Target(
                    goal=f"{name} <= {MAX_START_S:g} s",
                    measured=f"{seconds:.3f} s",
                    met=seconds <= MAX_START_S,
                    margin=f"{MAX_START_S - seconds:+.3f} s",
                )
            )
    result.data = data
    result.notes.append(
        "Bytecode cache on (PYTHONDONTWRITEBYTECODE removed for the commands; warm-up rounds "
        "write it). Median of fresh processes, alternating order."
    )
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: 6 rounds)."""
    return measure(rounds=6 if quick else 15, warmup=2)
