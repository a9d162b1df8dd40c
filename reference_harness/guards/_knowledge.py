"""EvidenceGuard rules for a Knowledge Answer (DESIGN section 4, knowledge part)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contracts import KnowledgeAnswer

from ._invocations import LOOKUP_TOOL, READY, InvocationView, views_of_run
from ._pointer import pointer
from ._schema import build_model, is_structural, structural_violations
from ._violations import GuardVerdict, Violation, ViolationCode, rejected

if TYPE_CHECKING:
    from collections.abc import Mapping

    from contracts import ToolInvocation


def _the_lookup(
    answer: dict[str, Any], views: Mapping[str, InvocationView]
) -> tuple[InvocationView | None, list[Violation]]:
    """Return the named lookup invocation (if it is a READY lookup of this Run) and violations.

    The Run must hold exactly one READY `lookup_documents` invocation and the answer must name it.
    """
    ready_lookups = [
        view for view in views.values() if view.tool_name == LOOKUP_TOOL and view.status == READY
    ]
    named = views.get(answer["lookup_tool_call_id"])
    if named is not None and (named.tool_name != LOOKUP_TOOL or named.status != READY):
        named = None
    if len(ready_lookups) == 1 and named is not None:
        return named, []
    return named, [Violation(ViolationCode.LOOKUP_CALL_COUNT, "/lookup_tool_call_id")]


def knowledge_binding_violations(
    answer: dict[str, Any], views: Mapping[str, InvocationView]
) -> list[Violation]:
    """Return the binding violations of a schema-valid knowledge answer, in document order.

    Duplicate item ids and references naming another call are contract invariants, reported by
    `structural_violations`.
    """
    lookup, violations = _the_lookup(answer, views)
    lookup_id = answer["lookup_tool_call_id"]
    returned = lookup.document_ids if lookup is not None else frozenset[str]()
    for index, item in enumerate(answer["items"]):
        for position, reference in enumerate(item["references"]):
            at = ("items", index, "references", position)
            if (
                lookup is not None
                and reference["tool_call_id"] == lookup_id
                and reference["document_id"] not in returned
            ):
                violations.append(
                    Violation(ViolationCode.FABRICATED_DOCUMENT_ID, pointer((*at, "document_id")))
                )
    if not answer["items"] and returned:
        violations.append(Violation(ViolationCode.EMPTY_ANSWER_WITH_DOCUMENTS, "/items"))
    return violations


def check_knowledge_answer(
    document: object, *, run_id: str, invocations: Mapping[str, ToolInvocation]
) -> GuardVerdict:
    """Validate a submitted Knowledge Answer against the exact RAG binding rules.

    Args:
        document: the raw JSON value the Diagnosis Agent submitted (any value at all).
        run_id: the Run the answer belongs to.
        invocations: Tool Call ID -> canonical ToolInvocation of this Run (accepted calls only);
            an entry of another Run counts as unknown.

    Returns:
        A `GuardVerdict`: valid with the `KnowledgeAnswer` model, or invalid with every
        violation (code + RFC 6901 pointer into `document`). Rules: exactly one READY lookup in
        the Run and it is `lookup_tool_call_id` (`LOOKUP_CALL_COUNT`); every reference names it
        (`REFERENCE_OTHER_CALL`) and a document id it returned (`FABRICATED_DOCUMENT_ID`); every
        item has references (`ITEM_WITHOUT_REFERENCES`); item ids are unique
        (`DUPLICATE_ITEM_ID`); no empty answer while the lookup returned documents
        (`EMPTY_ANSWER_WITH_DOCUMENTS`). Never raises for a rejected document; linear cost.

    Implements Requirement "Knowledge answers SHALL use exact RAG bindings".
    """
    violations = structural_violations(document, "knowledge-answer")
    if is_structural(violations) or not isinstance(document, dict):
        return rejected(violations)
    violations += knowledge_binding_violations(document, views_of_run(invocations, run_id))
    if violations:
        return rejected(violations)
    model, invariant_violations = build_model(KnowledgeAnswer, document)
    if model is None:
        return rejected(list(invariant_violations))
    return GuardVerdict(valid=True, violations=(), document=model)
