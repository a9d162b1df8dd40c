"""``srdh diff OLD NEW``: classify schema changes as breaking or compatible.

Contract directions come from the ``contracts.CONTRACTS`` registry (:func:`contract_directions`).
"""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output, kit_line
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
    producers, loosening what it EMITS breaks consumers; an unknown contract is BOTH. A higher
    $id version of the same contract is SD025 version-bumped (neutral). Each change names the
    action it requires: none, a minor change recorded by `srdh contract update`, or a $id bump
    by `srdh contract bump NAME` (the stdio protocol schemas are versioned by the hello
    protocol_version instead). Exit 1 when any change is breaking and its contract's $id
    version (for a protocol schema: the protocol version) was not bumped, 0 otherwise.
    """
    out = Output()
    # printed before the first result: a missing OLD or NEW is one error line alone
    out.first(
        (
            kit_line(),
            f"old: {old.resolve()}; new: {new.resolve()}; rules and directions: the kit's",
        ),
        machine=as_json,
    )
    directions, default = contract_directions()
    if direction is not None:
        directions, default = {}, direction
    from contracts.freeze import PROTOCOL_SCHEMAS  # noqa: PLC0415 - lazy, as above

    changes = diff_paths(
        old, new, directions=directions, default=default, protocol=PROTOCOL_SCHEMAS
    )
    breaking = [c for c in changes if c.breaking]
    unbumped = [c for c in breaking if not c.bumped]
    if as_json:
        doc = {
            "breaking": bool(breaking),
            "needs_bump": sorted({c.contract for c in unbumped}),
            "changes": [c.as_dict() for c in changes],
        }
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
                c.action,
            ]
            for c in changes
        ]
        headers = ["rule", "verdict", "contract", "direction", "pointer", "detail", "action"]
        out.table("schema changes", headers, rows)
        line = f"{len(changes)} change(s), {len(breaking)} breaking"
        if unbumped:
            names = ", ".join(sorted({c.contract for c in unbumped}))
            line += f"; needs a version bump: {names}"
        out.line(line)
    if unbumped:
        raise typer.Exit(EXIT_FAILED)


def contract_directions() -> tuple[dict[str, Direction], Direction]:
    """Map each registered contract name to its direction; the default for others is BOTH.

    BOTH is the strictest default: for an unknown contract every non-neutral change breaks.
    """
    from contracts import CONTRACTS  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    directions = {name: Direction(info.direction.value) for name, info in CONTRACTS.items()}
    return directions, Direction.BOTH
