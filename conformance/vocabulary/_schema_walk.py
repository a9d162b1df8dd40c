"""The enum values and discriminated branches of one contract, and which of them a document uses.

:class:`ContractVocabulary` reads a contract's schema (bundled with every schema it references,
:func:`contracts.bundle_schema`) and lists

* every ``enum`` value, named ``<definition>/<path>=<value>`` (e.g.
  ``RouterErrorTurn/error=TIMEOUT``, ``TraceEventType=SEMANTIC_VERDICT``), and
* every branch of a ``oneOf`` whose branches are told apart by a ``const`` member (a
  discriminated union: turn kinds, tool response kinds, trace event types, result kinds), named
  ``<union>:<const>`` (e.g. ``AgentTurn:raw``).

Enums inside ``if``/``then``/``else``/``not`` only restrict other members and name no vocabulary of
their own. :meth:`ContractVocabulary.used_by` walks a document along the schema (``$ref``,
``properties``, ``additionalProperties``, ``propertyNames``, ``items``, ``allOf``, and the
``oneOf``/``anyOf`` branches the value matches) and returns the elements it uses. The document
is taken to be valid (the kit validates fixtures and observations elsewhere): a union branch that
the value's type and ``const`` members leave alone is the one it matches; only when several remain
is each one validated (jsonschema-rs).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

import jsonschema_rs

from contracts import bundle_schema

__all__ = ["ContractVocabulary", "SchemaElement", "contract_vocabulary"]

_RESTRICTING: Final = frozenset({"if", "then", "else", "not", "dependentSchemas"})
_JSON_TYPES: Final = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


@dataclass(frozen=True, slots=True)
class SchemaElement:
    """One element of a contract's vocabulary.

    Attributes:
        name: ``<definition>/<path>=<value>`` for an enum value, ``<union>:<const>`` for a branch.
        kind: ``enum`` or ``branch``.
        pointer: the JSON pointer of the enum or union in the bundled schema.
    """

    name: str
    kind: str
    pointer: str


def _names(found: list[SchemaElement]) -> list[str]:
    return list(dict.fromkeys(e.name for e in found))


def _short(def_key: str) -> str:
    """``scenario-fixture.RouterTurn`` -> ``RouterTurn``; a bundled file body keeps its stem."""
    return def_key.rsplit(".", 1)[-1]


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


class ContractVocabulary:
    """The vocabulary of one contract; see the module docstring.

    Raises:
        KeyError: an unknown contract name.
    """

    def __init__(self, contract: str) -> None:
        """Bundle the schema of ``contract`` and list its elements."""
        self.contract = contract
        self._root = bundle_schema(contract)
        self._defs: dict[str, Any] = self._root.get("$defs", {})
        self._enums: dict[int, str] = {}
        self._unions: dict[int, tuple[str, dict[int, str]]] = {}
        self.elements: tuple[SchemaElement, ...] = ()
        self._listed: set[str] = set()
        found: list[SchemaElement] = []
        self._list(self._root, str(self._root.get("title", contract)), "", found)
        self.elements = tuple({e.name: e for e in reversed(found)}[n] for n in _names(found))

    # ------------------------------------------------------------------ listing

    def _list(  # noqa: C901, PLR0912 - one schema keyword per branch
        self,
        node: Any,  # noqa: ANN401 - any schema node
        label: str,
        pointer: str,
        found: list[SchemaElement],
    ) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = ref.removeprefix("#/$defs/")
            if target not in self._listed and target in self._defs:
                self._listed.add(target)
                self._list(self._defs[target], _short(target), f"/$defs/{target}", found)
        if "enum" in node and id(node) not in self._enums:
            self._enums[id(node)] = label
            found.extend(
                SchemaElement(f"{label}={value}", "enum", pointer) for value in node["enum"]
            )
        union = node.get("oneOf")
        if isinstance(union, list) and id(node) not in self._unions:
            labels = {id(b): tag for b in union if (tag := self._discriminator(b)) is not None}
            if union and len(labels) == len(union):
                self._unions[id(node)] = (label, labels)
                found.extend(
                    SchemaElement(f"{label}:{tag}", "branch", pointer) for tag in labels.values()
                )
        for key, value in node.items():
            if key in _RESTRICTING or key == "$defs":
                continue
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    self._list(sub, f"{label}/{name}", f"{pointer}/properties/{name}", found)
            elif isinstance(value, dict) and key in {"items", "additionalProperties"}:
                self._list(value, f"{label}/{key}", f"{pointer}/{key}", found)
            elif isinstance(value, list) and key in {"allOf", "anyOf", "oneOf", "prefixItems"}:
                for index, sub in enumerate(value):
                    self._list(sub, label, f"{pointer}/{key}/{index}", found)

    def _resolve(self, node: Any) -> Any:  # noqa: ANN401 - any schema node
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target = node["$ref"].removeprefix("#/$defs/")
            node = self._defs.get(target, {})
        return node

    def _discriminator(self, branch: Any) -> str | None:  # noqa: ANN401 - any schema node
        resolved = self._resolve(branch)
        if not isinstance(resolved, dict):
            return None
        for name in ("kind", "type"):
            member = resolved.get("properties", {}).get(name)
            if isinstance(member, dict) and isinstance(member.get("const"), str):
                return str(member["const"])
        return None

    # ------------------------------------------------------------------ walking

    def used_by(self, document: Any) -> set[str]:  # noqa: ANN401 - any JSON document
        """Return the names of the elements ``document`` uses (see the module docstring)."""
        used: set[str] = set()
        self._walk(self._root, document, used)
        return used

    def _walk(self, node: Any, value: Any, used: set[str]) -> None:  # noqa: ANN401, C901, PLR0912 - one schema keyword per branch
        if not isinstance(node, dict):
            return
        if isinstance(node.get("$ref"), str):
            self._walk(self._resolve(node), value, used)
        label = self._enums.get(id(node))
        if label is not None and any(_same(value, v) for v in node["enum"]):
            used.add(f"{label}={value}")
        if isinstance(value, dict):
            properties = node.get("properties", {})
            extra = node.get("additionalProperties")
            for key, member in value.items():
                if key in properties:
                    self._walk(properties[key], member, used)
                elif isinstance(extra, dict):
                    self._walk(extra, member, used)
            names = node.get("propertyNames")
            if isinstance(names, dict):
                for key in value:
                    self._walk(names, key, used)
        if isinstance(value, list) and isinstance(node.get("items"), dict):
            for member in value:
                self._walk(node["items"], member, used)
        for sub in node.get("allOf", []):
            self._walk(sub, value, used)
        union = self._unions.get(id(node))
        for key in ("oneOf", "anyOf"):
            possible = [b for b in node.get(key, []) if self._may_match(b, value)]
            if len(possible) > 1:  # only then is a full validation needed to tell them apart
                possible = [b for b in possible if self._validator(b).is_valid(value)]
            for branch in possible:
                if union is not None and id(branch) in union[1]:
                    used.add(f"{union[0]}:{union[1][id(branch)]}")
                self._walk(branch, value, used)

    def _may_match(self, branch: Any, value: Any) -> bool:  # noqa: ANN401 - schema node, JSON
        """Whether ``branch`` may hold ``value``: its type and its ``const`` members agree.

        A walked document is a valid one, so a union with one such branch left holds it there.
        """
        resolved = self._resolve(branch)
        if not isinstance(resolved, dict):
            return bool(resolved)
        wanted = resolved.get("type")
        if (
            isinstance(wanted, str)
            and wanted in _JSON_TYPES
            and (
                not isinstance(value, _JSON_TYPES[wanted])
                or (wanted != "boolean" and isinstance(value, bool))
            )
        ):
            return False
        if isinstance(value, dict):
            consts = [
                (name, member["const"])
                for name, member in resolved.get("properties", {}).items()
                if isinstance(member, dict) and "const" in member
            ]
            if consts and any(not _same(value.get(n), c) for n, c in consts if n in value):
                return False
        return True

    def _validator(self, branch: Any) -> Any:  # noqa: ANN401 - schema node, a validator
        return _compiled(self.contract, branch, self._defs)


_CACHE: dict[tuple[str, int], Any] = {}


def _compiled(contract: str, branch: Any, defs: dict[str, Any]) -> Any:  # noqa: ANN401 - a validator
    """A validator of one branch of the bundled schema (cached by the branch's identity)."""
    key = (contract, id(branch))
    if key not in _CACHE:
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": defs,
            "allOf": [branch],
        }
        _CACHE[key] = jsonschema_rs.validator_for(schema)
    return _CACHE[key]


@functools.cache
def contract_vocabulary(contract: str) -> ContractVocabulary:
    """Return the (cached) :class:`ContractVocabulary` of ``contract``."""
    return ContractVocabulary(contract)
