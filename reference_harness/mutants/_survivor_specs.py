"""Mutants of the faults an independent attacker found conformant (issue 10, runtime kinds).

Each is the smallest wrong Harness of one kind, named by the sentence it breaks, with the rule id
(:mod:`conformance.checks` registry) whose failure must kill it. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._parts import rebuilt_snapshot_after
from reference_harness.mutants._runtime_parts import tracking_execute
from reference_harness.mutants._survivor_parts import (
    IntentForgettingStore,
    LateAnswerAgent,
    MessageKeepingHarness,
    SetOrderedSkipStore,
    classifying_late_settle,
    code_swapping_ledger,
    message_keeping_ledger,
    set_ordered_violations,
    tools_in_every_agent_request,
    validating_late_answer,
)

__all__ = ["SURVIVOR_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"
_R8 = "cancellation-shall-be-layered-and-observable"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_LEDGER = ("reference_harness._run_context", "InvocationLedger")

SURVIVOR_SPECS: Final = (
    MutantSpec(
        "late_draft_validated",
        _R8,
        "discards any late model result: after the cancellation the late draft still goes "
        "through the EvidenceGuard (nothing is released)",
        rule_id="R8.late-result-discarded",
        agent=LateAnswerAgent,
        patches=(Patch("reference_harness._agent_loop", "_call_agent", validating_late_answer),),
    ),
    MutantSpec(
        "cancelled_tool_recorded_timeout",
        _R8,
        "cancellable Tool work: tool work the Run's cancellation stopped is recorded TOOL_TIMEOUT "
        "instead of CANCELLED",
        rule_id="R8.tool-stop-recorded",
        patches=(Patch(*_LEDGER, code_swapping_ledger({"CANCELLED": "TOOL_TIMEOUT"})),),
    ),
    MutantSpec(
        "timed_out_tool_recorded_cancelled",
        _R8,
        "cancellable Tool work: tool work its timeout stopped is recorded CANCELLED instead of "
        "TOOL_TIMEOUT",
        rule_id="R8.tool-stop-recorded",
        patches=(Patch(*_LEDGER, code_swapping_ledger({"TOOL_TIMEOUT": "CANCELLED"})),),
    ),
    MutantSpec(
        "late_tool_answer_classified",
        _R8,
        "cancellable Tool work: a tool answer arriving after its timeout is classified "
        "(EVIDENCE_CLASSIFIED) although the invocation ended TOOL_TIMEOUT",
        rule_id="R8.late-tool-result-discarded",
        patches=(
            Patch("reference_harness._agent_loop", "execute_tool", tracking_execute),
            Patch("reference_harness._tool_execution", "_settle", classifying_late_settle),
        ),
    ),
    MutantSpec(
        "intent_not_stored",
        _R7,
        "diagnosis_run as the durable source of intent: the routed intent is never stored, the "
        "row keeps intent null",
        rule_id="R7.durable-run-intent",
        store_class=IntentForgettingStore,
    ),
    MutantSpec(
        "raised_message_stored",
        _R6,
        "SHALL exclude internal errors: a raising tool's invocation stores the backend's "
        "exception message as its safe_message",
        rule_id="R6.internal-error-excluded",
        harness_class=MessageKeepingHarness,
        patches=(Patch(*_LEDGER, message_keeping_ledger),),
    ),
    MutantSpec(
        "repair_request_offers_tools",
        _R6,
        "the single no-Tool structural repair: the repair request offers the tools (the model "
        "happens to answer with a draft)",
        rule_id="R6.repair-offers-no-tools",
        patches=(
            Patch("reference_harness._model_input", "agent_tools", tools_in_every_agent_request),
        ),
    ),
    MutantSpec(
        "snapshot_rebuilt_after_unavailable",
        _R9,
        "one second attempt with the same verified snapshot: a SemanticGuard retry after "
        "UNAVAILABLE reviews a re-built snapshot (after INVALID_SCHEMA it keeps it)",
        rule_id="R9.semantic-retry-same-snapshot",
        patches=(
            Patch(
                "reference_harness._release",
                "call_with_retry",
                rebuilt_snapshot_after("UNAVAILABLE"),
            ),
        ),
    ),
    MutantSpec(
        "set_ordered_violations",
        _R1,
        "Harness as deterministic execution control: a rejected draft's violations come in "
        "hash-set order, which changes from one process to the next",
        rule_id="R1.deterministic-control",
        patches=(Patch("reference_harness._release", "check_draft", set_ordered_violations),),
        cross_process=True,
    ),
    MutantSpec(
        "set_ordered_skipped_runs",
        _R1,
        "Harness as deterministic execution control: the Runs skipped by the previous-turn "
        "selection are listed in hash-set order, which changes from one process to the next",
        rule_id="R1.deterministic-control",
        store_class=SetOrderedSkipStore,
        cross_process=True,
    ),
)
"""The attacker-found mutants, in requirement order of the fault they carry."""
