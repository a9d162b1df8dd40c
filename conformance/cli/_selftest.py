"""``srdh selftest``: the mutant self-test (the suite must fail every broken harness).

The work: run it, print a row per mutant as verdicts arrive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from conformance.cli._bounds import EXAMPLES, JOBS
from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._output import Output, announce, kit_line, kit_spec_line

if TYPE_CHECKING:
    from conformance.selftest import MutantVerdict

__all__ = ["run_and_print", "selftest", "verdict_row"]


def selftest(
    mutant: Annotated[
        list[str] | None, typer.Option("--mutant", help="Judge only this mutant (repeat).")
    ] = None,
    examples: Annotated[
        int,
        typer.Option(
            "--examples",
            min=EXAMPLES.low,
            max=EXAMPLES.high,
            help="Generated examples per property (0: none).",
        ),
    ] = 5,
    full: Annotated[  # noqa: FBT002 - a typer flag
        bool,
        typer.Option(
            "--full", help="Run every scenario and property on every mutant (list every killer)."
        ),
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            min=JOBS.low,
            max=JOBS.high,
            help="Processes to use (default: every core available).",
        ),
    ] = None,
) -> None:
    """Run the suite on the reference harness (must pass) and on every mutant (must fail).

    Prints one row per mutant with the scenarios and properties that killed it (by default each
    mutant stops at its first kill; --full lists every killer, with the same verdicts). Exit 1
    when a mutant survived or the reference failed, 2 for an unknown mutant name.
    """
    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    if not run_and_print(tuple(mutant or ()), examples, out, full=full, jobs=jobs):
        raise typer.Exit(EXIT_FAILED)


def verdict_row(verdict: MutantVerdict) -> list[str]:
    """``[name, kind, requirement, verdict, failed by]`` for one verdict.

    A mutant is KILLED, SURVIVED or ERROR; a latitude variant PASSED, FALSE KILL or ERROR.
    """
    if verdict.kind == "variant":  # a conforming variant: it must pass
        state = "PASSED" if verdict.as_expected else "FALSE KILL" if verdict.killed else "ERROR"
    elif verdict.killed:
        state = "KILLED"
    elif verdict.error:
        state = "ERROR"
    else:
        state = "SURVIVED"
    killers = [*verdict.killing_scenarios, *verdict.killing_properties]
    return [
        verdict.name,
        verdict.kind,
        verdict.requirement_id,
        state,
        ", ".join(killers) or verdict.error,
    ]


def run_and_print(
    mutants: tuple[str, ...],
    examples: int,
    out: Output,
    *,
    full: bool = False,
    jobs: int | None = None,
) -> bool:
    """Run the self-test (all mutants when ``mutants`` is empty); return whether it passed.

    ``full`` runs every probe on every mutant (the slow path); ``jobs`` caps the processes.

    Raises:
        CliSetupError: an unknown mutant name.
    """
    from conformance.selftest import run_selftest  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify._kit_steps import selftest_detail  # noqa: PLC0415 - lazy

    def progress(verdict: MutantVerdict) -> None:
        out.err.print(f"{verdict_row(verdict)[3]:<9} {verdict.name}", markup=False)

    try:
        result = run_selftest(
            mutants=mutants or None,
            examples=examples,
            progress=progress,
            fast=not full,
            jobs=jobs,
        )
    except KeyError as exc:
        msg = str(exc.args[0]) if exc.args else "unknown mutant"
        raise CliSetupError(msg) from None
    headers = ["mutant", "kind", "requirement", "verdict", "killed by"]
    out.table("mutant self-test", headers, [verdict_row(v) for v in result.mutants])
    verdict = "PASSED" if result.passed else "FAILED"
    out.line(f"selftest {verdict}: {selftest_detail(result)}")
    return result.passed
