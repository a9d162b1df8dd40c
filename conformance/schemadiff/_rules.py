"""The schema-change rules: stable ids, names, and which direction each one breaks.

Every change between two versions of a contract schema is classified by exactly one rule. A rule
says whether it *tightens* the set of valid documents (some documents valid before are invalid now),
*loosens* it (some documents invalid before are valid now), does both, or neither:

* tightening breaks **producers**: whoever writes what the Harness **READS** (fixtures, inputs);
* loosening breaks **consumers**: whoever reads documents the Harness **EMITS** (traces, results);
* a contract in both directions (``BOTH``) breaks on either;
* ``SD999 unclassified`` (a change the differ cannot reason about) breaks in every direction.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["RULES", "Direction", "Effect", "Rule", "rule"]


class Direction(enum.Enum):
    """Who is on the other side of a contract, as seen from the Harness."""

    READ = "READ"
    """The Harness reads these documents; others produce them."""
    EMIT = "EMIT"
    """The Harness emits these documents; others consume them."""
    BOTH = "BOTH"
    """Documents flow both ways (e.g. adapter messages)."""


class Effect(enum.Enum):
    """What a change does to the set of documents a schema accepts."""

    TIGHTENS = "tightens"
    LOOSENS = "loosens"
    BOTH = "tightens and loosens"
    NEUTRAL = "neutral"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Rule:
    """One classification rule.

    Attributes:
        rule_id: the stable id, ``SD`` and three digits (``SD001``); never reused.
        name: the stable kebab-case name (``property-removed``).
        effect: what the change does to the accepted document set.
    """

    rule_id: str
    name: str
    effect: Effect

    def breaking_for(self, direction: Direction) -> bool:
        """Whether a change under this rule breaks the other side of a contract of ``direction``."""
        if self.effect in {Effect.UNKNOWN, Effect.BOTH}:
            return True
        if self.effect is Effect.NEUTRAL:
            return False
        if direction is Direction.BOTH:
            return True
        if direction is Direction.READ:
            return self.effect is Effect.TIGHTENS
        return self.effect is Effect.LOOSENS

    @property
    def label(self) -> str:
        """``SD001 property-removed``."""
        return f"{self.rule_id} {self.name}"


_T, _L, _B, _N, _U = Effect.TIGHTENS, Effect.LOOSENS, Effect.BOTH, Effect.NEUTRAL, Effect.UNKNOWN

RULES: dict[str, Rule] = {
    r.name: r
    for r in (
        # Removing a property breaks producers (additionalProperties: false rejects it now) and
        # consumers (who read it): both ways.
        Rule("SD001", "property-removed", _B),
        Rule("SD002", "required-added", _T),
        Rule("SD003", "enum-value-removed", _T),
        Rule("SD004", "enum-value-added", _L),
        Rule("SD005", "type-narrowed", _T),
        Rule("SD006", "additionalProperties-tightened", _T),
        Rule("SD007", "max-decreased", _T),
        Rule("SD008", "min-increased", _T),
        Rule("SD009", "pattern-changed", _B),
        Rule("SD010", "property-added", _L),
        Rule("SD011", "required-removed", _L),
        Rule("SD012", "type-widened", _L),
        Rule("SD013", "additionalProperties-loosened", _L),
        Rule("SD014", "max-increased", _L),
        Rule("SD015", "min-decreased", _L),
        Rule("SD016", "const-changed", _B),
        Rule("SD017", "unique-items-added", _T),
        Rule("SD018", "unique-items-removed", _L),
        Rule("SD019", "branch-added", _L),
        Rule("SD020", "branch-removed", _T),
        Rule("SD021", "schema-added", _N),
        Rule("SD022", "schema-removed", _B),
        Rule("SD023", "id-changed", _B),
        Rule("SD024", "annotation-changed", _N),
        # The same contract under a new $id version (…/v1/x → …/v2/x): the bump itself changes
        # no document's validity; what changed with it is reported by the other rules.
        Rule("SD025", "version-bumped", _N),
        # oneOf means exactly one branch: when branches can overlap, a new or wider branch
        # refuses documents that now match two, and a narrower one accepts documents that
        # matched two before.
        Rule("SD026", "oneOf-overlap-changed", _B),
        # Inside `not` the effect turns round: a tighter negated schema accepts more documents.
        Rule("SD027", "negated-schema-tightened", _L),
        Rule("SD028", "negated-schema-loosened", _T),
        # A changed `if` moves documents between `then` and `else`: both ways.
        Rule("SD029", "condition-changed", _B),
        # A new assertion (`not`, an `allOf` branch, `if`/`then`/`else`, a `dependentSchemas` or
        # `dependentRequired` entry, `enum`, `const`, `pattern`, a subschema keyword).
        Rule("SD030", "constraint-added", _T),
        Rule("SD031", "constraint-removed", _L),
        Rule("SD999", "unclassified", _U),
    )
}


def rule(name: str) -> Rule:
    """The rule called ``name``; raises ``KeyError`` for an unknown name (a programming error)."""
    return RULES[name]
