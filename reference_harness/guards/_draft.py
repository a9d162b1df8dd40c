"""EvidenceGuard rules for a Diagnosis Draft (DESIGN section 4, draft part)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contracts import DiagnosisDraft

from ._invocations import (
    ERROR,
    EVIDENCE_FOUND,
    NO_EVIDENCE,
    READY,
    InvocationView,
    scope_within,
    views_of_run,
)
from ._pointer import pointer
from ._schema import build_model, is_structural, structural_violations
from ._violations import GuardVerdict, Violation, ViolationCode, rejected

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from contracts import ToolInvocation

_OBSERVATION = "OBSERVATION"
_NEGATIVE = "NEGATIVE_OBSERVATION"


def _citation_code(kind: str, view: InvocationView) -> str | None:
    """Return the code of a known invocation cited by an analysis of `kind`, or None if allowed.

    One code per citation, the most fundamental first: ERROR evidence (READY with an in-band
    error, or ERROR), then not READY (PROJECTING), then the kind rules of NO_EVIDENCE.
    """
    code: str | None = None
    if view.evidence_status == ERROR:
        code = ViolationCode.ERROR_EVIDENCE_CITED
    elif view.status != READY:
        code = ViolationCode.INVOCATION_NOT_READY
    elif view.evidence_status == NO_EVIDENCE and kind != _NEGATIVE:
        code = ViolationCode.NO_EVIDENCE_NOT_NEGATIVE
    elif view.evidence_status != NO_EVIDENCE and kind == _NEGATIVE:
        code = ViolationCode.NEGATIVE_WITHOUT_NO_EVIDENCE
    return code


def _analysis(
    index: int, analysis: dict[str, Any], views: Mapping[str, InvocationView]
) -> Iterator[Violation]:
    """Yield the violations of analysis `index`: each citation, then scope, then evidence."""
    kind = analysis["kind"]
    found_evidence = False
    scope_too_wide = False
    for position, tool_call_id in enumerate(analysis["tool_call_ids"]):
        view = views.get(tool_call_id)
        code = ViolationCode.UNKNOWN_TOOL_CALL_ID if view is None else _citation_code(kind, view)
        if code is not None or view is None:
            at = ("analyses", index, "tool_call_ids", position)
            yield Violation(code or ViolationCode.UNKNOWN_TOOL_CALL_ID, pointer(at))
            continue
        found_evidence = found_evidence or view.evidence_status == EVIDENCE_FOUND
        if kind == _NEGATIVE and view.query_scope is not None:
            scope_too_wide = scope_too_wide or not scope_within(analysis["scope"], view.query_scope)
    if scope_too_wide:
        yield Violation(
            ViolationCode.NEGATIVE_SCOPE_TOO_WIDE, pointer(("analyses", index, "scope"))
        )
    if kind == _OBSERVATION and not found_evidence:
        yield Violation(
            ViolationCode.OBSERVATION_WITHOUT_EVIDENCE,
            pointer(("analyses", index, "tool_call_ids")),
        )


def _analysis_references(draft: dict[str, Any], known: set[str]) -> Iterator[Violation]:
    """Yield UNKNOWN_ANALYSIS_ID for every id in conclusion, action plan and recommendations."""
    places: list[tuple[tuple[object, ...], list[str]]] = [
        (("conclusion",), draft["conclusion"]["analysis_ids"])
    ]
    for section in ("action_plan", "recommendations"):
        places.extend(
            ((section, index), entry["analysis_ids"]) for index, entry in enumerate(draft[section])
        )
    for at, analysis_ids in places:
        for position, analysis_id in enumerate(analysis_ids):
            if analysis_id not in known:
                yield Violation(
                    ViolationCode.UNKNOWN_ANALYSIS_ID, pointer((*at, "analysis_ids", position))
                )


def _limitations(draft: dict[str, Any], views: Mapping[str, InvocationView]) -> Iterator[Violation]:
    """A limitation may cite a failed invocation, but not an unknown or still running one."""
    for index, limitation in enumerate(draft["limitations"]):
        for position, tool_call_id in enumerate(limitation["tool_call_ids"]):
            view = views.get(tool_call_id)
            at = pointer(("limitations", index, "tool_call_ids", position))
            if view is None:
                yield Violation(ViolationCode.UNKNOWN_TOOL_CALL_ID, at)
            elif view.status not in {READY, ERROR}:
                yield Violation(ViolationCode.INVOCATION_NOT_READY, at)


def draft_binding_violations(
    draft: dict[str, Any], views: Mapping[str, InvocationView]
) -> list[Violation]:
    """Return the binding violations of a schema-valid draft, in document order.

    Duplicate analysis ids are a contract invariant, reported by `structural_violations`.
    """
    violations: list[Violation] = []
    seen: set[str] = set()
    for index, analysis in enumerate(draft["analyses"]):
        seen.add(analysis["analysis_id"])
        violations.extend(_analysis(index, analysis, views))
    violations.extend(_analysis_references(draft, seen))
    violations.extend(_limitations(draft, views))
    return violations


def check_draft(
    document: object, *, run_id: str, invocations: Mapping[str, ToolInvocation]
) -> GuardVerdict:
    """Validate a submitted Diagnosis Draft against the evidence rules (DESIGN section 4).

    Args:
        document: the raw JSON value the Diagnosis Agent submitted (any value at all).
        run_id: the Run the draft belongs to.
        invocations: Tool Call ID -> canonical ToolInvocation of this Run (accepted calls only);
            an entry of another Run counts as unknown.

    Returns:
        A `GuardVerdict`: valid with the `DiagnosisDraft` model, or invalid with every
        violation (code + RFC 6901 pointer into `document`). A structurally invalid document
        yields only structural violations (`SCHEMA_INVALID`, `MISSING_TOOL_CALL_IDS`).
        Never raises for a rejected document. Cost is linear in the sizes of both inputs.

    Implements Requirements "Invocation status and evidence status SHALL be independent" and
    "Diagnosis Draft SHALL expose typed report structure".
    """
    violations = structural_violations(document, "diagnosis-draft")
    if is_structural(violations) or not isinstance(document, dict):
        return rejected(violations)
    violations += draft_binding_violations(document, views_of_run(invocations, run_id))
    if violations:
        return rejected(violations)
    model, invariant_violations = build_model(DiagnosisDraft, document)
    if model is None:
        return rejected(list(invariant_violations))
    return GuardVerdict(valid=True, violations=(), document=model)
