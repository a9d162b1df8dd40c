"""``srdh run``: the conformance suite against an implementation under test (IUT).

The work: start the IUT, run the suite (:mod:`conformance.cli._suite`), print the results and
write the reports.
"""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import TYPE_CHECKING, Annotated

import typer

from conformance._examples import DEFAULT_EXAMPLES
from conformance.cli._bounds import EXAMPLES, MAX_MESSAGE_BYTES, TIMEOUT_S
from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._heap import freeze_imports
from conformance.cli._output import (
    KIT_NAME,
    Output,
    announce,
    kit_line,
    kit_schemas_dir,
    kit_spec_line,
    kit_version,
)

if TYPE_CHECKING:
    from typing import Any

    from conformance.adapters import Adapter, ProtocolViolation
    from conformance.cli._failures import FailureContext
    from conformance.reports import Report, ReportDirLock

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_TIMEOUT_S",
    "TERMINAL_MESSAGE_CHARS",
    "RunOptions",
    "fold_violations",
    "make_adapter",
    "run",
    "run_against_iut",
]

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
        int,
        typer.Option(
            "--examples",
            min=EXAMPLES.low,
            max=EXAMPLES.high,
            help="Generated examples per property: each selected spec scenario also runs as a "
            "Hypothesis property with this many examples (0: the Gherkin scenarios only).",
        ),
    ] = DEFAULT_EXAMPLES,
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
        float,
        typer.Option(
            "--timeout",
            min=TIMEOUT_S.low,
            max=TIMEOUT_S.high,
            help="Seconds to wait for each IUT message.",
        ),
    ] = DEFAULT_TIMEOUT_S,
    max_message_bytes: Annotated[
        int,
        typer.Option(
            "--max-message-bytes",
            min=MAX_MESSAGE_BYTES.low,
            max=MAX_MESSAGE_BYTES.high,
            help="Largest IUT message (one NDJSON line), in bytes.",
        ),
    ] = DEFAULT_MAX_MESSAGE_BYTES,
) -> None:
    """Run the conformance suite against an IUT and print results per requirement and scenario.

    A plain run judges every Gherkin scenario of every requirement, and each spec scenario's
    Hypothesis property with 10 generated examples (--examples; derandomized: the same
    examples every run).

    Exit 0 when every MUST requirement passed, 1 when one failed or was not tested, 2 when the
    IUT cannot be started, a scenario id is unknown or the report directory is not writable.
    A stdio IUT that hangs, crashes, floods or lies fails the scenario it was running (a fresh
    process runs the next one); whatever it does, its process group is gone when srdh ends.
    """
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
    out = Output()
    # which kit judges: its features, checks and fixtures are the spec's mirror
    announce(out, (kit_line(), kit_spec_line()))
    if not run_against_iut(options, out):
        raise typer.Exit(EXIT_FAILED)


TERMINAL_MESSAGE_CHARS = 500
"""A message longer than this is shortened on the terminal (never in the reports)."""


def _adapter(
    command: str | None, module: str | None, timeout_s: float, max_message_bytes: int
) -> Adapter:
    from conformance.adapters import InProcessAdapter, StdioAdapter  # noqa: PLC0415 - lazy

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
    try:
        shlex.split(command)
    except ValueError as error:  # an unbalanced quote or a trailing backslash
        msg = (
            f"--iut {command!r}: cannot be split like a shell line ({error}); "
            "quote each argument that holds spaces, and close every quote"
        )
        raise CliSetupError(msg) from None
    return StdioAdapter(command, timeout_s, max_message_bytes=max_message_bytes)


