"""Broken parts for the citation mutants: snapshot, verified sources, lookups, scopes, selection.

Each part is the smallest wrong harness of one kind the first evidence mutants left open (faults
an independent attacker's wrapper harnesses and the mutation campaign's survivors showed):

* the Verified Snapshot holds uncited evidence, or none (``guards/_body.py:38``);
* a semantic fallback lists no verified sources (``guards/_fallback.py:52``), every READY call of
  the Run, cited calls that failed, or (after a repair) the first, rejected draft's calls;
* lookups counted by a wrong test (``guards/_knowledge.py:28/31``): another tool counts, a failed
  lookup counts, or a failed lookup may be named;
* an action plan or recommendation naming an unknown analysis passes; an INFERENCE on NO_EVIDENCE
  passes; a NEGATIVE_OBSERVATION's scope is checked without its tool or without its start;
* EvidenceGuard matches document ids against every backend row, beyond ``max_items`` (not the
  bounded lookup result); a large backend payload skips the projection limits;
* previous-turn selection scans only the newest Runs, reports older Runs as skipped, leaves
  KNOWLEDGE_QUERY Runs off the skip report, or gives the intent precedence over the state;
* a KNOWLEDGE_QUERY Run gets the session's newest earlier Run (failed, fallback …) as context.

:mod:`reference_harness.mutants._catalogue` combines each with the reference Harness.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import TYPE_CHECKING, Any, Final

from contracts import VerifiedSnapshot, digest
from reference_harness._harness import Harness
from reference_harness._outcome import fallback
from reference_harness._projection import query_scope_of
from reference_harness._release import _invocation_models
from reference_harness.guards import safe_fallback
from reference_harness.guards._body import body_json, cited_ids
from reference_harness.guards._invocations import (
    LOOKUP_TOOL,
    READY,
    InvocationView,
    plain,
    views_of_run,
)
from reference_harness.guards._violations import Violation, ViolationCode
from reference_harness.ports import ToolRows
from reference_harness.store import RunStore
from reference_harness.store._selection import PreviousTurnSelection, SkippedRun, skip_reason

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import DiagnosisRun, ToolInvocation
    from reference_harness._limits import Limits
    from reference_harness._outcome import Outcome
    from reference_harness._run_context import RunContext

__all__ = [
    "FirstDraftSourcesHarness",
    "IntentFirstStore",
    "KnowledgeContextHarness",
    "NewestFewStore",
    "OlderSkippedStore",
    "OldestFirstSkippedStore",
    "StatesOnlySkippedStore",
    "UnboundedDocumentIds",
    "cited_sources_any_status",
    "every_ready_source",
    "evidence_of_every_ready_call",
    "evidence_removed",
    "in_plan_or_recommendation",
    "inference_on_no_evidence",
    "large_result_unbounded",
    "lookup_counted_by",
    "no_sources_on_semantic_fallback",
    "scope_within_ignoring",
    "with_knowledge_context",
]

Json = Any
"""A parsed JSON value."""
_ANALYSIS: Final = re.compile(r"^/analyses/(\d+)")
_LARGE_RESULT_ROWS: Final = 10
"""More backend rows than this make :func:`large_result_unbounded` skip the limits."""


# --------------------------------------------------------------------------- Verified Snapshot


def _resigned(snapshot: VerifiedSnapshot, evidence: list[dict[str, Any]]) -> VerifiedSnapshot:
    unsigned = body_json(snapshot)
    unsigned.pop("digest", None)
    unsigned["evidence"] = evidence
    return VerifiedSnapshot.model_validate({**unsigned, "digest": digest(unsigned)})


def evidence_of_every_ready_call(original: Callable[..., VerifiedSnapshot]) -> Callable[..., Any]:
    """Wrap ``build_snapshot``: its evidence holds every READY invocation, cited or not."""

    def build(*, run_id: str, document: Any, invocations: Any) -> VerifiedSnapshot:  # noqa: ANN401 - a body model, the ledger
        snapshot = original(run_id=run_id, document=document, invocations=invocations)
        views = views_of_run(invocations, run_id)
        ready = sorted(
            (v for v in views.values() if v.status == READY and v.projection is not None),
            key=lambda v: v.sequence,
        )
        evidence = [
            {
                "tool_call_id": v.tool_call_id,
                "tool_name": v.tool_name,
                "evidence_status": v.evidence_status,
                "projection": v.projection,
            }
            for v in ready
        ]
        return _resigned(snapshot, evidence)

    return build


def evidence_removed(original: Callable[..., VerifiedSnapshot]) -> Callable[..., Any]:
    """Wrap ``build_snapshot``: the snapshot holds the body but no evidence at all."""

    def build(*, run_id: str, document: Any, invocations: Any) -> VerifiedSnapshot:  # noqa: ANN401 - a body model, the ledger
        return _resigned(
            original(run_id=run_id, document=document, invocations=invocations), evidence=[]
        )

    return build


# --------------------------------------------------------------------------- verified sources


def no_sources_on_semantic_fallback(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``safe_fallback``: every fallback gets empty ``verified_sources``."""

    def build(fallback_type: str, **_kwargs: Any) -> Any:  # noqa: ANN401 - a SafeFallback
        return original(fallback_type)

    return build


