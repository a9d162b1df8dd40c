"""SRDH contracts: the frozen contract set (JSON Schemas, generated Pydantic models, invariants).

Every contract of the contract sheet (``docs/contracts.md``) is a JSON Schema 2020-12 in
``schemas/<contract>.schema.json`` and a Pydantic v2 model of the same name generated from it
(``contracts/_generated``; ``python -m contracts.codegen [--check]``). Hand-written layers
restore the ``if``/``then`` rules the generator drops (:mod:`contracts._schema_rules`) and add
the invariants no schema can express (:func:`check_invariants`). Entry points:

* :func:`load_document` (path, JSON text or parsed value -> model, or :class:`ContractError`);
  :func:`check_document` (the same checks and error, without building the model);
* :func:`validate_document` (-> list of :class:`ContractViolation`: schema, then invariants);
* :func:`validator_for` (python-jsonschema with ECMA-262 ``pattern``), :func:`schema_path`;
* :data:`CONTRACTS` (name -> schema, ``$id``, model, direction, invariants);
* :func:`canonical_json` / :func:`digest` (RFC 8785, SHA-256); :func:`json_copy` (a deep copy of
  JSON-shaped data, faster than ``copy.deepcopy``);
* :func:`loads_strict` (the kit's one JSON reader: RFC 8259 + I-JSON, bounded depth and numbers,
  :class:`StrictJSONError` with line and pointer), :func:`json_value_problem` (the same rules
  on an in-memory value), :data:`MAX_SAFE_INTEGER` (the one RFC 8785 integer limit);
* :func:`load_component_registry` / :func:`load_phase_plan` (the kit's data files);
* :func:`iter_examples` (``schemas/examples``), :func:`bundle_schema` (one self-contained schema);
* :func:`unresolved_refs` / :func:`check_schema_refs` (every ``$ref`` resolves within the set,
  else :class:`SchemaSetError` naming file and pointer), :func:`file_refs` (references as file
  names, for file-reading tools).

Command lines: ``python -m contracts.codegen [--check]``, ``python -m contracts.freeze --check``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from contracts._bundle import bundle_schema
from contracts._canonical import canonical_json, digest
from contracts._copy import json_copy
from contracts._errors import ContractError, ContractViolation, SchemaSetError
from contracts._examples import Example, iter_examples
from contracts._invariants import HARNESS_FORBIDDEN, check_invariants
from contracts._loading import (
    check_document,
    is_valid_document,
    load_document,
    parse_document,
    schema_violations,
    validate_document,
)
from contracts._paths import schema_dir, schema_path
from contracts._refs import RefProblem, file_refs, iter_refs, unresolved_refs
from contracts._registry import CONTRACTS, ContractInfo, Direction
from contracts._strict_json import (
    MAX_DEPTH,
    MAX_NUMBER_CHARS,
    MAX_SAFE_INTEGER,
    JsonProblem,
    StrictJSONError,
    json_value_problem,
    line_of_pointer,
    load_json_file,
    loads_strict,
    not_a_file,
)
from contracts._validator import check_schema_refs, fast_is_valid, validator_for
from contracts._vocabulary import capability_vocabulary

if TYPE_CHECKING:
    from contracts._data import load_component_registry, load_phase_plan
    from contracts._generated.adapter_message_schema import (
        AdapterMessage,
        ByeMessage,
        Capability,
        ErrorMessage,
        HelloMessage,
        Implementation,
        ObservationMessage,
        RunMessage,
    )
    from contracts._generated.attempt_record_schema import (
        AttemptOutcome,
        AttemptRecord,
        ModelCallPurpose,
        ModelComponent,
    )
    from contracts._generated.bounded_projection_schema import (
        BoundedProjection,
        ProjectionItem,
    )
    from contracts._generated.component_registry_schema import (
        Component,
        ComponentEntry,
        ComponentKind,
        ComponentRegistry,
        Responsibility,
    )
    from contracts._generated.diagnosis_draft_schema import (
        Action,
        Analysis,
        AnalysisKind,
        Conclusion,
        Confidence,
        DiagnosisDraft,
        Limitation,
        Recommendation,
    )
    from contracts._generated.diagnosis_run_schema import (
        DiagnosisRun,
        Intent,
        RunState,
    )
    from contracts._generated.knowledge_answer_schema import (
        KnowledgeAnswer,
        KnowledgeItem,
        KnowledgeLimitation,
        Reference,
    )
    from contracts._generated.phase_plan_schema import (
        Change,
        PhasePlan,
        PublicEntry,
        Stage,
    )
    from contracts._generated.public_error_schema import (
        PublicError,
        PublicErrorCode,
    )
    from contracts._generated.published_result_schema import (
        PublishedDiagnosisDraft,
        PublishedKnowledgeAnswer,
        PublishedPublicError,
        PublishedResult,
        PublishedSafeFallback,
        ResultKind,
    )
    from contracts._generated.query_scope_schema import (
        QueryScope,
        TimeRange,
        ToolName,
    )
    from contracts._generated.run_observation_schema import (
        ClientFrame,
        ObservationError,
        RunObservation,
    )
    from contracts._generated.run_trace_event_schema import (
        CancelCause,
        CancelRequestedData,
        CancelRequestedEvent,
        DraftSubmittedData,
        DraftSubmittedEvent,
        EvidenceClassifiedData,
        EvidenceClassifiedEvent,
        EvidenceValidationData,
        EvidenceValidationEvent,
        IntentRoutedData,
        IntentRoutedEvent,
        InterruptRequestedData,
        InterruptRequestedEvent,
        InvocationStatusChangedData,
        InvocationStatusChangedEvent,
        LateResultDiscardedData,
        LateResultDiscardedEvent,
        ModelCallFinishedEvent,
        ModelCallStartedData,
        ModelCallStartedEvent,
        NewWorkPreventedData,
        NewWorkPreventedEvent,
        PreviousTurnSelectedData,
        PreviousTurnSelectedEvent,
        RejectionReason,
        ResultReleasedData,
        ResultReleasedEvent,
        RunFinishedData,
        RunFinishedEvent,
        RunStartedData,
        RunStartedEvent,
        RunTraceEvent,
        SemanticVerdictData,
        SemanticVerdictEvent,
        SkippedRun,
        SkipReason,
        StructuralRepairRequestedData,
        StructuralRepairRequestedEvent,
        ToolCallAcceptedData,
        ToolCallAcceptedEvent,
        ToolCallRejectedData,
        ToolCallRejectedEvent,
        ToolWorkCancelledData,
        ToolWorkCancelledEvent,
        Violation,
        ViolationCode,
    )
    from contracts._generated.safe_fallback_schema import (
        FallbackType,
        MessageCode,
        SafeFallback,
        VerifiedSource,
    )
    from contracts._generated.scenario_fixture_schema import (
        AgentBlockUntilCancelledTurn,
        AgentDraftAndToolCallsTurn,
        AgentDraftTurn,
        AgentErrorTurn,
        AgentIgnoreCancellationTurn,
        AgentKnowledgeAnswerTurn,
        AgentRawTurn,
        AgentToolCallsTurn,
        AgentTurn,
        BlockUntilCancelledResponse,
        ClientScript,
        DisconnectOn,
        FailureResponse,
        InBandErrorResponse,
        Limits,
        OversizeResponse,
        Perturbation,
        ReviewBlockUntilCancelledTurn,
        ReviewErrorTurn,
        ReviewRawTurn,
        ReviewTurn,
        ReviewVerdictTurn,
        RouterErrorTurn,
        RouterIntentTurn,
        RouterRawTurn,
        RouterTurn,
        RowItem,
        RowsResponse,
        ScenarioFixture,
        ScriptedToolCall,
        ToolResponse,
        ToolScript,
        TraceEventType,
    )
    from contracts._generated.semantic_verdict_schema import (
        SemanticVerdict,
        Verdict,
    )
    from contracts._generated.tool_call_id_schema import (
        ToolCallId,
    )
    from contracts._generated.tool_invocation_schema import (
        EvidenceStatus,
        InvocationError,
        InvocationErrorCode,
        InvocationStatus,
        ToolInvocation,
    )
    from contracts._generated.verified_snapshot_schema import (
        BodyKind,
        SnapshotEvidence,
        VerifiedSnapshot,
    )

# The Pydantic models (and the data loaders that build them) are imported on first use
# (PEP 562): validating a document needs only the schemas, and ``srdh validate`` starts faster.
_LAZY_EXPORTS: dict[str, tuple[str, ...]] = {
    "contracts._data": (
        "load_component_registry",
        "load_phase_plan",
    ),
    "contracts._generated.adapter_message_schema": (
        "AdapterMessage",
        "ByeMessage",
        "Capability",
        "ErrorMessage",
        "HelloMessage",
        "Implementation",
        "ObservationMessage",
        "RunMessage",
    ),
    "contracts._generated.attempt_record_schema": (
        "AttemptOutcome",
        "AttemptRecord",
        "ModelCallPurpose",
        "ModelComponent",
    ),
    "contracts._generated.bounded_projection_schema": (
        "BoundedProjection",
        "ProjectionItem",
    ),
    "contracts._generated.component_registry_schema": (
        "Component",
        "ComponentEntry",
        "ComponentKind",
        "ComponentRegistry",
        "Responsibility",
    ),
    "contracts._generated.diagnosis_draft_schema": (
        "Action",
        "Analysis",
        "AnalysisKind",
        "Conclusion",
        "Confidence",
        "DiagnosisDraft",
        "Limitation",
        "Recommendation",
    ),
    "contracts._generated.diagnosis_run_schema": (
        "DiagnosisRun",
        "Intent",
        "RunState",
    ),
    "contracts._generated.knowledge_answer_schema": (
        "KnowledgeAnswer",
        "KnowledgeItem",
        "KnowledgeLimitation",
        "Reference",
    ),
    "contracts._generated.phase_plan_schema": (
        "Change",
        "PhasePlan",
        "PublicEntry",
        "Stage",
    ),
    "contracts._generated.public_error_schema": (
        "PublicError",
        "PublicErrorCode",
    ),
    "contracts._generated.published_result_schema": (
        "PublishedDiagnosisDraft",
        "PublishedKnowledgeAnswer",
        "PublishedPublicError",
        "PublishedResult",
        "PublishedSafeFallback",
        "ResultKind",
    ),
    "contracts._generated.query_scope_schema": (
        "QueryScope",
        "TimeRange",
        "ToolName",
    ),
    "contracts._generated.run_observation_schema": (
        "ClientFrame",
        "ObservationError",
        "RunObservation",
    ),
    "contracts._generated.run_trace_event_schema": (
        "CancelCause",
        "CancelRequestedData",
        "CancelRequestedEvent",
        "DraftSubmittedData",
        "DraftSubmittedEvent",
        "EvidenceClassifiedData",
        "EvidenceClassifiedEvent",
        "EvidenceValidationData",
        "EvidenceValidationEvent",
        "IntentRoutedData",
        "IntentRoutedEvent",
        "InterruptRequestedData",
        "InterruptRequestedEvent",
        "InvocationStatusChangedData",
        "InvocationStatusChangedEvent",
        "LateResultDiscardedData",
        "LateResultDiscardedEvent",
        "ModelCallFinishedEvent",
        "ModelCallStartedData",
        "ModelCallStartedEvent",
        "NewWorkPreventedData",
        "NewWorkPreventedEvent",
        "PreviousTurnSelectedData",
        "PreviousTurnSelectedEvent",
        "RejectionReason",
        "ResultReleasedData",
        "ResultReleasedEvent",
        "RunFinishedData",
        "RunFinishedEvent",
        "RunStartedData",
        "RunStartedEvent",
        "RunTraceEvent",
        "SemanticVerdictData",
        "SemanticVerdictEvent",
        "SkippedRun",
        "SkipReason",
        "StructuralRepairRequestedData",
        "StructuralRepairRequestedEvent",
        "ToolCallAcceptedData",
        "ToolCallAcceptedEvent",
        "ToolCallRejectedData",
        "ToolCallRejectedEvent",
        "ToolWorkCancelledData",
        "ToolWorkCancelledEvent",
        "Violation",
        "ViolationCode",
    ),
    "contracts._generated.safe_fallback_schema": (
        "FallbackType",
        "MessageCode",
        "SafeFallback",
        "VerifiedSource",
    ),
    "contracts._generated.scenario_fixture_schema": (
        "AgentBlockUntilCancelledTurn",
        "AgentDraftAndToolCallsTurn",
        "AgentDraftTurn",
        "AgentErrorTurn",
        "AgentIgnoreCancellationTurn",
        "AgentKnowledgeAnswerTurn",
        "AgentRawTurn",
        "AgentToolCallsTurn",
        "AgentTurn",
        "BlockUntilCancelledResponse",
        "ClientScript",
        "DisconnectOn",
        "FailureResponse",
        "InBandErrorResponse",
        "Limits",
        "OversizeResponse",
        "Perturbation",
        "ReviewBlockUntilCancelledTurn",
        "ReviewErrorTurn",
        "ReviewRawTurn",
        "ReviewTurn",
        "ReviewVerdictTurn",
        "RouterErrorTurn",
        "RouterIntentTurn",
        "RouterRawTurn",
        "RouterTurn",
        "RowItem",
        "RowsResponse",
        "ScenarioFixture",
        "ScriptedToolCall",
        "ToolResponse",
        "ToolScript",
        "TraceEventType",
    ),
    "contracts._generated.semantic_verdict_schema": (
        "SemanticVerdict",
        "Verdict",
    ),
    "contracts._generated.tool_call_id_schema": ("ToolCallId",),
    "contracts._generated.tool_invocation_schema": (
        "EvidenceStatus",
        "InvocationError",
        "InvocationErrorCode",
        "InvocationStatus",
        "ToolInvocation",
    ),
    "contracts._generated.verified_snapshot_schema": (
        "BodyKind",
        "SnapshotEvidence",
        "VerifiedSnapshot",
    ),
}
_LAZY_OWNER = {name: module for module, names in _LAZY_EXPORTS.items() for name in names}


def __getattr__(name: str) -> object:
    """Import a model class (or data loader) on first access; see :data:`_LAZY_EXPORTS`."""
    module = _LAZY_OWNER.get(name)
    if module is None:
        message = f"module 'contracts' has no attribute {name!r}"
        raise AttributeError(message)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, the lazily imported ones included."""
    return sorted(set(globals()) | set(_LAZY_OWNER))


