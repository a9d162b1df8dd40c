"""``run_selftest``: the suite against the reference Harness and against every mutant.

An IUT mutant is judged by *probes* (:mod:`conformance.selftest._plan`): every Gherkin scenario
of the suite, and the properties of its requirement's spec scenarios plus the global invariants
(few examples, no shrinking); it is killed when a probe fails (naming the mutant's rule id, when
it declares one). A contract mutant is killed when the Then check of the scenario that reads
that contract rejects it. The reference Harness must pass every probe.

Fast path (the default): one nested pytest session per process collects the suite once, the
cores share the work (:mod:`conformance.selftest._execute`), and each mutant stops at its first
kill, trying first what killed it last time (the optional order cache). Slow path
(``fast=False``): every probe runs on every mutant and every killer is listed. Both give the
same verdict per mutant: a probe's outcome does not depend on what ran before it (a test
compares the two paths mutant by mutant).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from conformance.bdd import ScenarioContext, then_check
from conformance.properties import PROPERTIES
from conformance.selftest._cache import read_killers, write_killers
from conformance.selftest._execute import UnitPool, default_jobs, execute_units
from conformance.selftest._plan import Judge, Probe, Unit, mutant_probes, reference_probes
from conformance.selftest._result import MutantVerdict, SelftestResult
from conformance.selftest._seed import order

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path

    from conformance.selftest._plan import ProbeResult, UnitResult
    from conformance.suite import SuiteResult
    from reference_harness.mutants import ContractMutant

__all__ = [
    "REFERENCE",
    "PendingSelftest",
    "judge_iut",
    "judge_iut_probes",
    "judge_many_probes",
    "mutant_judge",
    "run_selftest",
    "start_selftest",
    "variant_judge",
]

REFERENCE = "reference_harness.iut:create"
"""The factory of the reference Harness."""

_MUTANTS_MODULE = "reference_harness.mutants"
_VARIANTS_MODULE = "reference_harness.variants"


def _scenarios() -> list[tuple[str, str]]:
    """``(scenario id, requirement id)`` of every suite scenario, catalogue order, no repeats."""
    from conformance.suite import load_catalogue  # noqa: PLC0415 - parses the feature files

    pairs = [(e.scenario_id, e.requirement_id) for e in load_catalogue()]
    return list(dict.fromkeys(pairs))


def _verdict(judge: Judge, result: UnitResult) -> MutantVerdict:
    failed = [r for r in result.results if r.failed]
    return MutantVerdict(
        judge.name,
        "variant" if judge.factory.startswith(f"{_VARIANTS_MODULE}:") else "iut",
        judge.requirement_id,
        judge.rule,
        tuple(r.probe.name for r in failed if r.probe.kind == "scenario"),
        tuple(r.probe.name for r in failed if r.probe.kind == "property"),
        result.error,
        result.seconds,
        tuple(dict.fromkeys(rule for r in failed for rule in r.rules)),
        judge.rule_id,
    )


def judge_iut(  # noqa: PLR0913 - what the verdict names, and which parts of the suite run
    factory: str,
    *,
    name: str,
    requirement_id: str,
    rule: str,
    rule_id: str = "",
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    fast: bool = False,
    command: list[str] | None = None,
) -> MutantVerdict:
    """Run the suite against the IUT ``factory`` (``module:factory``) and return its verdict.

    With ``command``, the IUT is that stdio command instead (a mutant whose fault shows only
    across processes, judged in fresh processes).

    The Gherkin suite runs when ``suite``; the properties of ``requirement_id``'s spec scenarios
    (and the global invariants when ``invariants``) run with ``examples`` examples each, without
    shrinking. The verdict is killed when anything failed; an IUT that cannot be run at all gets
    ``error`` and is not killed. ``fast`` stops at the first failure (naming ``rule_id`` when
    given) instead of listing every failure. ``command``, when given, runs the IUT as that stdio
    command in fresh processes instead of the in-process ``factory`` (a fault that shows only
    across processes).
    """
    verdict, _ = judge_iut_probes(
        factory,
        name=name,
        requirement_id=requirement_id,
        rule=rule,
        rule_id=rule_id,
        suite=suite,
        examples=examples,
        invariants=invariants,
        fast=fast,
        command=command,
    )
    return verdict


def judge_iut_probes(  # noqa: PLR0913 - judge_iut's arguments
    factory: str,
    *,
    name: str,
    requirement_id: str,
    rule: str,
    rule_id: str = "",
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    fast: bool = False,
    command: list[str] | None = None,
) -> tuple[MutantVerdict, tuple[ProbeResult, ...]]:
    """:func:`judge_iut`, and the result of every probe it ran, in the order it ran them.

    Each :class:`~conformance.selftest._plan.ProbeResult` keeps what the probe's failures
    named and every message of its items, so that a caller (the project's tests) can read
    what one scenario did on the mutant from the same run that gave the verdict.
    """
    judge = Judge(
        name,
        factory,
        requirement_id,
        rule,
        rule_id,
        command=tuple(command) if command is not None else None,
    )
    (judged,) = judge_many_probes(
        [judge], suite=suite, examples=examples, invariants=invariants, fast=fast
    )
    return judged


def judge_many_probes(  # noqa: PLR0913 - judge_iut's knobs and a result hook
    judges: Sequence[Judge],
    *,
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    fast: bool = False,
    on_result: Callable[[int, MutantVerdict, tuple[ProbeResult, ...]], None] | None = None,
) -> list[tuple[MutantVerdict, tuple[ProbeResult, ...]]]:
    """:func:`judge_iut_probes` for each of ``judges``, one after the other in one nested session.

    Each judge gets its own unit on a fresh adapter, as :func:`run_selftest` judges the mutants
    of one process (in one session); the verdicts and probe results are those
    :func:`judge_iut_probes` gives each judge alone. Results in the order of ``judges``.
    ``on_result(index, verdict, probe results)`` is called as soon as ``judges[index]`` is
    judged (before the next judge's unit starts), with what the returned list holds for it.
    """
    scenarios = _scenarios()
    killers = order(None) if fast else None
    plan = partial(
        mutant_probes, suite=suite, examples=examples, invariants=invariants, killers=killers
    )
    units = [Unit(judge, tuple(plan(judge, scenarios)), fast) for judge in judges]

    def report(result: UnitResult) -> None:
        if on_result is not None:
            on_result(result.index, _verdict(judges[result.index], result), result.results)

    results = execute_units(units, examples=examples, jobs=1, on_result=report)
    return [
        (_verdict(judge, result), result.results)
        for judge, result in zip(judges, results, strict=True)
    ]


def _stdio_command(name: str) -> list[str]:
    """The stdio entry of mutant ``name``, in a fresh interpreter."""
    return [sys.executable, "-m", "reference_harness.stdio", "--mutant", name]


def mutant_judge(name: str) -> Judge:
    """The judge of IUT mutant ``name``: its factory, rule id, and stdio when cross-process.

    Raises:
        KeyError: ``name`` is not an IUT mutant of the catalogue.
    """
    from reference_harness.mutants import MUTANTS  # noqa: PLC0415 - optional

    spec = MUTANTS[name]
    return Judge(
        name,
        f"{_MUTANTS_MODULE}:{name}",
        spec.requirement_id,
        spec.rule,
        spec.rule_id,
        command=tuple(_stdio_command(name)) if spec.cross_process else None,
    )


def variant_judge(name: str) -> Judge:
    """The judge of latitude variant ``name``: its factory and the latitude it takes.

    A composite (:data:`reference_harness.variants.COMPOSITES`, several latitudes at once) is
    judged the same way.

    Raises:
        KeyError: ``name`` is neither a variant nor a composite of
            :mod:`reference_harness.variants`.
    """
    from reference_harness.variants import COMPOSITES, VARIANTS  # noqa: PLC0415 - optional

    spec = VARIANTS[name] if name in VARIANTS else COMPOSITES[name]
    return Judge(name, f"{_VARIANTS_MODULE}:{name}", "", spec.rule)


def _judge_contract(mutant: ContractMutant) -> MutantVerdict:
    from contracts import load_component_registry, load_phase_plan  # noqa: PLC0415 - heavy

    started = time.perf_counter()
    load = load_component_registry if mutant.contract == "component-registry" else load_phase_plan
    document = mutant.mutate(load().model_dump(mode="json"))
    check = then_check(PROPERTIES[mutant.scenario_id].then)
    verdict = check(ScenarioContext(contracts={mutant.contract: document}))
    return MutantVerdict(
        mutant.name,
        "contract",
        mutant.requirement_id,
        mutant.rule,
        () if verdict.passed else (mutant.scenario_id,),
        seconds=time.perf_counter() - started,
        killing_rules=verdict.rules,
        rule_id=mutant.rule_id,
    )


def _reference_units(probes: Sequence[Probe]) -> list[Unit]:
    """One unit per reference probe (they spread over the cores), the costliest first."""
    judge = Judge("reference", REFERENCE)
    probes = sorted(probes, key=lambda p: (p.kind == "scenario", p.name != "global-invariants"))
    return [Unit(judge, (p,), stop_at_kill=False) for p in probes]


@dataclass
class PendingSelftest:
    """A self-test whose workers are already running; :meth:`result` finishes it here.

    Made by :func:`start_selftest`. The reference's Gherkin scenarios are left out when the
    caller promised their result (``reference_suite_later``); :meth:`result` takes it, or runs
    them itself if it gets ``None``.
    """

    names: list[str]
    units: list[Unit]
    pool: UnitPool
    examples: int
    fast: bool
    cache: Path | None
    scenario_probes_left_out: list[Probe] = field(default_factory=list)

    def cancel(self) -> None:
        """End the workers without waiting for a result."""
        self.pool.close()

    def result(
        self,
        *,
        reference_suite: SuiteResult | None = None,
        progress: Callable[[MutantVerdict], None] | None = None,
    ) -> SelftestResult:
        """Join the work here and return the result (see :func:`run_selftest`).

        Raises:
            SuiteSetupError: the suite could not be collected.
        """
        from reference_harness.mutants import CONTRACT_MUTANTS  # noqa: PLC0415 - optional

        verdicts: dict[str, MutantVerdict] = {}

        def record(verdict: MutantVerdict) -> None:
            verdicts[verdict.name] = verdict
            if progress is not None:
                progress(verdict)

        def on_result(result: UnitResult) -> None:
            if self.units[result.index].judge.factory != REFERENCE:
                record(_verdict(self.units[result.index].judge, result))

        results = self.pool.run(on_result)
        reference = [r for r in results if self.units[r.index].judge.factory == REFERENCE]
        failures: list[str] = []
        if reference_suite is not None:
            failures += [s.scenario_id for s in reference_suite.scenarios if s.outcome == "failed"]
        elif self.scenario_probes_left_out:
            extra = _reference_units(self.scenario_probes_left_out)
            reference += execute_units(extra, examples=self.examples, jobs=1)
        for result in reference:
            failures += [result.error] if result.error else []
            failures += [r.probe.name for r in result.results if r.failed]
        for name in (n for n in self.names if n in CONTRACT_MUTANTS):
            record(_judge_contract(CONTRACT_MUTANTS[name]))
        if self.fast:
            write_killers(
                self.cache,
                {v.name: _killer_keys(v) for v in verdicts.values() if v.kind == "iut"},
            )
        return SelftestResult(
            tuple(dict.fromkeys(failures)),
            tuple(verdicts[n] for n in self.names),
            self.examples,
        )


def start_selftest(  # noqa: PLR0913 - each knob selects part of the self-test
    *,
    mutants: Iterable[str] | None = None,
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    reference: bool = True,
    fast: bool = True,
    jobs: int | None = None,
    cache: Path | None = None,
    reference_suite_later: bool = False,
    seed: bool = True,
    variants: bool | None = None,
) -> PendingSelftest:
    """Plan the self-test and start its workers now; finish it with ``.result()``.

    The arguments are :func:`run_selftest`'s. With ``reference_suite_later``, the reference's
    Gherkin scenarios are not run: the caller hands their result to ``.result()``. ``seed``
    (fast path only): try the kit's seed order (:mod:`conformance.selftest._seed`) after the
    cache's killers; ``False`` plans without it (how the seed itself is measured).
    ``variants``: also judge every latitude variant (``None``: when ``mutants`` is ``None``);
    ``mutants`` may name variants and composites too (a composite is judged only when named).

    Raises:
        KeyError: an unknown mutant or variant name.
    """
    from reference_harness.mutants import CONTRACT_MUTANTS, MUTANTS  # noqa: PLC0415 - optional
    from reference_harness.variants import COMPOSITES, VARIANTS  # noqa: PLC0415 - optional

    names = list(MUTANTS) + list(CONTRACT_MUTANTS) if mutants is None else list(mutants)
    if variants or (variants is None and mutants is None):
        names += [n for n in VARIANTS if n not in names]
    unknown = [n for n in names if n not in MUTANTS and n not in CONTRACT_MUTANTS]
    unknown = [n for n in unknown if n not in VARIANTS and n not in COMPOSITES]
    if unknown:
        known = ", ".join(sorted([*MUTANTS, *CONTRACT_MUTANTS, *VARIANTS, *COMPOSITES]))
        message = f"unknown mutant(s): {', '.join(unknown)}; known: {known}"
        raise KeyError(message)
    scenarios = _scenarios() if suite else []
    judges = [mutant_judge(n) for n in names if n in MUTANTS]
    variant_judges = [variant_judge(n) for n in names if n in VARIANTS or n in COMPOSITES]
    if not fast:
        killers: dict[str, list[str]] = {}
    else:
        killers = order(cache) if seed else read_killers(cache)
    plan = partial(mutant_probes, suite=suite, examples=examples, invariants=invariants)
    units = [Unit(j, tuple(plan(j, scenarios, killers=killers)), stop_at_kill=fast) for j in judges]
    # a latitude variant runs what the reference runs; it stops at its first failure (a false kill)
    variant_probes = reference_probes(
        scenarios, suite=suite, examples=examples, invariants=invariants
    )
    units += [Unit(j, tuple(variant_probes), stop_at_kill=fast) for j in variant_judges]
    left_out: list[Probe] = []
    if reference:
        probes = reference_probes(scenarios, suite=suite, examples=examples, invariants=invariants)
        if reference_suite_later:
            left_out = [p for p in probes if p.kind == "scenario"]
            probes = [p for p in probes if p.kind != "scenario"]
        reference_units = _reference_units(probes)
        # the long reference units (the invariants) first, then the mutants (their cost varies
        # most), then the many short reference properties, so that the cores finish together
        units = reference_units[:1] + units + reference_units[1:]
    pool = UnitPool(units, examples=examples, jobs=jobs or default_jobs())
    return PendingSelftest(names, units, pool, examples, fast, cache, left_out)


def run_selftest(  # noqa: PLR0913 - each knob selects part of the self-test
    *,
    mutants: Iterable[str] | None = None,
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    reference: bool = True,
    progress: Callable[[MutantVerdict], None] | None = None,
    fast: bool = True,
    jobs: int | None = None,
    cache: Path | None = None,
    reference_suite: SuiteResult | None = None,
    variants: bool | None = None,
) -> SelftestResult:
    """Run the conformance suite against the reference Harness, every mutant and every variant.

    Args:
        mutants: names of IUT or contract mutants to judge (default: all of
            :data:`reference_harness.mutants.MUTANTS` and ``CONTRACT_MUTANTS``).
        suite: run the Gherkin suite (every spec and extension scenario) on each IUT mutant.
        examples: generated examples per property of the mutant's requirement (0: none); no
            shrinking, derandomized.
        invariants: also run the global invariants property on each IUT mutant.
        reference: also run everything on the reference Harness (which must pass).
        progress: called with each verdict as soon as it is known.
        fast: stop each mutant at its first kill (a failure naming its ``rule_id``, or any
            failure when it declares none); ``False`` runs every probe on every mutant and
            lists every killer. The killed/not-killed verdicts are the same.
        jobs: processes to use, this one included (default: the cores this process may use).
            More than one spawns workers (``multiprocessing`` spawn: a script calling this
            needs the ``if __name__ == "__main__":`` guard).
        cache: the order cache file (``None``: no cache); read to try last time's killers
            first, then updated. It never changes a verdict.
        reference_suite: the reference Harness's Gherkin suite result when the caller already
            has it (``srdh verify``'s conformance-suite step): its failed scenarios are used
            instead of running the suite on the reference again.
        variants: also judge every latitude variant of :mod:`reference_harness.variants`, each
            of which must pass what the reference passes (``None``: when ``mutants`` is
            ``None``); ``mutants`` may name variants, and composites of several latitudes
            (:data:`reference_harness.variants.COMPOSITES`, judged only when named), too.

    Returns:
        The reference's failures (none expected), one verdict per mutant, with the scenario
        and property ids that killed it, and one per variant. ``result.passed`` iff the
        reference passed, no mutant survived and no variant failed.

    Raises:
        KeyError: an unknown mutant name.
        SuiteSetupError: the suite could not be collected.
    """
    pending = start_selftest(
        mutants=mutants,
        suite=suite,
        examples=examples,
        invariants=invariants,
        reference=reference,
        fast=fast,
        jobs=jobs,
        cache=cache,
        reference_suite_later=reference_suite is not None,
        variants=variants,
    )
    try:
        return pending.result(reference_suite=reference_suite, progress=progress)
    finally:
        pending.cancel()


def _killer_keys(verdict: MutantVerdict) -> list[str]:
    return [Probe("scenario", s).key for s in verdict.killing_scenarios] + [
        Probe("property", p).key for p in verdict.killing_properties
    ]
