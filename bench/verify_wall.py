"""Benchmark 7: ``srdh verify .`` next to one in-process run of the whole suite.

Both run as a user runs them, each in a fresh process from the repository root, alternating
which goes first, round after round:

* subject: ``srdh verify .`` (spec lint, schemas and examples, freeze lock, codegen drift,
  traceability, the suite on the reference Harness, the mutant self-test on both cores, gate);
* baseline: ``srdh run --iut-module reference_harness.iut:create`` (every Gherkin scenario of the
  suite against the in-process reference Harness, one nested pytest session).

The ratio is per round (paired). The self-test's order cache (``.srdh_cache``) is removed before
every cold verify round (a fresh clone, as in CI; the targets are judged on it); a second verify
contender keeps the cache of the previous round (a spec author re-running verify). The cache only
reorders probes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios

__all__ = ["MAX_RATIO", "MAX_VERIFY_S", "NAME", "measure", "run"]

NAME: Final = "verify"
MAX_RATIO: Final = 3.0
"""Target: ``srdh verify .`` at most 3x one in-process run of the whole suite."""
MAX_VERIFY_S: Final = 20.0
"""Target: ``srdh verify .`` in at most 20 s on 2 cores."""

_REPO = Path(__file__).resolve().parents[1]
_CLI = "import sys; from conformance.cli import main; sys.argv = ['srdh', *sys.argv[1:]]; main()"
_STEP = re.compile(r"^(?P<step>[a-z +-]+?)\s+(?P<status>PASSED|FAILED)\s.*\s(?P<s>\d+\.\d+)\s*$")
_TIMEOUT_S = 900


def _srdh(*args: str) -> list[str]:
    return [sys.executable, "-c", _CLI, *args]


class _Side:
    """One command, timed in a fresh process; remembers its last output."""

    def __init__(self, argv: list[str], *, cold: bool) -> None:
        self.argv = argv
        self.cold = cold
        self.outputs: list[str] = []
        self.codes: list[int] = []

    def once(self) -> float:
        if self.cold:
            shutil.rmtree(_REPO / ".srdh_cache", ignore_errors=True)
        environment = {**os.environ, "COLUMNS": "200"}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's environment caches bytecode
        start = time.perf_counter_ns()
        done = subprocess.run(  # noqa: S603 - our interpreter, fixed arguments
            self.argv,
            cwd=_REPO,
            capture_output=True,
            text=True,
            check=False,
            timeout=_TIMEOUT_S,
            env=environment,
        )
        elapsed = time.perf_counter_ns() - start
        self.outputs.append(done.stdout)
        self.codes.append(done.returncode)
        return float(elapsed)


def _steps(output: str) -> dict[str, float]:
    steps: dict[str, float] = {}
    for line in output.splitlines():
        found = _STEP.match(line)
        if found:
            steps[found["step"].strip()] = float(found["s"])
    return steps


def measure(*, rounds: int = 3, warmup: int = 1) -> BenchResult:
    """Time ``srdh verify .`` and ``srdh run --iut-module …`` side by side, ``rounds`` times."""
    verify = _Side(_srdh("verify", "."), cold=True)
    warm = _Side(_srdh("verify", "."), cold=False)
    suite = _Side(_srdh("run", "--iut-module", "reference_harness.iut:create"), cold=False)
    values = interleave(
        {"verify": verify.once, "warm": warm.once, "suite": suite.once},
        rounds=rounds,
        warmup=warmup,
    )
    ratio = Summary.of(paired_ratios(values["verify"], values["suite"]))
    warm_ratio = Summary.of(paired_ratios(values["warm"], values["suite"]))
    verify_s = Summary.of(values["verify"]).scaled(1e-9)
    warm_s = Summary.of(values["warm"]).scaled(1e-9)
    suite_s = Summary.of(values["suite"]).scaled(1e-9)
    passed = all(code == 0 for code in verify.codes + warm.codes + suite.codes)
    result = BenchResult(
        name=NAME,
        title="srdh verify . vs one in-process run of the whole suite (fresh processes)",
        columns=["command", "rounds", "wall s, median (IQR)", "verify / suite (paired)"],
        rows=[
            ["srdh verify .", str(verify_s.n), verify_s.text(2), f"{ratio.median:.2f}x"],
            [
                "srdh verify . (order cache from the previous round)",
                str(warm_s.n),
                warm_s.text(2),
                f"{warm_ratio.median:.2f}x",
            ],
            [
                "srdh run --iut-module reference_harness.iut:create",
                str(suite_s.n),
                suite_s.text(2),
                "-",
            ],
        ],
        verdicts_agree=passed,
    )
    steps = _steps(verify.outputs[-1]) if verify.outputs else {}
    result.data = {
        "verify_s": verify_s.as_dict(),
        "suite_s": suite_s.as_dict(),
        "verify_over_suite": ratio.as_dict(),
        "verify_warm_s": warm_s.as_dict(),
        "verify_warm_over_suite": warm_ratio.as_dict(),
        "last_verify_steps_s": steps,
        "exit_codes": {"verify": verify.codes, "warm": warm.codes, "suite": suite.codes},
    }
    result.targets.append(
        Target(
            goal=f"srdh verify . <= {MAX_RATIO:g}x one in-process run of the whole suite",
            measured=f"{ratio.median:.2f}x",
            met=ratio.median <= MAX_RATIO,
            margin=f"{MAX_RATIO / ratio.median:.2f}x headroom"
            if ratio.median <= MAX_RATIO
            else f"missed by {ratio.median / MAX_RATIO:.2f}x",
        )
    )
    result.targets.append(
        Target(
            goal=f"srdh verify . <= {MAX_VERIFY_S:g} s on 2 cores",
            measured=f"{verify_s.median:.1f} s",
            met=verify_s.median <= MAX_VERIFY_S,
            margin=f"{MAX_VERIFY_S - verify_s.median:+.1f} s",
        )
    )
    if steps:
        result.notes.append(
            "Steps of the last verify round (s): "
            + ", ".join(f"{name} {seconds:.2f}" for name, seconds in steps.items())
        )
    if not passed:
        result.notes.append(f"a command did not pass: exit codes {result.data['exit_codes']}")
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: 2 rounds, no warm-up)."""
    if quick:
        return measure(rounds=2, warmup=0)
    return measure(rounds=4, warmup=1)
