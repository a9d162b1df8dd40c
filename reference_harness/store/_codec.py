"""Conversion between ``diagnosis_run`` rows and the ``DiagnosisRun`` contract, with validation.

Every row the store writes passes through :func:`checked_run` first: the JSON document is checked
against the ``diagnosis-run`` JSON Schema (its if/then rules included) and the contract model's
invariants. A row that fails is refused with :class:`InvalidRunError` before any SQL is issued.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from contracts import (
    DiagnosisRun,
    PublishedResult,
    canonical_json,
    loads_strict,
    validate_document,
)
from reference_harness.store._errors import InvalidRunError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["checked_run", "document_of", "row_of", "run_of_row"]

_CONTRACT = "diagnosis-run"

JsonObject = dict[str, Any]


_RESULT_SOURCE = "diagnosis_run.published_result"
"""How a stored result that cannot be read back is named in the error."""


def document_of(run: DiagnosisRun) -> JsonObject:
    """Return the JSON document (plain dict) of a ``DiagnosisRun`` model.

    The row's own nullable fields keep their ``null``; inside the published result, optional
    properties left unset are omitted (the contract forbids an explicit ``null`` there).
    """
    document = run.model_dump(mode="json")
    document["published_result"] = published_document(run.published_result)
    return document


def published_document(result: PublishedResult | None) -> JsonObject | None:
    """Return the JSON document of a ``PublishedResult`` model, or ``None``."""
    return None if result is None else result.model_dump(mode="json", exclude_none=True)


def checked_run(document: JsonObject) -> DiagnosisRun:
    """Validate a ``diagnosis_run`` document and return its model.

    Raises:
        InvalidRunError: the document breaks the ``diagnosis-run`` schema (including its if/then
            rules, e.g. FALLBACK without a SAFE_FALLBACK result) or a model invariant. Each problem
            names its JSON pointer.
    """
    run_id = str(document.get("run_id"))
    violations = validate_document(document, _CONTRACT)
    if violations:
        problems = [f"{v.pointer or '/'}: {v.message}" for v in violations]
        raise InvalidRunError(run_id, problems)
    try:
        return DiagnosisRun.model_validate(document)
    except ValidationError as error:
        problems = [
            "/" + "/".join(str(part) for part in detail["loc"]) + ": " + detail["msg"]
            for detail in error.errors()
        ]
        raise InvalidRunError(run_id, problems) from None


def row_of(document: JsonObject) -> dict[str, object]:
    """Return the column values of a validated ``diagnosis_run`` document.

    ``published_result`` becomes RFC 8785 canonical JSON text.
    """
    published = document.get("published_result")
    return {
        "run_id": document["run_id"],
        "session_id": document["session_id"],
        "seq": document["seq"],
        "user_message": document["user_message"],
        "intent": document.get("intent"),
        "state": document["state"],
        "published_result": (
            None if published is None else canonical_json(published).decode("utf-8")
        ),
        "fallback_type": document.get("fallback_type"),
        "error_code": document.get("error_code"),
        "created_at_ms": document["created_at_ms"],
        "finished_at_ms": document.get("finished_at_ms"),
    }


def document_of_row(row: Mapping[Any, Any]) -> JsonObject:
    """Return the JSON document of a stored row (``published_result`` parsed back)."""
    text = row["published_result"]
    return {
        "run_id": row["run_id"],
        "session_id": row["session_id"],
        "seq": row["seq"],
        "user_message": row["user_message"],
        "intent": row["intent"],
        "state": row["state"],
        "published_result": None if text is None else loads_strict(text, source=_RESULT_SOURCE),
        "fallback_type": row["fallback_type"],
        "error_code": row["error_code"],
        "created_at_ms": row["created_at_ms"],
        "finished_at_ms": row["finished_at_ms"],
    }


def run_of_row(row: Mapping[Any, Any]) -> DiagnosisRun:
    """Return the ``DiagnosisRun`` model of a stored row (trusted: it was validated on write)."""
    return DiagnosisRun.model_validate(document_of_row(row))
