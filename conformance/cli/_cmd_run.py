"""``srdh run``: the conformance suite against an implementation under test (IUT)."""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output

__all__ = ["DEFAULT_MAX_MESSAGE_BYTES", "DEFAULT_TIMEOUT_S", "run"]

DEFAULT_TIMEOUT_S = 30.0
"""Seconds to wait for each IUT message (``conformance.adapters.DEFAULT_TIMEOUT_S``)."""
DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024
"""Largest IUT message in bytes (``conformance.adapters.DEFAULT_MAX_MESSAGE_BYTES``)."""


def run(  # noqa: PLR0913 - one parameter per documented option
    *,
    iut: Annotated[
        str | None, typer.Option("--iut", help="IUT command speaking the stdio NDJSON protocol.")
    ] = None,
    iut_module: Annotated[
        str | None, typer.Option("--iut-module", help="Python IUT factory, MODULE:FACTORY.")
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            help="Run only this scenario, outline example (SCENARIO-example-N) or property "
            "(SCENARIO-property) id (repeat).",
        ),
    ] = None,
    fixture: Annotated[
        Path | None,
        typer.Option(
            "--fixture",
            help="Run one Scenario Fixture file (e.g. a report's fixtures/ID.json) with every "
            "check that applies.",
        ),
    ] = None,
    level: Annotated[
        str | None, typer.Option("--level", help="Run only requirements of this RFC 2119 level.")
    ] = None,
    examples: Annotated[
        int | None, typer.Option("--examples", min=1, help="Generated examples per property.")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Write the NDJSON exchange with the IUT here (see srdh replay)."
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write JSON, JUnit, Markdown, HTML here.")
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds to wait for each IUT message.")
    ] = DEFAULT_TIMEOUT_S,
    max_message_bytes: Annotated[
        int,
        typer.Option(
            "--max-message-bytes",
            min=1024,
            help="Largest IUT message (one NDJSON line), in bytes.",
        ),
    ] = DEFAULT_MAX_MESSAGE_BYTES,
) -> None:
    """Run the conformance suite against an IUT and print results per requirement and scenario.

    Exit 0 when every MUST requirement passed, 1 when one failed or was not tested, 2 when the
    IUT cannot be started, a scenario id is unknown or the report directory is not writable.
    A stdio IUT that hangs, crashes, floods or lies fails the scenario it was running (a fresh
    process runs the next one); whatever it does, its process group is gone when srdh ends.
    """
    from conformance.cli._run_impl import RunOptions, run_against_iut  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    options = RunOptions(
        iut=iut,
        iut_module=iut_module,
        scenarios=tuple(scenario or ()),
        level=level,
        examples=examples,
        report=report,
        timeout_s=timeout,
        max_message_bytes=max_message_bytes,
        fixture=fixture,
        record=record,
    )
    from conformance.cli._kit import announce, kit_line, kit_spec_line  # noqa: PLC0415 - lazy

    out = Output()
    # which kit judges: its features, checks and fixtures are the spec's mirror
    announce(out, (kit_line(), kit_spec_line()))
    if not run_against_iut(options, out):
        raise typer.Exit(EXIT_FAILED)
