"""Recursive comparison of two JSON Schema (2020-12) documents, keyword by keyword.

The walker knows the keywords whose change it can classify by what each accepts (``type``,
``enum``, ``const``, ``required``, ``properties``, bounds, ``pattern``, ``additionalProperties``,
``anyOf``/``oneOf``/``allOf`` branches, ``not``, ``if``/``then``/``else``, ``dependentSchemas``,
``dependentRequired``, local ``$ref`` targets, annotation-only keywords such as ``format``) and
recurses into sub-schemas. ``oneOf`` branches that can overlap change both ways (SD026); inside
``not`` an effect turns round (SD027/SD028); a schema wrapped into (or unwrapped from) an
``anyOf``/``oneOf`` is compared as a one-branch list. Any other changed keyword is ``SD999
unclassified``, naming the keyword: a change the differ cannot reason about is breaking.
The rule for each keyword is in ``docs/decisions/field-faults-3.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

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
        # JSON Schema 2020-12: annotations unless a dialect asserts them (the format-assertion
        # vocabulary); the kit's validators (jsonschema-rs, python-jsonschema) do not.
        "format",
        "contentMediaType",
        "contentEncoding",
        "contentSchema",
    }
)
_ANNOTATIONS_LIKE_ASSERTIONS = frozenset(
    {"format", "contentMediaType", "contentEncoding", "contentSchema"}
)
_NOT_ASSERTIONS = _ANNOTATIONS | {"$schema", "$id", "$defs", "definitions", "$anchor"}
"""Keywords that accept every instance: what a wrapped schema may keep beside its branches."""
_MAX_KEYWORDS = frozenset(
    {"maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties", "maxContains"}
)
_MIN_KEYWORDS = frozenset(
    {"minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties", "minContains"}
)
_SCHEMA_MAPS = frozenset({"$defs", "definitions"})
_BRANCHES = frozenset({"oneOf", "anyOf"})
_SUBSCHEMAS = frozenset({"items", "contains", "propertyNames"})
_MAX_REF_DEPTH = 32
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
    def __init__(self, old_root: object, new_root: object) -> None:
        self.findings: list[Finding] = []
        self.roots = (old_root, new_root)
        self.refs_seen: set[tuple[str, str]] = set()

    def add(self, name: str, pointer: str, detail: str) -> None:
        self.findings.append(Finding(rule(name), pointer, detail))

    def sub(self) -> _Walker:
        """A walker over the same documents whose findings the caller re-classifies."""
        walker = _Walker(*self.roots)
        walker.refs_seen = self.refs_seen
        return walker

    def schema(self, old: object, new: object, pointer: str) -> None:
        if old == new:
            return
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            self._boolean(old, new, pointer)
            return
        moved = self._wrapped(old, new, pointer)
        for key in sorted(set(old) | set(new)):
            if key not in moved and old.get(key) != new.get(key):
                self._keyword(key, old, new, pointer)

    def _boolean(self, old: object, new: object, pointer: str) -> None:
        """``true``/``false``/``{}``: ``true`` and ``{}`` accept all, ``false`` nothing."""
        before, after = _accepts_all(old), _accepts_all(new)
        if before is True and after is not True:
            self.add("constraint-added", pointer, f"schema {_json(old)} -> {_json(new)}")
        elif after is True and before is not True:
            self.add("constraint-removed", pointer, f"schema {_json(old)} -> {_json(new)}")
        elif old is False or new is False:
            name = "constraint-added" if new is False else "constraint-removed"
            self.add(name, pointer, f"schema {_json(old)} -> {_json(new)}")
        else:
            self.add("unclassified", pointer, "boolean schema changed")

    def _wrapped(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> set[str]:
        """A schema wrapped into (or out of) ``anyOf``/``oneOf``: compare one-branch lists.

        ``{"type": "string"}`` -> ``{"anyOf": [{"type": "string"}, {"type": "null"}]}`` keeps the
        old schema as a branch and adds one: ``branch-added``. Applies when one side has the
        combinator and nothing else that asserts, and the other side neither combinator.
        Returns the keys it compared (the caller skips them).
        """
        for key in ("anyOf", "oneOf"):
            if (key in old) == (key in new) or any(k in old or k in new for k in _BRANCHES - {key}):
                continue
            wrapper, plain = (new, old) if key in new else (old, new)
            if any(k not in _NOT_ASSERTIONS for k in wrapper if k != key):
                continue
            branch = {k: v for k, v in plain.items() if k not in _NOT_ASSERTIONS}
            branches = wrapper[key]
            if not isinstance(branches, Sequence) or isinstance(branches, str):
                continue
            before, after = ([branch], list(branches)) if key in new else (list(branches), [branch])
            self._branches(key, before, after, pointer)
            return {key, *branch}
        return set()

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
            "not": self._not,
            "if": self._if,
            "then": lambda o, n, p: self._conditional("then", o, n, p),
            "else": lambda o, n, p: self._conditional("else", o, n, p),
            "allOf": self._all_of,
            "dependentSchemas": self._dependent_schemas,
            "dependentRequired": self._dependent_required,
            "$ref": self._ref,
        }
        before, after = old.get(key), new.get(key)
        if key in handlers:
            handlers[key](old, new, pointer)
        elif key in _ANNOTATIONS:
            note = (
                " (an annotation in JSON Schema 2020-12: no validator of the kit asserts it)"
                if key in _ANNOTATIONS_LIKE_ASSERTIONS
                else ""
            )
            self.add("annotation-changed", _child(pointer, key), f"{key} changed{note}")
        elif key in _MAX_KEYWORDS | _MIN_KEYWORDS:
            self._bound(key, before, after, pointer, upper=key in _MAX_KEYWORDS)
        elif key in _SCHEMA_MAPS:
            self._defs(key, before, after, pointer)
        elif key in _BRANCHES:
            self._branches(key, before, after, pointer)
        elif key in _SUBSCHEMAS:
            self._subschema(key, before, after, pointer)
        else:
            self.add(
                "unclassified",
                _child(pointer, key),
                f"keyword {key!r} changed: the differ cannot tell what it accepts",
            )

    def _introduced(self, key: str, before: object, after: object, pointer: str) -> bool:
        """A keyword that only asserts, introduced (tightens) or dropped (loosens)."""
        if before is not None and after is not None:
            return False
        at = _child(pointer, key)
        if before is None:
            self.add("constraint-added", at, f"{key} {_json(after)[:120]} introduced")
        else:
            self.add("constraint-removed", at, f"{key} {_json(before)[:120]} dropped")
        return True

    def _subschema(self, key: str, before: object, after: object, pointer: str) -> None:
        if before is not None and after is not None:
            self.schema(before, after, _child(pointer, key))
            return
        present = after if before is None else before
        if key != "contains" and _accepts_all(present) is True:  # contains: {} wants one item
            self.add("annotation-changed", _child(pointer, key), f"{key} true (asserts nothing)")
            return
        self._introduced(key, before, after, pointer)

    def _not(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("not"), new.get("not")
        if self._introduced("not", before, after, pointer):
            return
        inner = self.sub()
        inner.schema(before, after, _child(pointer, "not"))
        turned = {"tightens": "negated-schema-tightened", "loosens": "negated-schema-loosened"}
        for finding in inner.findings:
            name = turned.get(finding.rule.effect.value)
            if name is None:
                self.findings.append(finding)
            else:
                self.add(name, finding.pointer, f"inside not: {finding.detail}")

    def _if(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("if"), new.get("if")
        at = _child(pointer, "if")
        if before is not None and after is not None:
            self.add("condition-changed", at, f"if {_json(before)[:80]} -> {_json(after)[:80]}")
            return
        side = new if before is None else old
        if "then" not in side and "else" not in side:
            self.add("annotation-changed", at, "if without then/else (asserts nothing)")
            return
        verb = "introduced" if before is None else "dropped"
        name = "constraint-added" if before is None else "constraint-removed"
        self.add(name, at, f"if/then/else {verb}")

    def _conditional(
        self, key: str, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str
    ) -> None:
        """``then``/``else``: they assert only under an ``if`` (a lone one asserts nothing)."""
        before, after = old.get(key), new.get(key)
        conditions = old.get("if"), new.get("if")
        if conditions == (None, None):
            self.add("annotation-changed", _child(pointer, key), f"{key} without if")
        elif None in conditions:
            return  # reported with the if that came or went
        elif not self._introduced(key, before, after, pointer):
            self.schema(before, after, _child(pointer, key))

    def _all_of(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        before, after = old.get("allOf", []), new.get("allOf", [])
        if not isinstance(before, list) or not isinstance(after, list):
            self.add("unclassified", _child(pointer, "allOf"), "keyword 'allOf' changed")
            return
        pairs, removed, added = match_branches(before, after)
        for index in removed:
            detail = f"allOf branch {_branch_label(before[index], index)} removed"
            self.add("constraint-removed", _child(pointer, "allOf", index), detail)
        for index in added:
            detail = f"allOf branch {_branch_label(after[index], index)} added"
            self.add("constraint-added", _child(pointer, "allOf", index), detail)
        for old_index, new_index in pairs:
            self.schema(before[old_index], after[new_index], _child(pointer, "allOf", new_index))

    def _dependent_schemas(
        self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str
    ) -> None:
        before: Mapping[str, Any] = old.get("dependentSchemas", {})
        after: Mapping[str, Any] = new.get("dependentSchemas", {})
        for name in sorted(set(before) | set(after)):
            at = _child(pointer, "dependentSchemas", name)
            if name not in after:
                self.add("constraint-removed", at, f"dependentSchemas {_json(name)} dropped")
            elif name not in before:
                self.add("constraint-added", at, f"dependentSchemas {_json(name)} introduced")
            else:
                self.schema(before[name], after[name], at)

    def _dependent_required(
        self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str
    ) -> None:
        before: Mapping[str, Any] = old.get("dependentRequired", {})
        after: Mapping[str, Any] = new.get("dependentRequired", {})
        for name in sorted(set(before) | set(after)):
            at = _child(pointer, "dependentRequired", name)
            was, now = set(before.get(name, [])), set(after.get(name, []))
            for needed in sorted(now - was):
                detail = f"with {_json(name)}, {_json(needed)} is now required"
                self.add("constraint-added", at, detail)
            for needed in sorted(was - now):
                detail = f"with {_json(name)}, {_json(needed)} is no longer required"
                self.add("constraint-removed", at, detail)

    def _ref(self, old: Mapping[str, Any], new: Mapping[str, Any], pointer: str) -> None:
        """A changed local ``$ref``: compare what each side's chain of references reaches."""
        before, after = old.get("$ref"), new.get("$ref")
        at = _child(pointer, "$ref")
        target_old = _resolved(old, self.roots[0])
        target_new = _resolved(new, self.roots[1])
        if target_old is None or target_new is None:
            detail = (
                f"$ref {_json(before)} -> {_json(after)}: the differ compares local references "
                "(#/...) only"
            )
            self.add("unclassified", at, detail)
            return
        key = (_json(before), _json(after))
        if key in self.refs_seen:
            return  # a recursive schema: this pair of targets is being compared already
        self.refs_seen.add(key)
        inner = self.sub()
        inner.schema(target_old, target_new, at)
        for finding in inner.findings:
            detail = f"through $ref {_json(before)} -> {_json(after)}: {finding.detail}"
            self.findings.append(Finding(finding.rule, finding.pointer, detail))

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
        if self._introduced("enum", old.get("enum"), new.get("enum"), pointer):
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
        at = _child(pointer, "const")
        if "const" not in old:
            self.add("constraint-added", at, f"const {_json(new['const'])} introduced")
            return
        if "const" not in new:
            self.add("constraint-removed", at, f"const {_json(old['const'])} dropped")
            return
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
        if self._introduced("pattern", old.get("pattern"), new.get("pattern"), pointer):
            return
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
        before, after = list(before), list(after)
        if key == "oneOf" and not (
            _pairwise_disjoint(before, self.roots[0]) and _pairwise_disjoint(after, self.roots[1])
        ):
            self._overlapping(before, after, pointer)
            return
        pairs, removed, added = match_branches(before, after)
        for index in removed:
            label = _branch_label(before[index], index)
            self.add("branch-removed", _child(pointer, key, index), f"{key} branch {label} removed")
        for index in added:
            label = _branch_label(after[index], index)
            self.add("branch-added", _child(pointer, key, index), f"{key} branch {label} added")
        for old_index, new_index in pairs:
            self.schema(before[old_index], after[new_index], _child(pointer, key, new_index))

    def _overlapping(self, before: list[Any], after: list[Any], pointer: str) -> None:
        """``oneOf`` whose branches may overlap: any branch change is ``oneOf-overlap-changed``.

        An instance valid under two branches is refused by ``oneOf``: a new or wider branch can
        refuse what was valid (tightens), a removed or narrower one accept what was refused
        (loosens). Neutral changes inside a branch (annotations) stay neutral.
        """
        why = "the branches may overlap, and oneOf refuses an instance two branches accept"
        pairs, removed, added = match_branches(before, after)
        for index in removed:
            label = _branch_label(before[index], index)
            detail = f"oneOf branch {label} removed; {why}"
            self.add("oneOf-overlap-changed", _child(pointer, "oneOf", index), detail)
        for index in added:
            label = _branch_label(after[index], index)
            detail = f"oneOf branch {label} added; {why}"
            self.add("oneOf-overlap-changed", _child(pointer, "oneOf", index), detail)
        for old_index, new_index in pairs:
            at = _child(pointer, "oneOf", new_index)
            inner = self.sub()
            inner.schema(before[old_index], after[new_index], at)
            moving = [f for f in inner.findings if f.rule.effect.value != "neutral"]
            self.findings.extend(f for f in inner.findings if f not in moving)
            if moving:
                detail = f"oneOf branch changed ({moving[0].rule.name}: {moving[0].detail}); {why}"
                self.add("oneOf-overlap-changed", at, detail)


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


