"""``srdh demo SCENARIO``: run one scenario fixture on the reference harness, show its trace."""

from __future__ import annotations

from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output

__all__ = ["demo"]


def demo(
    scenario: Annotated[
        str, typer.Argument(help="A scenario id (see `srdh spec show`) or a fixture JSON file.")
    ],
    iut: Annotated[
        str | None,
        typer.Option("--iut", help="Also run it on this stdio IUT; show both traces side by side."),
    ] = None,
    iut_module: Annotated[
        str | None,
        typer.Option("--iut-module", help="Same, with a Python IUT factory MODULE:FACTORY."),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds to wait for each IUT message.")
    ] = 30.0,
) -> None:
    """Run SCENARIO on the reference harness and print each Run's trace as a timeline.

    A scenario id runs that scenario of the conformance suite (its Given steps build the
    fixture) and shows every Run it made; a file is run as one scenario-fixture. Exit 1 when a
    Run's observation carries an error, 2 for an unknown id or an invalid fixture file.

    With --iut (or --iut-module), every fixture also runs on that IUT and the two normalized
    traces are printed side by side, the first difference marked; exit 1 when they differ.
    """
    from conformance.cli._kit import announce, kit_line, kit_spec_line  # noqa: PLC0415 - lazy

    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    if iut is not None or iut_module is not None:
        from conformance.adapters import supervise_signals  # noqa: PLC0415 - lazy
        from conformance.cli._demo_impl import run_demo_against  # noqa: PLC0415 - lazy
        from conformance.cli._run_impl import make_adapter  # noqa: PLC0415 - lazy

        adapter = make_adapter(iut, iut_module, timeout)
        with supervise_signals():
            try:
                differs = run_demo_against(scenario, adapter, out)
            finally:
                adapter.close()
        if differs:
            raise typer.Exit(EXIT_FAILED)
        return
    from conformance.cli._demo_impl import run_demo  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    if run_demo(scenario, out):
        raise typer.Exit(EXIT_FAILED)
