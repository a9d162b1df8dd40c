"""The lone-item kind at the lists red team 9 left: a verdict's ids and a draft's entry lists.

Red team 9 (``r4_cite_string``) found a Harness wrapping a bare string written where a contract
demands an array into a one-element list before its EvidenceGuard; it was closed with rows for the
draft's id lists and the Knowledge Answer's lists (:mod:`._redteam9_specs`). The keyword-break
walk now writes every array of each model-written contract as its lone item
(:attr:`conformance.keywordbreaks.KeywordBreak.lone_item`); these mutants coerce the lists no
mutant coerced before: the SemanticGuard verdict's ``unsupported_analysis_ids`` and a draft's
``analyses``, ``action_plan``, ``recommendations`` and ``limitations``. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue (docs/decisions/lone-items-11.md).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

from contracts import StrictJSONError, loads_strict
from reference_harness.mutants._iut import MutantSpec, Patch

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["LONEITEM_SPECS"]

_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_RELEASE = "reference_harness._release"
_ENTRY_LISTS: Final = ("analyses", "action_plan", "recommendations", "limitations")


def _unsupported_id_wrapped(original: Callable[..., Any]) -> Callable[..., Any]:
    """``parse_verdict``: a bare string ``unsupported_analysis_ids`` is read as a one-id list."""

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a SemanticVerdict or None
        value: object = raw
        if isinstance(raw, str | bytes | bytearray):
            try:
                value = loads_strict(raw)
            except StrictJSONError:
                return original(raw, **kwargs)
        if isinstance(value, dict) and isinstance(value.get("unsupported_analysis_ids"), str):
            value = {**value, "unsupported_analysis_ids": [value["unsupported_analysis_ids"]]}
        return original(value, **kwargs)

    return parse


def _entries_listed(document: Any) -> Any:  # noqa: ANN401
    """A draft whose bare entry lists (:data:`_ENTRY_LISTS`, one object each) are listed."""
    if not isinstance(document, dict):
        return document
    edited = copy.deepcopy(document)
    for member in _ENTRY_LISTS:
        if isinstance(edited.get(member), dict):
            edited[member] = [edited[member]]
    return edited


def _draft_entries_wrapped(original: Callable[..., Any]) -> Callable[..., Any]:
    """``_release.check_draft``: a bare entry is wrapped before the EvidenceGuard."""

    def check_draft(document: object, **kwargs: Any) -> Any:  # noqa: ANN401
        return original(_entries_listed(document), **kwargs)

    return check_draft


LONEITEM_SPECS: Final = (
    MutantSpec(
        "lone_unsupported_id_wrapped_in_list",
        _R9,
        "an invalid SemanticGuard answer is an INVALID_SCHEMA attempt: a verdict whose "
        "unsupported_analysis_ids names one analysis as a bare string is read as a one-id list "
        "and taken as valid",
        rule_id="R9.model-call-outcome",
        patches=(Patch(_RELEASE, "parse_verdict", _unsupported_id_wrapped),),
    ),
    MutantSpec(
        "lone_draft_entry_wrapped_in_list",
        _R6,
        "diagnosis-draft: analyses, action_plan, recommendations and limitations are arrays; one "
        "written as its one entry, a bare object, is wrapped into a one-entry list and the "
        "edited draft is validated and released, so a draft and a repair breaking the contract "
        "do not end in EVIDENCE_VALIDATION_FAILED",
        rule_id="R6.evidence-validation-failed",
        patches=(Patch(_RELEASE, "check_draft", _draft_entries_wrapped),),
    ),
)
