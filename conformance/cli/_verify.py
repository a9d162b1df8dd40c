"""``srdh verify [REPO]``: the main job on a repository with ``openspec/``.

The work: run every step (``conformance.verify``), then turn its result into a report.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, CliSetupError, require_openspec
from conformance.cli._output import KIT_NAME, Output, kit_schemas_dir, kit_version, step_progress

if TYPE_CHECKING:
    from collections.abc import Mapping

    from conformance.reports import MatrixRow, MutantRow, Report, SentenceTrace
    from conformance.verify import VerifyResult

__all__ = ["SELFTEST_STEP", "SUITE_STEP", "verify", "verify_report"]


def verify(
    repo: Annotated[Path, typer.Argument(help="Repository with openspec/.")] = Path(),
    report: Annotated[
        Path | None, typer.Option("--report", help="Write JSON, JUnit, Markdown, HTML here.")
    ] = None,
) -> None:
    """Run every check on REPO and print one summary table (step, status, detail, seconds).

    Steps: spec lint, schemas + examples, freeze lock, codegen drift, traceability, conformance
    suite (reference harness, in process), mutant self-test, gate status. Schemas, examples,
    freeze lock and codegen are the kit's own contract set; lint, traceability and gate read
    REPO/openspec. First it prints which kit and which spec it judges; a REPO whose own
    schemas/ or features/ differ from the kit's is refused (exit 2) rather than mixed.
    Exit 0 only if every step passed, 1 otherwise, 2 on setup errors.
    """
    from conformance.reports import lock_report_dir, write_reports  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify import (  # noqa: PLC0415 - lazy: `srdh --help` stays fast
        STEP_NAMES,
        MixedSourcesError,
        plan_sources,
        run_verify,
    )

    out = Output()
    require_openspec(repo)
    try:
        plan = plan_sources(repo)
    except MixedSourcesError as exc:
        raise CliSetupError(str(exc)) from None
    with contextlib.ExitStack() as stack:
        # the report folder is this run's from now until its reports are written (as srdh run)
        held = stack.enter_context(lock_report_dir(report)) if report is not None else None
        for line in plan.lines:
            out.line(line)
        schemas = kit_schemas_dir()
        with step_progress(out, len(STEP_NAMES)) as progress:
            result = run_verify(repo, schemas, progress=progress)
        rows = [[s.name, s.status.value, s.detail, f"{s.seconds:.2f}"] for s in result.steps]
        out.table(f"srdh verify {repo}", ["step", "status", "detail", "seconds"], rows)
        verdict = "PASSED" if result.passed else "FAILED"
        failed = sum(s.status.value != "PASSED" for s in result.steps)
        passed = len(result.steps) - failed
        out.line(f"verify {verdict}: {passed}/{len(result.steps)} steps passed")
        if report is not None:
            for path in write_reports(verify_report(result, repo), report, schemas, held=held):
                out.line(f"wrote {path}")
    if not result.passed:
        raise typer.Exit(EXIT_FAILED)


SUITE_STEP = "conformance suite"
SELFTEST_STEP = "mutant self-test"


def _mutants(result: VerifyResult) -> tuple[MutantRow, ...]:
    from conformance.reports import MutantRow  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.selftest import SelftestResult  # noqa: PLC0415 - lazy, as above

    selftest = result.payloads.get(SELFTEST_STEP)
    if not isinstance(selftest, SelftestResult):
        return ()
    return tuple(
        MutantRow(
            m.name,
            m.kind,
            m.requirement_id,
            m.killed,
            (*m.killing_scenarios, *m.killing_properties),
        )
        for m in selftest.mutants
    )


def sentence_trace(row: Mapping[str, object]) -> SentenceTrace:
    """A :class:`~conformance.reports.SentenceTrace` from a sentence row's JSON-ready dict."""
    from conformance.reports import SentenceTrace  # noqa: PLC0415 - lazy

    def names(key: str) -> tuple[str, ...]:
        value = row.get(key, ())
        return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()

    return SentenceTrace(
        sentence_id=str(row.get("id", "")),
        requirement_id=str(row.get("requirement_id", "")),
        scenario_id=str(row.get("scenario_id", "")),
        kind=str(row.get("kind", "")),
        level=str(row.get("level", "")) if row.get("kind") != "condition" else "",
        text=str(row.get("text", "")),
        location=str(row.get("location", "")),
        rules=names("rules"),
        mutants=names("mutants"),
    )


def verify_report(result: VerifyResult, repo: Path) -> Report:
    """The verify report: its steps, the suite's results and the traceability matrix.

    The matrix is rebuilt with the suite's results (so it shows each scenario's outcome); when
    the traceability matrix cannot be built, the report falls back to a results-only matrix.
    """
    from conformance.cli._trace import build_matrix_rows  # noqa: PLC0415 - lazy
    from conformance.openspec import ParseError  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.reports import Report, Versions, matrix_from_results  # noqa: PLC0415 - lazy
    from conformance.suite import SuiteResult  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify import requirements_from_suite  # noqa: PLC0415 - lazy

    suite = result.payloads.get(SUITE_STEP)
    suite_result = suite if isinstance(suite, SuiteResult) else None
    requirements = requirements_from_suite(suite_result) if suite_result else ()
    impl = suite_result.implementation if suite_result else {}
    rows: tuple[MatrixRow, ...]
    sentences: tuple[SentenceTrace, ...] = ()
    try:
        view = build_matrix_rows(repo, suite_result)
        rows, columns = view.rows, view.columns
        sentences = tuple(sentence_trace(row) for row in view.sentences)
    except (CliSetupError, ParseError):
        rows, columns = matrix_from_results(requirements)
    return Report(
        title="srdh verify",
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(
            str(impl.get("name", "srdh-reference-harness")),
            str(impl.get("version", kit_version())),
        ),
        requirements=requirements,
        steps=result.steps,
        matrix=rows,
        matrix_columns=columns,
        mutants=_mutants(result),
        sentences=sentences,
    )
