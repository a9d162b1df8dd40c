"""Broken parts a second red-team harness (a faulty copy of examples/java) carried while passing.

Each part breaks one sentence of the spec and nothing else;
:mod:`reference_harness.mutants._redteam_specs` combines each with the reference Harness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contracts import loads_strict
from reference_harness.guards import Violation
from reference_harness.guards._violations import rejected

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["case_folded_analysis_ids", "draft_scoped_sources", "extra_verdict_members_ignored"]


def _analysis_scopes(document: Any) -> dict[str, Any]:  # noqa: ANN401 - a body model
    """The ``scope`` an analysis of ``document`` gives each Tool Call ID it cites (first wins)."""
    dumped = document.model_dump(mode="json", by_alias=True, exclude_none=True)
    scopes: dict[str, Any] = {}
    for analysis in dumped.get("analyses", []):
        for call_id in analysis.get("tool_call_ids", []) if "scope" in analysis else []:
            scopes.setdefault(call_id, analysis["scope"])
    return scopes


def draft_scoped_sources(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``verified_sources_for``: a source's ``query_scope`` is the draft's analysis scope.

    A NEGATIVE_OBSERVATION may narrow its scope inside the call's query scope; this Harness
    copies that agent-written scope into the fallback instead of the canonical invocation's.
    """

    def sources(document: Any, invocations: Any, *, run_id: str | None = None) -> list[Any]:  # noqa: ANN401 - a body model, the ledger
        scopes = _analysis_scopes(document)
        listed = original(document, invocations, run_id=run_id)
        return [
            {**s, "query_scope": scopes.get(s["tool_call_id"], s["query_scope"])} for s in listed
        ]

    return sources


def case_folded_analysis_ids(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``check_draft``: analysis IDs differing only in case are rejected as duplicates.

    The identifier grammar is case-sensitive: ``a1`` and ``A1`` are two unique analysis IDs.
    """

    def check(document: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a GuardVerdict
        verdict = original(document, **kwargs)
        analyses = document.get("analyses") if isinstance(document, dict) else None
        if not verdict.valid or not isinstance(analyses, list):
            return verdict
        seen: set[str] = set()
        for index, entry in enumerate(analyses):
            folded = str(entry.get("analysis_id", "")).casefold()
            if folded in seen:
                return rejected(
                    [Violation("DUPLICATE_ANALYSIS_ID", f"/analyses/{index}/analysis_id")]
                )
            seen.add(folded)
        return verdict

    return check


def extra_verdict_members_ignored(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``parse_verdict``: members the semantic-verdict schema does not define are dropped.

    An answer ``{"verdict": "SUPPORTED", "unsupported_analysis_ids": [], "note": …}`` is an
    invalid structured result (INVALID_SCHEMA), not a SUPPORTED verdict.
    """

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a SemanticVerdict or None
        value: object = raw
        if isinstance(raw, str):
            try:
                value = loads_strict(raw)
            except ValueError:
                return original(raw, **kwargs)
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k in {"verdict", "unsupported_analysis_ids"}}
        return original(value, **kwargs)

    return parse