__all__ = [
    "CONTRACTS",
    "HARNESS_FORBIDDEN",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "MAX_SAFE_INTEGER",
    "Action",
    "AdapterMessage",
    "AgentBlockUntilCancelledTurn",
    "AgentDraftAndToolCallsTurn",
    "AgentDraftTurn",
    "AgentErrorTurn",
    "AgentIgnoreCancellationTurn",
    "AgentKnowledgeAnswerTurn",
    "AgentRawTurn",
    "AgentToolCallsTurn",
    "AgentTurn",
    "Analysis",
    "AnalysisKind",
    "AttemptOutcome",
    "AttemptRecord",
    "BlockUntilCancelledResponse",
    "BodyKind",
    "BoundedProjection",
    "ByeMessage",
    "CancelCause",
    "CancelRequestedData",
    "CancelRequestedEvent",
    "Capability",
    "Change",
    "ClientFrame",
    "ClientScript",
    "Component",
    "ComponentEntry",
    "ComponentKind",
    "ComponentRegistry",
    "Conclusion",
    "Confidence",
    "ContractError",
    "ContractInfo",
    "ContractViolation",
    "DiagnosisDraft",
    "DiagnosisRun",
    "Direction",
    "DisconnectOn",
    "DraftSubmittedData",
    "DraftSubmittedEvent",
    "ErrorMessage",
    "EvidenceClassifiedData",
    "EvidenceClassifiedEvent",
    "EvidenceStatus",
    "EvidenceValidationData",
    "EvidenceValidationEvent",
    "Example",
    "FailureResponse",
    "FallbackType",
    "HelloMessage",
    "Implementation",
    "InBandErrorResponse",
    "Intent",
    "IntentRoutedData",
    "IntentRoutedEvent",
    "InterruptRequestedData",
    "InterruptRequestedEvent",
    "InvocationError",
    "InvocationErrorCode",
    "InvocationStatus",
    "InvocationStatusChangedData",
    "InvocationStatusChangedEvent",
    "JsonProblem",
    "KnowledgeAnswer",
    "KnowledgeItem",
    "KnowledgeLimitation",
    "LateResultDiscardedData",
    "LateResultDiscardedEvent",
    "Limitation",
    "Limits",
    "MessageCode",
    "ModelCallFinishedEvent",
    "ModelCallPurpose",
    "ModelCallStartedData",
    "ModelCallStartedEvent",
    "ModelComponent",
    "NewWorkPreventedData",
    "NewWorkPreventedEvent",
    "ObservationError",
    "ObservationMessage",
    "OversizeResponse",
    "Perturbation",
    "PhasePlan",
    "PreviousTurnSelectedData",
    "PreviousTurnSelectedEvent",
    "ProjectionItem",
    "PublicEntry",
    "PublicError",
    "PublicErrorCode",
    "PublishedDiagnosisDraft",
    "PublishedKnowledgeAnswer",
    "PublishedPublicError",
    "PublishedResult",
    "PublishedSafeFallback",
    "QueryScope",
    "Recommendation",
    "RefProblem",
    "Reference",
    "RejectionReason",
    "Responsibility",
    "ResultKind",
    "ResultReleasedData",
    "ResultReleasedEvent",
    "ReviewBlockUntilCancelledTurn",
    "ReviewErrorTurn",
    "ReviewRawTurn",
    "ReviewTurn",
    "ReviewVerdictTurn",
    "RouterErrorTurn",
    "RouterIntentTurn",
    "RouterRawTurn",
    "RouterTurn",
    "RowItem",
    "RowsResponse",
    "RunFinishedData",
    "RunFinishedEvent",
    "RunMessage",
    "RunObservation",
    "RunStartedData",
    "RunStartedEvent",
    "RunState",
    "RunTraceEvent",
    "SafeFallback",
    "ScenarioFixture",
    "SchemaSetError",
    "ScriptedToolCall",
    "SemanticVerdict",
    "SemanticVerdictData",
    "SemanticVerdictEvent",
    "SkipReason",
    "SkippedRun",
    "SnapshotEvidence",
    "Stage",
    "StrictJSONError",
    "StructuralRepairRequestedData",
    "StructuralRepairRequestedEvent",
    "TimeRange",
    "ToolCallAcceptedData",
    "ToolCallAcceptedEvent",
    "ToolCallId",
    "ToolCallRejectedData",
    "ToolCallRejectedEvent",
    "ToolInvocation",
    "ToolName",
    "ToolResponse",
    "ToolScript",
    "ToolWorkCancelledData",
    "ToolWorkCancelledEvent",
    "TraceEventType",
    "Verdict",
    "VerifiedSnapshot",
    "VerifiedSource",
    "Violation",
    "ViolationCode",
    "bundle_schema",
    "canonical_json",
    "capability_vocabulary",
    "check_document",
    "check_invariants",
    "check_schema_refs",
    "digest",
    "fast_is_valid",
    "file_refs",
    "is_valid_document",
    "iter_examples",
    "iter_refs",
    "json_copy",
    "json_value_problem",
    "line_of_pointer",
    "load_component_registry",
    "load_document",
    "load_json_file",
    "load_phase_plan",
    "loads_strict",
    "not_a_file",
    "parse_document",
    "schema_dir",
    "schema_path",
    "schema_violations",
    "unresolved_refs",
    "validate_document",
    "validator_for",
]
