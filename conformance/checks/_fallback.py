"""Checks of Requirement "Safe fallback SHALL use a fixed schema"."""

from __future__ import annotations

from typing import Any

from conformance.checks._outcome_oracle import expected_outcome
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import current_run, events, released_kinds, validations

__all__ = ["MESSAGE_CODES", "check_fallback", "check_rejected_twice_fallback"]

MESSAGE_CODES = {
    "EVIDENCE_VALIDATION_FAILED": "EVIDENCE_NOT_VERIFIED",
    "SEMANTIC_UNSUPPORTED": "CLAIMS_NOT_SUPPORTED",
    "SEMANTIC_UNAVAILABLE": "REVIEW_UNAVAILABLE",
}
"""The fixed message code of each fallback type."""


def check_fallback(observation: dict[str, Any], fallback_type: str) -> CheckResult:
    """Check the Run ended FALLBACK with the fixed Safe Fallback of ``fallback_type``.

    The published result is SAFE_FALLBACK with that type and its fixed message code; the run row
    is FALLBACK with the same type; no draft or answer was released; ``verified_sources`` is empty
    for EVIDENCE_VALIDATION_FAILED, and otherwise lists only READY invocations of this Run whose
    tool name, query scope and evidence status match the canonical invocation.
    """
    found = Findings(f"Safe Fallback {fallback_type}", "R6.fallback-fixed-schema")
    published = observation.get("published_result") or {}
    fallback = published.get("safe_fallback") or {}
    found.expect(
        published.get("kind") == "SAFE_FALLBACK" and fallback.get("fallback_type") == fallback_type,
        f"published result is {published.get('kind')} {fallback.get('fallback_type')}, "
        f"expected SAFE_FALLBACK {fallback_type}",
    )
    found.expect(
        fallback.get("message_code") == MESSAGE_CODES[fallback_type],
        f"message_code {fallback.get('message_code')}, expected {MESSAGE_CODES[fallback_type]}",
    )
    row = current_run(observation) or {}
    found.expect(
        (row.get("state"), row.get("fallback_type")) == ("FALLBACK", fallback_type),
        f"diagnosis_run is {row.get('state')} / {row.get('fallback_type')}, "
        f"expected FALLBACK / {fallback_type}",
    )
    kinds = released_kinds(observation)
    found.expect(
        not {"DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER"} & set(kinds),
        f"a fallback Run released {kinds}",
    )
    sources = fallback.get("verified_sources", [])
    if fallback_type == "EVIDENCE_VALIDATION_FAILED":
        found.expect(sources == [], f"verified sources should be empty, got {sources}")
    invocations = {i["tool_call_id"]: i for i in observation.get("invocations", [])}
    for source in sources:
        record = invocations.get(source.get("tool_call_id"))
        matches = (
            record is not None
            and record.get("status") == "READY"
            and record.get("tool_name") == source.get("tool_name")
            and record.get("evidence_status") == source.get("evidence_status")
            and (record.get("projection") or {}).get("query_scope") == source.get("query_scope")
        )
        found.expect(
            matches,
            f"verified source {source.get('tool_call_id')!r} is not a READY invocation as its "
            "record holds it (status READY, tool name, evidence status, projection query scope)",
        )
    return found.result()


def check_rejected_twice_fallback(
    observation: dict[str, Any],
    code: str | None = None,
    *,
    repair_submitted: bool = True,
    fixture: dict[str, Any] | None = None,
) -> CheckResult:
    """Check the first validation and the single structural repair both failed.

    Both fail (with ``code`` when given), exactly one repair was requested, and the Run fell back
    with EVIDENCE_VALIDATION_FAILED and no verified sources. With ``repair_submitted`` false (the
    repair answered with tool calls: a failed repair that submitted nothing), an
    EVIDENCE_VALIDATION of attempt 2 may be missing; when recorded it is invalid. Given the
    ``fixture``, a repair turn that calls tools means the same.
    """
    if fixture is not None and any(v.by_tool_calls for v in expected_outcome(fixture).verdicts):
        repair_submitted = False
    found = Findings(
        "initial validation and the structural repair both fail", "R6.evidence-validation-failed"
    )
    checked = validations(observation)
    for attempt in (1, 2):
        if attempt == 2 and not repair_submitted and attempt not in checked:  # noqa: PLR2004
            continue
        verdict = checked.get(attempt, {})
        codes = [v.get("code") for v in verdict.get("violations", [])]
        found.expect(
            verdict.get("valid") is False and (code is None or code in codes),
            f"EVIDENCE_VALIDATION attempt {attempt} should be invalid"
            + (f" with {code}" if code else "")
            + f", got {verdict or 'none'}",
        )
    found.expect(
        len(events(observation, "STRUCTURAL_REPAIR_REQUESTED")) == 1,
        "expected exactly one STRUCTURAL_REPAIR_REQUESTED",
    )
    outcome = check_fallback(observation, "EVIDENCE_VALIDATION_FAILED")
    if not outcome.passed:
        found.add(outcome.message)
    return found.result()
