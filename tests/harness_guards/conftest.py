"""Builders shared by the guard tests: canonical invocations and well-formed bodies as JSON."""

from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING, Any

import pytest

from contracts import ToolInvocation

if TYPE_CHECKING:
    from types import ModuleType

RUN_ID = "run-1"
END_MS = 1_764_460_800_000
FIFTEEN_MINUTES_MS = 15 * 60 * 1000


def scope(
    *,
    tool: str = "search_logs",
    target: str = "checkout",
    start_ms: int = END_MS - FIFTEEN_MINUTES_MS,
    end_ms: int = END_MS,
    query: str = "level:error",
) -> dict[str, Any]:
    """A QueryScope as JSON (default: field case 6, service checkout, the last 15 minutes)."""
    return {
        "tool": tool,
        "target": target,
        "time_range": {"start_ms": start_ms, "end_ms": end_ms},
        "query": query,
    }


def invocation(  # noqa: PLR0913 - one keyword per invocation field a test varies
    tool_call_id: str,
    *,
    sequence: int = 1,
    evidence: str | None = "EVIDENCE_FOUND",
    status: str = "READY",
    run_id: str = RUN_ID,
    query_scope: dict[str, Any] | None = None,
    document_ids: tuple[str, ...] = (),
) -> ToolInvocation:
    """A canonical ToolInvocation of the given lifecycle and evidence status."""
    the_scope = query_scope or scope()
    tool = the_scope["tool"]
    projection: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    if status == "READY":
        if tool == "lookup_documents":
            items = [{"text": f"text of {d}", "document_id": d} for d in document_ids]
        elif evidence == "EVIDENCE_FOUND":
            items = [{"text": "ERROR payment timeout"}]
        else:
            items = []
        projection = {
            "query_scope": the_scope,
            "items": items,
            "total_matched": len(items),
            "truncated": False,
            "document_ids": list(document_ids),
        }
        if evidence == "ERROR":
            error = {"code": "BACKEND_ERROR", "safe_message": "backend answered with an error"}
    elif status == "ERROR":
        error = {"code": "TOOL_FAILED", "safe_message": "tool failed"}
    return ToolInvocation.model_validate(
        {
            "tool_call_id": tool_call_id,
            "run_id": run_id,
            "sequence": sequence,
            "step": 1,
            "tool_name": tool,
            "arguments": {k: v for k, v in the_scope.items() if k != "tool"},
            "status": status,
            "evidence_status": evidence,
            "projection": projection,
            "error": error,
        }
    )


def by_id(*invocations: ToolInvocation) -> dict[str, ToolInvocation]:
    """The invocations mapping the guards take: Tool Call ID -> invocation."""
    return {i.tool_call_id.root: i for i in invocations}


def analysis(
    analysis_id: str, kind: str, *tool_call_ids: str, the_scope: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One Analysis as JSON."""
    entry: dict[str, Any] = {
        "analysis_id": analysis_id,
        "kind": kind,
        "statement": f"statement of {analysis_id}",
        "tool_call_ids": list(tool_call_ids),
    }
    if the_scope is not None:
        entry["scope"] = the_scope
    return entry


def draft(*analyses: dict[str, Any], limitations: list[Any] | None = None) -> dict[str, Any]:
    """A Diagnosis Draft as JSON whose conclusion, plan and recommendation cite every analysis."""
    ids = [a["analysis_id"] for a in analyses]
    return {
        "conclusion": {"summary": "checkout is failing", "confidence": "HIGH", "analysis_ids": ids},
        "analyses": list(analyses),
        "action_plan": [{"action": "restart checkout", "analysis_ids": ids[:1]}],
        "recommendations": [{"text": "add an alert", "analysis_ids": ids[:1]}],
        "limitations": copy.deepcopy(limitations) if limitations is not None else [],
    }


def lookup(tool_call_id: str, *document_ids: str, sequence: int = 1) -> ToolInvocation:
    """A READY lookup_documents invocation that returned `document_ids`."""
    return invocation(
        tool_call_id,
        sequence=sequence,
        evidence="EVIDENCE_FOUND" if document_ids else "NO_EVIDENCE",
        query_scope=scope(tool="lookup_documents", target="runbooks", query="checkout timeout"),
        document_ids=document_ids,
    )


def answer(lookup_id: str, *items: tuple[str, list[tuple[str, str]]]) -> dict[str, Any]:
    """A Knowledge Answer as JSON; each item is (item_id, [(tool_call_id, document_id), ...])."""
    return {
        "lookup_tool_call_id": lookup_id,
        "items": [
            {
                "item_id": item_id,
                "text": f"text of {item_id}",
                "references": [{"tool_call_id": t, "document_id": d} for t, d in references],
            }
            for item_id, references in items
        ],
        "limitations": [],
    }


@pytest.fixture(scope="session")
def build() -> ModuleType:
    """This module: the builders above, as `build.draft(...)`, `build.invocation(...)` etc."""
    return sys.modules[__name__]
