"""Hand-written restorations of the schema rules the model generator drops.

datamodel-code-generator 0.89 drops ``if``/``then``/``else`` conditionals and ``uniqueItems``
(FIELD-NOTES). Each function below re-states, for one generated class, exactly the conditionals
written in that class's JSON Schema, so that ``model_validate`` and the JSON Schema give the same
verdict. The differential tests (``tests/contracts/test_contracts_differential.py``) prove the pair
agree on every example and on generated instances.

:class:`contracts._base.ContractModel` runs a class's rule (:func:`schema_rule_of`, looked up
once per class) after field validation; :func:`check_schema_rules` does the same for one model.
A rule returns a message naming the first broken rule, or ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["check_schema_rules", "schema_rule_of"]

Rule = Callable[[Any], str | None]

_EVIDENCE_STATUSES = ("EVIDENCE_FOUND", "NO_EVIDENCE", "ERROR")


def _duplicates(name: str, values: Sequence[Any]) -> str | None:
    """Return a message when ``values`` (a ``uniqueItems`` array) holds a repeated value."""
    seen: set[Any] = set()
    for value in values:
        key = getattr(value, "root", value)
        if key in seen:
            return f"{name}: items must be unique ({key!r} repeats)"
        seen.add(key)
    return None


def _bounded_projection(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    if m.query_scope.tool == "lookup_documents":
        if any("document_id" not in item.model_fields_set for item in m.items):
            return "query_scope.tool lookup_documents requires document_id on every item"
    else:
        if any("document_id" in item.model_fields_set for item in m.items):
            return "items of a non-lookup tool must not have document_id"
        if m.document_ids:
            return "document_ids must be empty for a non-lookup tool"
    return _duplicates("document_ids", m.document_ids)


def _tool_invocation(m: Any) -> str | None:  # noqa: ANN401, PLR0911 - one return per schema rule
    status, evidence, error = m.status, m.evidence_status, m.error
    if status == "PROJECTING" and (
        evidence is not None or m.projection is not None or error is not None
    ):
        return "status PROJECTING requires evidence_status, projection and error null"
    if status == "READY" and (evidence is None or m.projection is None):
        return "status READY requires an evidence_status and a projection"
    if status == "ERROR":
        if evidence != "ERROR" or m.projection is not None:
            return "status ERROR requires evidence_status ERROR and projection null"
        if error is not None and error.code == "BACKEND_ERROR":
            return "status ERROR forbids error code BACKEND_ERROR"
    if evidence == "ERROR" and error is None:
        return "evidence_status ERROR requires an error"
    if (
        status == "READY"
        and evidence == "ERROR"
        and error is not None
        and error.code != "BACKEND_ERROR"
    ):
        return "status READY with evidence_status ERROR requires error code BACKEND_ERROR"
    if evidence in ("EVIDENCE_FOUND", "NO_EVIDENCE") and error is not None:
        return f"evidence_status {evidence} requires error null"
    return None


def _analysis(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    if m.kind == "NEGATIVE_OBSERVATION" and "scope" not in m.model_fields_set:
        return "kind NEGATIVE_OBSERVATION requires scope"
    return None


_MESSAGE_CODES = {
    "EVIDENCE_VALIDATION_FAILED": "EVIDENCE_NOT_VERIFIED",
    "SEMANTIC_UNSUPPORTED": "CLAIMS_NOT_SUPPORTED",
    "SEMANTIC_UNAVAILABLE": "REVIEW_UNAVAILABLE",
}


def _safe_fallback(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    expected = _MESSAGE_CODES[m.fallback_type]
    if m.message_code != expected:
        return f"fallback_type {m.fallback_type} requires message_code {expected}"
    if m.fallback_type == "EVIDENCE_VALIDATION_FAILED" and m.verified_sources:
        return "fallback_type EVIDENCE_VALIDATION_FAILED requires verified_sources empty"
    return None


def _verified_snapshot(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    present = m.model_fields_set
    wanted, other = (
        ("diagnosis_draft", "knowledge_answer")
        if m.result_kind == "DIAGNOSIS_DRAFT"
        else ("knowledge_answer", "diagnosis_draft")
    )
    if wanted not in present or other in present:
        return f"result_kind {m.result_kind} requires {wanted} and forbids {other}"
    return None


def _verdict(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    ids = m.unsupported_analysis_ids
    if m.verdict == "SUPPORTED" and ids:
        return "verdict SUPPORTED requires unsupported_analysis_ids empty"
    if m.verdict == "UNSUPPORTED" and not ids:
        return "verdict UNSUPPORTED requires at least one unsupported_analysis_id"
    return _duplicates("unsupported_analysis_ids", ids)


def _snapshot_digest(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    if m.purpose == "SEMANTIC_REVIEW" and m.snapshot_digest is None:
        return "purpose SEMANTIC_REVIEW requires a snapshot_digest"
    if m.purpose != "SEMANTIC_REVIEW" and m.snapshot_digest is not None:
        return "snapshot_digest must be null unless purpose is SEMANTIC_REVIEW"
    return None


_SUCCESS_KINDS = ("DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER")


def _state_codes(state: str, fallback_type: object, error_code: object) -> str | None:
    """The fallback_type / error_code rules shared by DiagnosisRun and RUN_FINISHED."""
    if state == "FALLBACK" and (fallback_type is None or error_code is not None):
        return "state FALLBACK requires fallback_type set and error_code null"
    if state == "FAILED" and (error_code is None or fallback_type is not None):
        return "state FAILED requires error_code set and fallback_type null"
    if state not in ("FALLBACK", "FAILED") and (
        fallback_type is not None or error_code is not None
    ):
        return f"state {state} requires fallback_type and error_code null"
    return None


def _diagnosis_run(m: Any) -> str | None:  # noqa: ANN401, PLR0911 - one return per schema rule
    state = m.state
    problem = _state_codes(state, m.fallback_type, m.error_code)
    if problem is not None:
        return problem
    body = None if m.published_result is None else m.published_result.root
    if state == "RUNNING" and (body is not None or m.finished_at_ms is not None):
        return "state RUNNING requires published_result and finished_at_ms null"
    if state != "RUNNING" and m.finished_at_ms is None:
        return f"state {state} requires finished_at_ms"
    if state == "CANCELLED" and body is not None:
        return "state CANCELLED requires published_result null"
    expected = {
        "SUCCESS": _SUCCESS_KINDS,
        "FALLBACK": ("SAFE_FALLBACK",),
        "FAILED": ("PUBLIC_ERROR",),
    }.get(state)
    if expected is not None and (body is None or body.kind not in expected):
        return f"state {state} requires a published_result of kind {' or '.join(expected)}"
    if body is None:
        return None
    if state == "FALLBACK" and body.safe_fallback.fallback_type != m.fallback_type:
        return "state FALLBACK requires the published fallback to have the run's fallback_type"
    if state == "FAILED" and body.public_error.error_code != m.error_code:
        return "state FAILED requires the published error to have the run's error_code"
    return None


def _status_pair(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    allowed = {"PROJECTING": (None,), "READY": _EVIDENCE_STATUSES, "ERROR": ("ERROR",)}
    if m.evidence_status not in allowed[m.status]:
        return f"(status {m.status}, evidence_status {m.evidence_status}) is not an allowed pair"
    return None


def _evidence_validation(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    if m.valid and m.violations:
        return "valid true requires violations empty"
    if not m.valid and not m.violations:
        return "valid false requires at least one violation"
    return None


def _run_finished(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    return _state_codes(m.state, m.fallback_type, m.error_code)


def _component_entry(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    return _duplicates("owns", m.owns) or _duplicates("never", m.never)


def _hello(m: Any) -> str | None:  # noqa: ANN401 - any generated model
    return _duplicates("capabilities", m.capabilities)


_RULES: dict[tuple[str, str], Rule] = {
    ("bounded_projection_schema", "BoundedProjection"): _bounded_projection,
    ("tool_invocation_schema", "ToolInvocation"): _tool_invocation,
    ("diagnosis_draft_schema", "Analysis"): _analysis,
    ("safe_fallback_schema", "SafeFallback"): _safe_fallback,
    ("verified_snapshot_schema", "VerifiedSnapshot"): _verified_snapshot,
    ("semantic_verdict_schema", "SemanticVerdict"): _verdict,
    ("run_trace_event_schema", "SemanticVerdictData"): _verdict,
    ("attempt_record_schema", "AttemptRecord"): _snapshot_digest,
    ("run_trace_event_schema", "ModelCallStartedData"): _snapshot_digest,
    ("diagnosis_run_schema", "DiagnosisRun"): _diagnosis_run,
    ("run_trace_event_schema", "InvocationStatusChangedData"): _status_pair,
    ("run_trace_event_schema", "EvidenceValidationData"): _evidence_validation,
    ("run_trace_event_schema", "RunFinishedData"): _run_finished,
    ("component_registry_schema", "ComponentEntry"): _component_entry,
    ("adapter_message_schema", "HelloMessage"): _hello,
}


def rule_targets() -> frozenset[tuple[str, str]]:
    """The (generated module, class) pairs that carry a restored rule (for tests)."""
    return frozenset(_RULES)


def schema_rule_of(cls: type[BaseModel]) -> Rule | None:
    """The restored rule of the generated class ``cls``, or ``None`` when it has none."""
    return _RULES.get((cls.__module__.rpartition(".")[2], cls.__name__))


def check_schema_rules(model: BaseModel) -> str | None:
    """Return a message naming the first dropped schema rule ``model`` breaks, else ``None``."""
    rule = schema_rule_of(type(model))
    return None if rule is None else rule(model)
