"""The work of ``srdh run``: start the IUT, run the suite, print and write the report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path  # noqa: TC003 - a dataclass field type
from typing import TYPE_CHECKING

from conformance.adapters import Adapter, InProcessAdapter, StdioAdapter
from conformance.cli._errors import CliSetupError
from conformance.cli._kit import kit_schemas_dir
from conformance.cli._suite import run_conformance
from conformance.reports import LEVELS, check_report_dir, write_reports

if TYPE_CHECKING:
    from conformance.cli._output import Output

__all__ = ["RunOptions", "run_against_iut"]


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


@dataclass(frozen=True)
class RunOptions:
    """The options of ``srdh run`` (see its help)."""

    iut: str | None
    iut_module: str | None
    scenarios: tuple[str, ...]
    level: str | None
    examples: int | None
    report: Path | None
    timeout_s: float


def run_against_iut(options: RunOptions, out: Output) -> bool:
    """Run the suite against the IUT of ``options``; print the table; write reports.

    Returns True when the run passed (every MUST requirement passed).

    Raises:
        CliSetupError: bad options. ReportDirError: unwritable report directory.
        AdapterError: the IUT cannot start or broke the protocol. SuiteSetupError: unknown
            scenario id.
    """
    level = options.level
    if level is not None and level.upper() not in {*LEVELS, "SHALL"}:
        msg = f"--level {level!r}: expected one of {', '.join(LEVELS)} (SHALL = MUST)"
        raise CliSetupError(msg)
    if options.report is not None:
        check_report_dir(options.report)
    adapter = _adapter(options.iut, options.iut_module, options.timeout_s)
    try:
        adapter.hello()
        with out.status("running the conformance suite"):
            result = run_conformance(
                adapter,
                scenario_ids=options.scenarios,
                level=level.upper() if level else None,
                examples=options.examples,
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
    if options.report is not None:
        for path in write_reports(result, options.report, kit_schemas_dir()):
            out.line(f"wrote {path}")
    return result.passed
