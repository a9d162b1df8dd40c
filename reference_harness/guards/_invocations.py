"""A plain, precomputed view of the canonical invocations of one Run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Iterator

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


def _view(key: str, invocation: ToolInvocation, run_id: str | None) -> InvocationView | None:
    """Return the view of `invocation` under `key`, or None if it is not citable there."""
    if run_id is not None and plain(invocation.run_id) != run_id:
        return None
    if plain(invocation.tool_call_id) != key:
        return None
    projection = (
        None
        if invocation.projection is None
        else invocation.projection.model_dump(mode="json", by_alias=True, exclude_none=True)
    )
    evidence = plain(invocation.evidence_status)
    return InvocationView(
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


class RunViews(Mapping[str, InvocationView]):
    """The views of the invocations of one Run, keyed by Tool Call ID, built on first access.

    An entry whose invocation belongs to another Run (when `run_id` is given), or whose key is
    not its own Tool Call ID, is absent: citing it is citing an unknown invocation. A lookup costs
    one view at most, so checking a draft costs what the draft cites, not the size of the Run;
    iterating builds every view (linear in `len(invocations)`).
    """

    def __init__(self, invocations: Mapping[str, ToolInvocation], run_id: str | None) -> None:
        """Wrap `invocations`; nothing is built yet."""
        self._invocations = invocations
        self._run_id = run_id
        self._built: dict[str, InvocationView | None] = {}

    def __getitem__(self, key: str) -> InvocationView:
        """Return the view for Tool Call ID `key`; raise KeyError if it is not citable."""
        if key not in self._built:
            invocation = self._invocations.get(key)
            self._built[key] = None if invocation is None else _view(key, invocation, self._run_id)
        view = self._built[key]
        if view is None:
            raise KeyError(key)
        return view

    def __iter__(self) -> Iterator[str]:
        """Iterate over the citable Tool Call IDs, in the mapping's order."""
        return (key for key in self._invocations if self.get(key) is not None)

    def __len__(self) -> int:
        """Return the number of citable invocations."""
        return sum(1 for _ in self)


def views_of_run(invocations: Mapping[str, ToolInvocation], run_id: str | None) -> RunViews:
    """Return the lazily built views of the invocations of Run `run_id` (see :class:`RunViews`)."""
    return RunViews(invocations, run_id)


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