def _source(view: InvocationView) -> dict[str, Any]:
    model: ToolInvocation = view.model
    scope = view.query_scope or query_scope_of(view.tool_name, _plain_arguments(model))
    return {
        "tool_call_id": view.tool_call_id,
        "tool_name": view.tool_name,
        "query_scope": scope,
        "evidence_status": view.evidence_status or "ERROR",
    }


def _plain_arguments(model: ToolInvocation) -> dict[str, Any]:
    """Return an invocation's arguments as plain JSON."""
    dumped: dict[str, Any] = model.model_dump(mode="json", by_alias=True)
    return dict(dumped["arguments"])


def every_ready_source(_original: Callable[..., Any]) -> Callable[..., Any]:
    """Replace ``verified_sources_for``: every READY invocation of the Run, cited or not."""

    def sources(document: Any, invocations: Any, *, run_id: str | None = None) -> list[Any]:  # noqa: ANN401, ARG001 - a body model, the ledger
        views = views_of_run(invocations, run_id)
        ready = sorted((v for v in views.values() if v.status == READY), key=lambda v: v.sequence)
        return [_source(v) for v in ready]

    return sources


def _cited_in(document: Json) -> list[str]:
    """The Tool Call IDs a raw draft cites (analyses, limitations), first-seen order."""
    found: list[str] = []
    for section in ("analyses", "limitations"):
        for entry in document.get(section) or []:
            found.extend(i for i in entry.get("tool_call_ids") or [] if isinstance(i, str))
    return list(dict.fromkeys(found))


class FirstDraftSourcesHarness(Harness):
    """After a structural repair, a semantic fallback lists the *first* (rejected) draft's sources.

    Needs ``remembering_loop`` patched in, which keeps the submitted documents.
    """

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        outcome = await super()._work(ctx, session_id, user_message, run_seq)
        submitted = getattr(ctx, "remembered", [])
        semantic = outcome.fallback_type in {"SEMANTIC_UNSUPPORTED", "SEMANTIC_UNAVAILABLE"}
        if not semantic or len(submitted) < 2 or not isinstance(submitted[0], dict):  # noqa: PLR2004 - first draft and repair
            return outcome
        views = views_of_run(_invocation_models(ctx), ctx.run_id)
        cited = [views[c] for c in _cited_in(submitted[0]) if c in views]
        sources = [_source(v) for v in sorted(cited, key=lambda v: v.sequence) if v.status == READY]
        return fallback(safe_fallback(str(outcome.fallback_type), verified_sources=sources))


def cited_sources_any_status(_original: Callable[..., Any]) -> Callable[..., Any]:
    """Replace ``verified_sources_for``: every cited invocation, READY or failed."""

    def sources(document: Any, invocations: Any, *, run_id: str | None = None) -> list[Any]:  # noqa: ANN401 - a body model, the ledger
        views = views_of_run(invocations, run_id)
        cited = [views[c] for c in cited_ids(document) if c in views]
        return [_source(v) for v in sorted(cited, key=lambda v: v.sequence)]

    return sources


# --------------------------------------------------------------------------- lookups


def lookup_counted_by(
    is_lookup: Callable[[InvocationView], bool], may_name: Callable[[InvocationView], bool]
) -> Callable[[Any], Any]:
    """Replace ``_the_lookup``: lookups counted by ``is_lookup``, the named kept by ``may_name``.

    The reference counts READY ``lookup_documents`` invocations and keeps the named one only when
    it is one of them.
    """

    def wrap(_original: Any) -> Any:  # noqa: ANN401 - the replaced function
        def the_lookup(
            answer: dict[str, Any], views: Mapping[str, InvocationView]
        ) -> tuple[InvocationView | None, list[Violation]]:
            lookups = [view for view in views.values() if is_lookup(view)]
            named = views.get(answer["lookup_tool_call_id"])
            if named is not None and not may_name(named):
                named = None
            if len(lookups) == 1 and named is not None:
                return named, []
            return named, [Violation(ViolationCode.LOOKUP_CALL_COUNT, "/lookup_tool_call_id")]

        return the_lookup

    return wrap


