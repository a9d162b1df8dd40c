"""``srdh diff OLD NEW``: classify schema changes as breaking or compatible.

Contract directions come from the ``contracts.CONTRACTS`` registry (:func:`contract_directions`).
"""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output, announce, kit_line
from conformance.schemadiff import Direction, diff_paths

__all__ = ["contract_directions", "diff"]


def diff(
    old: Annotated[Path, typer.Argument(help="Old schema file or directory.")],
    new: Annotated[Path, typer.Argument(help="New schema file or directory.")],
    direction: Annotated[
        Direction | None,
        typer.Option(
            "--direction",
            help="Override every contract's direction (default: from the CONTRACTS registry).",
        ),
    ] = None,
    *,
    as_json: Annotated[bool, typer.Option("--json", help="Print the changes as JSON.")] = False,
) -> None:
    """Classify every change from OLD to NEW with a stable rule id (SD001 … SD999).

    Directions come from the contract registry: tightening what the Harness READS breaks
    producers, loosening what it EMITS breaks consumers; an unknown contract is BOTH. Exit 1 when
    any change is breaking, 0 when all are compatible.
    """
    out = Output()
    announce(
        out,
        (
            kit_line(),
            f"old: {old.resolve()}; new: {new.resolve()}; rules and directions: the kit's",
        ),
        machine=as_json,
    )
    directions, default = contract_directions()
    if direction is not None:
        directions, default = {}, direction
    changes = diff_paths(old, new, directions=directions, default=default)
    breaking = [c for c in changes if c.breaking]
    if as_json:
        doc = {"breaking": bool(breaking), "changes": [c.as_dict() for c in changes]}
        out.json(doc)
    else:
        rows = [
            [
                c.rule.label,
                "BREAKING" if c.breaking else "compatible",
                c.contract,
                c.direction.value,
                c.pointer or "/",
                c.detail,
            ]
            for c in changes
        ]
        headers = ["rule", "verdict", "contract", "direction", "pointer", "detail"]
        out.table("schema changes", headers, rows)
        out.line(f"{len(changes)} change(s), {len(breaking)} breaking")
    if breaking:
        raise typer.Exit(EXIT_FAILED)


def contract_directions() -> tuple[dict[str, Direction], Direction]:
    """Map each registered contract name to its direction; the default for others is BOTH.

    BOTH is the strictest default: for an unknown contract every non-neutral change breaks.
    """
    from contracts import CONTRACTS  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    directions = {name: Direction(info.direction.value) for name, info in CONTRACTS.items()}
    return directions, Direction.BOTH
