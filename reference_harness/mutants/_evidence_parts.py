"""Broken parts for the evidence mutants: Tool Call IDs, invocations, projections, guards, repair.

Each part is the smallest wrong harness for one normative sentence of Requirements 1-6 (the kinds
of faults real harnesses were seen to have): it trims, case-folds or normalises ids, judges
duplicates across Runs, maps a raising backend to NO_EVIDENCE, never reports PROJECTING, checks a
NEGATIVE_OBSERVATION's scope against its first citation only, accepts one unknown id among known
ones, does not truncate, case-folds document ids, executes tool calls in the structural repair,
or edits the draft after a partial UNSUPPORTED verdict. :mod:`reference_harness.mutants._catalogue`
combines each with the reference Harness into one mutant.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from contracts import DiagnosisDraft, KnowledgeAnswer
from reference_harness._agent_loop import AgentLoop, Submission
from reference_harness._harness import Harness
from reference_harness._invocations import InvocationLedger
from reference_harness._outcome import Outcome, success
from reference_harness._projection import query_scope_of
from reference_harness.guards import GuardVerdict, Violation, ViolationCode
from reference_harness.ports import ProposedToolCall, ToolCallsAnswer

if TYPE_CHECKING:
    import threading

    from contracts import ToolInvocation
    from reference_harness._limits import Limits
    from reference_harness._run_context import RunContext
    from reference_harness.ports import AgentAnswer, AgentPort, AgentRequest, ToolRows

__all__ = [
    "ExecutingRepairLoop",
    "FailureAsNoEvidenceHarness",
    "InBandAsNoEvidenceHarness",
    "PartialEditingHarness",
    "RewritingIdAgent",
    "SessionWideIdHarness",
    "SilentProjectingHarness",
    "case_folded_duplicates",
    "dropping",
    "executing_repair",
    "limitation_error_rejected",
    "projection_with",
    "remembering_loop",
    "unsupported_as_unavailable",
]

Verdict: TypeAlias = Callable[..., GuardVerdict]
Json: TypeAlias = Any
"""A parsed JSON value (a submitted document)."""


# --------------------------------------------------------------------------- Tool Call IDs


class RewritingIdAgent:
    """Wraps the agent port and rewrites every string Tool Call ID before the Harness sees it.

    Built with :meth:`trimming`, :meth:`nfkc`, :meth:`stringifying` or :meth:`cutting`: the id
    normalisation some frameworks do, which makes an invalid presented id look valid.
    """

    def __init__(self, inner: AgentPort, rewrite: Callable[[object], object]) -> None:
        """Wrap ``inner``; ``rewrite`` maps a presented id to what the Harness gets."""
        self._inner = inner
        self._rewrite = rewrite

    @classmethod
    def trimming(cls, inner: AgentPort) -> RewritingIdAgent:
        """Strip surrounding whitespace from string ids (``" call_1 "`` → ``"call_1"``)."""
        return cls(inner, lambda i: i.strip() if isinstance(i, str) and i.strip() else i)

    @classmethod
    def nfkc(cls, inner: AgentPort) -> RewritingIdAgent:
        """NFKC-normalise string ids (full-width look-alikes become ASCII)."""
        return cls(inner, lambda i: unicodedata.normalize("NFKC", i) if isinstance(i, str) else i)

    @classmethod
    def stringifying(cls, inner: AgentPort) -> RewritingIdAgent:
        """Turn numeric ids into strings (``42`` → ``"42"``)."""
        numeric = (int, float)
        return cls(inner, lambda i: str(i) if isinstance(i, numeric) and i is not True else i)

    @classmethod
    def cutting(cls, inner: AgentPort) -> RewritingIdAgent:
        """Cut string ids longer than 128 characters to their first 128."""
        return cls(inner, lambda i: i[:128] if isinstance(i, str) else i)

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegate everything else
        return getattr(self._inner, name)

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer like the inner port, with every presented id rewritten."""
        answer = self._inner.step(request, interrupt)
        if not isinstance(answer, ToolCallsAnswer):
            return answer
        calls = tuple(
            ProposedToolCall(id=self._rewrite(c.id), name=c.name, arguments=c.arguments)
            for c in answer.calls
        )
        return ToolCallsAnswer(calls=calls)


