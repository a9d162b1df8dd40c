"""``run_selftest``: the suite against the reference Harness and against every mutant.

An IUT mutant is run through the Gherkin suite (:func:`conformance.suite.run_suite`) and through
the properties of its requirement's spec scenarios (few examples, no shrinking); it is killed when
any scenario or property fails. A contract mutant is killed when the Then check of the scenario
that reads that contract rejects it. The reference Harness must pass all of it.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from conformance.adapters import AdapterError, InProcessAdapter, StdioAdapter
from conformance.bdd import THEN_CHECKS, ScenarioContext
from conformance.properties import PROPERTIES, property_settings, run_invariants, run_property
from conformance.selftest._result import MutantVerdict, SelftestResult
from conformance.suite import SuiteSetupError, run_suite

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from conformance.adapters import Adapter
    from reference_harness.mutants import ContractMutant

__all__ = ["REFERENCE", "judge_iut", "run_selftest"]

REFERENCE = "reference_harness.iut:create"
"""The factory of the reference Harness."""

_MUTANTS_MODULE = "reference_harness.mutants"


def _suite_failures(adapter: Adapter) -> tuple[str, ...]:
    result = run_suite(adapter)
    return tuple(s.scenario_id for s in result.scenarios if s.outcome == "failed")


def _property_failures(
    adapter: Adapter, scenario_ids: Iterable[str], examples: int, *, invariants: bool
) -> tuple[str, ...]:
    config = property_settings(examples, shrink=False)
    failed = [
        scenario_id
        for scenario_id in scenario_ids
        if PROPERTIES[scenario_id].kind == "run"
        and run_property(PROPERTIES[scenario_id], adapter, config=config).outcome == "failed"
    ]
    if invariants and run_invariants(adapter, config=config).outcome == "failed":
        failed.append("global-invariants")
    return tuple(failed)


def judge_iut(  # noqa: PLR0913 - what the verdict names, and which parts of the suite run
    factory: str,
    *,
    name: str,
    requirement_id: str,
    rule: str,
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    command: list[str] | None = None,
) -> MutantVerdict:
    """Run the suite against the IUT ``factory`` (``module:factory``) and return its verdict.

    With ``command``, the IUT is that stdio command instead (a mutant whose fault shows only
    across processes, judged in fresh processes).

    The Gherkin suite runs when ``suite``; the properties of ``requirement_id``'s spec scenarios
    (and the global invariants when ``invariants``) run with ``examples`` examples each, without
    shrinking. The verdict is killed when anything failed; an IUT that cannot be run at all gets
    ``error`` and is not killed.
    """
    started = time.perf_counter()
    adapter: Adapter = InProcessAdapter(factory) if command is None else StdioAdapter(command)
    scenarios: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    error = ""
    try:
        if suite:
            scenarios = _suite_failures(adapter)
        if examples > 0:
            own = [p.scenario_id for p in PROPERTIES.values() if p.requirement_id == requirement_id]
            properties = _property_failures(adapter, own, examples, invariants=invariants)
    except (AdapterError, SuiteSetupError) as failure:
        error = f"{type(failure).__name__}: {failure}"
    finally:
        adapter.close()
    return MutantVerdict(
        name,
        "iut",
        requirement_id,
        rule,
        scenarios,
        properties,
        error,
        time.perf_counter() - started,
    )


def _stdio_command(name: str) -> list[str]:
    """The stdio entry of mutant ``name``, in a fresh interpreter."""
    return [sys.executable, "-m", "reference_harness.stdio", "--mutant", name]


def _judge_contract(mutant: ContractMutant) -> MutantVerdict:
    from contracts import load_component_registry, load_phase_plan  # noqa: PLC0415 - heavy

    started = time.perf_counter()
    load = load_component_registry if mutant.contract == "component-registry" else load_phase_plan
    document = mutant.mutate(load().model_dump(mode="json"))
    check = THEN_CHECKS[PROPERTIES[mutant.scenario_id].then]
    verdict = check(ScenarioContext(contracts={mutant.contract: document}))
    return MutantVerdict(
        mutant.name,
        "contract",
        mutant.requirement_id,
        mutant.rule,
        () if verdict.passed else (mutant.scenario_id,),
        seconds=time.perf_counter() - started,
    )


def run_selftest(  # noqa: PLR0913 - each knob selects part of the self-test
    *,
    mutants: Iterable[str] | None = None,
    suite: bool = True,
    examples: int = 5,
    invariants: bool = True,
    reference: bool = True,
    progress: Callable[[MutantVerdict], None] | None = None,
) -> SelftestResult:
    """Run the conformance suite against the reference Harness and every mutant.

    Args:
        mutants: names of IUT or contract mutants to judge (default: all of
            :data:`reference_harness.mutants.MUTANTS` and ``CONTRACT_MUTANTS``).
        suite: run the Gherkin suite (every spec and extension scenario) on each IUT mutant.
        examples: generated examples per property of the mutant's requirement (0: none); no
            shrinking, derandomized.
        invariants: also run the global invariants property on each IUT mutant.
        reference: also run everything on the reference Harness (which must pass).
        progress: called with each verdict as soon as it is known.

    Returns:
        The reference's failures (none expected) and one verdict per mutant, with the scenario
        and property ids that killed it. ``result.passed`` iff the reference passed and no
        mutant survived.

    Raises:
        KeyError: an unknown mutant name.
    """
    from reference_harness.mutants import CONTRACT_MUTANTS, MUTANTS  # noqa: PLC0415 - optional

    names = list(MUTANTS) + list(CONTRACT_MUTANTS) if mutants is None else list(mutants)
    unknown = [n for n in names if n not in MUTANTS and n not in CONTRACT_MUTANTS]
    if unknown:
        message = f"unknown mutant(s): {', '.join(unknown)}"
        raise KeyError(message)
    failures: tuple[str, ...] = ()
    if reference:
        adapter = InProcessAdapter(REFERENCE)
        try:
            failures = _suite_failures(adapter) if suite else ()
            if examples > 0:
                failures += _property_failures(adapter, PROPERTIES, examples, invariants=invariants)
        except (AdapterError, SuiteSetupError) as failure:
            failures = (f"{type(failure).__name__}: {failure}",)
        finally:
            adapter.close()
    verdicts = []
    for name in names:
        if name in MUTANTS:
            spec = MUTANTS[name]
            verdict = judge_iut(
                f"{_MUTANTS_MODULE}:{name}",
                name=name,
                requirement_id=spec.requirement_id,
                rule=spec.rule,
                suite=suite,
                examples=examples,
                invariants=invariants,
                command=_stdio_command(name) if spec.cross_process else None,
            )
        else:
            verdict = _judge_contract(CONTRACT_MUTANTS[name])
        if progress is not None:
            progress(verdict)
        verdicts.append(verdict)
    return SelftestResult(failures, tuple(verdicts), examples)
