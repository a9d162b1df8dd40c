"""Classes of presented Tool Call IDs: the corners of Requirement 2 a suite must reach.

A Tool Call ID is exact (``schemas/tool-call-id.schema.json``: 1-128 characters of
``[A-Za-z0-9._:-]``, starting with a letter or digit); identity is the id, never the arguments,
and duplicates are judged within one Run. :func:`id_classes_of` says which of
:data:`ID_CLASSES` the tool calls of a Scenario Fixture present, from the fixture alone.
"""

from __future__ import annotations

import re
import unicodedata
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ID_CLASSES", "id_classes_of"]

_GRAMMAR: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_MAX: Final = 128

ID_CLASSES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "grammar-shortest": "a 1-character id (the grammar's lower bound)",
        "grammar-longest": "a 128-character id (the grammar's upper bound)",
        "too-long": "a 129+ character string (INVALID_ID)",
        "padded": "a conforming id with leading or trailing whitespace (INVALID_ID, never trimmed)",
        "whitespace-only": "a string of whitespace only (INVALID_ID)",
        "control-character": "an id holding a control character such as NUL or LF (INVALID_ID)",
        "leading-punctuation": "an id starting with '.', '_', ':' or '-' (INVALID_ID)",
        "unicode-look-alike": "full-width or other characters whose NFKC form is a conforming id",
        "case-fold-trap": "characters outside the grammar that case-fold into it (e.g. Kelvin K)",
        "case-variant": "two accepted ids of one Run equal but for letter case (both accepted)",
        "empty": 'the empty string "" (MISSING_ID)',
        "null": "JSON null (MISSING_ID)",
        "missing": "no id member at all (MISSING_ID)",
        "number": "a JSON number (INVALID_ID)",
        "boolean": "a JSON boolean (INVALID_ID)",
        "array": "a JSON array (INVALID_ID)",
        "object": "a JSON object (INVALID_ID)",
        "duplicate-in-run": "an id already accepted earlier in the Run (DUPLICATE_ID)",
        "equal-arguments": "two accepted calls with distinct ids, same tool, identical arguments",
        "reused-from-prior-run": "an id an earlier Run of the session cited (accepted again)",
        "duplicate-of-failed-call": (
            "an id presented again whose first call finds no evidence (TOOL_FAILED,"
            " INVALID_ARGUMENTS, TOOL_TIMEOUT, BACKEND_ERROR, NO_EVIDENCE): DUPLICATE_ID all the"
            " same (red team 6, S1)"
        ),
    }
)
"""Tool Call ID class -> what it is (the vocabulary meter's ``id:`` elements)."""


def _conforming(value: object) -> bool:
    return isinstance(value, str) and len(value) <= _MAX and _GRAMMAR.fullmatch(value) is not None


def _string_class(value: str) -> str | None:  # noqa: PLR0911 - one answer per class
    if value == "":
        return "empty"
    if not value.strip():
        return "whitespace-only"
    if any(unicodedata.category(c) == "Cc" for c in value):
        return "control-character"
    if value != value.strip() and _conforming(value.strip()):
        return "padded"
    if len(value) > _MAX:
        return "too-long"
    if _conforming(value[1:]) and value[0] in "._:-":
        return "leading-punctuation"
    if not value.isascii():
        if _conforming(value.casefold()) or _conforming(value.lower()):
            return "case-fold-trap"
        if _conforming(unicodedata.normalize("NFKC", value)):
            return "unicode-look-alike"
    return None


def _value_class(call: Mapping[str, Any]) -> str | None:  # noqa: PLR0911 - one answer per class
    if "id" not in call:
        return "missing"
    value = call["id"]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    if not isinstance(value, str):
        return None
    if _conforming(value):
        return {1: "grammar-shortest", _MAX: "grammar-longest"}.get(len(value))
    return _string_class(value)


def _prior_ids(fixture: Mapping[str, Any]) -> set[str]:
    """Tool Call IDs the session's earlier Runs cited (in their published drafts and answers)."""
    from conformance.checks._outcome_oracle import cited_tool_call_ids  # noqa: PLC0415 - heavy

    found: set[str] = set()
    for run in fixture.get("prior_runs", []):
        published = run.get("published_result") or {}
        body = published.get("diagnosis_draft", published.get("knowledge_answer"))
        found.update(cited_tool_call_ids(body))
    return found


def id_classes_of(fixture: Mapping[str, Any]) -> set[str]:
    """Return the :data:`ID_CLASSES` the fixture's presented tool calls belong to.

    Every ``tool_calls`` and ``draft_and_tool_calls`` turn of the agent script counts (also one
    nested in a blocking or cancellation-ignoring turn); acceptance order is the script order.
    """
    found: set[str] = set()
    accepted: dict[str, tuple[str, str]] = {}
    duplicated: set[str] = set()
    prior = _prior_ids(fixture)
    for scripted in fixture.get("agent", []):
        turn = scripted
        while turn.get("kind") in {"block_until_cancelled", "ignore_cancellation"}:
            turn = turn.get("then") or {}
        for call in turn.get("tool_calls", []) or []:
            value_class = _value_class(call)
            if value_class is not None:
                found.add(value_class)
            value = call.get("id")
            if not _conforming(value):
                continue
            key = (str(call.get("name")), _canonical(call.get("arguments")))
            if value in accepted:
                found.add("duplicate-in-run")
                duplicated.add(value)
                continue
            if any(other.lower() == value.lower() for other in accepted):
                found.add("case-variant")
            if key in accepted.values():
                found.add("equal-arguments")
            if value in prior:
                found.add("reused-from-prior-run")
            accepted[value] = key
    return found | _failed_first(fixture, duplicated)


def _failed_first(fixture: Mapping[str, Any], ids: set[str]) -> set[str]:
    """``duplicate-of-failed-call`` when the first call of one of ``ids`` finds no evidence.

    By the kit's oracle; a fixture without tool scripts (a bare agent script) decides nothing.
    """
    if not ids or "tools" not in fixture:
        return set()
    from conformance.checks import expected_outcome  # noqa: PLC0415 - checks import heavily

    failed = any(
        row.tool_call_id in ids and row.evidence_status != "EVIDENCE_FOUND"
        for row in expected_outcome(dict(fixture)).invocations
    )
    return {"duplicate-of-failed-call"} if failed else set()


def _canonical(value: object) -> str:
    import json  # noqa: PLC0415 - small helper

    return json.dumps(value, sort_keys=True, ensure_ascii=True)
