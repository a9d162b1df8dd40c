"""``srdh run``: the conformance suite against an implementation under test (IUT)."""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.adapters import DEFAULT_TIMEOUT_S, Adapter, InProcessAdapter, StdioAdapter
from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._kit import kit_schemas_dir
from conformance.cli._output import Output
from conformance.cli._suite import run_conformance
from conformance.reports import LEVELS, check_report_dir, write_reports

__all__ = ["run"]


def _adapter(command: str | None, module: str | None, timeout_s: float) -> Adapter:
    if (command is None) == (module is None):
        msg = 'name the IUT with exactly one of --iut "CMD" or --iut-module MOD:FACTORY'
        raise CliSetupError(msg)
    if module is not None:
        if ":" not in module:
            msg = f"--iut-module {module!r}: expected MODULE:FACTORY"
            raise CliSetupError(msg)
        return InProcessAdapter(module)
    assert command is not None  # noqa: S101 - exactly one is set (checked above)
    if not command.strip():
        msg = "--iut: the IUT command is empty"
        raise CliSetupError(msg)
    return StdioAdapter(command, timeout_s)


def run(  # noqa: PLR0913 - one parameter per documented option
    *,
    iut: Annotated[
        str | None, typer.Option("--iut", help="IUT command speaking the stdio NDJSON protocol.")
    ] = None,
    iut_module: Annotated[
        str | None, typer.Option("--iut-module", help="Python IUT factory, MODULE:FACTORY.")
    ] = None,
    scenario: Annotated[
        list[str] | None, typer.Option("--scenario", help="Run only this scenario id (repeat).")
    ] = None,
    level: Annotated[
        str | None, typer.Option("--level", help="Run only requirements of this RFC 2119 level.")
    ] = None,
    examples: Annotated[
        int | None, typer.Option("--examples", min=1, help="Generated examples per property.")
    ] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write JSON, JUnit, Markdown, HTML here.")
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds to wait for each IUT message.")
    ] = DEFAULT_TIMEOUT_S,
) -> None:
    """Run the conformance suite against an IUT and print results per requirement and scenario.

    Exit 0 when every MUST requirement passed, 1 when one failed or was not tested, 2 when the
    IUT cannot be started, a scenario id is unknown or the report directory is not writable.
    """
    out = Output()
    if level is not None and level.upper() not in LEVELS:
        msg = f"--level {level!r}: expected one of {', '.join(LEVELS)}"
        raise CliSetupError(msg)
    if report is not None:
        check_report_dir(report)
    adapter = _adapter(iut, iut_module, timeout)
    try:
        adapter.hello()
        with out.status("running the conformance suite"):
            result = run_conformance(
                adapter,
                scenario_ids=tuple(scenario or ()),
                level=level.upper() if level else None,
                examples=examples,
            )
    finally:
        adapter.close()
    rows = [
        [r.requirement_id, r.level, s.scenario_id, s.status.value, s.message]
        for r in result.requirements
        for s in r.scenarios
    ]
    headers = ["requirement", "level", "scenario", "status", "message"]
    out.table(f"srdh run: {result.iut.name} {result.iut.version}", headers, rows)
    must = result.compliance()["MUST"]
    verdict = "PASSED" if result.passed else "FAILED"
    out.line(f"run {verdict}: MUST {must.passed}/{must.requirements} requirements passed")
    if report is not None:
        for path in write_reports(result, report, kit_schemas_dir()):
            out.line(f"wrote {path}")
    if not result.passed:
        raise typer.Exit(EXIT_FAILED)
