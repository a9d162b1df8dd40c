"""What the self-test found: per mutant killed or not, per latitude variant passed or not."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["MutantVerdict", "SelftestResult"]


@dataclass(frozen=True)
class MutantVerdict:
    """The suite's verdict on one mutant.

    Attributes:
        name: the mutant's name (``reference_harness.mutants:<name>`` for IUT mutants).
        kind: ``iut`` (a broken harness run through the suite), ``contract`` (broken contract
            data checked by its scenario's Then check) or ``variant`` (a latitude variant of
            :mod:`reference_harness.variants`: a conforming harness the suite must pass; "killed"
            then means a false kill).
        requirement_id: the requirement whose rule it breaks.
        rule: the rule it breaks.
        killing_scenarios: the Gherkin scenario ids that failed on it (spec and extension).
        killing_properties: the properties that failed on it (spec scenario ids,
            ``global-invariants``).
        killing_rules: the check rule ids (``R<n>.<slug>``) the failures named, first-seen
            order (:func:`conformance.checks.rule_ids_in` of each failure message).
        error: why the mutant could not be run at all (``""`` when it ran); such a mutant is
            not killed.
        seconds: wall time spent on it.
        rule_id: the check rule id a kill must name (``""``: any failure is a kill). A mutant
            whose failures name other rules only is not killed: it failed through a side
            effect of its fault, not through the check of the rule it breaks.
    """

    name: str
    kind: Literal["iut", "contract", "variant"]
    requirement_id: str
    rule: str
    killing_scenarios: tuple[str, ...] = ()
    killing_properties: tuple[str, ...] = ()
    error: str = ""
    seconds: float = 0.0
    killing_rules: tuple[str, ...] = ()
    rule_id: str = ""

    @property
    def killed(self) -> bool:
        """Whether a scenario or property failed on the mutant, naming its ``rule_id``."""
        failed = bool(self.killing_scenarios or self.killing_properties)
        return failed and (not self.rule_id or self.rule_id in self.killing_rules)

    @property
    def as_expected(self) -> bool:
        """A mutant killed; a latitude variant run and passed (neither failed nor errored)."""
        if self.kind == "variant":
            return not self.killed and not self.error
        return self.killed

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "name": self.name,
            "kind": self.kind,
            "requirement_id": self.requirement_id,
            "rule": self.rule,
            "rule_id": self.rule_id,
            "killed": self.killed,
            "as_expected": self.as_expected,
            "killing_scenarios": list(self.killing_scenarios),
            "killing_properties": list(self.killing_properties),
            "killing_rules": list(self.killing_rules),
            "error": self.error,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class SelftestResult:
    """The self-test: the reference and every variant must pass, every mutant must be killed.

    Attributes:
        reference_failures: what failed on the reference Harness (scenario or property ids, or
            an error); empty when it passed.
        mutants: one verdict per mutant, in catalogue order (IUT mutants, then contract ones),
            then one per latitude variant (``kind`` ``variant``).
        examples: generated examples per property run.
    """

    reference_failures: tuple[str, ...]
    mutants: tuple[MutantVerdict, ...] = field(default=())
    examples: int = 0

    @property
    def reference_passed(self) -> bool:
        """Whether the reference Harness passed the suite and the properties."""
        return not self.reference_failures

    @property
    def survivors(self) -> tuple[MutantVerdict, ...]:
        """The mutants the suite did not kill (latitude variants aside)."""
        return tuple(m for m in self.mutants if m.kind != "variant" and not m.killed)

    @property
    def false_kills(self) -> tuple[MutantVerdict, ...]:
        """The latitude variants the suite failed (or could not run): conforming, yet failed."""
        return tuple(m for m in self.mutants if m.kind == "variant" and not m.as_expected)

    @property
    def passed(self) -> bool:
        """True when the reference passed, no mutant survived and every variant passed."""
        return self.reference_passed and not self.survivors and not self.false_kills

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "passed": self.passed,
            "reference_failures": list(self.reference_failures),
            "examples": self.examples,
            "killed": sum(m.killed for m in self.mutants if m.kind != "variant"),
            "survivors": [m.name for m in self.survivors],
            "variants_passed": sum(m.as_expected for m in self.mutants if m.kind == "variant"),
            "false_kills": [m.name for m in self.false_kills],
            "mutants": [m.to_dict() for m in self.mutants],
        }
