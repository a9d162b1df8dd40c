"""The work of ``srdh selftest``: run it, print a row per mutant as verdicts arrive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance import selftest
from conformance.cli._errors import CliSetupError
from conformance.verify._kit_steps import selftest_detail

if TYPE_CHECKING:
    from conformance.cli._output import Output
    from conformance.selftest import MutantVerdict

__all__ = ["run_and_print", "verdict_row"]


def verdict_row(verdict: MutantVerdict) -> list[str]:
    """``[mutant, kind, requirement, KILLED|SURVIVED|ERROR, killed by]`` for one verdict."""
    if verdict.killed:
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

    def progress(verdict: MutantVerdict) -> None:
        out.err.print(f"{verdict_row(verdict)[3]:<9} {verdict.name}", markup=False)

    try:
        result = selftest.run_selftest(
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
