"""Mutants of red team 6's identity and RAG-binding survivors (docs/decisions/red-team-6.md).

Each is the smallest Python harness of one fault kind the sixth red team's Java copies carried:

* a Tool Call ID is taken only once its call ended READY (or found evidence), so an id presented
  again after a failed, refused, timed-out or in-band-error call is accepted and overwrites it;
* EvidenceGuard skips the document check when the named lookup returned no documents;
* the lookup Tool Call ID is matched loosely (letter case, Unicode compatibility form, padding);
* a Knowledge Answer's semantic fallback lists no verified sources.

Added to :data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, ClassVar, Final

from contracts import KnowledgeAnswer, json_copy
from reference_harness._harness import Harness
from reference_harness._invocations import InvocationLedger
from reference_harness.guards._invocations import views_of_run
from reference_harness.mutants._evidence_parts import _at, _returned, dropping
from reference_harness.mutants._iut import MutantSpec, Patch

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import ToolInvocation
    from reference_harness._outcome import Outcome
    from reference_harness._run_context import RunContext

__all__ = ["REDTEAM6_IDRAG_SPECS"]

_R2: Final = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R5: Final = "knowledge-answers-shall-use-exact-rag-bindings"
_R6: Final = "safe-fallback-shall-use-a-fixed-schema"
_RELEASE: Final = "reference_harness._release"


# --------------------------------------------------------------------------- Tool Call IDs


class _TakenIfLedger(InvocationLedger):
    """A ledger whose ids count as taken only when ``taken(record)``; a reused one overwrites."""

    @staticmethod
    def taken(record: Mapping[str, Any]) -> bool:
        """Whether ``record``'s id is taken (the reference: always, from its acceptance on)."""
        return record is not None

    @property
    def accepted_ids(self) -> Mapping[str, Any]:
        return {k: r for k, r in self._records.items() if self.taken(r)}

    def accept(
        self, tool_call_id: str, tool_name: str, arguments: Mapping[str, Any], step: int
    ) -> dict[str, Any]:
        old = self._records.pop(tool_call_id, None)  # the fault: the first one is overwritten
        if old is None:
            return super().accept(tool_call_id, tool_name, arguments, step)
        record: dict[str, Any] = {
            **old,
            "sequence": 1 + max((r["sequence"] for r in self._records.values()), default=0),
            "step": step,
            "tool_name": tool_name,
            "arguments": json_copy(dict(arguments)),
            "status": "PROJECTING",
            "evidence_status": None,
            "projection": None,
            "error": None,
        }
        self._records[tool_call_id] = record
        self._changed(record)
        return json_copy(record)


class _ReadyTakenLedger(_TakenIfLedger):
    @staticmethod
    def taken(record: Mapping[str, Any]) -> bool:
        return bool(record["status"] == "READY")


class _EvidenceTakenLedger(_TakenIfLedger):
    @staticmethod
    def taken(record: Mapping[str, Any]) -> bool:
        return bool(record["evidence_status"] == "EVIDENCE_FOUND")


class ReadyTakenHarness(Harness):
    """Marks a Tool Call ID used only once its call ended READY (the Java fault)."""

    ledger_class: ClassVar[type[InvocationLedger]] = _ReadyTakenLedger

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        ctx.ledger.__class__ = self.ledger_class
        return await super()._work(ctx, session_id, user_message, run_seq)


class EvidenceTakenHarness(ReadyTakenHarness):
    """Marks a Tool Call ID used only once its call found evidence."""

    ledger_class = _EvidenceTakenLedger


# --------------------------------------------------------------------------- RAG bindings


def fabricated_on_empty_lookup(
    violation: dict[str, str],
    document: Any,  # noqa: ANN401 - JSON
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """FABRICATED_DOCUMENT_ID is dropped when the named lookup returned no document."""
    return violation["code"] == "FABRICATED_DOCUMENT_ID" and not _returned(invocations, document)


def _loose(value: object) -> str:
    return unicodedata.normalize("NFKC", str(value)).strip().casefold()


def lookup_named_loosely(
    violation: dict[str, str],
    document: Any,  # noqa: ANN401 - JSON
    invocations: Mapping[str, ToolInvocation],
) -> bool:
    """LOOKUP_CALL_COUNT / REFERENCE_OTHER_CALL are dropped for a loose match of the lookup.

    That is: the id names the one READY lookup but for letter case, Unicode compatibility form or
    surrounding whitespace.
    """
    if violation["code"] not in {"LOOKUP_CALL_COUNT", "REFERENCE_OTHER_CALL"}:
        return False
    ready = [
        v.tool_call_id
        for v in views_of_run(invocations, None).values()
        if v.tool_name == "lookup_documents" and v.status == "READY"
    ]
    named = _at(document, violation["pointer"])
    return len(ready) == 1 and _loose(named) == _loose(ready[0])


def no_sources_for_knowledge(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``verified_sources_for``: a Knowledge Answer's fallback lists no source."""

    def sources(document: Any, invocations: Any, **kwargs: Any) -> list[Any]:  # noqa: ANN401 - a body model, the ledger
        if isinstance(document, KnowledgeAnswer):
            return []
        result: list[Any] = original(document, invocations, **kwargs)
        return result

    return sources


_ANSWER_GUARD: Final = (_RELEASE, "check_knowledge_answer")

REDTEAM6_IDRAG_SPECS: Final = (
    MutantSpec(
        "duplicate_after_failed_call_accepted",
        _R2,
        "a Tool Call ID is taken only once its call ended READY: the id presented again after a "
        "TOOL_FAILED, INVALID_ARGUMENTS or TOOL_TIMEOUT call is accepted and overwrites it",
        rule_id="R2.tool-call-identity",
        harness_class=ReadyTakenHarness,
    ),
    MutantSpec(
        "duplicate_after_no_evidence_accepted",
        _R2,
        "a Tool Call ID is taken only once its call found evidence: the id presented again after "
        "a failed, refused, timed-out, in-band-error or NO_EVIDENCE call is accepted",
        rule_id="R2.tool-call-identity",
        harness_class=EvidenceTakenHarness,
    ),
    MutantSpec(
        "fabricated_reference_on_empty_lookup_accepted",
        _R5,
        "EvidenceGuard skips the document check when the lookup returned no document: an answer "
        "citing a document of an empty lookup result is released",
        rule_id="R5.fabricated-citation-rejected",
        patches=(Patch(*_ANSWER_GUARD, dropping(fabricated_on_empty_lookup)),),
    ),
    MutantSpec(
        "lookup_id_matched_loosely",
        _R5,
        "EvidenceGuard matches the lookup Tool Call ID ignoring case, Unicode compatibility form "
        'and padding: "LOOKUP_1" names "lookup_1"',
        rule_id="R5.exact-rag-bindings",
        patches=(Patch(*_ANSWER_GUARD, dropping(lookup_named_loosely)),),
    ),
    MutantSpec(
        "knowledge_fallback_without_sources",
        _R6,
        "a Knowledge Answer's SEMANTIC_UNSUPPORTED or SEMANTIC_UNAVAILABLE fallback lists no "
        "verified sources (the answer's READY lookup left out)",
        rule_id="R6.fallback-verified-sources",
        patches=(Patch(_RELEASE, "verified_sources_for", no_sources_for_knowledge),),
    ),
)
"""The mutants, one per fault kind (see the module docstring)."""
