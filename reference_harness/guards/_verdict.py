"""Parsing SemanticGuard's answer into a SemanticVerdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contracts import SemanticVerdict, StrictJSONError, loads_strict

from ._body import body_json
from ._schema import build_model, structural_violations

if TYPE_CHECKING:
    from contracts import VerifiedSnapshot


def _reviewable_ids(snapshot: VerifiedSnapshot) -> frozenset[str]:
    """Return the analysis ids (draft) or item ids (knowledge answer) of a snapshot."""
    body = body_json(snapshot)
    if "diagnosis_draft" in body:
        return frozenset(a["analysis_id"] for a in body["diagnosis_draft"]["analyses"])
    return frozenset(i["item_id"] for i in body["knowledge_answer"]["items"])


def parse_verdict(raw: object, *, snapshot: VerifiedSnapshot) -> SemanticVerdict | None:
    """Return the SemanticVerdict in `raw`, or None when the answer is INVALID_SCHEMA.

    `raw` is JSON text (`str`/`bytes`) or an already parsed JSON value. None when: the text is
    not JSON; the value is not a valid SemanticVerdict (schema and model); or an UNSUPPORTED
    verdict names an id that is not an analysis id (draft) or item id (knowledge answer) of
    `snapshot`. Never raises.

    Implements Requirement "Retry attempts SHALL be owned by Harness" (an invalid answer is an
    attempt with outcome INVALID_SCHEMA).
    """
    value: object = raw
    if isinstance(raw, str | bytes | bytearray):
        try:
            value = loads_strict(raw)
        except StrictJSONError:
            return None
    if structural_violations(value, "semantic-verdict"):
        return None
    verdict, _ = build_model(SemanticVerdict, value)
    if verdict is None:
        return None
    named = body_json(verdict)["unsupported_analysis_ids"]
    if not set(named) <= _reviewable_ids(snapshot):
        return None
    return verdict
