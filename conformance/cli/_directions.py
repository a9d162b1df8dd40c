"""Contract directions for ``srdh diff``, read from the ``contracts.CONTRACTS`` registry."""

from __future__ import annotations

from conformance.schemadiff import Direction

__all__ = ["contract_directions"]


def contract_directions() -> tuple[dict[str, Direction], Direction]:
    """Map each registered contract name to its direction; the default for others is BOTH.

    The registry's direction is read by its name (``READ``/``EMIT``/``BOTH``), whatever enum type
    carries it. While the registry is not importable every contract is treated as BOTH (the
    strictest: every non-neutral change is breaking).
    """
    try:
        from contracts import CONTRACTS  # noqa: PLC0415 - optional until the registry lands
    except ImportError:
        return {}, Direction.BOTH
    directions: dict[str, Direction] = {}
    for name, entry in CONTRACTS.items():
        raw = getattr(entry, "direction", None)
        label = getattr(raw, "value", raw)
        if isinstance(label, str) and label.upper() in Direction.__members__:
            directions[name] = Direction[label.upper()]
    return directions, Direction.BOTH
