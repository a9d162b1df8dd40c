"""Contract directions for ``srdh diff``, read from the ``contracts.CONTRACTS`` registry."""

from __future__ import annotations

from conformance.schemadiff import Direction

__all__ = ["contract_directions"]


def contract_directions() -> tuple[dict[str, Direction], Direction]:
    """Map each registered contract name to its direction; the default for others is BOTH.

    BOTH is the strictest default: for an unknown contract every non-neutral change breaks.
    """
    from contracts import CONTRACTS  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    directions = {name: Direction(info.direction.value) for name, info in CONTRACTS.items()}
    return directions, Direction.BOTH
