"""What the single no-Tool structural repair call carries."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ._violations import Violation


def repair_request(violations: Iterable[Violation]) -> dict[str, list[dict[str, str]]]:
    """Return `{"violations": [{"code", "pointer"}, ...]}` for the structural repair call.

    Only violation codes and pointers, in the given order: never draft text, never Tool payloads
    (DESIGN section 5). The shape is the `data` of the STRUCTURAL_REPAIR_REQUESTED trace event.
    """
    return {"violations": [{"code": str(v.code), "pointer": v.pointer} for v in violations]}
