"""Benchmark 9: a plain ``srdh run`` of the reference over stdio with the kit's model endpoint.

The implementer's loop (issue 23): implementers are told to run their harness over stdio with
``MODEL_ENDPOINT`` (the kit plays the model over HTTP). Both sides run as a user runs them, each
in a fresh process from the repository root, alternating which goes first, round after round,
at the default examples per property (:data:`conformance._examples.DEFAULT_EXAMPLES`):

* subject: ``srdh run --iut "python -m reference_harness.stdio"`` (the reference declares
  ``MODEL_ENDPOINT``: each Run's model calls are HTTP requests through the OpenAI SDK to the
  kit's endpoint; the fresh-process scenario starts two more IUT processes);
* baseline: ``srdh run --iut-module reference_harness.iut:create`` (in process, scripted turns).

The target: subject <= 1.5x baseline + the declared-wait floor (:mod:`bench.declared_wait`), the
seconds the subject's own fixtures make any IUT wait over the endpoint. The floor is recomputed
every time from the fixtures the subject sent: the untimed warm-up round of the subject runs with
``--record`` (the properties are derandomized, so every round sends the same fixtures). The
stricter form, with only the waits the in-process side does not make (the endpoint floor minus
the scripted floor of the same fixtures), is reported next to it.

The warm-up rounds also write reports: the subject's (``--report``) gives each property
scenario's example count, and an in-process ``--examples 0`` run gives each scenario's Gherkin
examples; the difference is the examples each property ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios
from bench.declared_wait import floor_s, recorded_fixtures
from conformance._examples import DEFAULT_EXAMPLES
from contracts import loads_strict

__all__ = ["MAX_RATIO", "MIN_EXAMPLES", "NAME", "measure", "property_examples", "run"]

NAME: Final = "endpoint-run"
MAX_RATIO: Final = 1.5
"""Target: stdio + endpoint <= 1.5x the in-process run plus the declared-wait floor."""
MIN_EXAMPLES: Final = 10
"""Target: a plain run's generated examples per property."""

_REPO = Path(__file__).resolve().parents[1]
_CLI = "import sys; from conformance.cli import main; sys.argv = ['srdh', *sys.argv[1:]]; main()"
_TIMEOUT_S = 1800
_STDIO = f"{sys.executable} -m reference_harness.stdio"
_MODULE = "reference_harness.iut:create"


def _srdh(*args: str) -> list[str]:
    return [sys.executable, "-c", _CLI, *args]


