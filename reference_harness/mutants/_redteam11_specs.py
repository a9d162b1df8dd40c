"""Red team 11's survivor kinds: uniqueness among neighbours; fallback sources; a free step.

Four Java example copies with one fault each passed the default ``srdh run``
(docs/decisions/red-team-11.md):

* ``dup-analysis-adjacent``: an analysis ID compared with the previous analysis's only. Every
  duplicate-id draft of the suite put the two ids next to each other.
* ``vsources-no-limitations`` / ``vsources-dups``: a semantic fallback's ``verified_sources``
  built from the analyses only (a READY call cited by a limitation alone left out), or one entry
  per citation (a call cited twice listed twice). No semantic-fallback row cited a READY call
  from a limitation, or one call from two places.
* ``step-budget-rejected-free``: an agent step whose calls were all rejected does not count
  toward ``limits.max_steps``. No budget row presented a step of rejected calls only.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from contracts import DiagnosisDraft, KnowledgeAnswer
from reference_harness._agent_loop import BUDGET_EXHAUSTED, Submission
from reference_harness._conversation import answer_message
from reference_harness.guards import GuardVerdict
from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.ports import FinalAnswer

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["REDTEAM11_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_R6 = "safe-fallback-shall-use-a-fixed-schema"


def _neighbours_only(
    code: str, member: str, key: str, model: Callable[[object], Any]
) -> Callable[[Callable[..., GuardVerdict]], Callable[..., GuardVerdict]]:
    """Wrap an EvidenceGuard check: an id repeated only away from its neighbour passes.

    A document whose only violations are ``code`` at ``/<member>/<i>/<key>`` where entry ``i``'s
    ``key`` differs from entry ``i - 1``'s (the duplicate is not adjacent) is accepted.
    """

    def wrap(original: Callable[..., GuardVerdict]) -> Callable[..., GuardVerdict]:
        def check(document: object, **kwargs: Any) -> GuardVerdict:  # noqa: ANN401 - guard kwargs
            verdict = original(document, **kwargs)
            if verdict.valid or not isinstance(document, dict):
                return verdict
            entries = document.get(member)
            if not isinstance(entries, list):
                return verdict
            for violation in verdict.violations:
                parts = violation.pointer.split("/")
                if str(violation.code) != code or parts[1:2] != [member]:
                    return verdict
                index = int(parts[2])
                if index > 0 and entries[index][key] == entries[index - 1][key]:
                    return verdict
            return GuardVerdict(valid=True, violations=(), document=model(document))

        return check

    return wrap


def _analyses_only(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``verified_sources_for``: a diagnosis draft's sources come from its analyses only."""

    def sources(document: Any, invocations: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        if hasattr(document, "limitations") and hasattr(document, "analyses"):
            document = document.model_copy(update={"limitations": []})
        return original(document, invocations, **kwargs)

    return sources


def _per_citation(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``verified_sources_for``: one entry per citation of a call, not one per call."""

    def sources(document: Any, invocations: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        listed: list[Any] = original(document, invocations, **kwargs)
        if not hasattr(document, "analyses"):
            return listed
        cited = [
            str(getattr(i, "root", i))
            for entry in (*document.analyses, *document.limitations)
            for i in entry.tool_call_ids
        ]
        return [s for s in listed for c in cited if c == s["tool_call_id"]]

    return sources


def _cited_by_analyses(original: Callable[[Any], list[str]]) -> Callable[[Any], list[str]]:
    """Wrap the snapshot's ``cited_ids``: a draft's limitations cite nothing."""

    def cited(document: Any) -> list[str]:  # noqa: ANN401 - a validated body
        if isinstance(document, DiagnosisDraft):
            document = document.model_copy(update={"limitations": []})
        return original(document)

    return cited


def _cited_per_citation(original: Callable[[Any], list[str]]) -> Callable[[Any], list[str]]:
    """Wrap the snapshot's ``cited_ids``: a draft's ids once per citation, not de-duplicated."""

    def cited(document: Any) -> list[str]:  # noqa: ANN401 - a validated body
        if not isinstance(document, DiagnosisDraft):
            return original(document)
        entries: list[Any] = [*document.analyses, *document.limitations]
        return [str(getattr(i, "root", i)) for entry in entries for i in entry.tool_call_ids]

    return cited


def _rejected_steps_free(original: type[Any]) -> type[Any]:
    """Wrap ``AgentLoop``: an agent step whose calls were all rejected spends no budget."""

    class RejectedStepsFreeLoop(original):  # type: ignore[misc]
        async def run(self) -> Any:  # noqa: ANN401 - Submission or the budget marker
            step = spent = 0
            while True:
                answer = await self._ask("AGENT_STEP")
                if isinstance(answer, FinalAnswer):
                    self._messages.append(answer_message(answer.content))
                    return Submission(answer.content)
                if spent >= self._ctx.limits.max_steps:
                    return BUDGET_EXHAUSTED
                step += 1
                before = len(self._ctx.ledger.accepted_ids)
                await self._step(step, answer.calls)
                spent += len(self._ctx.ledger.accepted_ids) > before

    return RejectedStepsFreeLoop


_RELEASE: Final = "reference_harness._release"

REDTEAM11_SPECS: Final = (
    MutantSpec(
        "analysis_ids_unique_among_neighbours",
        _R4,
        "every analysis has a unique analysis ID: each ID is compared with the previous "
        "analysis's only, so an ID repeated after other analyses is released",
        rule_id="R4.rejected-then-repaired",
        patches=(
            Patch(
                _RELEASE,
                "check_draft",
                _neighbours_only(
                    "DUPLICATE_ANALYSIS_ID",
                    "analyses",
                    "analysis_id",
                    DiagnosisDraft.model_validate,
                ),
            ),
        ),
    ),
    MutantSpec(
        "item_ids_unique_among_neighbours",
        _R5,
        "answer item ids are unique: each is compared with the previous item's only, so an item "
        "ID repeated after other items is published",
        rule_id="R5.exact-rag-bindings",
        patches=(
            Patch(
                _RELEASE,
                "check_knowledge_answer",
                _neighbours_only(
                    "DUPLICATE_ITEM_ID", "items", "item_id", KnowledgeAnswer.model_validate
                ),
            ),
        ),
    ),
    MutantSpec(
        "fallback_sources_from_analyses_only",
        _R6,
        "a semantic fallback lists exactly the READY invocations the validated body cites: the "
        "calls its limitations cite are left out",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "verified_sources_for", _analyses_only),),
    ),
    MutantSpec(
        "fallback_sources_per_citation",
        _R6,
        "a semantic fallback lists each cited READY invocation once: it is listed once per "
        "citation (twice when two analyses, or an analysis and a limitation, cite it)",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "verified_sources_for", _per_citation),),
    ),
    MutantSpec(
        "snapshot_evidence_from_analyses_only",
        _R1,
        "the Verified Snapshot holds the projections of exactly the invocations the body cites: "
        "the calls a draft's limitations cite are left out",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch("reference_harness.guards._snapshot", "cited_ids", _cited_by_analyses),),
    ),
    MutantSpec(
        "snapshot_evidence_per_citation",
        _R1,
        "the Verified Snapshot holds each cited invocation's projection once: it is held once "
        "per citation (twice when two analyses, or an analysis and a limitation, cite it)",
        rule_id="R1.snapshot-holds-cited-evidence",
        patches=(Patch("reference_harness.guards._snapshot", "cited_ids", _cited_per_citation),),
    ),
    MutantSpec(
        "rejected_step_spends_no_budget",
        _R1,
        "the Harness takes no tool call of an agent step beyond the step budget: a step whose "
        "calls were all rejected is not counted, so the call of the step after it is taken",
        rule_id="R1.step-budget",
        patches=(Patch("reference_harness._harness", "AgentLoop", _rejected_steps_free),),
    ),
)