def make_adapter(
    command: str | None,
    module: str | None,
    timeout_s: float,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> Adapter:
    """The adapter of ``--iut CMD`` or ``--iut-module MOD:FACTORY`` (exactly one).

    Raises:
        CliSetupError: none or both given, an empty command or one that cannot be split like
            a shell line (an unbalanced quote), or a module without ``:``.
    """
    return _adapter(command, module, timeout_s, max_message_bytes)


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
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    fixture: Path | None = None
    record: Path | None = None

    def recorded(self) -> dict[str, Any]:
        """The options ``srdh replay`` needs, as written to the recording's ``run.json``."""
        return {
            "kit": {"name": KIT_NAME, "version": kit_version()},
            "iut": self.iut,
            "iut_module": self.iut_module,
            "scenarios": list(self.scenarios),
            "level": self.level,
            "examples": self.examples,
            "fixture": str(self.fixture) if self.fixture is not None else None,
            # not needed to replay, but to reproduce a failure as the run judged it
            "timeout_s": self.timeout_s,
            "max_message_bytes": self.max_message_bytes,
        }

    def iut_args(self) -> str:
        """The options naming the IUT, shell-quoted (for reproduce commands)."""
        if self.iut_module is not None:
            return f"--iut-module {shlex.quote(self.iut_module)}"
        return f"--iut {shlex.quote(self.iut or '')}"

    def limit_args(self) -> str:
        """``--timeout`` and ``--max-message-bytes`` when not the defaults, else ``""``.

        Both change verdicts (a slow answer fails under a shorter timeout, a long line under a
        smaller limit), so every reproduce command carries them (with a leading space). The
        timeout is written exactly (``2``, ``0.25``), never rounded.
        """
        args = ""
        if self.timeout_s != DEFAULT_TIMEOUT_S:
            exact = self.timeout_s
            shown = str(int(exact)) if float(exact).is_integer() else repr(float(exact))
            args += f" --timeout {shown}"
        if self.max_message_bytes != DEFAULT_MAX_MESSAGE_BYTES:
            args += f" --max-message-bytes {self.max_message_bytes}"
        return args


class _Reference:
    """The reference harness, started on first use, for the reference trace of a failure."""

    def __init__(self) -> None:
        self._adapter: Adapter | None = None

    def __call__(self, fixture: dict[str, Any]) -> dict[str, Any] | None:
        from conformance.adapters import AdapterError, InProcessAdapter  # noqa: PLC0415 - lazy
        from conformance.verify import REFERENCE_IUT  # noqa: PLC0415 - only on a failure

        try:
            if self._adapter is None:
                self._adapter = InProcessAdapter(REFERENCE_IUT)
            return self._adapter.run(fixture)
        except (AdapterError, ImportError):
            return None

    def close(self) -> None:
        if self._adapter is not None:
            self._adapter.close()


def _shorten(text: str, report: Path | None) -> str:
    if len(text) <= TERMINAL_MESSAGE_CHARS:
        return text
    where = f"{report / 'report.json'}" if report is not None else "rerun with --report DIR"
    return f"{text[: TERMINAL_MESSAGE_CHARS - 1]}… (full text: {where})"


def fold_violations(report: Report, violations: list[ProtocolViolation]) -> Report:
    """Fail the scenario each late protocol violation is blamed on (ERROR, with the reason).

    A violation names its request's fixture; the scenario is the fixture's ``scenario_id``, or
    else the scenario whose id is the longest prefix of the fixture id. A violation no scenario
    claims fails every scenario (the IUT's stream could not be trusted after it). Each blamed
    scenario also gets a structured :class:`~conformance.reports.Failure` (source ``protocol``).
    """
    if not violations:
        return report
    from conformance.reports import Failure, Status  # noqa: PLC0415 - lazy

    ids = [s.scenario_id for r in report.requirements for s in r.scenarios]
    blamed: dict[str, list[str]] = {}
    for violation in violations:
        owner = violation.scenario_id if violation.scenario_id in ids else None
        if owner is None:
            prefixes = [i for i in ids if violation.fixture_id.startswith(i)]
            owner = max(prefixes, key=len) if prefixes else None
        for scenario_id in [owner] if owner is not None else ids:
            blamed.setdefault(scenario_id, []).append(
                f"protocol error ({violation.request_id}, fixture {violation.fixture_id}): "
                f"{violation.reason}"
            )
    requirements = tuple(
        dataclasses.replace(
            r,
            scenarios=tuple(
                dataclasses.replace(
                    s,
                    status=Status.ERROR,
                    message=" | ".join(m for m in (*blamed[s.scenario_id], s.message) if m),
                )
                if s.scenario_id in blamed
                else s
                for s in r.scenarios
            ),
        )
        for r in report.requirements
    )
    failures = tuple(
        Failure(
            requirement_id=next(
                (
                    r.requirement_id
                    for r in report.requirements
                    for s in r.scenarios
                    if s.scenario_id == scenario_id
                ),
                "",
            ),
            scenario_id=scenario_id,
            example_id=violation.fixture_id,
            source="protocol",
            status=Status.ERROR,
            check="the stdio protocol (docs/contracts.md): one observation per run, nothing else",
            rules=(),
            spec=(),
            expected="exactly one answer per run message, and nothing after it",
            observed=violation.reason,
            message=f"protocol error ({violation.request_id}, fixture {violation.fixture_id}): "
            f"{violation.reason}",
        )
        for violation in violations
        for scenario_id in _blamed_on(violation, report)
    )
    return dataclasses.replace(
        report, requirements=requirements, failures=report.failures + failures
    )


def _blamed_on(violation: ProtocolViolation, report: Report) -> list[str]:
    """The scenario ids a late protocol violation fails (see :func:`fold_violations`)."""
    ids = [s.scenario_id for r in report.requirements for s in r.scenarios]
    if violation.scenario_id in ids:
        return [violation.scenario_id]
    prefixes = [i for i in ids if violation.fixture_id.startswith(i)]
    return [max(prefixes, key=len)] if prefixes else ids


def _run_fixture(adapter: Adapter, path: Path, context: FailureContext, out: Output) -> Report:
    from conformance.cli._suite import run_fixture  # noqa: PLC0415 - only with --fixture
    from conformance.reports import Report, Versions, matrix_from_results  # noqa: PLC0415 - lazy

    impl = dict(adapter.hello().get("implementation", {}))
    verdict = run_fixture(adapter, path, context)
    for note in verdict.notes:
        out.line(note)
    requirements = (verdict.requirement,)
    rows, columns = matrix_from_results(requirements)
    return Report(
        title="srdh run --fixture",
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(str(impl.get("name", "unknown")), str(impl.get("version", "unknown"))),
        requirements=requirements,
        matrix=rows,
        matrix_columns=columns,
        failures=(verdict.failure,) if verdict.failure is not None else (),
    )


def _check_options(options: RunOptions) -> None:
    from conformance.reports import LEVELS, check_report_dir  # noqa: PLC0415 - lazy

    level = options.level
    if level is not None and level.upper() not in {*LEVELS, "SHALL"}:
        msg = f"--level {level!r}: expected one of {', '.join(LEVELS)} (SHALL = MUST)"
        raise CliSetupError(msg)
    if options.report is not None:
        check_report_dir(options.report)
    if options.fixture is not None and (options.scenarios or options.level):
        msg = "--fixture runs one fixture file; it cannot be combined with --scenario or --level"
        raise CliSetupError(msg)


def _print_result(
    result: Report, warnings: tuple[str, ...], options: RunOptions, out: Output
) -> None:
    """The results table (long messages shortened), warnings, and each failure's reproduce."""
    rows = [
        [
            r.requirement_id,
            r.level,
            s.scenario_id,
            s.status.value,
            _shorten(s.message, options.report),
        ]
        for r in result.requirements
        for s in r.scenarios
    ]
    headers = ["requirement", "level", "scenario", "status", "message"]
    out.table(f"srdh run: {result.iut.name} {result.iut.version}", headers, rows)
    for warning in warnings:
        out.warning(warning)
    for failure in result.failures:
        rules = f" [{', '.join(failure.rule_ids)}]" if failure.rules else ""
        out.line(f"failed: {failure.example_id}{rules}")
        if failure.fixture_path and options.report is not None:
            out.line(f"  fixture: {options.report / failure.fixture_path}")
        out.line(f"  reproduce: {failure.reproduce}")


def run_against_iut(options: RunOptions, out: Output, adapter: Adapter | None = None) -> bool:
    """Run the suite against the IUT of ``options``; print the table; write reports.

    The IUT is always released before the table is printed: ``bye``, the end of its input, its
    process group killed. How it ended never discards the results (a warning is printed and
    kept in the reports); a message it sent after its answer fails the scenario it followed.
    SIGINT, SIGTERM and SIGHUP end the IUT's process group, then the suite stops: what ran is
    printed and written as a partial report (unrun scenarios NOT_RUN; a recording ends with the
    interruption, so ``srdh replay`` stops at the same point) and ``srdh`` exits 128 + the
    signal's number (130, 143). A second signal ends ``srdh`` at once.
    ``adapter`` replaces the IUT of ``options`` (``srdh replay`` passes a ReplayAdapter; the
    options still name the recorded IUT for reproduce commands). With ``options.record`` the
    exchange is written to that folder (:class:`~conformance.adapters.ExchangeRecorder`).

    With ``options.report`` the report folder is locked (:func:`~conformance.reports.
    lock_report_dir`) before the IUT starts and until the reports are written: a second run
    into the same folder is refused at once (exit 2, naming the folder and this run's pid).

    Returns True when the run passed (every MUST requirement passed).

    Raises:
        CliSetupError: bad options. ReportDirError: unwritable report directory, or one another
            run holds. AdapterError: the IUT cannot start or broke the protocol.
            SuiteSetupError: unknown scenario id.
    """
    from conformance.reports import lock_report_dir  # noqa: PLC0415 - lazy

    _check_options(options)
    if options.report is None:
        return _run_and_report(options, out, adapter, None)
    with lock_report_dir(options.report) as held:
        return _run_and_report(options, out, adapter, held)


def _read_fixture_first(options: RunOptions) -> None:
    """Judge the ``--fixture`` file before the IUT starts, so that a bad file is named first.

    Raises:
        ContractError: the file is not a valid scenario-fixture (file, line, JSON pointer).
    """
    if options.fixture is not None:
        from conformance.cli._suite import read_fixture  # noqa: PLC0415 - only with --fixture

        read_fixture(options.fixture)


def _started_adapter(options: RunOptions, adapter: Adapter | None) -> Adapter:
    """``adapter``, or the one ``options`` name; a stdio IUT's process started, hello unread.

    The ``--fixture`` file is judged first (a bad file is named before the IUT starts). A stdio
    IUT then starts up while ``srdh`` loads the suite (about a second of imports), instead of
    after it: :meth:`~conformance.adapters.StdioAdapter.start`; its ``hello`` is still due within
    ``--timeout`` of its start.
    """
    from conformance.adapters import StdioAdapter  # noqa: PLC0415 - lazy

    if adapter is None:
        adapter = _adapter(
            options.iut, options.iut_module, options.timeout_s, options.max_message_bytes
        )
    _read_fixture_first(options)
    if isinstance(adapter, StdioAdapter):
        adapter.start()
    return adapter


def _run_and_report(  # noqa: PLR0915 - the run's steps in their order, in one place
    options: RunOptions, out: Output, adapter: Adapter | None, held: ReportDirLock | None
) -> bool:
    """:func:`run_against_iut` once its options are checked and its report folder is locked."""
    from conformance.adapters import (  # noqa: PLC0415 - lazy
        RunInterrupted,
        interruption,
        supervise_signals,
    )

    level = options.level
    adapter = _started_adapter(options, adapter)
    started = adapter
    try:  # the IUT is running from here: whatever fails before the suite's own `finally` closes it
        from conformance.cli._failures import FailureContext, SpecIndex  # noqa: PLC0415 - lazy
        from conformance.cli._suite import run_conformance  # noqa: PLC0415 - lazy
        from conformance.reports import write_reports  # noqa: PLC0415 - lazy

        if options.record is not None:
            from conformance.adapters import ExchangeRecorder  # noqa: PLC0415 - with --record

            adapter = ExchangeRecorder(adapter, options.record, options.recorded())
        reference = _Reference()
        context = FailureContext(
            iut_args=options.iut_args(),
            limit_args=options.limit_args(),
            report_dir=options.report,
            spec=SpecIndex.of_kit(),
            reference=reference,
            examples=options.examples,
        )
    except BaseException:
        started.close()
        raise
    freeze_imports()  # the suite's imports are done (a process srdh's main started)
    with supervise_signals():
        try:
            adapter.hello()
            with out.status("running the conformance suite"):
                if options.fixture is not None:
                    result = _run_fixture(adapter, options.fixture, context, out)
                else:
                    result = run_conformance(
                        adapter,
                        scenario_ids=options.scenarios,
                        level=level.upper() if level else None,
                        examples=options.examples,
                        failures=context,
                    )
            stopped = interruption()
            if stopped is not None and options.record is not None:
                adapter.mark_interrupted(stopped.name)  # type: ignore[attr-defined]
        except RunInterrupted as early:  # before the suite ran (or while --fixture ran)
            out.warning(f"{early}: no scenario ran, no report written")
            raise typer.Exit(128 + early.signum) from None
        finally:
            adapter.close()
            reference.close()
    warnings = tuple(getattr(adapter, "warnings", ()))
    result = fold_violations(result, list(getattr(adapter, "violations", ())))
    result = dataclasses.replace(result, warnings=warnings)
    _print_result(result, warnings, options, out)
    must = result.compliance()["MUST"]
    verdict = "PARTIAL" if result.partial else "PASSED" if result.passed else "FAILED"
    out.line(f"run {verdict}: MUST {must.passed}/{must.requirements} requirements passed")
    if options.report is not None:
        for path in write_reports(result, options.report, kit_schemas_dir(), held=held):
            out.line(f"wrote {path}")
    if options.record is not None:
        again = shlex.quote(str(options.record))
        out.line(f"recorded the exchange in {options.record} (re-judge it: srdh replay {again})")
    if stopped is not None:
        out.warning(f"{result.partial or stopped}: partial results; scenarios not run are NOT_RUN")
        raise typer.Exit(128 + stopped.signum)
    return result.passed