def _accepts_all(schema: object) -> bool | None:
    """``True`` for ``true``/``{}``/annotations only, ``False`` for ``false``, else ``None``."""
    if schema is True or schema is False:
        return bool(schema)
    if isinstance(schema, Mapping) and all(k in _NOT_ASSERTIONS for k in schema):
        return True
    return None


def _pointer_get(root: object, fragment: str) -> object | None:
    """The value at the RFC 6901 pointer ``fragment`` of ``root`` (``None``: no such value)."""
    node = root
    for raw in fragment.split("/")[1:] if fragment else []:
        token = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _resolved(schema: object, root: object) -> object | None:
    """``schema`` with its local ``$ref`` chain followed (siblings of a ``$ref`` kept).

    ``None`` when a reference is not local (``#...``), names nothing, collides with a sibling
    keyword, or the chain is longer than :data:`_MAX_REF_DEPTH` (a loop).
    """
    for _ in range(_MAX_REF_DEPTH):
        if not isinstance(schema, Mapping) or "$ref" not in schema:
            return schema
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        target = _pointer_get(root, ref[1:])
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        if target is None:
            return None
        if not siblings:
            schema = target
            continue
        if not isinstance(target, Mapping) or set(target) & set(siblings):
            return None
        schema = {**target, **siblings}
    return None


