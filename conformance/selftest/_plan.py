"""What the self-test runs: judges (IUTs), probes (a scenario or a property), units of work.

A *probe* is one scenario of the Gherkin suite (all its examples) or one property (a spec
scenario's, or the global invariants). Each probe's outcome on an IUT depends only on that IUT and
that probe (every Run is hermetic, properties are derandomized), never on what ran before it, so
probes may run in any order, in any process, and a mutant may stop at its first kill without
changing whether it is killed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from conformance.anyfixture import ANY_FIXTURE_SCENARIO
from conformance.properties import INVARIANTS, PROPERTIES

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence


__all__ = [
    "ANY_FIXTURE_SCENARIO",
    "Judge",
    "Probe",
    "ProbeResult",
    "Unit",
    "UnitResult",
    "mutant_probes",
    "reference_probes",
]


@dataclass(frozen=True, slots=True)
class Probe:
    """One scenario of the suite, or one property.

    Attributes:
        kind: ``scenario`` (a Gherkin scenario, every example) or ``property``.
        name: the scenario id, or the property's spec scenario id, or ``global-invariants``.
    """

    kind: Literal["scenario", "property"]
    name: str

    @property
    def key(self) -> str:
        """``scenario:<id>`` or ``property:<id>``: the probe's name in the order cache."""
        return f"{self.kind}:{self.name}"


@dataclass(frozen=True, slots=True)
class Judge:
    """One implementation under test the self-test judges.

    Attributes:
        name: the mutant's name (or ``reference``).
        factory: its in-process factory, ``module:factory``.
        requirement_id: the requirement whose rule a mutant breaks (``""`` for the reference).
        rule: that rule in a sentence.
        rule_id: the check rule id a kill must name (``""``: any failure is a kill).
        command: a stdio command to run it in fresh processes instead of ``factory`` in
            process (``None``: in process).
    """

    name: str
    factory: str
    requirement_id: str = ""
    rule: str = ""
    rule_id: str = ""
    command: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """A probe's outcome on one judge.

    Attributes:
        probe: the probe.
        failed: whether any of its examples failed.
        rules: the check rule ids its failure messages name, first-seen order.
        message: the first failure message (``""`` when it passed).
        messages: every failure message and skip reason of its items (scenario examples),
            in order, as ``SuiteResult``'s ``ScenarioResult.messages`` lists them.
    """

    probe: Probe
    failed: bool
    rules: tuple[str, ...] = ()
    message: str = ""
    messages: tuple[str, ...] = ()

    def kills(self, judge: Judge) -> bool:
        """Whether this outcome kills ``judge``: a failure naming its rule id, if it has one."""
        return self.failed and (not judge.rule_id or judge.rule_id in self.rules)


@dataclass(frozen=True, slots=True)
class Unit:
    """Probes to run on one judge, in order; ``stop_at_kill`` ends it at the first kill."""

    judge: Judge
    probes: tuple[Probe, ...]
    stop_at_kill: bool


@dataclass(frozen=True, slots=True)
class UnitResult:
    """What a unit found: a result per probe run, or why the judge could not be run at all."""

    index: int
    results: tuple[ProbeResult, ...] = field(default=())
    error: str = ""
    seconds: float = 0.0


def _run_properties(requirement_id: str | None) -> list[str]:
    return [
        p.scenario_id
        for p in PROPERTIES.values()
        if p.kind == "run" and (requirement_id is None or p.requirement_id == requirement_id)
    ]


def reference_probes(
    scenarios: Sequence[tuple[str, str]], *, suite: bool, examples: int, invariants: bool
) -> list[Probe]:
    """Every probe the reference must pass: each scenario, each ``run`` property, invariants.

    ``scenarios`` are ``(scenario id, requirement id)`` pairs of the suite, in catalogue order.
    """
    probes = [Probe("scenario", s) for s, _ in scenarios] if suite else []
    if examples > 0:
        probes += [Probe("property", p) for p in _run_properties(None)]
        if invariants:
            probes.append(Probe("property", INVARIANTS))
    return probes


def mutant_probes(  # noqa: PLR0913 - which parts run, and what the last run learnt
    judge: Judge,
    scenarios: Sequence[tuple[str, str]],
    *,
    suite: bool,
    examples: int,
    invariants: bool,
    killers: Mapping[str, Sequence[str]] | None = None,
) -> list[Probe]:
    """The probes judging a mutant, most likely killers first.

    The set is what the slow path runs: every suite scenario (when ``suite``), the ``run``
    properties of the mutant's requirement and the global invariants (when ``examples > 0``).
    Order: the probes that killed it last time (``killers[name]``, probe keys), then the suite
    scenarios of its requirement, its properties, the other scenarios (the any-fixture scenario,
    the longest, last of them), the invariants.
    """
    own = [Probe("scenario", s) for s, r in scenarios if r == judge.requirement_id] if suite else []
    others = (
        [Probe("scenario", s) for s, r in scenarios if r != judge.requirement_id] if suite else []
    )
    properties: list[Probe] = []
    last: list[Probe] = []
    if examples > 0:
        properties = [Probe("property", p) for p in _run_properties(judge.requirement_id)]
        if invariants:
            last = [Probe("property", INVARIANTS)]
    others.sort(key=lambda probe: probe.name == ANY_FIXTURE_SCENARIO)
    ordered = [*own, *properties, *others, *last]
    return _killers_first(ordered, (killers or {}).get(judge.name, ()))


def _killers_first(probes: list[Probe], keys: Iterable[str]) -> list[Probe]:
    by_key = {p.key: p for p in probes}
    first = [by_key[k] for k in dict.fromkeys(keys) if k in by_key]
    return first + [p for p in probes if p not in first]
