"""Diagnosis Drafts and Knowledge Answers drawn against a :class:`ToolPlan`'s evidence.

``valid_drafts`` keep every evidence rule of the contract sheet (DESIGN section 4);
``broken_drafts`` break exactly one, chosen from those the evidence makes possible, and say
which violation code EvidenceGuard must report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hypothesis import strategies as st

from conformance.builders import (
    analysis,
    answer_item,
    diagnosis_draft,
    knowledge_answer,
    limitation,
)

if TYPE_CHECKING:
    from conformance.strategies._plans import Evidence, ToolPlan

__all__ = [
    "BROKEN_DRAFT_CODES",
    "broken_drafts",
    "fabricated_answers",
    "valid_answers",
    "valid_drafts",
    "wider_scope",
    "within_scope",
]

_MINUTE_MS: Final = 60_000
_UNKNOWN_ID: Final = "call_never_presented"

BROKEN_DRAFT_CODES: Final = {
    "unknown_id": "UNKNOWN_TOOL_CALL_ID",
    "duplicate_analysis": "DUPLICATE_ANALYSIS_ID",
    "no_ids": "MISSING_TOOL_CALL_IDS",
    "no_evidence_not_negative": "NO_EVIDENCE_NOT_NEGATIVE",
    "negative_too_wide": "NEGATIVE_SCOPE_TOO_WIDE",
    "error_cited": "ERROR_EVIDENCE_CITED",
    "not_a_draft": "SCHEMA_INVALID",
    "unknown_among_known": "UNKNOWN_TOOL_CALL_ID",
    "unknown_in_limitation": "UNKNOWN_TOOL_CALL_ID",
    "unknown_analysis_reference": "UNKNOWN_ANALYSIS_ID",
    "negative_on_found": "NEGATIVE_WITHOUT_NO_EVIDENCE",
    "negative_wider_than_later": "NEGATIVE_SCOPE_TOO_WIDE",
}
"""How a broken draft is broken -> the violation code it must draw (``no_ids`` may be reported
as SCHEMA_INVALID: ``tool_call_ids`` has ``minItems 1``)."""


@st.composite
def within_scope(draw: st.DrawFn, evidence: Evidence) -> dict[str, object]:
    """A QueryScope within ``evidence``'s: same tool, target, query; a sub-window of its range."""
    scope = evidence.scope
    window = dict(scope["time_range"])  # type: ignore[call-overload]  # a time_range dict
    length = window["end_ms"] - window["start_ms"]
    cut_start = draw(st.integers(0, length // 2))
    cut_end = draw(st.integers(0, length - cut_start))
    inner = {"start_ms": window["start_ms"] + cut_start, "end_ms": window["end_ms"] - cut_end}
    inner["end_ms"] = max(inner["end_ms"], inner["start_ms"])
    return {**scope, "time_range": inner}


@st.composite
def wider_scope(draw: st.DrawFn, evidence: Evidence) -> dict[str, object]:
    """A QueryScope NOT within ``evidence``'s: another target, tool or query, or a longer range."""
    scope = dict(evidence.scope)
    how = draw(st.sampled_from(["target", "range", "query", "tool"]))
    if how == "target":
        scope["target"] = "every-service"
    elif how == "query":
        scope["query"] = f"{scope['query']} OR *"
    elif how == "tool":
        scope["tool"] = "query_metrics" if scope["tool"] != "query_metrics" else "search_logs"
    else:
        window = dict(scope["time_range"])  # type: ignore[call-overload]  # a time_range dict
        window["start_ms"] = max(0, window["start_ms"] - 24 * 60 * _MINUTE_MS)
        scope["time_range"] = window
    return scope


def _analyses_for(draw: st.DrawFn, cited: list[Evidence]) -> list[dict[str, object]]:
    items = []
    for number, evidence in enumerate(cited, start=1):
        analysis_id = f"a{number}"
        if evidence.status == "NO_EVIDENCE":
            scope = draw(within_scope(evidence))
            items.append(
                analysis(analysis_id, "NEGATIVE_OBSERVATION", [evidence.call_id], scope=scope)
            )
        else:
            kind = draw(st.sampled_from(["OBSERVATION", "OBSERVATION", "INFERENCE"]))
            items.append(analysis(analysis_id, kind, [evidence.call_id]))
    return items


@st.composite
def valid_drafts(
    draw: st.DrawFn, plan: ToolPlan, *, must_cite: Evidence | None = None
) -> dict[str, object]:
    """A draft keeping every evidence rule; needs a READY non-ERROR invocation in ``plan``.

    Cites a non-empty subset of the EVIDENCE_FOUND / NO_EVIDENCE invocations (NO_EVIDENCE as a
    bounded NEGATIVE_OBSERVATION), always including ``must_cite`` when given; ERROR evidence only
    appears as a limitation.
    """
    usable = plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE")
    cited = draw(st.lists(st.sampled_from(usable), min_size=1, max_size=4, unique_by=id))
    if must_cite is not None and must_cite not in cited:
        cited.insert(draw(st.integers(0, len(cited))), must_cite)
    limits = [
        limitation(f"{e.tool} answered with an error.", [e.call_id])
        for e in plan.with_status("ERROR")
    ]
    return diagnosis_draft(
        _analyses_for(draw, cited),
        confidence=draw(st.sampled_from(["LOW", "MEDIUM", "HIGH"])),
        limitations=limits,
        with_plan=draw(st.booleans()),
    )


def _breakages(plan: ToolPlan) -> list[str]:
    possible = ["unknown_id", "duplicate_analysis", "no_ids", "not_a_draft"]
    possible += ["unknown_in_limitation", "unknown_analysis_reference"]
    if plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE"):
        possible.append("unknown_among_known")
    if plan.with_status("EVIDENCE_FOUND"):
        possible.append("negative_on_found")
    if len(_scoped_pair(plan)) == 2:  # noqa: PLR2004 - a wide and a narrow empty call
        possible.append("negative_wider_than_later")
    if plan.with_status("NO_EVIDENCE"):
        possible += ["no_evidence_not_negative", "negative_too_wide"]
    if plan.with_status("ERROR"):
        possible.append("error_cited")
    return possible


@st.composite
def broken_drafts(draw: st.DrawFn, plan: ToolPlan, *, how: str | None = None) -> tuple[object, str]:
    """A draft breaking one evidence rule, and how (a key of :data:`BROKEN_DRAFT_CODES`).

    ``how`` forces the breakage; otherwise one the plan's evidence allows is drawn.
    """
    how = how or draw(st.sampled_from(_breakages(plan)))
    usable = plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE")
    base = _analyses_for(draw, usable[:1]) if usable else []
    if how == "unknown_id":
        items = [*base, analysis(f"a{len(base) + 1}", "OBSERVATION", [_UNKNOWN_ID])]
    elif how == "duplicate_analysis":
        first = base[0] if base else analysis("a1", "OBSERVATION", [_UNKNOWN_ID])
        items = [first, {**first, "statement": "the same analysis id again"}]
    elif how == "no_ids":
        items = [analysis("a1", "OBSERVATION", [])]
    elif how == "no_evidence_not_negative":
        empty = plan.with_status("NO_EVIDENCE")[0]
        kind = draw(st.sampled_from(["OBSERVATION", "INFERENCE"]))
        items = [analysis("a1", kind, [empty.call_id])]
    elif how == "negative_too_wide":
        empty = plan.with_status("NO_EVIDENCE")[0]
        scope = draw(wider_scope(empty))
        items = [analysis("a1", "NEGATIVE_OBSERVATION", [empty.call_id], scope=scope)]
    elif how in {"unknown_among_known", "unknown_in_limitation", "unknown_analysis_reference"}:
        return _unknown_binding(draw, plan, how), how
    elif how == "negative_on_found":
        found = plan.with_status("EVIDENCE_FOUND")[0]
        items = [analysis("a1", "NEGATIVE_OBSERVATION", [found.call_id], scope=found.scope)]
    elif how == "negative_wider_than_later":
        wide, narrow = _scoped_pair(plan)
        cited = [wide.call_id, narrow.call_id]
        items = [analysis("a1", "NEGATIVE_OBSERVATION", cited, scope=wide.scope)]
    elif how == "error_cited":
        failed = plan.with_status("ERROR")[0]
        items = [*base, analysis(f"a{len(base) + 1}", "OBSERVATION", [failed.call_id])]
    else:
        return draw(st.sampled_from([{"analyses": []}, {"thoughts": "let me think"}])), how
    return diagnosis_draft(items), how


def _scoped_pair(plan: ToolPlan) -> tuple[Evidence, ...]:
    """Two NO_EVIDENCE calls of one tool, target and query, the second window inside the first."""
    empty = plan.with_status("NO_EVIDENCE")
    for wide in empty:
        for narrow in empty:
            inner = narrow.scope["time_range"]
            outer = wide.scope["time_range"]
            same = all(wide.scope[k] == narrow.scope[k] for k in ("tool", "target", "query"))
            if (
                narrow is not wide
                and same
                and outer["start_ms"] <= inner["start_ms"]  # type: ignore[index]
                and inner["end_ms"] <= outer["end_ms"]  # type: ignore[index]
                and inner != outer
            ):
                return (wide, narrow)
    return ()


def _unknown_binding(draw: st.DrawFn, plan: ToolPlan, how: str) -> dict[str, object]:
    """A valid draft but for one unknown binding among known ones (DESIGN section 4)."""
    usable = plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE")
    items = _analyses_for(draw, usable[:2]) if usable else []
    if not items:
        items = [analysis("a1", "OBSERVATION", [_UNKNOWN_ID])]
    if how == "unknown_among_known" and usable:
        first = dict(items[0])
        cited = list(first["tool_call_ids"])  # type: ignore[call-overload]  # a JSON list
        cited.insert(draw(st.integers(0, len(cited))), _UNKNOWN_ID)
        items[0] = {**first, "tool_call_ids": cited}
    limits = [limitation("Not looked at.", [_UNKNOWN_ID])] if how == "unknown_in_limitation" else []
    draft = diagnosis_draft(items, limitations=limits)
    if how == "unknown_analysis_reference":
        conclusion = dict(draft["conclusion"])  # type: ignore[call-overload]  # a JSON object
        conclusion["analysis_ids"] = [*conclusion["analysis_ids"], "a99"]
        draft["conclusion"] = conclusion
    return draft


@st.composite
def valid_answers(draw: st.DrawFn, lookup: Evidence) -> dict[str, object]:
    """A Knowledge Answer citing only documents the lookup returned (1-3 items)."""
    returned = list(lookup.document_ids)
    count = draw(st.integers(1, 3))
    items = [
        answer_item(
            f"i{n}",
            lookup.call_id,
            draw(st.lists(st.sampled_from(returned), min_size=1, max_size=2, unique=True)),
        )
        for n in range(1, count + 1)
    ]
    return knowledge_answer(lookup.call_id, items)


@st.composite
def fabricated_answers(draw: st.DrawFn, lookup: Evidence) -> dict[str, object]:
    """A Knowledge Answer with at least one reference to a document the lookup did not return."""
    answer = draw(valid_answers(lookup))
    items: list[dict[str, object]] = answer["items"]  # type: ignore[assignment]  # built above
    victim = draw(st.integers(0, len(items) - 1))
    look_alikes = [d.upper() for d in lookup.document_ids] + [f"{d}0" for d in lookup.document_ids]
    positions = [str(n) for n in range(len(lookup.document_ids) + 1)]
    candidates = [
        d
        for d in ("d9", "d404", "doc-fabricated", "d1x", *look_alikes, *positions)
        if d not in lookup.document_ids
    ]
    fabricated = draw(st.sampled_from(candidates))
    cited: list[dict[str, str]] = list(items[victim]["references"])  # type: ignore[call-overload]  # JSON list
    references = [*cited, {"tool_call_id": lookup.call_id, "document_id": fabricated}]
    position = draw(st.integers(0, len(references) - 1))
    references.insert(position, references.pop())
    items[victim] = {**items[victim], "references": references}
    return answer
