"""Bounded projection of a tool result (contract sheet ``bounded-projection``).

The raw rows a backend returns never leave the Harness: they are consumed lazily, one row at a
time, and only the first ``max_items`` rows, each cut to ``max_item_chars`` characters, are kept.
Memory stays bounded by the limits whatever the payload size; the rest of the rows is only counted
(by ``len()`` when the rows are sized, so that a payload of any valid size ends in time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sized
from typing import TYPE_CHECKING, Any, Literal

from reference_harness._ids import is_tool_call_id
from reference_harness._tools import LOOKUP_TOOL

if TYPE_CHECKING:
    from reference_harness._limits import Limits
    from reference_harness.ports import ToolRows

__all__ = ["MalformedRowsError", "evidence_status_of", "project", "query_scope_of"]


class MalformedRowsError(Exception):
    """A backend row has the wrong shape (no text, or a lookup row without a valid document id).

    The invocation ends ``ERROR``/``ERROR`` with code ``TOOL_FAILED``; the row is never shown.
    """


def query_scope_of(tool_name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Return the ``QueryScope`` document of validated tool ``arguments``."""
    time_range = arguments["time_range"]
    return {
        "tool": tool_name,
        "target": arguments["target"],
        "time_range": {"start_ms": time_range["start_ms"], "end_ms": time_range["end_ms"]},
        "query": arguments["query"],
    }


def project(
    tool_name: str, arguments: Mapping[str, Any], result: ToolRows, limits: Limits
) -> dict[str, Any]:
    """Return the ``BoundedProjection`` document of a successful tool result.

    Args:
        tool_name: the Tool name.
        arguments: the validated arguments (the query scope is derived from them).
        result: the backend's rows (consumed exactly once, lazily) and its ``total_matched``.
        limits: ``max_items`` and ``max_item_chars``.

    Returns:
        ``{query_scope, items, total_matched, truncated, document_ids}``; ``total_matched`` is the
        backend's count or, if it gave none or fewer than it returned, the number of rows;
        ``truncated`` is true iff rows were left out or a text was cut.

    Raises:
        MalformedRowsError: a kept row is not ``{"text": str, ...}``, or a lookup row lacks a
            valid ``document_id``.
    """
    lookup = tool_name == LOOKUP_TOOL
    items: list[dict[str, str]] = []
    document_ids: list[str] = []
    count = 0
    cut = False
    rows = result.rows
    for row in rows:
        count += 1
        if len(items) >= limits.max_items:
            if isinstance(rows, Sized):  # the rest is counted, not read (any payload size)
                count = len(rows)
                break
            continue
        text = row.get("text") if isinstance(row, Mapping) else None
        if not isinstance(text, str):
            msg = f"row {count}: expected an object with a string 'text'"
            raise MalformedRowsError(msg)
        if len(text) > limits.max_item_chars:
            cut = True
            text = text[: limits.max_item_chars]
        item = {"text": text}
        if lookup:
            document_id = row.get("document_id")
            if not is_tool_call_id(document_id):  # same id grammar as every other id
                msg = f"row {count}: a lookup row needs a valid 'document_id'"
                raise MalformedRowsError(msg)
            item["document_id"] = str(document_id)
            if document_id not in document_ids:
                document_ids.append(str(document_id))
        items.append(item)
    reported = result.total_matched
    total = count if reported is None or reported < count else reported
    return {
        "query_scope": query_scope_of(tool_name, arguments),
        "items": items,
        "total_matched": total,
        "truncated": total > len(items) or cut,
        "document_ids": document_ids,
    }


def evidence_status_of(projection: Mapping[str, Any]) -> Literal["EVIDENCE_FOUND", "NO_EVIDENCE"]:
    """Return ``NO_EVIDENCE`` iff the projection has zero items and zero matches."""
    if not projection["items"] and projection["total_matched"] == 0:
        return "NO_EVIDENCE"
    return "EVIDENCE_FOUND"
