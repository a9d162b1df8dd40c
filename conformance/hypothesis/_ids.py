"""Presented Tool Call IDs of every class of :data:`conformance.vocabulary.ID_CLASSES`.

The conforming classes (``grammar-shortest``, ``grammar-longest``) come from the ToolCallId
contract through hypothesis-jsonschema; the rejected ones are shaped here, since free generation
almost never lands on a padded id, a full-width look-alike or a Kelvin sign.
"""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from conformance.builders import ABSENT

__all__ = ["REJECTED_ID_CLASSES", "conforming_ids", "rejected_ids"]

_FULL_WIDTH: Final = "".join(chr(0xFF00 + ord(c) - 0x20) for c in "call") + "_1"

_REJECTED: Final[dict[str, tuple[object, ...]]] = {
    "too-long": ("c" * 129, "call_" + "x" * 300),
    "padded": (" call_1 ", "call_1 ", "\u00a0call_1", " call_1"),
    "whitespace-only": ("   ", "\t", "\u2003"),
    "control-character": ("call\u0000x", "call_1\n", "call\u001b[31m"),
    "leading-punctuation": ("_call_1", ".call", "-1", ":call"),
    "unicode-look-alike": (_FULL_WIDTH, "\uff43all_1", "call\u2024x"),
    "case-fold-trap": ("call_\u212a", "\u017fearch_1", "call_\u00df"),
    "empty": ("",),
    "null": (None,),
    "missing": (ABSENT,),
    "number": (42, 7.5, 0, -1),
    "boolean": (True, False),
    "array": (["call_1"], []),
    "object": ({"id": "call_1"}, {}),
}
"""Rejected id class -> presented values of that class (:data:`ABSENT` is a missing member)."""

_SHORT: Final = 40
"""Longest id drawn from the contract (the grammar's bounds are drawn on purpose)."""

REJECTED_ID_CLASSES: Final = tuple(_REJECTED)
"""The classes of presented ids a conforming Harness rejects (MISSING_ID or INVALID_ID)."""


def rejected_ids(id_class: str | None = None) -> st.SearchStrategy[object]:
    """Presented ids a conforming Harness rejects; of ``id_class`` when given.

    Raises:
        KeyError: an unknown class.
    """
    if id_class is not None:
        return st.sampled_from(_REJECTED[id_class])
    return st.sampled_from(REJECTED_ID_CLASSES).flatmap(lambda c: st.sampled_from(_REJECTED[c]))


def conforming_ids() -> st.SearchStrategy[str]:
    """Conforming Tool Call IDs: framework-shaped ones, the grammar's bounds, the contract's own.

    The contract's share is drawn by hypothesis-jsonschema from ``tool-call-id.schema.json``.
    """
    from hypothesis_jsonschema import from_schema  # noqa: PLC0415 - only when drawing

    from conformance.strategies import tool_call_ids  # noqa: PLC0415 - strategies import checks
    from contracts import bundle_schema  # noqa: PLC0415 - loads the schema files

    bounds = st.sampled_from(["a", "7", "Z" * 128, "call_" + "9" * 123])
    contract: st.SearchStrategy[str] = from_schema(bundle_schema("tool-call-id")).map(str)
    contract = contract.filter(lambda v: len(v) <= _SHORT)
    return st.one_of(tool_call_ids(), bounds, contract)
