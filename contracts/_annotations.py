"""Split a JSON Schema (2020-12) into what it validates and what only documents it.

The freeze lock (:mod:`contracts.freeze`) digests the two parts separately: a frozen contract's
*validation* part may change only with its ``$id`` version, while its *annotations* (the keywords
of :data:`ANNOTATION_KEYWORDS`) may be reworded or added, e.g. a ``title`` that lets code
generators name a type, and are recorded with ``--update``.

Only keywords in *schema positions* are annotations: a property named ``title`` under
``properties``, or the string ``"description"`` inside an ``enum`` or ``const``, is data and is
kept. Unknown keywords are kept too (treated as validation: the conservative choice).
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["ANNOTATION_KEYWORDS", "strip_annotations"]

ANNOTATION_KEYWORDS: Final = frozenset({"title", "description", "examples", "$comment"})
"""Keywords that change no instance's validity and no generated field: names and prose only.

``default``, ``deprecated``, ``readOnly`` and ``writeOnly`` are annotations in JSON Schema too,
but code generators turn them into behaviour (a field default, a read-only property), so the
freeze lock counts them with the validation part."""

# keyword -> how its value holds sub-schemas
_ONE_SCHEMA: Final = frozenset(
    {
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "items",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SCHEMA_LISTS: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_MAPS: Final = frozenset(
    {"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
)


def strip_annotations(schema: Any) -> Any:  # noqa: ANN401 - any JSON Schema (object or boolean)
    """Return a copy of ``schema`` without the :data:`ANNOTATION_KEYWORDS` of any sub-schema.

    ``schema`` is a parsed JSON Schema document (an object or a boolean schema); values of
    non-schema keywords (``enum``, ``const``, ``required``, ``default``, …) are copied as they
    are. The input is not modified.
    """
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ANNOTATION_KEYWORDS:
            continue
        if key in _ONE_SCHEMA:
            kept[key] = strip_annotations(value)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            kept[key] = [strip_annotations(item) for item in value]
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            kept[key] = {name: strip_annotations(sub) for name, sub in value.items()}
        else:
            kept[key] = value
    return kept
