"""The sixth red team's cancellation mutants (docs/decisions/red-team-6.md).

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._redteam6_parts import (
    DeferredCancelContext,
    ToolPathInterruptFirstContext,
    uncancellable_attempt,
)
from reference_harness.mutants._round3_parts import run_context_class

__all__ = ["REDTEAM6_SPECS"]

_R8 = "cancellation-shall-be-layered-and-observable"
_HARNESS = "reference_harness._harness"
_CALLS = "reference_harness._model_calls"
_DEFERRED = Patch(_HARNESS, "RunContext", run_context_class(DeferredCancelContext))
_SENTENCE = (
    "is not wired to the Run's cancellation: a client disconnect while it is in flight neither "
    "interrupts it nor discards its answer (the Run records the cancellation at its next gate)"
)

REDTEAM6_SPECS: Final = (
    MutantSpec(
        "semantic_review_uncancellable",
        _R8,
        f"the SemanticGuard review call {_SENTENCE}",
        rule_id="R8.layered-cancellation",
        patches=(
            _DEFERRED,
            Patch(_CALLS, "_attempt", uncancellable_attempt(lambda c, _p: c == "SEMANTIC_GUARD")),
        ),
    ),
    MutantSpec(
        "structural_repair_uncancellable",
        _R8,
        f"the structural repair call {_SENTENCE}",
        rule_id="R8.layered-cancellation",
        patches=(
            _DEFERRED,
            Patch(
                _CALLS, "_attempt", uncancellable_attempt(lambda _c, p: p == "STRUCTURAL_REPAIR")
            ),
        ),
    ),
    MutantSpec(
        "router_call_uncancellable",
        _R8,
        f"the Router call {_SENTENCE}",
        rule_id="R8.layered-cancellation",
        patches=(
            _DEFERRED,
            Patch(_CALLS, "_attempt", uncancellable_attempt(lambda c, _p: c == "ROUTER")),
        ),
    ),
    MutantSpec(
        "tool_path_cancel_layers_swapped",
        _R8,
        "layered cancellation in order: when the cancellation is noticed during tool work, the "
        "agent is interrupted before new work is prevented",
        rule_id="R8.layered-cancellation",
        patches=(Patch(_HARNESS, "RunContext", run_context_class(ToolPathInterruptFirstContext)),),
    ),
)
"""The mutants, in docs/decisions/red-team-6.md's order."""
