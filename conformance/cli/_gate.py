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
) -> None:
    """Print whether STAGE may start, the reasons if not, and the public entry allowed.

    The repository root is the nearest folder from REPO upwards (within its git work tree) that
    holds openspec/. Each reason is followed by how to recover from it.
    Exit 0 when allowed, 1 when refused, 2 when the repository or stage cannot be read.
    """
    from conformance.gate import evaluate_gate, find_repo_root, read_repo_state  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    root = find_repo_root(repo)
    decision = evaluate_gate(read_repo_state(root), stage.upper())  # "6b" means stage 6B
    verdict = "allowed" if decision.allowed else "refused"
    from conformance.gate import default_plan_path  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out.line(f"{kit_line()}; phase plan {default_plan_path()}")
    out.line(f"repository: {root}")
    out.line(f"spec: {root / 'openspec'}")
    out.line(f"stage {decision.stage}: {verdict}")
    if decision.reasons:
        rows = [[r.code, r.stage, r.message] for r in decision.reasons]
        out.table("reasons", ["code", "stage", "message"], rows)
        out.line("how to recover:")
        for reason in decision.reasons:
            out.line(f"  stage {reason.stage} ({reason.code}): {reason.hint}")
    out.line(f"public entry: {decision.public_entry}")
    if not decision.allowed:
        raise typer.Exit(EXIT_FAILED)