# --------------------------------------------------------------------------- draft rules


def _analysis(document: Json, pointer: str) -> dict[str, Any] | None:
    match = _ANALYSIS.match(pointer)
    if match is None or not isinstance(document, dict):
        return None
    analyses = document.get("analyses") or []
    index = int(match.group(1))
    return analyses[index] if index < len(analyses) else None


def in_plan_or_recommendation(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401, ARG001
    """UNKNOWN_ANALYSIS_ID is dropped outside the conclusion (action plan, recommendations)."""
    return violation["code"] == "UNKNOWN_ANALYSIS_ID" and not violation["pointer"].startswith(
        "/conclusion"
    )


def inference_on_no_evidence(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401, ARG001
    """NO_EVIDENCE_NOT_NEGATIVE is dropped for an INFERENCE (only OBSERVATION is held to it)."""
    analysis = _analysis(document, violation["pointer"])
    return (
        violation["code"] == "NO_EVIDENCE_NOT_NEGATIVE"
        and analysis is not None
        and analysis.get("kind") == "INFERENCE"
    )


def scope_within_ignoring(part: str) -> Callable[[dict[str, str], Json, Any], bool]:
    """NEGATIVE_SCOPE_TOO_WIDE is dropped when the scope is within every cited query but ``part``.

    ``part`` is ``"tool"`` (the tool is not compared), ``"start"`` (the start is not compared)
    or ``"seconds"`` (the time ranges are compared at whole seconds, ``ms // 1000``: a claim up
    to 999 ms wider than its query at either end passes).
    """

    def within(scope: dict[str, Any], query: dict[str, Any]) -> bool:
        keys = [k for k in ("tool", "target", "query") if k != part]
        inner, outer = scope["time_range"], query["time_range"]
        if part == "seconds":
            inner = {k: v // 1000 for k, v in inner.items()}
            outer = {k: v // 1000 for k, v in outer.items()}
        start = part == "start" or outer["start_ms"] <= inner["start_ms"]
        return (
            all(scope[k] == query[k] for k in keys)
            and start
            and (inner["start_ms"] <= inner["end_ms"] <= outer["end_ms"])
        )

    def drop(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401
        analysis = _analysis(document, violation["pointer"])
        if violation["code"] != "NEGATIVE_SCOPE_TOO_WIDE" or analysis is None:
            return False
        scopes = []
        for call_id in analysis["tool_call_ids"]:
            record = invocations.get(call_id)
            if record is None or record.projection is None:
                return False
            scopes.append(record.projection.model_dump(mode="json")["query_scope"])
        return all(within(analysis["scope"], query) for query in scopes)

    return drop


# --------------------------------------------------------------------------- projections


class UnboundedDocumentIds:
    """Two wrappers: remember every backend row's document id, accept citing any of them.

    The projection stays bounded (its ``document_ids`` are the kept rows' ids, as the contract
    requires); EvidenceGuard then matches references against every id the backend returned.
    """

    def __init__(self) -> None:
        """Start with no lookup result remembered."""
        self.returned: dict[str, set[str]] = {}

    def keep(self, original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
        """Wrap ``project``: remember the document ids of every row of a lookup result."""

        def project(
            tool_name: str, arguments: Mapping[str, Any], result: ToolRows, bounds: Limits
        ) -> dict[str, Any]:
            rows = list(result.rows)
            if tool_name == LOOKUP_TOOL:
                ids = {row.get("document_id") for row in rows}
                self.returned[_key(arguments)] = {i for i in ids if isinstance(i, str)}
            return original(tool_name, arguments, ToolRows(rows, result.total_matched), bounds)

        return project

    def drop(self, violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401
        """FABRICATED_DOCUMENT_ID is dropped when the backend returned the id at all."""
        if violation["code"] != "FABRICATED_DOCUMENT_ID" or not isinstance(document, dict):
            return False
        record = invocations.get(document.get("lookup_tool_call_id"))
        if record is None:
            return False
        cited: Any = document
        for part in violation["pointer"].split("/")[1:]:
            cited = cited[int(part)] if isinstance(cited, list) else cited[part]
        return cited in self.returned.get(_key(_plain_arguments(record)), set())


def _key(arguments: Mapping[str, Any]) -> str:
    return json.dumps(dict(arguments), sort_keys=True)


def large_result_unbounded(original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """Wrap ``project``: a backend result of many rows is projected without the limits."""

    def project(
        tool_name: str, arguments: Mapping[str, Any], result: ToolRows, bounds: Limits
    ) -> dict[str, Any]:
        rows = list(result.rows)
        if len(rows) > _LARGE_RESULT_ROWS:
            bounds = dataclasses.replace(bounds, max_items=200, max_item_chars=8192)
        return original(tool_name, arguments, ToolRows(rows, result.total_matched), bounds)

    return project


# --------------------------------------------------------------------------- previous turn


def _earlier(store: RunStore, session_id: str, before_seq: int) -> list[DiagnosisRun]:
    runs = [r for r in store.list_session(session_id) if r.seq < before_seq]
    return sorted(runs, key=lambda r: r.seq, reverse=True)


def _eligible(run: DiagnosisRun) -> bool:
    return skip_reason(plain(run.intent), str(plain(run.state))) is None  # type: ignore[arg-type]


def _reason(run: DiagnosisRun) -> Any:  # noqa: ANN401 - a SkipReason
    return skip_reason(plain(run.intent), str(plain(run.state)))  # type: ignore[arg-type]


class NewestFewStore(RunStore):
    """Scans only the 4 newest earlier Runs of the session for the previous turn."""

    SCANNED: Final = 4

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select among the newest :attr:`SCANNED` earlier Runs only."""
        skipped: list[SkippedRun] = []
        for run in _earlier(self, session_id, before_seq)[: self.SCANNED]:
            if _eligible(run):
                return PreviousTurnSelection(selected=run, skipped=tuple(skipped))
            skipped.append(SkippedRun(run.run_id, _reason(run)))
        return PreviousTurnSelection(selected=None, skipped=tuple(skipped))


class OlderSkippedStore(RunStore):
    """Reports every ineligible earlier Run as skipped, older ones than the selected included."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select as the reference does; skip every ineligible earlier Run of the session."""
        chosen = super().select_previous_turn(session_id, before_seq)
        skipped = [
            SkippedRun(run.run_id, _reason(run))
            for run in _earlier(self, session_id, before_seq)
            if not _eligible(run)
        ]
        return dataclasses.replace(chosen, skipped=tuple(skipped))


class OldestFirstSkippedStore(RunStore):
    """Selects and skips as the reference does, but lists the skipped Runs oldest first."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """The reference's selection with its skip report reversed."""
        chosen = super().select_previous_turn(session_id, before_seq)
        return dataclasses.replace(chosen, skipped=tuple(reversed(chosen.skipped)))


class StatesOnlySkippedStore(RunStore):
    """Leaves SUCCESS Runs of another intent (KNOWLEDGE_QUERY) off the skip report."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select as the reference does; report only Runs skipped for their state."""
        chosen = super().select_previous_turn(session_id, before_seq)
        kept = tuple(s for s in chosen.skipped if s.reason != "INTENT_KNOWLEDGE_QUERY")
        return dataclasses.replace(chosen, skipped=kept)


class IntentFirstStore(RunStore):
    """Gives the intent precedence: a KNOWLEDGE_QUERY Run in any state is INTENT_KNOWLEDGE_QUERY."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select as the reference does; a KNOWLEDGE_QUERY Run's reason is its intent."""
        chosen = super().select_previous_turn(session_id, before_seq)
        intents = {r.run_id: plain(r.intent) for r in self.list_session(session_id)}
        skipped = tuple(
            SkippedRun(s.run_id, "INTENT_KNOWLEDGE_QUERY")
            if intents.get(s.run_id) == "KNOWLEDGE_QUERY"
            else s
            for s in chosen.skipped
        )
        return dataclasses.replace(chosen, skipped=skipped)


_NEWEST: list[DiagnosisRun] = []
"""The session's newest earlier Run of the last Run started (shared by the Harness and patch)."""


class KnowledgeContextHarness(Harness):
    """Remembers the session's newest earlier Run, whatever its state (see the patch below)."""

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        _NEWEST[:] = _earlier(self._store, session_id, run_seq)[:1]
        return await super()._work(ctx, session_id, user_message, run_seq)


def with_knowledge_context(original: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    """Wrap ``opening_messages``: a KNOWLEDGE_QUERY Run gets the newest earlier Run as context."""

    def opening_messages(intent: str, user_message: str, previous: Any) -> list[Any]:  # noqa: ANN401 - a DiagnosisRun or None
        if intent == "KNOWLEDGE_QUERY" and previous is None and _NEWEST:
            previous = _NEWEST[0]
        return original(intent, user_message, previous)

    return opening_messages
