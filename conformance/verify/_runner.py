"""The orchestration of ``srdh verify``: nine steps in order, each timed, none skipped."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from conformance.adapters import AdapterError
from conformance.bdd import ThenRegistryError
from conformance.reports import Status, StepResult
from conformance.suite import CatalogueError, SuiteSetupError
from conformance.verify._checks import (
    check_module_tool,
    gate_status,
    schemas_and_examples,
    spec_lint,
    start_module_tool,
    stop_module_tools,
)
from conformance.verify._kit_steps import (
    SELFTEST_KEY,
    conformance_suite,
    mutant_selftest,
    start_mutant_selftest,
    traceability,
)
from conformance.verify._outcome import Outcome, VerifyContext, failed
from conformance.verify._vocabulary_step import vocabulary_coverage
from contracts import SchemaSetError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

__all__ = ["DEFAULT_STEPS", "STEP_NAMES", "VerifyProgress", "VerifyResult", "run_verify"]


DEFAULT_STEPS: tuple[tuple[str, Callable[[VerifyContext], Outcome]], ...] = (
    ("spec lint", spec_lint),
    ("schemas + examples", schemas_and_examples),
    ("freeze lock", partial(check_module_tool, "conformance.evolution")),
    ("codegen drift", partial(check_module_tool, "contracts.codegen")),
    ("traceability", traceability),
    ("conformance suite", conformance_suite),
    ("vocabulary coverage", vocabulary_coverage),
    ("mutant self-test", mutant_selftest),
    ("gate status", gate_status),
)

STEP_NAMES = tuple(name for name, _ in DEFAULT_STEPS)
"""The steps of ``srdh verify``, in the order they run."""


class VerifyProgress(Protocol):
    """Receives progress: ``start(step name)`` before a step, ``end(result)`` after it."""

    def start(self, name: str) -> None:
        """A step begins."""

    def end(self, result: StepResult) -> None:
        """A step ended."""


@dataclass(frozen=True)
class VerifyResult:
    """Every step's result, in order, and the payloads the reports use.

    Attributes:
        steps: one :class:`StepResult` per step of :data:`STEP_NAMES`.
        payloads: step name → the step's payload (suite result, matrix), when it has one.
    """

    steps: tuple[StepResult, ...]
    payloads: dict[str, Any]

    @property
    def passed(self) -> bool:
        """True when every step passed."""
        return all(s.status is Status.PASSED for s in self.steps)


def run_verify(
    repo: Path,
    kit_schemas: Path,
    *,
    progress: VerifyProgress | None = None,
    clock: Callable[[], float] = time.perf_counter,
    steps: Sequence[tuple[str, Callable[[VerifyContext], Outcome]]] = DEFAULT_STEPS,
) -> VerifyResult:
    """Run every step on ``repo`` (its ``openspec/``) and the kit's schemas in ``kit_schemas``.

    ``steps`` defaults to :data:`DEFAULT_STEPS`; ``clock`` (seconds) times each step;
    ``progress`` is told when each step starts and ends. The kit's documented errors become
    FAILED steps inside the step functions; anything else propagates (a kit bug). The tool
    subprocesses of the freeze-lock and codegen steps, and the mutant self-test's worker
    processes, start before the first step, in the background; a step's seconds are the time
    the run waited for it (and, for the self-test, the share of its work done here). A
    :class:`~contracts.SchemaSetError` (a ``$ref`` of the schema set that does not resolve) fails
    the step it stops, naming the schema file and pointer.
    """
    ctx = VerifyContext(repo=repo, kit_schemas=kit_schemas)
    results: list[StepResult] = []
    payloads: dict[str, Any] = {}
    # background work on the other core while the first steps run: tool subprocesses, and
    # the self-test's workers (it is joined by its own step)
    for _, step in steps:
        if isinstance(step, partial) and step.func is check_module_tool:
            start_module_tool(str(step.args[0]), ctx)
    try:
        if any(step is mutant_selftest for _, step in steps):
            _start_selftest(ctx)
        for name, step in steps:
            if progress is not None:
                progress.start(name)
            began = clock()
            try:
                outcome = step(ctx)
            except SchemaSetError as exc:  # the schema set itself is broken: the step fails
                outcome = failed(str(exc))
            result = StepResult(name, outcome.status, outcome.detail, max(0.0, clock() - began))
            results.append(result)
            if outcome.payload is not None:
                payloads[name] = outcome.payload
            if progress is not None:
                progress.end(result)
    finally:
        stop_module_tools(ctx)
        pending = ctx.shared.pop(SELFTEST_KEY, None)
        if pending is not None:
            pending.cancel()
    return VerifyResult(tuple(results), payloads)


def _start_selftest(ctx: VerifyContext) -> None:
    """Start the self-test's workers before the first step; a failure is left to its step."""
    try:
        ctx.shared[SELFTEST_KEY] = start_mutant_selftest(ctx)
    except (AdapterError, SuiteSetupError, CatalogueError, ThenRegistryError, KeyError):
        return  # the mutant self-test step starts it again and reports the error
