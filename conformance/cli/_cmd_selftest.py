"""``srdh selftest``: the mutant self-test (the suite must fail every broken harness)."""

from __future__ import annotations

from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output

__all__ = ["selftest"]


def selftest(
    mutant: Annotated[
        list[str] | None, typer.Option("--mutant", help="Judge only this mutant (repeat).")
    ] = None,
    examples: Annotated[
        int, typer.Option("--examples", min=0, help="Generated examples per property (0: none).")
    ] = 5,
    full: Annotated[  # noqa: FBT002 - a typer flag
        bool,
        typer.Option(
            "--full", help="Run every scenario and property on every mutant (list every killer)."
        ),
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, help="Processes to use (default: every core available)."),
    ] = None,
) -> None:
    """Run the suite on the reference harness (must pass) and on every mutant (must fail).

    Prints one row per mutant with the scenarios and properties that killed it (by default each
    mutant stops at its first kill; --full lists every killer, with the same verdicts). Exit 1
    when a mutant survived or the reference failed, 2 for an unknown mutant name.
    """
    from conformance.cli._kit import announce, kit_line, kit_spec_line  # noqa: PLC0415 - lazy
    from conformance.cli._selftest_impl import run_and_print  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    if not run_and_print(tuple(mutant or ()), examples, out, full=full, jobs=jobs):
        raise typer.Exit(EXIT_FAILED)
