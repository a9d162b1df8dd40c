"""One classified change of one contract (the value both the differ and ``$ref`` tracing use)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.schemadiff._rules import Direction, Rule

__all__ = ["SchemaChange"]


@dataclass(frozen=True)
class SchemaChange:
    """One classified change of one contract.

    Attributes:
        contract: the contract (file stem, e.g. ``diagnosis-draft``).
        direction: the contract's direction, which decides ``breaking``.
        rule: the rule (``SD003 enum-value-removed``).
        pointer: JSON pointer into the new schema (``/properties/state/enum``).
        detail: one line saying what changed.
    """

    contract: str
    direction: Direction
    rule: Rule
    pointer: str
    detail: str

    @property
    def breaking(self) -> bool:
        """True when the change breaks the other side of this contract's direction."""
        return self.rule.breaking_for(self.direction)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form: contract, direction, rule id and name, pointer, detail, breaking."""
        return {
            "contract": self.contract,
            "direction": self.direction.value,
            "rule_id": self.rule.rule_id,
            "rule": self.rule.name,
            "pointer": self.pointer,
            "detail": self.detail,
            "breaking": self.breaking,
        }
