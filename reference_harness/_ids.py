"""Tool Call ID classification (Requirement 2; contract sheet ``tool-call-id``).

The Harness classifies every *presented* id before anything runs:

* absent, ``null`` or ``""`` → ``MISSING_ID``;
* any other value that is not a conforming Tool Call ID (not a string, whitespace, control
  characters, longer than 128 characters, not starting alphanumeric …) → ``INVALID_ID``;
* a conforming id already accepted earlier in the same Run (earlier steps *and* earlier in the same
  step) → ``DUPLICATE_ID``.

Two parallel calls that both present ``""`` are both ``MISSING_ID``: a missing id is never
"accepted", so it cannot be duplicated.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from reference_harness.ports import MISSING

if TYPE_CHECKING:
    from collections.abc import Container

__all__ = ["RejectionReason", "classify_tool_call_id", "is_tool_call_id", "presented_id_text"]

RejectionReason: TypeAlias = Literal["MISSING_ID", "INVALID_ID", "DUPLICATE_ID"]
"""Contract sheet: tool call rejection reason."""

TOOL_CALL_ID_MAX: Final = 128
PRESENTED_ID_MAX: Final = 160

# ECMA-262 semantics: ``fullmatch`` so that ``$`` cannot match before a final newline.
_TOOL_CALL_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")


def is_tool_call_id(value: object) -> bool:
    """Return whether ``value`` is a conforming Tool Call ID (string, 1-128 chars, grammar)."""
    return (
        isinstance(value, str)
        and 1 <= len(value) <= TOOL_CALL_ID_MAX
        and _TOOL_CALL_ID.fullmatch(value) is not None
    )


def classify_tool_call_id(presented: object, accepted: Container[str]) -> RejectionReason | None:
    """Classify a presented id; ``None`` means it may be accepted.

    Args:
        presented: the id as the model sent it (:data:`~reference_harness.ports.MISSING` if the key
            was absent).
        accepted: the ids already accepted in this Run.
    """
    if presented is MISSING or presented is None or presented == "":
        return "MISSING_ID"
    if not is_tool_call_id(presented):
        return "INVALID_ID"
    if presented in accepted:
        return "DUPLICATE_ID"
    return None


def presented_id_text(presented: object) -> str | None:
    """Return the JSON text of a presented id, cut to 160 characters; ``None`` if absent.

    Bounded work even for a 10 MB id: a long string is cut before it is encoded. A value that is
    not JSON-encodable is shown by its type name.
    """
    if presented is MISSING:
        return None
    if isinstance(presented, str):
        return json.dumps(presented[: PRESENTED_ID_MAX + 1])[:PRESENTED_ID_MAX]
    try:
        text = json.dumps(presented, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        text = json.dumps(f"<{type(presented).__name__}>")
    return text[:PRESENTED_ID_MAX]
