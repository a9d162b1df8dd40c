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

__all__ = ["Finding", "match_branches", "walk"]

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
            self.add(
                name, at, f"type {_json(sorted(before or []))} -> {_json(sorted(after or []))}"
            )
            return
        lost = {t for t in before if not _accepts(after, t)}
        gained = {t for t in after if not _accepts(before, t)}
        # number -> integer loses the non-integral numbers
        lost |= {"number"} if "number" in before and "number" not in after else set()
        detail = f"type {_json(sorted(before))} -> {_json(sorted(after))}"
        if lost:
            self.add("type-narrowed", at, detail)
        if gained:
            self.add("type-widened", at, detail)

    def _enum(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        at = _child(pointer, "enum")
        if "enum" not in old or "enum" not in new:
            verb = "introduced" if "enum" not in old else "dropped"
            self.add("unclassified", at, f"enum {verb}")
            return
        before = [_json(v) for v in old["enum"]]
        after = [_json(v) for v in new["enum"]]
        for value in before:
            if value not in after:
                self.add("enum-value-removed", at, f"enum value {value} removed")
        for value in after:
            if value not in before:
                self.add("enum-value-added", at, f"enum value {value} added")

    def _const(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before = _json(old.get("const"))
        after = _json(new.get("const"))
        self.add("const-changed", _child(pointer, "const"), f"const {before} -> {after}")

    def _required(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = list(old.get("required", [])), list(new.get("required", []))
        at = _child(pointer, "required")
        for name in after:
            if name not in before:
                self.add("required-added", at, f"property {_json(name)} is now required")
        for name in before:
            if name not in after:
                self.add("required-removed", at, f"property {_json(name)} is no longer required")

    def _properties(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before: Mapping[str, Any] = old.get("properties", {})
        after: Mapping[str, Any] = new.get("properties", {})
        closed = old.get("additionalProperties") is False
        for name in before:
            at = _child(pointer, "properties", name)
            if name not in after:
                self.add("property-removed", at, f"property {_json(name)} removed")
            else:
                self.schema(before[name], after[name], at)
        for name in after:
            if name not in before:
                at = _child(pointer, "properties", name)
                if closed:
                    self.add("property-added", at, f"property {_json(name)} added")
                else:
                    self.add("unclassified", at, f"property {_json(name)} added to an open object")

    def _additional(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("additionalProperties", True), new.get("additionalProperties", True)
        at = _child(pointer, "additionalProperties")
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            self.schema(before, after, at)
        elif before is True or after is False:
            self.add("additionalProperties-tightened", at, f"{_json(before)} -> {_json(after)}")
        else:
            self.add("additionalProperties-loosened", at, f"{_json(before)} -> {_json(after)}")

    def _pattern(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        detail = f"pattern {_json(old.get('pattern'))} -> {_json(new.get('pattern'))}"
        self.add("pattern-changed", _child(pointer, "pattern"), detail)

    def _unique(self, _old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        at = _child(pointer, "uniqueItems")
        if new.get("uniqueItems") is True:
            self.add("unique-items-added", at, "items must now be unique")
        else:
            self.add("unique-items-removed", at, "items need no longer be unique")

    def _id(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        detail = f"$id {_json(old.get('$id'))} -> {_json(new.get('$id'))}"
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
        detail = f"{key} {_json(before)} -> {_json(after)}"
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
                self.add("unclassified", at, f"definition {_json(name)} removed")
            elif name not in old_defs:
                self.add("annotation-changed", at, f"definition {_json(name)} added")
            else:
                self.schema(old_defs[name], new_defs[name], at)

    def _branches(self, key: str, before: object, after: object, pointer: str) -> None:
        if not isinstance(before, Sequence) or not isinstance(after, Sequence):
            self.add("unclassified", _child(pointer, key), f"{key} introduced or dropped")
            return
        pairs, removed, added = match_branches(list(before), list(after))
        for index in removed:
            label = _branch_label(before[index], index)
            self.add("branch-removed", _child(pointer, key, index), f"{key} branch {label} removed")
        for index in added:
            label = _branch_label(after[index], index)
            self.add("branch-added", _child(pointer, key, index), f"{key} branch {label} added")
        for old_index, new_index in pairs:
            self.schema(before[old_index], after[new_index], _child(pointer, key, new_index))


def _json(value: object) -> str:
    """``value`` as JSON text (how every value in a change's detail is written)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _discriminator(branch: object) -> str | None:
    """``type="X"``/``kind="X"`` when the branch fixes a discriminator property by ``const``."""
    props = branch.get("properties", {}) if isinstance(branch, Mapping) else {}
    for name in _DISCRIMINATORS:
        sub = props.get(name) if isinstance(props, Mapping) else None
        if isinstance(sub, Mapping) and "const" in sub:
            return f"{name}={_json(sub['const'])}"
    return None


def _branch_label(branch: object, index: int) -> str:
    return _discriminator(branch) or (
        f"$ref {_json(branch['$ref'])}"
        if isinstance(branch, Mapping) and "$ref" in branch
        else f"#{index} {_json(branch)[:80]}"
    )


def _shape(branch: object) -> str:
    """What a branch is about, ignoring its details: its JSON type(s) and ``$ref``."""
    if not isinstance(branch, Mapping):
        return _json(branch)
    return _json([branch.get("type"), branch.get("$ref"), sorted(branch.get("properties", {}))])


def match_branches(
    before: list[Any], after: list[Any]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair the ``oneOf``/``anyOf`` branches of two versions, independent of their order.

    Branches pair by, in turn: the same discriminator ``const``; equal content; the same
    ``$ref``; the same shape (type, ``$ref``, property names) when exactly one branch on each
    side has it. Returns ``(pairs (old index, new index), removed old indexes, added new
    indexes)``; a reordered list with equal branches gives only pairs.
    """
    old_left, new_left = list(range(len(before))), list(range(len(after)))
    pairs: list[tuple[int, int]] = []
    keys: tuple[Callable[[object], str | None], ...] = (
        _discriminator,
        _json,
        lambda b: _json(b["$ref"]) if isinstance(b, Mapping) and "$ref" in b else None,
    )
    for key in keys:
        for old_index in list(old_left):
            old_key = key(before[old_index])
            if old_key is None:
                continue
            match = next((j for j in new_left if key(after[j]) == old_key), None)
            if match is not None:
                pairs.append((old_index, match))
                old_left.remove(old_index)
                new_left.remove(match)
    for old_index in list(old_left):
        shape = _shape(before[old_index])
        olds = [i for i in old_left if _shape(before[i]) == shape]
        news = [j for j in new_left if _shape(after[j]) == shape]
        if len(olds) == 1 and len(news) == 1:
            pairs.append((old_index, news[0]))
            old_left.remove(old_index)
            new_left.remove(news[0])
    return sorted(pairs, key=lambda pair: pair[1]), old_left, new_left


def walk(old: object, new: object) -> list[Finding]:
    """Every classified change from schema ``old`` to schema ``new``, in document order.

    Both are parsed JSON Schema documents (mappings or booleans). Never raises on odd input: what it
    cannot classify is reported as ``SD999 unclassified``.
    """
    walker = _Walker()
    walker.schema(old, new, "")
    return walker.findings