class _Side:
    """One ``srdh run`` command line, timed in a fresh process."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.codes: list[int] = []
        self.cpu_s: list[float] = []
        self.failures: list[str] = []

    def once(self, *extra: str) -> float:
        environment = {**os.environ, "COLUMNS": "200"}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's environment caches bytecode
        before = os.times()
        start = time.perf_counter_ns()
        done = subprocess.run(  # noqa: S603 - our interpreter, fixed arguments
            [*self.argv, *extra],
            cwd=_REPO,
            capture_output=True,
            text=True,
            check=False,
            timeout=_TIMEOUT_S,
            env=environment,
        )
        elapsed = time.perf_counter_ns() - start
        after = os.times()
        self.codes.append(done.returncode)
        if done.returncode != 0:  # kept: a failing run is a finding, not a crash of the bench
            failed = [line for line in done.stdout.splitlines() if line.startswith("failed:")]
            self.failures.append("; ".join(failed) or done.stderr[-500:])
        if not extra:
            self.cpu_s.append(
                after.children_user
                + after.children_system
                - before.children_user
                - before.children_system
            )
        return float(elapsed)


def _scenario_examples(report: Path) -> dict[str, int]:
    document = loads_strict(report.read_text(encoding="utf-8"))
    return {
        scenario_id: int(scenario["examples"])
        for requirement in document["requirements"].values()
        for scenario_id, scenario in requirement["scenarios"].items()
    }


def property_examples(with_properties: Path, gherkin_only: Path) -> dict[str, int]:
    """Examples each property ran: a report's scenario examples minus its Gherkin examples.

    Args:
        with_properties: ``report.json`` of a run with properties.
        gherkin_only: ``report.json`` of an ``--examples 0`` run of the same suite.

    Returns:
        scenario id -> generated examples of its property, for every scenario whose count
        differs between the two reports (the scenarios with a property).
    """
    both = _scenario_examples(with_properties)
    gherkin = _scenario_examples(gherkin_only)
    return {sid: n - gherkin.get(sid, 0) for sid, n in both.items() if n != gherkin.get(sid, 0)}


def measure(*, rounds: int = 3) -> BenchResult:
    """Time the two plain runs side by side ``rounds`` times, after one untimed warm-up each."""
    stdio = _Side(_srdh("run", "--iut", _STDIO))
    inproc = _Side(_srdh("run", "--iut-module", _MODULE))
    with tempfile.TemporaryDirectory(prefix="srdh-bench-endpoint-") as scratch:
        folder = Path(scratch)
        stdio.once("--record", str(folder / "record"), "--report", str(folder / "stdio"))
        inproc.once("--examples", "0", "--report", str(folder / "gherkin"))
        fixtures = recorded_fixtures(folder / "record")
        per_property = property_examples(
            folder / "stdio" / "report.json", folder / "gherkin" / "report.json"
        )
    floor_endpoint = floor_s(fixtures, endpoint=True)
    floor_scripted = floor_s(fixtures, endpoint=False)
    values = interleave({"stdio": stdio.once, "inproc": inproc.once}, rounds=rounds, warmup=0)
    stdio_s = Summary.of(values["stdio"]).scaled(1e-9)
    inproc_s = Summary.of(values["inproc"]).scaled(1e-9)
    ratio = Summary.of(paired_ratios(values["stdio"], values["inproc"]))
    # per round: (stdio - floor) / inproc, the ratio the target bounds by 1.5
    net = [
        (s * 1e-9 - floor_endpoint) / (i * 1e-9)
        for s, i in zip(values["stdio"], values["inproc"], strict=True)
    ]
    strict = [
        (s * 1e-9 - (floor_endpoint - floor_scripted)) / (i * 1e-9)
        for s, i in zip(values["stdio"], values["inproc"], strict=True)
    ]
    net_ratio, strict_ratio = Summary.of(net), Summary.of(strict)
    fewest = min(per_property.values(), default=0)
    passed = all(code == 0 for code in stdio.codes + inproc.codes)
    result = BenchResult(
        name=NAME,
        title=(
            f"a plain srdh run ({DEFAULT_EXAMPLES} examples per property): the reference over "
            "stdio with the kit's model endpoint vs in process (fresh processes)"
        ),
        columns=[
            "command",
            "rounds",
            "wall s, median (IQR)",
            "CPU s (with children), median",
            "stdio / in-process (paired)",
        ],
        rows=[
            [
                'srdh run --iut "python -m reference_harness.stdio"',
                str(stdio_s.n),
                stdio_s.text(2),
                f"{Summary.of(stdio.cpu_s).median:.1f}",
                f"{ratio.median:.2f}x",
            ],
            [
                f"srdh run --iut-module {_MODULE}",
                str(inproc_s.n),
                inproc_s.text(2),
                f"{Summary.of(inproc.cpu_s).median:.1f}",
                "-",
            ],
        ],
        verdicts_agree=passed,
    )
    result.data = {
        "stdio_s": stdio_s.as_dict(),
        "inproc_s": inproc_s.as_dict(),
        "stdio_over_inproc": ratio.as_dict(),
        "stdio_minus_floor_over_inproc": net_ratio.as_dict(),
        "stdio_minus_endpoint_only_floor_over_inproc": strict_ratio.as_dict(),
        "floor_endpoint_s": floor_endpoint,
        "floor_scripted_s": floor_scripted,
        "fixtures_sent": len(fixtures),
        "property_examples": per_property,
        "cpu_s": {"stdio": stdio.cpu_s, "inproc": inproc.cpu_s},
        "exit_codes": {"stdio": stdio.codes, "inproc": inproc.codes},
    }
    result.targets.append(
        Target(
            goal=f"stdio + endpoint <= {MAX_RATIO:g}x in-process + declared-wait floor "
            f"({floor_endpoint:.1f} s)",
            measured=f"(stdio - floor) / in-process = {net_ratio.median:.2f}x "
            f"(only the endpoint's own waits as floor, {floor_endpoint - floor_scripted:.1f} s: "
            f"{strict_ratio.median:.2f}x)",
            met=net_ratio.median <= MAX_RATIO,
            margin=f"{MAX_RATIO / net_ratio.median:.2f}x headroom"
            if net_ratio.median <= MAX_RATIO
            else f"missed by {net_ratio.median / MAX_RATIO:.2f}x",
        )
    )
    result.targets.append(
        Target(
            goal=f"a plain run's examples per property >= {MIN_EXAMPLES}",
            measured=f"at least {fewest} ({len(per_property)} properties)",
            met=fewest >= MIN_EXAMPLES and bool(per_property),
            margin=f"{fewest - MIN_EXAMPLES:+d}",
        )
    )
    result.notes.append(
        f"floor: {len(fixtures)} fixtures sent by the subject; their declared waits over the "
        f"endpoint {floor_endpoint:.2f} s, with scripted turns {floor_scripted:.2f} s "
        "(bench/declared_wait.py; the fresh-process scenario's own two IUT processes are not "
        "recorded and their fixtures declare no wait)"
    )
    result.notes.append(
        "CPU s: this process's children (the srdh process and, over stdio, its IUT processes)"
    )
    if not passed:
        failed = "; ".join(f for f in stdio.failures + inproc.failures if f)
        result.notes.append(
            f"a command did not pass (exit codes, warm-up first: {result.data['exit_codes']}): "
            + failed[:1500]
        )
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: 1 round)."""
    return measure(rounds=1 if quick else 3)
