"""Invariants no JSON Schema can express (the second layer of every contract).

Each check takes a document that is already schema-valid (a plain JSON value) and returns the
broken rules as :class:`ContractViolation` values with RFC 6901 pointers. Rules (contract sheet):

* query-scope: ``time_range.end_ms >= start_ms`` (also wherever a QueryScope is nested);
* bounded-projection: ``total_matched >= len(items)``; ``truncated`` when
  ``total_matched > len(items)``; for lookups, ``document_ids`` equals the set of item ids;
* tool-invocation: NO_EVIDENCE iff READY with zero items and zero matched; the projection's tool
  is the invocation's ``tool_name``;
* diagnosis-draft: analysis ids unique; knowledge-answer: item ids unique and every reference names
  ``lookup_tool_call_id``;
* verified-snapshot: ``digest`` is the SHA-256 of the RFC 8785 canonical JSON without ``digest``;
* phase-plan: ``order`` runs 1..11 in sequence, change ids and stages unique;
* component-registry: components unique, no responsibility both owned and forbidden, and the
  HARNESS owns none of PLANNING, EXECUTOR, COMPOSING, WORKFLOW_ROUTING, DIAGNOSIS_REASONING;
* diagnosis-run / run-observation / run-trace-event: the nested rules above.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from contracts._canonical import digest
from contracts._errors import ContractViolation
from contracts._strict_json import json_value_problem

__all__ = ["HARNESS_FORBIDDEN", "INVARIANTS", "check_invariants"]

Check = Callable[[Any, str], Iterator[ContractViolation]]


def _v(pointer: str, rule: str, message: str) -> ContractViolation:
    return ContractViolation(pointer=pointer, rule=rule, message=message)


def _query_scope(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401 - JSON value
    span = doc["time_range"]
    if span["end_ms"] < span["start_ms"]:
        yield _v(f"{at}/time_range/end_ms", "time-range-order", "expected end_ms >= start_ms")


def _unique(items: list[Any], key: str, at: str, rule: str) -> Iterator[ContractViolation]:
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item[key] in seen:
            yield _v(f"{at}/{index}/{key}", rule, f"expected a unique {key}, {item[key]!r} repeats")
        seen.add(item[key])


def _bounded_projection(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    yield from _query_scope(doc["query_scope"], f"{at}/query_scope")
    count, matched = len(doc["items"]), doc["total_matched"]
    if matched < count:
        yield _v(
            f"{at}/total_matched",
            "total-matched-covers-items",
            f"expected total_matched >= len(items) = {count}",
        )
    if matched > count and not doc["truncated"]:
        yield _v(
            f"{at}/truncated",
            "truncated-when-more-matched",
            "expected truncated true when total_matched > len(items)",
        )
    if doc["query_scope"]["tool"] == "lookup_documents":
        from_items = {item["document_id"] for item in doc["items"]}
        if set(doc["document_ids"]) != from_items:
            yield _v(
                f"{at}/document_ids",
                "document-ids-match-items",
                f"expected document_ids to list exactly {sorted(from_items)}",
            )


def _tool_invocation(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    projection = doc["projection"]
    if projection is None:
        return
    yield from _bounded_projection(projection, f"{at}/projection")
    if projection["query_scope"]["tool"] != doc["tool_name"]:
        yield _v(
            f"{at}/projection/query_scope/tool",
            "projection-tool-matches",
            f"expected the invocation's tool_name {doc['tool_name']}",
        )
    empty = not projection["items"] and projection["total_matched"] == 0
    if doc["evidence_status"] == "NO_EVIDENCE" and not empty:
        yield _v(
            f"{at}/evidence_status",
            "no-evidence-iff-empty",
            "expected NO_EVIDENCE only for zero items and zero matched",
        )
    if doc["evidence_status"] == "EVIDENCE_FOUND" and empty:
        yield _v(
            f"{at}/evidence_status",
            "no-evidence-iff-empty",
            "expected NO_EVIDENCE for zero items and zero matched",
        )


def _diagnosis_draft(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    yield from _unique(doc["analyses"], "analysis_id", f"{at}/analyses", "unique-analysis-ids")
    for index, analysis in enumerate(doc["analyses"]):
        if "scope" in analysis:
            yield from _query_scope(analysis["scope"], f"{at}/analyses/{index}/scope")


def _knowledge_answer(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    yield from _unique(doc["items"], "item_id", f"{at}/items", "unique-item-ids")
    lookup = doc["lookup_tool_call_id"]
    for i, item in enumerate(doc["items"]):
        for j, reference in enumerate(item["references"]):
            if reference["tool_call_id"] != lookup:
                yield _v(
                    f"{at}/items/{i}/references/{j}/tool_call_id",
                    "reference-names-lookup",
                    f"expected the lookup call {lookup!r}",
                )


def _safe_fallback(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    for index, source in enumerate(doc["verified_sources"]):
        yield from _query_scope(source["query_scope"], f"{at}/verified_sources/{index}/query_scope")


_BODY_CHECKS: dict[str, Check] = {
    "DIAGNOSIS_DRAFT": lambda d, at: _diagnosis_draft(
        d["diagnosis_draft"], f"{at}/diagnosis_draft"
    ),
    "KNOWLEDGE_ANSWER": lambda d, at: _knowledge_answer(
        d["knowledge_answer"], f"{at}/knowledge_answer"
    ),
    "SAFE_FALLBACK": lambda d, at: _safe_fallback(d["safe_fallback"], f"{at}/safe_fallback"),
    "PUBLIC_ERROR": lambda _d, _at: iter(()),
}


def _published_result(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    yield from _BODY_CHECKS[doc["kind"]](doc, at)


def _verified_snapshot(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    kind = doc["result_kind"]
    yield from _BODY_CHECKS[kind](doc, at)
    for index, entry in enumerate(doc["evidence"]):
        yield from _bounded_projection(entry["projection"], f"{at}/evidence/{index}/projection")
    unsigned = {key: value for key, value in doc.items() if key != "digest"}
    problem = json_value_problem(unsigned, canonical=True)
    if problem is not None:  # the digest is over the RFC 8785 form, which cannot hold it
        yield _v(
            f"{at}{problem.pointer}",
            problem.rule,
            f"expected a value the RFC 8785 canonical form (the snapshot digest) can hold:"
            f" {problem.message}",
        )
        return
    expected = digest(unsigned)
    if doc["digest"] != expected:
        yield _v(
            f"{at}/digest",
            "snapshot-digest",
            f"expected the SHA-256 of the canonical snapshot without digest ({expected})",
        )


def _diagnosis_run(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    if doc["published_result"] is not None:
        yield from _published_result(doc["published_result"], f"{at}/published_result")
    finished = doc["finished_at_ms"]
    if finished is not None and finished < doc["created_at_ms"]:
        yield _v(
            f"{at}/finished_at_ms",
            "finished-after-created",
            "expected finished_at_ms >= created_at_ms",
        )


def _run_observation(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    for index, run in enumerate(doc["runs"]):
        yield from _diagnosis_run(run, f"{at}/runs/{index}")
    if doc["published_result"] is not None:
        yield from _published_result(doc["published_result"], f"{at}/published_result")
    for index, invocation in enumerate(doc["invocations"]):
        yield from _tool_invocation(invocation, f"{at}/invocations/{index}")
    yield from _increasing(doc["trace"], "seq", f"{at}/trace", "trace-seq-increasing")
    yield from _increasing(
        doc["invocations"], "sequence", f"{at}/invocations", "invocation-sequence-increasing"
    )


def _increasing(items: list[Any], key: str, at: str, rule: str) -> Iterator[ContractViolation]:
    for index in range(1, len(items)):
        if items[index][key] <= items[index - 1][key]:
            yield _v(f"{at}/{index}/{key}", rule, f"expected {key} to increase strictly")


def _scenario_fixture(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    for index, run in enumerate(doc["prior_runs"]):
        yield from _diagnosis_run(run, f"{at}/prior_runs/{index}")
    last: dict[object, int] = {}  # seq is per session: strictly increasing within each session
    for index, run in enumerate(doc["prior_runs"]):
        session = run["session_id"]
        if session in last and run["seq"] <= last[session]:
            pointer = f"{at}/prior_runs/{index}/seq"
            message = "expected seq to increase strictly within the session"
            yield _v(pointer, "prior-runs-seq-increasing", message)
        last[session] = run["seq"]


def _phase_plan(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    for index, change in enumerate(doc["changes"]):
        if change["order"] != index + 1:
            yield _v(f"{at}/changes/{index}/order", "serial-order", f"expected order {index + 1}")
    yield from _unique(doc["changes"], "change_id", f"{at}/changes", "unique-change-ids")
    yield from _unique(doc["changes"], "stage", f"{at}/changes", "unique-stages")


HARNESS_FORBIDDEN = frozenset(
    {"PLANNING", "EXECUTOR", "COMPOSING", "WORKFLOW_ROUTING", "DIAGNOSIS_REASONING"}
)
"""What the Harness never owns (Requirement 1, Scenario "Contract ownership is inspected")."""


_FORBIDDEN_TEXT = ", ".join(sorted(HARNESS_FORBIDDEN))


def _component_registry(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    yield from _unique(doc["components"], "component", f"{at}/components", "unique-components")
    for index, entry in enumerate(doc["components"]):
        held = ", ".join(sorted(HARNESS_FORBIDDEN & set(entry["owns"])))
        if entry["component"] == "HARNESS" and held:
            message = f"expected the Harness to own none of {_FORBIDDEN_TEXT} ({held})"
            yield _v(f"{at}/components/{index}/owns", "harness-forbidden-responsibility", message)
        both = ", ".join(sorted(set(entry["owns"]) & set(entry["never"])))
        if both:
            message = f"expected no responsibility both owned and forbidden ({both})"
            yield _v(f"{at}/components/{index}/never", "owns-and-never-disjoint", message)


def _adapter_message(doc: Any, at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    if doc["type"] == "run":
        yield from _scenario_fixture(doc["fixture"], f"{at}/fixture")
    elif doc["type"] == "observation":
        yield from _run_observation(doc["observation"], f"{at}/observation")


def _none(_doc: Any, _at: str) -> Iterator[ContractViolation]:  # noqa: ANN401
    return iter(())


INVARIANTS: dict[str, Check] = {
    "tool-call-id": _none,
    "query-scope": _query_scope,
    "bounded-projection": _bounded_projection,
    "tool-invocation": _tool_invocation,
    "diagnosis-draft": _diagnosis_draft,
    "knowledge-answer": _knowledge_answer,
    "safe-fallback": _safe_fallback,
    "public-error": _none,
    "published-result": _published_result,
    "verified-snapshot": _verified_snapshot,
    "semantic-verdict": _none,
    "attempt-record": _none,
    "diagnosis-run": _diagnosis_run,
    "run-trace-event": _none,
    "component-registry": _component_registry,
    "phase-plan": _phase_plan,
    "scenario-fixture": _scenario_fixture,
    "run-observation": _run_observation,
    "adapter-message": _adapter_message,
}


def check_invariants(contract: str, doc: Any) -> list[ContractViolation]:  # noqa: ANN401
    """Return the invariant violations of the schema-valid JSON value ``doc`` of ``contract``.

    Raises:
        KeyError: ``contract`` is not a contract of the sheet.
    """
    return list(INVARIANTS[contract](doc, ""))
