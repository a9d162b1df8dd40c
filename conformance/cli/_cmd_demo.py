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
) -> None:
    """Run SCENARIO on the reference harness and print each Run's trace as a timeline.

    A scenario id runs that scenario of the conformance suite (its Given steps build the
    fixture) and shows every Run it made; a file is run as one scenario-fixture. Exit 1 when a
    Run's observation carries an error, 2 for an unknown id or an invalid fixture file.
    """
    from conformance.cli._demo_impl import run_demo  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    if run_demo(scenario, Output()):
        raise typer.Exit(EXIT_FAILED)
