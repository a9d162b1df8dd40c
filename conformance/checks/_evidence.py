"""Checks of EvidenceGuard outcomes.

Requirements "Invocation status and evidence status SHALL be independent" and "Diagnosis Draft
SHALL expose typed report structure".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.checks._oracle import expected_identity, expected_response, submissions
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import canonical, events, invocation, validations

__all__ = [
    "ANALYSIS_KINDS",
    "check_analysis_structure",
    "check_in_band_error",
    "check_no_evidence_citations",
    "check_no_evidence_invocation",
    "check_rejected_then_released",
    "scope_within",
]

ANALYSIS_KINDS = frozenset({"OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE"})
"""The fixed Analysis kinds."""


def scope_within(inner: Any, outer: Any) -> bool:  # noqa: ANN401 - two QueryScope values
    """Return whether QueryScope ``inner`` is within ``outer``.

    Within means the same tool, target and query, and a time range inside ``outer``'s.
    """
    if not isinstance(inner, dict) or not isinstance(outer, dict):
        return False
    same = all(inner.get(key) == outer.get(key) for key in ("tool", "target", "query"))
    a, b = inner.get("time_range") or {}, outer.get("time_range") or {}
    try:
        inside = b["start_ms"] <= a["start_ms"] <= a["end_ms"] <= b["end_ms"]
    except (KeyError, TypeError):
        return False
    return same and inside


def check_no_evidence_invocation(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check every accepted call whose backend found nothing is READY with NO_EVIDENCE.

    Its projection has zero items and ``total_matched`` 0, and EVIDENCE_CLASSIFIED says NO_EVIDENCE.
    Fails when the fixture has no such call (the scenario's WHEN would not hold).
    """
    found = Findings("zero-match query is READY + NO_EVIDENCE", "R3.no-evidence-invocation")
    accepted, _ = expected_identity(fixture)
    empty = [
        call
        for call in accepted
        if (response := expected_response(fixture, call)) is not None
        and response.get("kind") == "rows"
        and not response.get("items")
    ]
    found.expect(empty, "the fixture has no successful tool call that matches nothing")
    classified = {
        e["data"]["tool_call_id"]: e["data"] for e in events(observation, "EVIDENCE_CLASSIFIED")
    }
    for call in empty:
        records = invocation(observation, call.value)
        if not found.expect(records, f"{call.value!r}: no invocation"):
            continue
        record = records[0]
        found.expect(
            (record.get("status"), record.get("evidence_status")) == ("READY", "NO_EVIDENCE"),
            f"{call.value!r}: invocation status {record.get('status')} and evidence status "
            f"{record.get('evidence_status')}, expected READY and NO_EVIDENCE",
        )
        projection = record.get("projection") or {}
        found.expect(
            projection.get("items") == [] and projection.get("total_matched") == 0,
            f"{call.value!r}: projection should hold zero items and total_matched 0",
        )
        found.expect(
            classified.get(call.value, {}).get("evidence_status") == "NO_EVIDENCE",
            f"{call.value!r}: EVIDENCE_CLASSIFIED should say NO_EVIDENCE",
        )
    return found.result()


def _evidence_of(observation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["tool_call_id"]: i for i in observation.get("invocations", [])}


def _released_document(observation: dict[str, Any]) -> Any:  # noqa: ANN401 - JSON
    result = observation.get("published_result") or {}
    return result.get("diagnosis_draft", result.get("knowledge_answer"))


def check_no_evidence_citations(
    observation: dict[str, Any], fixture: dict[str, Any]
) -> CheckResult:
    """Check a draft citing a NO_EVIDENCE result is released only as a bounded NEGATIVE_OBSERVATION.

    Every submitted draft with an analysis that cites a NO_EVIDENCE invocation but is not a
    NEGATIVE_OBSERVATION, or whose scope is not within that invocation's query scope, must fail
    EvidenceGuard (NO_EVIDENCE_NOT_NEGATIVE / NEGATIVE_SCOPE_TOO_WIDE); the released draft keeps
    the rule.
    """
    found = Findings(
        "NO_EVIDENCE citations are bounded NEGATIVE_OBSERVATIONs", "R3.no-evidence-citation"
    )
    evidence = _evidence_of(observation)
    checked = validations(observation)
    cited_any = False
    for submission in submissions(fixture):
        problems = _no_evidence_problems(submission.document, evidence)
        cited_any = cited_any or problems is not None
        if problems:
            verdict = checked.get(submission.attempt, {})
            codes = {v.get("code") for v in verdict.get("violations", [])}
            found.expect(
                verdict.get("valid") is False and codes & set(problems),
                f"draft attempt {submission.attempt} breaks the rule ({', '.join(problems)}) but "
                f"EVIDENCE_VALIDATION attempt {submission.attempt} is {verdict or 'missing'}",
            )
    found.expect(cited_any, "no submitted draft cites a NO_EVIDENCE result")
    released = _released_document(observation)
    if released is not None:
        found.expect(
            not _no_evidence_problems(released, evidence),
            "the released draft cites a NO_EVIDENCE result outside a bounded NEGATIVE_OBSERVATION",
        )
    return found.result()