def _values(schema: object) -> set[str] | None:
    """The instances ``schema`` allows by ``const``/``enum`` (as JSON text), ``None``: any."""
    if not isinstance(schema, Mapping):
        return None
    found: set[str] | None = None
    if "const" in schema:
        found = {_json(_number(schema["const"]))}
    if isinstance(schema.get("enum"), list):
        listed = {_json(_number(v)) for v in schema["enum"]}
        found = listed if found is None else found & listed
    return found


def _number(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _disjoint(a: object, b: object, root: object) -> bool:
    """Whether no instance can be valid under both branches (a sufficient test only)."""
    a, b = _resolved(a, root), _resolved(b, root)
    if a is False or b is False:
        return True
    if not isinstance(a, Mapping) or not isinstance(b, Mapping):
        return False
    types_a, types_b = _types(a), _types(b)
    if types_a is not None and types_b is not None and not _types_overlap(types_a, types_b):
        return True
    values_a, values_b = _values(a), _values(b)
    if values_a is not None and values_b is not None and not values_a & values_b:
        return True
    return _discriminated(a, b, root)


def _discriminated(a: Mapping[str, Any], b: Mapping[str, Any], root: object) -> bool:
    """Both require one property and allow it disjoint ``const``/``enum`` values."""
    props_a, props_b = a.get("properties", {}), b.get("properties", {})
    required = set(a.get("required", [])) & set(b.get("required", []))
    if not isinstance(props_a, Mapping) or not isinstance(props_b, Mapping):
        return False
    for name in required & set(props_a) & set(props_b):
        held_a = _values(_resolved(props_a[name], root))
        held_b = _values(_resolved(props_b[name], root))
        if held_a is not None and held_b is not None and not held_a & held_b:
            return True
    return False


def _types_overlap(one: set[str], other: set[str]) -> bool:
    """Whether an instance can have a type of both sets (an integer is also a number)."""
    return bool(one & other) or any({a, b} == {"integer", "number"} for a in one for b in other)


def _pairwise_disjoint(branches: list[Any], root: object) -> bool:
    return all(
        _disjoint(branches[i], branches[j], root)
        for i in range(len(branches))
        for j in range(i + 1, len(branches))
    )


def walk(old: object, new: object) -> list[Finding]:
    """Every classified change from schema ``old`` to schema ``new``, in document order.

    Both are parsed JSON Schema documents (mappings or booleans). Never raises on odd input: what it
    cannot classify is reported as ``SD999 unclassified``.
    """
    walker = _Walker(old, new)
    walker.schema(old, new, "")
    return walker.findings
