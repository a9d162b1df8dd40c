"""A plain, precomputed view of the canonical invocations of one Run."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

    from contracts import ToolInvocation

LOOKUP_TOOL: Final = "lookup_documents"
READY: Final = "READY"
PROJECTING: Final = "PROJECTING"
EVIDENCE_FOUND: Final = "EVIDENCE_FOUND"
NO_EVIDENCE: Final = "NO_EVIDENCE"
ERROR: Final = "ERROR"


def plain(value: object) -> object:
    """Return the JSON value behind an enum member or a Pydantic root model, else `value`."""
    root = getattr(value, "root", value)
    return root.value if isinstance(root, Enum) else root


@dataclass(frozen=True, slots=True)
class InvocationView:
    """What the guards need of one canonical ToolInvocation, as plain JSON values.

    `query_scope` and `projection` are the projection's JSON (`None` when the invocation has no
    projection); `document_ids` are the ids the projection returned (lookups only).
    """

    tool_call_id: str
    tool_name: str
    sequence: int
    status: str
    evidence_status: str | None
    projection: dict[str, Any] | None
    query_scope: dict[str, Any] | None
    document_ids: frozenset[str]
    model: ToolInvocation


def views_of_run(
    invocations: Mapping[str, ToolInvocation], run_id: str | None
) -> dict[str, InvocationView]:
    """Return the views of the invocations of Run `run_id`, keyed by Tool Call ID.

    An entry whose invocation belongs to another Run (when `run_id` is given), or whose key is
    not its own Tool Call ID, is left out: citing it is citing an unknown invocation. Linear in
    `len(invocations)`.
    """
    views: dict[str, InvocationView] = {}
    for key, invocation in invocations.items():
        if run_id is not None and plain(invocation.run_id) != run_id:
            continue
        if plain(invocation.tool_call_id) != key:
            continue
        projection = (
            None
            if invocation.projection is None
            else invocation.projection.model_dump(mode="json", by_alias=True, exclude_none=True)
        )
        evidence = plain(invocation.evidence_status)
        views[key] = InvocationView(
            tool_call_id=key,
            tool_name=str(plain(invocation.tool_name)),
            sequence=invocation.sequence,
            status=str(plain(invocation.status)),
            evidence_status=None if evidence is None else str(evidence),
            projection=projection,
            query_scope=None if projection is None else projection["query_scope"],
            document_ids=frozenset(projection["document_ids"]) if projection else frozenset(),
            model=invocation,
        )
    return views


def scope_within(inner: Mapping[str, Any], outer: Mapping[str, Any]) -> bool:
    """Return True iff QueryScope `inner` is within `outer` (contract sheet, query-scope).

    Same tool, target and query, and `outer.start_ms <= inner.start_ms <= inner.end_ms <=
    outer.end_ms`.
    """
    inner_range, outer_range = inner["time_range"], outer["time_range"]
    return bool(
        inner["tool"] == outer["tool"]
        and inner["target"] == outer["target"]
        and inner["query"] == outer["query"]
        and outer_range["start_ms"]
        <= inner_range["start_ms"]
        <= inner_range["end_ms"]
        <= outer_range["end_ms"]
    )
