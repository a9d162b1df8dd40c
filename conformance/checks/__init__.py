"""Then predicates of the SRDH conformance suite.

Plain functions over a RunObservation dict (and the Scenario Fixture that produced it) returning a
:class:`CheckResult`; ``result.require()`` raises :class:`AssertionError` with the precise message.
The Gherkin Then steps and the property tests share them. Expectations come from the fixture and
the contract rules (:mod:`conformance.checks._oracle`), never from an implementation's output.
"""

from conformance.checks._cancellation import (
    check_cancelled_nothing_released,
    check_layered_cancellation,
)
from conformance.checks._contract_data import (
    FORBIDDEN_HARNESS_RESPONSIBILITIES,
    check_harness_ownership,
    check_serial_cutover,
)
from conformance.checks._contract_details import (
    check_contract_details,
    expected_binding_violations,
)
from conformance.checks._contract_failures import check_observation_contract
from conformance.checks._determinism import (
    HASH_SEEDS,
    check_same_normalized_observation,
    normalize_observation,
)
from conformance.checks._durable import check_durable_run, check_finished_run_unchanged
from conformance.checks._evidence import (
    ANALYSIS_KINDS,
    check_analysis_structure,
    check_in_band_error,
    check_no_evidence_citations,
    check_no_evidence_invocation,
    check_rejected_then_released,
    scope_within,
)
from conformance.checks._evidence_scenarios import (
    check_bounded_projection,
    check_failed_repair,
    check_first_rejected_with,
    check_invocation_ends,
    check_projection_whole,
    check_rejected_at,
    check_step_budget,
)
from conformance.checks._failure import check_attempt_outcomes, check_failed_run
from conformance.checks._fallback import (
    MESSAGE_CODES,
    check_fallback,
    check_rejected_twice_fallback,
)
from conformance.checks._frames import check_client_frames
from conformance.checks._identity import check_tool_call_identity
from conformance.checks._invariants import (
    ATTEMPT_POLICY,
    check_global_invariants,
    check_internal_error_excluded,
)
from conformance.checks._knowledge import check_fabricated_citation_rejected, returned_documents
from conformance.checks._late import check_late_results
from conformance.checks._model_input import COT_CANARY, COT_FIELDS, check_model_inputs
from conformance.checks._normalize import check_same_normalized_trace, normalize_trace
from conformance.checks._oracle import (
    PresentedCall,
    Submission,
    classify_presented_id,
    expected_identity,
    expected_previous_turn,
    expected_response,
    presented_calls,
    submissions,
)
from conformance.checks._outcome import check_evidence_outcome, record_evidence_outcome
from conformance.checks._outcome_oracle import (
    ExpectedInvocation,
    ExpectedOutcome,
    ExpectedProjection,
    ExpectedVerdict,
    ExpectedViolation,
    expected_outcome,
    expected_verdict,
)
from conformance.checks._previous_turn import check_previous_turn
from conformance.checks._release import check_one_repair_only, check_released_is_submitted
from conformance.checks._result import CheckResult, Findings
from conformance.checks._retry import check_semantic_retry
from conformance.checks._rules import (
    REQUIREMENT_IDS,
    RULES,
    ContractQuote,
    Rule,
    rule,
    rule_ids_in,
)
from conformance.checks._runtime import (
    check_disconnect,
    check_model_calls,
    check_previous_turn_rule,
)
from conformance.checks._runtime_oracle import (
    OPTIONAL_RETRIES,
    attempt_policy,
    declined_retries,
    disconnect_index,
    expected_attempts,
    fit_to_capabilities,
    fit_to_run,
)
from conformance.checks._schema import check_contract, contract_problems
from conformance.checks._starved import starved_by_the_clock
from conformance.checks._trace_fields import (
    arguments_give_scope,
    check_arguments_as_presented,
    check_arguments_refused,
    check_trace_fields,
)

__all__ = [
    "ANALYSIS_KINDS",
    "ATTEMPT_POLICY",
    "COT_CANARY",
    "COT_FIELDS",
    "FORBIDDEN_HARNESS_RESPONSIBILITIES",
    "HASH_SEEDS",
    "MESSAGE_CODES",
    "OPTIONAL_RETRIES",
    "REQUIREMENT_IDS",
    "RULES",
    "CheckResult",
    "ContractQuote",
    "ExpectedInvocation",
    "ExpectedOutcome",
    "ExpectedProjection",
    "ExpectedVerdict",
    "ExpectedViolation",
    "Findings",
    "PresentedCall",
    "Rule",
    "Submission",
    "arguments_give_scope",
    "attempt_policy",
    "check_analysis_structure",
    "check_arguments_as_presented",
    "check_arguments_refused",
    "check_attempt_outcomes",
    "check_bounded_projection",
    "check_cancelled_nothing_released",
    "check_client_frames",
    "check_contract",
    "check_contract_details",
    "check_disconnect",
    "check_durable_run",
    "check_evidence_outcome",
    "check_fabricated_citation_rejected",
    "check_failed_repair",
    "check_failed_run",
    "check_fallback",
    "check_finished_run_unchanged",
    "check_first_rejected_with",
    "check_global_invariants",
    "check_harness_ownership",
    "check_in_band_error",
    "check_internal_error_excluded",
    "check_invocation_ends",
    "check_late_results",
    "check_layered_cancellation",
    "check_model_calls",
    "check_model_inputs",
    "check_no_evidence_citations",
    "check_no_evidence_invocation",
    "check_observation_contract",
    "check_one_repair_only",
    "check_previous_turn",
    "check_previous_turn_rule",
    "check_projection_whole",
    "check_rejected_at",
    "check_rejected_then_released",
    "check_rejected_twice_fallback",
    "check_released_is_submitted",
    "check_same_normalized_observation",
    "check_same_normalized_trace",
    "check_semantic_retry",
    "check_serial_cutover",
    "check_step_budget",
    "check_tool_call_identity",
    "check_trace_fields",
    "classify_presented_id",
    "contract_problems",
    "declined_retries",
    "disconnect_index",
    "expected_attempts",
    "expected_binding_violations",
    "expected_identity",
    "expected_outcome",
    "expected_previous_turn",
    "expected_response",
    "expected_verdict",
    "fit_to_capabilities",
    "fit_to_run",
    "normalize_observation",
    "normalize_trace",
    "presented_calls",
    "record_evidence_outcome",
    "returned_documents",
    "rule",
    "rule_ids_in",
    "scope_within",
    "starved_by_the_clock",
    "submissions",
]
