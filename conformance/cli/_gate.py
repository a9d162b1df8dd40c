"""``srdh gate STAGE``: may this change start? (Requirement 10, the serial phase gate)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output, kit_line

__all__ = ["gate"]


def gate(
    stage: Annotated[
        str, typer.Argument(help="Stage label: 0 1 2 3 4 5 6A 6B 7 8 9 (case-insensitive).")
    ],
    repo: Annotated[
        Path,
        typer.Option(
            "--repo",
            help="Git repository with openspec/, or any folder inside it (the root is found).",
            show_default=True,
        ),
    ] = Path(),
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            help="Judge this ref (e.g. origin/main: what is merged into the base branch) "
            "instead of HEAD.",
        ),
    ] = None,
) -> None:
    """Print whether STAGE may start, the reasons if not, and the public entry allowed.

    The gate judges what CI sees: openspec/ as committed at HEAD (or at --base REF), never the
    working copy, so a fresh clone gets the same verdict. An archive counts only when complete
    (the active folder gone, the delta merged into the main spec, all committed). A stage that is
    itself archived completely is reported finished. The repository root is the nearest folder
    from REPO upwards (within its git work tree) that holds openspec/. Each reason is followed by
    how to recover, and by a command that runs as written where the repair is mechanical.
    Exit 0 when allowed (or finished), 1 when refused, 2 when the repository, ref or stage cannot
    be read.
    """
    from conformance.gate import evaluate_gate, find_repo_root, read_repo_state  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    root = find_repo_root(repo)
    ref = base or "HEAD"
    decision = evaluate_gate(read_repo_state(root, ref=ref), stage)  # "6b" is stage 6B
    verdict = "allowed" if decision.allowed else "refused"
    if decision.allowed and decision.finished:
        verdict = "finished (archived completely; the next stage may start)"
    from conformance.gate import default_plan_path  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out.line(f"{kit_line()}; phase plan {default_plan_path()}")
    out.line(f"repository: {root}")
    out.line(f"spec: {root / 'openspec'}")
    out.line(f"judged: as committed at {ref} ({decision.commit[:12]}), as a fresh clone has it")
    out.line(f"stage {decision.stage}: {verdict}")
    if decision.reasons:
        rows = [[r.code, r.stage, r.message] for r in decision.reasons]
        out.table("reasons", ["code", "stage", "message"], rows)
        out.line("how to recover:")
        for reason in decision.reasons:
            out.line(f"  stage {reason.stage} ({reason.code}): {reason.hint}")
            if reason.command:
                out.line(f"    run: {reason.command}")
    if decision.pending:
        first = decision.pending[0]
        out.line(
            f"note: {len(decision.pending)} file(s) under openspec/ differ from HEAD in the "
            f"working copy (first {first}); the gate and CI judge the commit, not them"
        )
    out.line(f"public entry: {decision.public_entry}")
    if not decision.allowed:
        raise typer.Exit(EXIT_FAILED)
