"""Recursive comparison of two JSON Schema (2020-12) documents, keyword by keyword.

The walker knows the keywords whose change it can classify (``type``, ``enum``, ``required``,
``properties``, bounds, ``pattern``, ``additionalProperties``, ``oneOf``/``anyOf`` branches, …)
and recurses into sub-schemas. Any other changed keyword is ``SD999 unclassified``: a change the
differ cannot reason about is treated as breaking.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.schemadiff._rules import Rule, rule

__all__ = ["Finding", "walk"]

_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "examples",
        "$comment",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_MAX_KEYWORDS = frozenset(
    {"maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties", "maxContains"}
)
_MIN_KEYWORDS = frozenset(
    {"minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties", "minContains"}
)
_SCHEMA_MAPS = frozenset({"$defs", "definitions"})
_BRANCHES = frozenset({"oneOf", "anyOf"})
_SUBSCHEMAS = frozenset({"items", "then", "else", "contains", "propertyNames"})
_DISCRIMINATORS = ("type", "kind")


@dataclass(frozen=True)
class Finding:
    """One classified change.

    Attributes:
        rule: the rule that classifies it.
        pointer: RFC 6901 JSON pointer to the changed keyword's schema (in the new document).
        detail: one line saying what changed (``enum value 'X' removed``).
    """

    rule: Rule
    pointer: str
    detail: str


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _child(pointer: str, *tokens: str | int) -> str:
    return pointer + "".join(f"/{_escape(str(t))}" for t in tokens)


def _types(schema: Mapping[str, Any]) -> set[str] | None:
    value = schema.get("type")
    if value is None:
        return None
    if isinstance(value, str):
        return {value}
    return {str(v) for v in value}


def _accepts(types: set[str], kind: str) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


class _Walker:
    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def add(self, name: str, pointer: str, detail: str) -> None:
        self.findings.append(Finding(rule(name), pointer, detail))

    def schema(self, old: object, new: object, pointer: str) -> None:
        if old == new:
            return
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            self.add("unclassified", pointer, "boolean schema changed")
            return
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                self._keyword(key, old, new, pointer)

    def _keyword(
        self, key: str, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str
    ) -> None:
        handlers: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any], str], None]] = {
            "type": self._type,
            "enum": self._enum,
            "const": self._const,
            "required": self._required,
            "properties": self._properties,
            "additionalProperties": self._additional,
            "pattern": self._pattern,
            "uniqueItems": self._unique,
            "$id": self._id,
            "prefixItems": self._prefix_items,
        }
        before, after = old.get(key), new.get(key)
        if key in handlers:
            handlers[key](old, new, pointer)
        elif key in _ANNOTATIONS:
            self.add("annotation-changed", _child(pointer, key), f"{key} changed")
        elif key in _MAX_KEYWORDS | _MIN_KEYWORDS:
            self._bound(key, before, after, pointer, upper=key in _MAX_KEYWORDS)
        elif key in _SCHEMA_MAPS:
            self._defs(key, before, after, pointer)
        elif key in _BRANCHES:
            self._branches(key, before, after, pointer)
        elif key in _SUBSCHEMAS and before is not None and after is not None:
            self.schema(before, after, _child(pointer, key))
        else:
            self.add("unclassified", _child(pointer, key), f"{key} changed")

    def _type(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = _types(old), _types(new)
        at = _child(pointer, "type")
        if before is None or after is None:
            name = "type-narrowed" if before is None else "type-widened"
            self.add(name, at, f"type {sorted(before or [])} -> {sorted(after or [])}")
            return
        lost = {t for t in before if not _accepts(after, t)}
        gained = {t for t in after if not _accepts(before, t)}
        # number -> integer loses the non-integral numbers
        lost |= {"number"} if "number" in before and "number" not in after else set()
        if lost:
            self.add("type-narrowed", at, f"type {sorted(before)} -> {sorted(after)}")
        if gained:
            self.add("type-widened", at, f"type {sorted(before)} -> {sorted(after)}")

    def _enum(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        at = _child(pointer, "enum")
        if "enum" not in old or "enum" not in new:
            verb = "introduced" if "enum" not in old else "dropped"
            self.add("unclassified", at, f"enum {verb}")
            return
        before = [json.dumps(v, sort_keys=True) for v in old["enum"]]
        after = [json.dumps(v, sort_keys=True) for v in new["enum"]]
        for value in before:
            if value not in after:
                self.add("enum-value-removed", at, f"enum value {value} removed")
        for value in after:
            if value not in before:
                self.add("enum-value-added", at, f"enum value {value} added")

    def _const(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before = json.dumps(old.get("const"))
        after = json.dumps(new.get("const"))
        self.add("const-changed", _child(pointer, "const"), f"const {before} -> {after}")

    def _required(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = list(old.get("required", [])), list(new.get("required", []))
        at = _child(pointer, "required")
        for name in after:
            if name not in before:
                self.add("required-added", at, f"property {name!r} is now required")
        for name in before:
            if name not in after:
                self.add("required-removed", at, f"property {name!r} is no longer required")

    def _properties(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before: Mapping[str, Any] = old.get("properties", {})
        after: Mapping[str, Any] = new.get("properties", {})
        closed = old.get("additionalProperties") is False
        for name in before:
            at = _child(pointer, "properties", name)
            if name not in after:
                self.add("property-removed", at, f"property {name!r} removed")
            else:
                self.schema(before[name], after[name], at)
        for name in after:
            if name not in before:
                at = _child(pointer, "properties", name)
                if closed:
                    self.add("property-added", at, f"property {name!r} added")
                else:
                    self.add("unclassified", at, f"property {name!r} added to an open object")

    def _additional(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("additionalProperties", True), new.get("additionalProperties", True)
        at = _child(pointer, "additionalProperties")
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            self.schema(before, after, at)
        elif before is True or after is False:
            self.add("additionalProperties-tightened", at, f"{before!r} -> {after!r}")
        else:
            self.add("additionalProperties-loosened", at, f"{before!r} -> {after!r}")

    def _pattern(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        detail = f"pattern {old.get('pattern')!r} -> {new.get('pattern')!r}"
        self.add("pattern-changed", _child(pointer, "pattern"), detail)

    def _unique(self, _old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        at = _child(pointer, "uniqueItems")
        if new.get("uniqueItems") is True:
            self.add("unique-items-added", at, "items must now be unique")
        else:
            self.add("unique-items-removed", at, "items need no longer be unique")

    def _id(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        detail = f"$id {old.get('$id')!r} -> {new.get('$id')!r}"
        self.add("id-changed", _child(pointer, "$id"), detail)

    def _prefix_items(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("prefixItems"), new.get("prefixItems")
        if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
            for index, (b, a) in enumerate(zip(before, after, strict=True)):
                self.schema(b, a, _child(pointer, "prefixItems", index))
        else:
            self.add("unclassified", _child(pointer, "prefixItems"), "prefixItems changed")

    def _bound(self, key: str, before: object, after: object, pointer: str, *, upper: bool) -> None:
        at = _child(pointer, key)
        detail = f"{key} {before!r} -> {after!r}"
        if before is None:
            tighter = True
        elif after is None:
            tighter = False
        elif isinstance(before, int | float) and isinstance(after, int | float):
            tighter = after < before if upper else after > before
        else:
            self.add("unclassified", at, detail)
            return
        if upper:
            self.add("max-decreased" if tighter else "max-increased", at, detail)
        else:
            self.add("min-increased" if tighter else "min-decreased", at, detail)

    def _defs(self, key: str, before: object, after: object, pointer: str) -> None:
        old_defs: Mapping[str, Any] = before if isinstance(before, Mapping) else {}
        new_defs: Mapping[str, Any] = after if isinstance(after, Mapping) else {}
        for name in sorted(set(old_defs) | set(new_defs)):
            at = _child(pointer, key, name)
            if name not in new_defs:
                self.add("unclassified", at, f"definition {name!r} removed")
            elif name not in old_defs:
                self.add("annotation-changed", at, f"definition {name!r} added")
            else:
                self.schema(old_defs[name], new_defs[name], at)

    def _branches(self, key: str, before: object, after: object, pointer: str) -> None:
        if not isinstance(before, Sequence) or not isinstance(after, Sequence):
            self.add("unclassified", _child(pointer, key), f"{key} introduced or dropped")
            return
        old_keys, new_keys = _branch_keys(before), _branch_keys(after)
        for index, branch_key in enumerate(old_keys):
            if branch_key not in new_keys:
                at = _child(pointer, key, index)
                self.add("branch-removed", at, f"{key} branch {branch_key} removed")
        for index, branch_key in enumerate(new_keys):
            at = _child(pointer, key, index)
            if branch_key not in old_keys:
                self.add("branch-added", at, f"{key} branch {branch_key} added")
            else:
                self.schema(before[old_keys.index(branch_key)], after[index], at)


def _branch_keys(branches: Sequence[Any]) -> list[str]:
    """Name each branch by its discriminator const (``type``/``kind``), else by its position."""
    keys: list[str] = []
    for index, branch in enumerate(branches):
        props = branch.get("properties", {}) if isinstance(branch, Mapping) else {}
        key = f"#{index}"
        for name in _DISCRIMINATORS:
            sub = props.get(name)
            if isinstance(sub, Mapping) and "const" in sub:
                key = f"{name}={json.dumps(sub['const'])}"
                break
        keys.append(key)
    return keys


def walk(old: object, new: object) -> list[Finding]:
    """Every classified change from schema ``old`` to schema ``new``, in document order.

    Both are parsed JSON Schema documents (mappings or booleans). Never raises on odd input: what it
    cannot classify is reported as ``SD999 unclassified``.
    """
    walker = _Walker()
    walker.schema(old, new, "")
    return walker.findings
