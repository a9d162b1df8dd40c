"""Red team 9's survivor kinds: an analysis ID checked for its type only; a lone id wrapped.

The Java example copy ``r4_analysis_id_unchecked`` (red team 8's workspace, run in session 9)
required an analysis's ``analysis_id`` to be a string and nothing more. The keyword-break rows
broke the id of an analysis the conclusion names, so the orphaned reference rejected the draft
anyway; an analysis no other member names was never given a broken id. The copy
``r4_cite_string`` wrapped an analysis's bare string ``tool_call_ids`` into a one-element list
and released the edited draft: a type break was presented once per JSON type (an object for an
array), never as the lone item a Harness may coerce. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue (docs/decisions/red-team-9.md).
"""

from __future__ import annotations

import copy
import hashlib
from typing import TYPE_CHECKING, Any, Final

from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.mutants._keyword_specs import _lenient, _skipping

if TYPE_CHECKING:
    from collections.abc import Callable

    from jsonschema import ValidationError

__all__ = ["REDTEAM9_SPECS"]

_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_GRAMMAR: Final = frozenset({"pattern", "minLength", "maxLength"})


def _analysis_id_grammar(error: ValidationError, _document: object) -> bool:
    path = tuple(error.absolute_path)
    return (
        error.validator in _GRAMMAR
        and len(path) == 3  # noqa: PLR2004 - ("analyses", n, "analysis_id")
        and path[0] == "analyses"
        and path[2] == "analysis_id"
    )


def _stand_in(value: str) -> str:
    return "rt9-" + hashlib.sha256(value.encode()).hexdigest()[:16]


def _ids_stood_in(document: Any) -> Any:  # noqa: ANN401
    for analysis in document.get("analyses", []):
        if isinstance(analysis, dict) and isinstance(analysis.get("analysis_id"), str):
            analysis["analysis_id"] = _stand_in(analysis["analysis_id"])
    return document


def _ids_back(model: Any, document: Any) -> Any:  # noqa: ANN401
    given = [a["analysis_id"] for a in document["analyses"]]
    analyses = [
        a.model_copy(update={"analysis_id": g}) for a, g in zip(model.analyses, given, strict=True)
    ]
    return model.model_copy(update={"analyses": analyses})


_ID_LISTS: Final = (
    ("conclusion", "analysis_ids"),
    ("analyses", "tool_call_ids"),
    ("action_plan", "analysis_ids"),
    ("recommendations", "analysis_ids"),
    ("limitations", "tool_call_ids"),
)


def _wrapped(document: Any) -> Any:  # noqa: ANN401
    """``document`` with every id list written as one bare string made a one-element list."""
    if not isinstance(document, dict):
        return document
    edited = copy.deepcopy(document)
    for member, ids in _ID_LISTS:
        holder = edited.get(member)
        entries = [holder] if isinstance(holder, dict) else holder
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get(ids), str):
                entry[ids] = [entry[ids]]
    return edited


def _lone_ids_wrapped(original: Callable[..., Any]) -> Callable[..., Any]:
    """``_release.check_draft``: a bare string id list is wrapped before the EvidenceGuard."""

    def check_draft(document: object, **kwargs: Any) -> Any:  # noqa: ANN401
        return original(_wrapped(document), **kwargs)

    return check_draft


def _entries_wrapped(document: Any) -> Any:  # noqa: ANN401
    """A Knowledge Answer with a bare ``items``, ``references`` or ``limitations`` entry listed."""
    if not isinstance(document, dict):
        return document
    edited = copy.deepcopy(document)
    for member in ("items", "limitations"):
        if isinstance(edited.get(member), dict):
            edited[member] = [edited[member]]
    items = edited.get("items")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("references"), dict):
            item["references"] = [item["references"]]
    return edited


def _lone_entries_wrapped(original: Callable[..., Any]) -> Callable[..., Any]:
    """``_release.check_knowledge_answer``: a bare entry is wrapped before the EvidenceGuard."""

    def check_knowledge_answer(document: object, **kwargs: Any) -> Any:  # noqa: ANN401
        return original(_entries_wrapped(document), **kwargs)

    return check_knowledge_answer


REDTEAM9_SPECS: Final = (
    MutantSpec(
        "analysis_id_type_only",
        _R4,
        "an analysis's analysis_id is only required to be a string: its grammar (1-128 "
        "characters of the id pattern) is not checked, so an analysis no other member names "
        "may carry 'a 2' or a 129-character id and is released",
        rule_id="R4.rejected-then-repaired",
        patches=(
            Patch(
                "reference_harness.guards._schema",
                "_schema_errors",
                _skipping("diagnosis-draft", _analysis_id_grammar),
            ),
            Patch(
                "reference_harness.guards._draft", "build_model", _lenient(_ids_stood_in, _ids_back)
            ),
        ),
    ),
    MutantSpec(
        "lone_id_wrapped_in_list",
        _R4,
        "an id list of a draft (an analysis's tool_call_ids, the conclusion's, an action's or a "
        "recommendation's analysis_ids, a limitation's tool_call_ids) written as one bare string "
        "is wrapped into a one-element list and the edited draft is validated and released",
        rule_id="R4.rejected-then-repaired",
        patches=(Patch("reference_harness._release", "check_draft", _lone_ids_wrapped),),
    ),
    MutantSpec(
        "lone_entry_wrapped_in_list",
        _R5,
        "a list of a Knowledge Answer (its items, an item's references, its limitations) written "
        "as its one entry, a bare object, is wrapped into a one-element list and the edited "
        "answer is validated and published",
        rule_id="R5.exact-rag-bindings",
        patches=(
            Patch("reference_harness._release", "check_knowledge_answer", _lone_entries_wrapped),
        ),
    ),
)
