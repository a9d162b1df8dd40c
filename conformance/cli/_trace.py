"""``srdh trace [REPO]``: the traceability matrices.

Scenario matrix: spec scenario <-> Gherkin mirror <-> step definitions <-> property <-> result.
Sentence matrix: every sentence of the spec (requirement bodies and THEN bullets; WHEN/GIVEN are
conditions) <-> the check rules quoting it <-> the mutants breaking those rules.

The work: the traceability matrix as report rows (:func:`build_matrix_rows`, from
``conformance.traceability``), which ``srdh run`` and ``srdh verify`` put in their reports too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, CliSetupError, require_openspec
from conformance.cli._output import Output, announce, kit_line, repo_spec_lines

if TYPE_CHECKING:
    from conformance.reports import MatrixRow
    from conformance.suite import SuiteResult

__all__ = ["MatrixView", "build_matrix_rows", "trace"]


def _safe(text: object) -> str:
    """Spec text as data: control and line-separator characters shown as escapes."""
    return "".join(
        c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
        for c in str(text)
    )


def _cell(values: object) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) and values else "-"


def trace(
    repo: Annotated[Path, typer.Argument(help="Repository with openspec/.")] = Path(),
    *,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print both matrices, issues and notes as JSON.")
    ] = False,
    preview: Annotated[
        bool,
        typer.Option(
            "--preview", help="Trace the spec as it will be once the active changes are archived."
        ),
    ] = False,
) -> None:
    """Print the traceability matrices of REPO and every drift problem.

    With --preview, the scenarios of active (unarchived) changes are traced too: their deltas
    are merged into the main spec as `openspec archive` will merge them.

    Drift is a scenario renamed, reworded, missing, unimplemented or failing; a MUST/SHALL
    sentence no check rule tests; a rule fragment that matches no sentence or several; two
    feature scenarios sharing a name. SHOULD/MAY sentences without a check are listed as notes.
    The first lines name the kit, the spec and the Gherkin mirror read (REPO/features, else the
    kit's), on standard error with --json. Exit 1 on drift.
    """
    from conformance.verify import features_for  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    require_openspec(repo)
    announce(out, (kit_line(), *repo_spec_lines(repo)), machine=as_json)
    matrix = build_matrix_rows(repo, features=features_for(repo), preview=preview)
    if as_json:
        out.line(json.dumps(matrix.document, indent=2))
        if matrix.problems:
            raise typer.Exit(EXIT_FAILED)
        return
    rows = [
        [row.requirement_id, row.scenario_id, *(row.cells.get(c, "") for c in matrix.columns)]
        for row in matrix.rows
    ]
    out.table("traceability matrix", ["requirement", "scenario", *matrix.columns], rows)
    sentence_rows = [
        [
            _safe(s["id"]),
            str(s["level"]) if s["kind"] != "condition" else "(when)",
            _cell(s["rules"]),
            _cell(s["mutants"]),
            _safe(s["text"]),
        ]
        for s in matrix.sentences
    ]
    out.table(
        "sentence matrix (sentence -> check rules -> mutants)",
        ["sentence", "level", "rules", "mutants", "text"],
        sentence_rows,
    )
    untested = [s for s in matrix.sentences if s["kind"] != "condition" and not s["rules"]]
    for note in matrix.notes:
        out.line(f"note: {note}")
    for problem in matrix.problems:
        out.line(problem)
    normative = sum(1 for s in matrix.sentences if s["kind"] != "condition")
    out.line(
        f"{len(matrix.rows)} scenario(s), {normative} normative sentence(s), "
        f"{len(untested)} untested, {len(matrix.problems)} drift problem(s)"
    )
    if matrix.problems:
        raise typer.Exit(EXIT_FAILED)


@dataclass(frozen=True)
class MatrixView:
    """What ``srdh trace`` and the reports show of the traceability matrix.

    Rows and column names for reports, the drift problems (one line each), the sentence ->
    rule -> mutant matrix (``sentences``, JSON-ready dicts), its notes, and the whole matrix as
    JSON (``document``).
    """

    rows: tuple[MatrixRow, ...]
    columns: tuple[str, ...]
    problems: tuple[str, ...]
    sentences: tuple[dict[str, object], ...] = ()
    notes: tuple[str, ...] = ()
    document: dict[str, object] | None = None


def build_matrix_rows(
    repo: Path,
    results: SuiteResult | None = None,
    *,
    features: Path | None = None,
    preview: bool = False,
) -> MatrixView:
    """Build the matrix of ``repo`` (with the suite's ``results`` when given).

    ``features`` is the Gherkin mirror folder (default ``repo/features``); ``preview`` merges
    the active changes' deltas first (``srdh trace --preview``).

    Raises:
        CliSetupError: a part of the kit the matrix reads is not installed.
        ParseError: a spec file cannot be read.
    """
    from conformance.traceability import (  # noqa: PLC0415 - lazy: `srdh --help` stays fast
        REPORT_COLUMNS,
        build_matrix,
        report_rows,
    )

    try:
        if features is None:
            matrix = build_matrix(repo, results=results, preview=preview)
        else:
            matrix = build_matrix(repo, results=results, features=str(features), preview=preview)
    except ImportError as exc:
        msg = f"the traceability matrix is not available: {exc}"
        raise CliSetupError(msg) from None
    problems = tuple(str(issue) for issue in matrix.issues)
    return MatrixView(
        report_rows(matrix),
        tuple(REPORT_COLUMNS),
        problems,
        sentences=tuple(row.to_dict() for row in matrix.sentences),
        notes=matrix.notes,
        document=matrix.to_dict(),
    )
