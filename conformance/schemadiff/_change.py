"""One classified change of one contract (the value both the differ and ``$ref`` tracing use)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.schemadiff._rules import Effect

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
        bumped: the contract's ``$id`` version went up in the same diff (a breaking change then
            needs nothing more).
        protocol: the contract is versioned by the stdio protocol version, not its ``$id``
            (``contracts.freeze.PROTOCOL_SCHEMAS``); ``bumped`` then means that version went up.
    """

    contract: str
    direction: Direction
    rule: Rule
    pointer: str
    detail: str
    bumped: bool = False
    protocol: bool = False

    @property
    def breaking(self) -> bool:
        """True when the change breaks the other side of this contract's direction."""
        return self.rule.breaking_for(self.direction)

    @property
    def action(self) -> str:
        """What the change requires of the spec author, as a command where there is one.

        ``none`` for a neutral change (annotations, an added contract, a version bump) and for a
        breaking change made together with a ``$id`` version bump; ``minor`` (recorded in the
        freeze lock by ``srdh contract update``) for a change compatible in this contract's
        direction; otherwise a ``$id`` version bump by ``srdh contract bump NAME``.
        """
        if self.rule.effect is Effect.NEUTRAL:
            return "none"
        if not self.breaking:
            return "minor: record it with `srdh contract update`"
        if self.bumped:
            return f"none: the {'protocol' if self.protocol else '$id'} version is bumped"
        if self.protocol:
            return "bump the hello protocol_version (adapter-message): a protocol schema"
        if self.rule.name == "schema-removed":
            return "breaking: a removed contract stays removed (say so in the change's proposal)"
        return f"bump the $id version: `srdh contract bump {self.contract}`"

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
            "action": self.action,
        }
