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

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["ANNOTATION_KEYWORDS", "iter_subschemas", "map_subschemas", "strip_annotations"]

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


def map_subschemas(
    schema: Any,  # noqa: ANN401 - any JSON Schema (object or boolean)
    change: Callable[[dict[str, Any]], Any],
) -> Any:  # noqa: ANN401 - any JSON Schema
    """Return a copy of ``schema`` with ``change`` applied to every object sub-schema, bottom-up.

    ``change`` receives a schema object whose sub-schemas were already changed (a new dict it
    may modify) and returns its replacement. Only schema positions are visited (the values of
    ``properties``, ``$defs``, ``items``, ``oneOf``, …): a property named ``then`` or ``title``,
    and ``enum``/``const``/``default`` values, are data and are copied as they are.
    """
    if not isinstance(schema, dict):
        return schema
    rebuilt: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ONE_SCHEMA:
            rebuilt[key] = map_subschemas(value, change)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            rebuilt[key] = [map_subschemas(item, change) for item in value]
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            rebuilt[key] = {name: map_subschemas(sub, change) for name, sub in value.items()}
        else:
            rebuilt[key] = value
    return change(rebuilt)


def strip_annotations(schema: Any) -> Any:  # noqa: ANN401 - any JSON Schema (object or boolean)
    """Return a copy of ``schema`` without the :data:`ANNOTATION_KEYWORDS` of any sub-schema.

    ``schema`` is a parsed JSON Schema document (an object or a boolean schema); values of
    non-schema keywords (``enum``, ``const``, ``required``, ``default``, …) are copied as they
    are. The input is not modified.
    """
    return map_subschemas(
        schema, lambda node: {k: v for k, v in node.items() if k not in ANNOTATION_KEYWORDS}
    )


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def iter_subschemas(schema: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:  # noqa: ANN401 - any JSON Schema
    """Yield ``(JSON pointer, sub-schema)`` for ``schema`` and every object sub-schema in it.

    Pre-order (a schema before its sub-schemas); only schema positions are visited (the values of
    ``properties``, ``$defs``, ``items``, ``oneOf``, …), never ``enum``/``const`` data. Boolean
    schemas are skipped.
    """
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key, value in schema.items():
        at = f"{pointer}/{_escape(key)}"
        if key in _ONE_SCHEMA:
            yield from iter_subschemas(value, at)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for index, item in enumerate(value):
                yield from iter_subschemas(item, f"{at}/{index}")
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from iter_subschemas(sub, f"{at}/{_escape(name)}")