def _no_evidence_problems(draft: Any, evidence: dict[str, dict[str, Any]]) -> list[str] | None:  # noqa: ANN401
    """Return the violated codes of ``draft``'s NO_EVIDENCE citations; ``None`` if it cites none."""
    if not isinstance(draft, dict):
        return None
    codes: list[str] | None = None
    for item in draft.get("analyses", []) or []:
        cited = [evidence.get(i) for i in item.get("tool_call_ids", []) or [] if isinstance(i, str)]
        empty = [r for r in cited if r is not None and r.get("evidence_status") == "NO_EVIDENCE"]
        if not empty:
            continue
        codes = codes or []
        if item.get("kind") != "NEGATIVE_OBSERVATION":
            codes.append("NO_EVIDENCE_NOT_NEGATIVE")
        elif not all(
            scope_within(item.get("scope"), (r.get("projection") or {}).get("query_scope"))
            for r in empty
        ):
            codes.append("NEGATIVE_SCOPE_TOO_WIDE")
    return codes


def _structure_problems(draft: Any) -> list[str]:  # noqa: ANN401 - JSON
    if not isinstance(draft, dict) or not isinstance(draft.get("analyses"), list):
        return ["the draft has no analyses list"]
    problems: list[str] = []
    ids = Counter(a.get("analysis_id") for a in draft["analyses"] if isinstance(a, dict))
    problems.extend(f"analysis ID {i!r} is not unique" for i, n in ids.items() if n > 1)
    for index, item in enumerate(draft["analyses"]):
        if not isinstance(item, dict):
            problems.append(f"/analyses/{index} is not an object")
            continue
        if item.get("kind") not in ANALYSIS_KINDS:
            problems.append(f"/analyses/{index}/kind {item.get('kind')!r} is not a fixed kind")
        if not item.get("tool_call_ids"):
            problems.append(f"/analyses/{index} has no Tool Call ID")
    return problems


def check_analysis_structure(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check every released Analysis has a unique id, a fixed kind and at least one Tool Call ID.

    A submitted draft that breaks this must fail its EVIDENCE_VALIDATION; the fixture must submit
    at least one draft with analyses.
    """
    found = Findings(
        "every Analysis has a unique ID, a fixed kind and a Tool Call ID", "R4.analysis-structure"
    )
    checked = validations(observation)
    drafts = [s for s in submissions(fixture) if s.kind == "draft"]
    found.expect(drafts, "the fixture submits no Diagnosis Draft")
    for submission in drafts:
        problems = _structure_problems(submission.document)
        if problems:
            found.expect(
                checked.get(submission.attempt, {}).get("valid") is False,
                f"draft attempt {submission.attempt} ({'; '.join(problems)}) passed validation",
            )
    released = _released_document(observation)
    if released is not None:
        for problem in _structure_problems(released):
            found.add(f"released draft: {problem}")
    return found.result()


def check_in_band_error(observation: dict[str, Any], tool_call_id: str) -> CheckResult:
    """Check the invocation ``tool_call_id`` is READY with evidence ERROR and code BACKEND_ERROR."""
    found = Findings(f"{tool_call_id!r} is READY with an in-band ERROR", "R3.in-band-error")
    records = invocation(observation, tool_call_id)
    if found.expect(len(records) == 1, f"expected one invocation, got {len(records)}"):
        record = records[0]
        found.expect(
            (record.get("status"), record.get("evidence_status")) == ("READY", "ERROR"),
            f"status {record.get('status')} / evidence {record.get('evidence_status')}, "
            "expected READY / ERROR",
        )
        found.expect(
            (record.get("error") or {}).get("code") == "BACKEND_ERROR",
            f"error {record.get('error')}, expected code BACKEND_ERROR",
        )
    return found.result()


def check_rejected_then_released(
    observation: dict[str, Any], fixture: dict[str, Any], code: str
) -> CheckResult:
    """Check EvidenceGuard rejected the first submission with ``code`` and released the repair.

    Exactly one structural repair was requested, the repair passed, and the released document is
    exactly the repaired one.
    """
    found = Findings(
        f"first submission rejected with {code}, repair released", "R4.rejected-then-repaired"
    )
    checked = validations(observation)
    first, second = checked.get(1, {}), checked.get(2, {})
    codes = [v.get("code") for v in first.get("violations", [])]
    found.expect(
        first.get("valid") is False and code in codes,
        f"EVIDENCE_VALIDATION attempt 1 should be invalid with {code}, got {first or 'none'}",
    )
    found.expect(
        len(events(observation, "STRUCTURAL_REPAIR_REQUESTED")) == 1,
        "expected exactly one STRUCTURAL_REPAIR_REQUESTED",
    )
    found.expect(
        second.get("valid") is True,
        f"EVIDENCE_VALIDATION attempt 2 should be valid, got {second or 'none'}",
    )
    repairs = [s for s in submissions(fixture) if s.attempt == 2]  # noqa: PLR2004 - the repair
    released = _released_document(observation)
    found.expect(
        repairs and released is not None and canonical(released) == canonical(repairs[0].document),
        "the released document is not the agent's repaired submission",
    )
    return found.result()
