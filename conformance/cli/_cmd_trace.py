"""``srdh trace [REPO]``: the traceability matrices.

Scenario matrix: spec scenario <-> Gherkin mirror <-> step definitions <-> property <-> result.
Sentence matrix: every sentence of the spec (requirement bodies and THEN bullets; WHEN/GIVEN are
conditions) <-> the check rules quoting it <-> the mutants breaking those rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output
from conformance.cli._repo import require_openspec

__all__ = ["trace"]


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
) -> None:
    """Print the traceability matrices of REPO and every drift problem.

    Drift is a scenario renamed, reworded, missing, unimplemented or failing; a MUST/SHALL
    sentence no check rule tests; a rule fragment that matches no sentence or several; two
    feature scenarios sharing a name. SHOULD/MAY sentences without a check are listed as notes.
    The first lines name the kit, the spec and the Gherkin mirror read (REPO/features, else the
    kit's), on standard error with --json. Exit 1 on drift.
    """
    from conformance.cli._kit import announce, kit_line, repo_spec_lines  # noqa: PLC0415 - lazy
    from conformance.cli._matrix import build_matrix_rows  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify import features_for  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    require_openspec(repo)
    announce(out, (kit_line(), *repo_spec_lines(repo)), machine=as_json)
    matrix = build_matrix_rows(repo, features=features_for(repo))
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