def case_folded_duplicates(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``classify_tool_call_id``: an id equal to an accepted one but for case is taken."""

    def classify(presented: object, accepted: Any) -> Any:  # noqa: ANN401 - the reference types
        if isinstance(presented, str) and presented.casefold() in {
            str(a).casefold() for a in accepted
        }:
            reason = original(presented, accepted)
            return reason or "DUPLICATE_ID"
        return original(presented, accepted)

    return classify


class _WithPrior(Mapping[str, Any]):
    """The accepted ids of this Run plus ids earlier Runs of the session cited (membership only)."""

    def __init__(self, records: Mapping[str, Any], prior: frozenset[str]) -> None:
        self._records = records
        self._prior = prior

    def __contains__(self, key: object) -> bool:
        return key in self._records or key in self._prior

    def __getitem__(self, key: str) -> Any:  # noqa: ANN401 - a ledger record
        return self._records[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


class _SessionLedger(InvocationLedger):
    prior: frozenset[str] = frozenset()

    @property
    def accepted_ids(self) -> Mapping[str, Any]:
        return _WithPrior(self._records, self.prior)


def _cited_ids(published: object) -> set[str]:
    body: dict[str, Any] = getattr(published, "model_dump", lambda **_: {})(mode="json")
    draft = body.get("diagnosis_draft") or {}
    cited = {i for a in draft.get("analyses", []) for i in a.get("tool_call_ids", [])}
    cited |= {i for lim in draft.get("limitations", []) for i in lim.get("tool_call_ids", [])}
    answer = body.get("knowledge_answer") or {}
    if answer.get("lookup_tool_call_id"):
        cited.add(answer["lookup_tool_call_id"])
    return cited


class SessionWideIdHarness(Harness):
    """Judges duplicate Tool Call IDs across the session: ids earlier Runs cited are taken."""

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        prior: set[str] = set()
        for run in self._store.list_session(session_id):
            if run.seq < run_seq:
                prior |= _cited_ids(run.published_result)
        ctx.ledger.__class__ = _SessionLedger
        ctx.ledger.prior = frozenset(prior)  # type: ignore[attr-defined]  # set on the swapped class
        return await super()._work(ctx, session_id, user_message, run_seq)


# --------------------------------------------------------------------------- invocations


class _FailureAsEmptyLedger(InvocationLedger):
    def fail(self, tool_call_id: str, code: Any) -> dict[str, Any]:  # noqa: ANN401 - a code
        record = self._records[tool_call_id]
        if code != "TOOL_FAILED" or record["status"] != "PROJECTING":
            return super().fail(tool_call_id, code)
        return self.ready(tool_call_id, _empty(record))


class _InBandAsEmptyLedger(InvocationLedger):
    def backend_error(self, tool_call_id: str, projection: Mapping[str, Any]) -> dict[str, Any]:
        return self.ready(tool_call_id, projection)


class _SilentLedger(InvocationLedger):
    def _changed(self, record: dict[str, Any]) -> None:
        if record["status"] != "PROJECTING":
            super()._changed(record)


def _empty(record: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "query_scope": query_scope_of(record["tool_name"], record["arguments"]),
        "items": [],
        "total_matched": 0,
        "truncated": False,
        "document_ids": [],
    }


class _LedgerSwapHarness(Harness):
    ledger_class: type[InvocationLedger] = InvocationLedger

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        ctx.ledger.__class__ = self.ledger_class
        return await super()._work(ctx, session_id, user_message, run_seq)


class FailureAsNoEvidenceHarness(_LedgerSwapHarness):
    """A backend that raises ends READY / NO_EVIDENCE with an empty projection."""

    ledger_class = _FailureAsEmptyLedger


class InBandAsNoEvidenceHarness(_LedgerSwapHarness):
    """A backend's in-band error ends READY / NO_EVIDENCE (the error is dropped)."""

    ledger_class = _InBandAsEmptyLedger


class SilentProjectingHarness(_LedgerSwapHarness):
    """Never reports the PROJECTING state: only the terminal status change is traced."""

    ledger_class = _SilentLedger


def projection_with(
    *, limits: Callable[[Limits], Limits] | None = None, after: Callable[[dict[str, Any]], None]
) -> Callable[[Callable[..., dict[str, Any]]], Callable[..., dict[str, Any]]]:
    """Wrap ``project``: run it with changed ``limits``, then let ``after`` edit the projection."""

    def wrap(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
        def project(
            tool_name: str, arguments: Mapping[str, Any], result: ToolRows, bounds: Limits
        ) -> dict[str, Any]:
            used = limits(bounds) if limits is not None else bounds
            projection = original(tool_name, arguments, result, used)
            after(projection)
            return projection

        return project

    return wrap


def no_item_cut(limits: Limits) -> Limits:
    """Limits whose ``max_item_chars`` is the schema cap (item texts are not cut)."""
    return dataclasses.replace(limits, max_item_chars=8192)


def no_item_limit(limits: Limits) -> Limits:
    """Limits whose ``max_items`` is the schema cap (rows are not left out)."""
    return dataclasses.replace(limits, max_items=200)


def truncated_by_count_only(projection: dict[str, Any]) -> None:
    """``truncated`` forgets cut texts: only rows left out count."""
    projection["truncated"] = projection["total_matched"] > len(projection["items"])


def total_is_kept_count(projection: dict[str, Any]) -> None:
    """``total_matched`` is the number of kept items, not what the backend matched."""
    projection["total_matched"] = len(projection["items"])


def unchanged(projection: dict[str, Any]) -> None:
    """Leave the projection as it is."""
    del projection


# --------------------------------------------------------------------------- guards


def dropping(
    drop: Callable[[dict[str, str], Any, Mapping[str, ToolInvocation]], bool],
) -> Callable[[Verdict], Verdict]:
    """Wrap an EvidenceGuard check so that the violations ``drop`` picks are forgotten.

    ``drop(violation, document, invocations)`` picks; a document left with none passes.
    """

    def wrap(original: Verdict) -> Verdict:
        def check(document: object, **kwargs: Any) -> GuardVerdict:  # noqa: ANN401 - guard kwargs
            verdict = original(document, **kwargs)
            invocations = kwargs["invocations"]
            kept = [
                v
                for v in verdict.violations
                if not drop({"code": str(v.code), "pointer": v.pointer}, document, invocations)
            ]
            if verdict.valid or kept:
                return verdict
            model: type[DiagnosisDraft | KnowledgeAnswer] = (
                KnowledgeAnswer
                if isinstance(document, dict) and "lookup_tool_call_id" in document
                else DiagnosisDraft
            )
            return GuardVerdict(valid=True, violations=(), document=model.model_validate(document))

        return check

    return wrap


def _at(document: Any, pointer: str) -> Any:  # noqa: ANN401 - JSON
    value = document
    for part in pointer.split("/")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def _projection(invocations: Mapping[str, ToolInvocation], call_id: object) -> dict[str, Any]:
    record = invocations.get(call_id) if isinstance(call_id, str) else None
    if record is None or record.projection is None:
        return {}
    return record.projection.model_dump(mode="json")


def scope_checked_on_first_citation(
    violation: dict[str, str],
    document: Json,
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """NEGATIVE_SCOPE_TOO_WIDE is dropped when the scope is within the *first* cited query."""
    if violation["code"] != "NEGATIVE_SCOPE_TOO_WIDE":
        return False
    analysis = _at(document, violation["pointer"].rsplit("/", 1)[0])
    first = _projection(invocations, analysis["tool_call_ids"][0]).get("query_scope")
    scope = analysis["scope"]
    if not first:
        return False
    inner, outer = scope["time_range"], first["time_range"]
    same = all(scope[k] == first[k] for k in ("tool", "target", "query"))
    return bool(
        same and outer["start_ms"] <= inner["start_ms"] <= inner["end_ms"] <= outer["end_ms"]
    )


def unknown_among_known(
    violation: dict[str, str],
    document: Json,
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """UNKNOWN_TOOL_CALL_ID of an analysis is dropped unless *every* id it cites is unknown."""
    parts = violation["pointer"].split("/")
    if violation["code"] != "UNKNOWN_TOOL_CALL_ID" or parts[1] != "analyses":
        return False
    cited = document["analyses"][int(parts[2])]["tool_call_ids"]
    return any(i in invocations for i in cited)


def in_limitation(violation: dict[str, str], document: Any, invocations: Any) -> bool:  # noqa: ANN401, ARG001
    """Bindings of limitations are not checked."""
    return violation["pointer"].startswith("/limitations/")


def codes(*names: str) -> Callable[[dict[str, str], Any, Any], bool]:
    """Drop the violations whose code is one of ``names``."""
    return lambda violation, _document, _invocations: violation["code"] in names


def _returned(invocations: Mapping[str, ToolInvocation], document: Any) -> list[str]:  # noqa: ANN401
    projection = _projection(invocations, document.get("lookup_tool_call_id"))
    return list(projection.get("document_ids", []))


def case_folded_document(
    violation: dict[str, str],
    document: Json,
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """FABRICATED_DOCUMENT_ID is dropped when the id equals a returned one but for case."""
    if violation["code"] != "FABRICATED_DOCUMENT_ID":
        return False
    cited = str(_at(document, violation["pointer"])).casefold()
    return cited in {d.casefold() for d in _returned(invocations, document)}


def document_by_position(
    violation: dict[str, str],
    document: Json,
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """FABRICATED_DOCUMENT_ID is dropped when the id is a position (``"0"``, ``"1"``…)."""
    if violation["code"] != "FABRICATED_DOCUMENT_ID":
        return False
    cited = str(_at(document, violation["pointer"]))
    return cited.isdecimal() and int(cited) <= len(_returned(invocations, document))


# --------------------------------------------------------------------------- release


class ExecutingRepairLoop(AgentLoop):
    """The structural repair executes the tool calls it gets, then asks again for the draft."""

    _last_repair_answer: ToolCallsAnswer

    async def repair(self, request: Mapping[str, Any]) -> Submission:
        """Run tool calls proposed in the repair as a new step, until a document comes."""
        submission = await super().repair(request)
        rounds = 0
        while submission.tool_calls and rounds < self._ctx.limits.max_steps:
            rounds += 1
            answer = self._last_repair_answer
            step = 1 + max((r["step"] for r in self._ctx.ledger.documents()), default=0)
            await self._step(step, answer.calls)
            reply = await self._ask("STRUCTURAL_REPAIR")
            if isinstance(reply, ToolCallsAnswer):
                self._last_repair_answer = reply
                submission = Submission(None, tool_calls=True)
            else:
                submission = Submission(reply.content)
        return submission

    async def _ask(self, purpose: Any) -> AgentAnswer:  # noqa: ANN401 - an AgentPurpose
        answer = await super()._ask(purpose)
        if isinstance(answer, ToolCallsAnswer):
            self._last_repair_answer = answer
        return answer


def executing_repair(_original: Any) -> type[AgentLoop]:  # noqa: ANN401 - the AgentLoop class
    """Replace the Harness's ``AgentLoop`` by :class:`ExecutingRepairLoop`."""
    return ExecutingRepairLoop


def unsupported_as_unavailable(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``safe_fallback``: a SEMANTIC_UNSUPPORTED verdict falls back as SEMANTIC_UNAVAILABLE."""

    def build(fallback_type: str, **kwargs: Any) -> Any:  # noqa: ANN401 - a SafeFallback
        if fallback_type == "SEMANTIC_UNSUPPORTED":
            fallback_type = "SEMANTIC_UNAVAILABLE"
        return original(fallback_type, **kwargs)

    return build


def _without(draft: dict[str, Any], unsupported: set[str]) -> dict[str, Any] | None:
    kept = [a for a in draft["analyses"] if a["analysis_id"] not in unsupported]
    if not kept:
        return None
    ids = [a["analysis_id"] for a in kept]

    def keep(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        cut = [{**e, "analysis_ids": [i for i in e["analysis_ids"] if i in ids]} for e in entries]
        return [e for e in cut if e["analysis_ids"]]

    return {
        **draft,
        "conclusion": {**draft["conclusion"], "analysis_ids": ids},
        "analyses": kept,
        "action_plan": keep(draft["action_plan"]),
        "recommendations": keep(draft["recommendations"]),
    }


class PartialEditingHarness(Harness):
    """After an UNSUPPORTED verdict naming some analyses, releases the draft without them.

    Needs :func:`remembering_loop` patched in, which keeps the submitted documents.
    """

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        outcome = await super()._work(ctx, session_id, user_message, run_seq)
        if outcome.fallback_type != "SEMANTIC_UNSUPPORTED":
            return outcome
        verdicts = [e for e in ctx.trace.events if e["type"] == "SEMANTIC_VERDICT"]
        submitted = getattr(ctx, "remembered", [])
        if not verdicts or not submitted or not isinstance(submitted[-1], dict):
            return outcome
        if "analyses" not in submitted[-1]:
            return outcome
        unsupported = set(verdicts[-1]["data"]["unsupported_analysis_ids"])
        edited = _without(submitted[-1], unsupported)
        return outcome if edited is None else success("DIAGNOSIS_DRAFT", edited)


class _RememberingLoop(AgentLoop):
    """Keeps every submitted document on the Run context (for the editing Harness)."""

    def _remember(self, content: object) -> None:
        remembered: list[object] = self._ctx.__dict__.setdefault("remembered", [])
        remembered.append(content)

    async def run(self) -> Any:  # noqa: ANN401 - a Submission or BUDGET_EXHAUSTED
        result = await super().run()
        if isinstance(result, Submission):
            self._remember(result.content)
        return result

    async def repair(self, request: Mapping[str, Any]) -> Submission:
        result = await super().repair(request)
        self._remember(result.content)
        return result


def remembering_loop(_original: Any) -> type[AgentLoop]:  # noqa: ANN401 - the AgentLoop class
    """Replace the Harness's ``AgentLoop`` by one that remembers what the agent submitted."""
    return _RememberingLoop


def limitation_error_rejected(original: Verdict) -> Verdict:
    """Wrap ``check_draft``: a limitation citing ERROR evidence is rejected (the spec allows it)."""

    def check(document: object, **kwargs: Any) -> GuardVerdict:  # noqa: ANN401 - guard kwargs
        verdict = original(document, **kwargs)
        if not verdict.valid or not isinstance(document, dict):
            return verdict
        invocations: Mapping[str, ToolInvocation] = kwargs["invocations"]
        for index, entry in enumerate(document.get("limitations", [])):
            for position, call_id in enumerate(entry.get("tool_call_ids", [])):
                record = invocations.get(call_id)
                if record is not None and getattr(record.evidence_status, "value", None) == "ERROR":
                    pointer = f"/limitations/{index}/tool_call_ids/{position}"
                    found = (Violation(ViolationCode.ERROR_EVIDENCE_CITED, pointer),)
                    return GuardVerdict(valid=False, violations=found, document=None)
        return verdict

    return check
