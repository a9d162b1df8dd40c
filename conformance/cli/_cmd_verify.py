"""``srdh verify [REPO]``: the main job on a repository with ``openspec/``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._output import Output
from conformance.cli._progress import step_progress
from conformance.cli._repo import require_openspec

__all__ = ["verify"]


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
    from conformance.cli._kit import kit_schemas_dir  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.cli._verify_report import verify_report  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.reports import check_report_dir, write_reports  # noqa: PLC0415 - lazy: `srdh --help` stays fast
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
    if report is not None:
        check_report_dir(report)
    for line in plan.lines:
        out.line(line)
    schemas = kit_schemas_dir()
    with step_progress(out, len(STEP_NAMES)) as progress:
        result = run_verify(repo, schemas, progress=progress)
    rows = [[s.name, s.status.value, s.detail, f"{s.seconds:.2f}"] for s in result.steps]
    out.table(f"srdh verify {repo}", ["step", "status", "detail", "seconds"], rows)
    verdict = "PASSED" if result.passed else "FAILED"
    failed = sum(s.status.value != "PASSED" for s in result.steps)
    out.line(f"verify {verdict}: {len(result.steps) - failed}/{len(result.steps)} steps passed")
    if report is not None:
        for path in write_reports(verify_report(result, repo), report, schemas):
            out.line(f"wrote {path}")
    if not result.passed:
        raise typer.Exit(EXIT_FAILED)
