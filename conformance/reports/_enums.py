"""Read enum vocabularies out of the contract schemas (for diagrams drawn from the contracts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["SchemaEnumError", "property_enum"]


class SchemaEnumError(Exception):
    """A schema has no enum for the property a diagram needs; ``str()`` names file and property."""


def _resolve(doc: Mapping[str, Any], node: object, depth: int = 0) -> list[str]:
    if not isinstance(node, Mapping) or depth > 8:  # noqa: PLR2004 - bound on $ref chains
        return []
    if "enum" in node:
        return [v for v in node["enum"] if isinstance(v, str)]
    if "const" in node and isinstance(node["const"], str):
        return [node["const"]]
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: object = doc
        for token in ref[2:].split("/"):
            target = target.get(token) if isinstance(target, Mapping) else None
        return _resolve(doc, target, depth + 1)
    values: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, []):
            values += [v for v in _resolve(doc, branch, depth + 1) if v not in values]
    return values


def _find(doc: Mapping[str, Any], node: object, prop: str) -> list[str]:
    if isinstance(node, Mapping):
        props = node.get("properties")
        if isinstance(props, Mapping) and prop in props:
            found = _resolve(doc, props[prop])
            if found:
                return found
        for value in node.values():
            found = _find(doc, value, prop)
            if found:
                return found
    elif isinstance(node, list):
        for item in node:
            found = _find(doc, item, prop)
            if found:
                return found
    return []


def property_enum(schemas_dir: Path, contract: str, prop: str) -> list[str]:
    """The enum values of property ``prop`` in ``<schemas_dir>/<contract>.schema.json``.

    Follows local ``$ref``s and ``anyOf``/``oneOf`` branches (``null`` is dropped). The first
    property of that name in document order wins.

    Raises:
        SchemaEnumError: the file is missing, not JSON, or has no enum for ``prop``.
    """
    path = schemas_dir / f"{contract}.schema.json"
    from contracts import StrictJSONError, load_json_file  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    try:
        doc = load_json_file(path)
    except StrictJSONError as exc:
        msg = f"{path}: cannot read the schema ({exc})"
        raise SchemaEnumError(msg) from None
    values = _find(doc, doc, prop)
    if not values:
        msg = f"{path}: no enum for property {prop!r}"
        raise SchemaEnumError(msg)
    return values
