"""The keyword walk: one near-valid document per constraining keyword of a contract's schema."""

# ruff: noqa: ANN401 - the walk reads and writes JSON values of any type (typing.Any)

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from contracts import loads_strict, validator_for
from contracts._errors import json_pointer
from contracts._validator import schema_registry

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

__all__ = [
    "ARGUMENTS",
    "CONTRACTS",
    "LONE_ITEM",
    "KeywordBreak",
    "UnbreakableKeywordError",
    "base_documents",
    "break_at",
    "broken_keyword",
    "keyword_breaks",
]

ARGUMENTS: Final = "query-scope#arguments"
"""The tool arguments: query-scope.schema.json without ``tool`` (reference_harness._tools)."""

CONTRACTS: Final = ("diagnosis-draft", "semantic-verdict", ARGUMENTS, "knowledge-answer")
"""The frozen contracts a model writes whose keywords the default run breaks one by one."""

_ANNOTATIONS: Final = frozenset(
    {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"}
)
"""Keywords that constrain nothing."""

LONE_ITEM: Final = " with its lone item"
"""The suffix of an outline cell naming a :attr:`KeywordBreak.lone_item` break."""

_EXTRA: Final = "extra"
"""The member name an ``additionalProperties: false`` break adds."""


class UnbreakableKeywordError(ValueError):
    """The schema holds a keyword the walk does not know how to break (extend :func:`_breaks`)."""


@dataclass(frozen=True)
class KeywordBreak:
    """One document that breaks exactly one keyword of its contract.

    Attributes:
        contract: the contract (a schema file stem, or :data:`ARGUMENTS`).
        keyword: the JSON Schema keyword the document breaks.
        pointer: RFC 6901 pointer of the broken value in the document (for ``required``, the
            missing member; for ``additionalProperties``, the added member).
        document: the whole broken document.
        lone_item: a ``type: array`` break whose array is written as its one item, bare
            (``"call_1"`` for ``["call_1"]``): listed again, the item gives the base document.
    """

    contract: str
    keyword: str
    pointer: str
    document: Any
    lone_item: bool = False

    @property
    def cell(self) -> str:
        """The outline cell naming this break: ``type at "/p"`` (``... with its lone item``)."""
        return f"{self.keyword} at {json.dumps(self.pointer)}" + (
            LONE_ITEM if self.lone_item else ""
        )


def base_documents(contract: str, scopes: Mapping[str, dict[str, Any]]) -> list[Any]:
    """Return valid base documents of ``contract``: every optional member present in one.

    The walk reaches an ``if``/``then`` branch only where a base takes it (the semantic verdict:
    one UNSUPPORTED, one SUPPORTED). The knowledge-answer base cites document ``d1`` of the
    lookup ``lookup_1`` (a lookup_documents call returning ``d1`` and ``d2``). The draft's second
    base, one analysis observing ``call_1`` and a limitation citing it, holds one item in each
    list the first holds two or none of (the conclusion's ``analysis_ids``, ``analyses``, a
    limitation's ``tool_call_ids``): only such a list is written as its lone item; every other
    keyword is broken in the first base already.

    Args:
        contract: one of :data:`CONTRACTS`.
        scopes: the query scope of ``call_1`` (a search_logs call with matches) and ``call_2``
            (a query_metrics call that finds nothing), as the fixture's builder computes them
            (not read for the verdict and the Knowledge Answer).

    Raises:
        KeyError: another contract, or a scope missing.
    """
    if contract == "diagnosis-draft":
        first: dict[str, Any] = {
            "conclusion": {
                "summary": "Checkout errors come from the payment dependency.",
                "confidence": "MEDIUM",
                "analysis_ids": ["a1", "a2"],
            },
            "analyses": [
                {
                    "analysis_id": "a1",
                    "kind": "OBSERVATION",
                    "statement": "Checkout logs payment timeouts.",
                    "tool_call_ids": ["call_1"],
                    "scope": copy.deepcopy(scopes["call_1"]),
                },
                {
                    "analysis_id": "a2",
                    "kind": "NEGATIVE_OBSERVATION",
                    "statement": "No checkout latency metric was found.",
                    "tool_call_ids": ["call_2"],
                    "scope": copy.deepcopy(scopes["call_2"]),
                },
            ],
            "action_plan": [{"action": "Check the payment dependency.", "analysis_ids": ["a1"]}],
            "recommendations": [{"text": "Raise the payment timeout.", "analysis_ids": ["a1"]}],
            "limitations": [{"text": "Only the last 15 minutes were read.", "tool_call_ids": []}],
        }
        second = copy.deepcopy(first)
        second["conclusion"]["analysis_ids"] = ["a1"]
        second["analyses"] = second["analyses"][:1]
        second["limitations"] = [
            {"text": "Only the payment timeouts were read.", "tool_call_ids": ["call_1"]}
        ]
        return [first, second]
    if contract == "semantic-verdict":
        return [
            {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a1"]},
            {"verdict": "SUPPORTED", "unsupported_analysis_ids": []},
        ]
    if contract == "knowledge-answer":
        return [
            {
                "lookup_tool_call_id": "lookup_1",
                "items": [
                    {
                        "item_id": "i1",
                        "text": "Rotate the checkout API key in the vault.",
                        "references": [{"tool_call_id": "lookup_1", "document_id": "d1"}],
                    }
                ],
                "limitations": [{"text": "Only the runbooks were read."}],
            }
        ]
    if contract == ARGUMENTS:
        scope = copy.deepcopy(scopes["call_1"])
        del scope["tool"]
        return [scope]
    raise KeyError(contract)


def _schema(contract: str) -> dict[str, Any]:
    """Return the schema the walk reads (tool arguments: query-scope minus ``tool``)."""
    resolver = schema_registry().resolver()
    name = contract.split("#", 1)[0]
    schema: dict[str, Any] = copy.deepcopy(
        resolver.lookup(f"https://srdh.dev/schemas/v1/{name}.schema.json").contents
    )
    if contract == ARGUMENTS:
        del schema["properties"]["tool"]
        schema["required"] = [name for name in schema["required"] if name != "tool"]
    return schema


@functools.cache
def _validator(contract: str) -> Any:
    if contract == ARGUMENTS:
        from jsonschema import Draft202012Validator  # noqa: PLC0415 - with python-jsonschema

        return Draft202012Validator(_schema(contract), registry=schema_registry())
    return validator_for(contract)


def _set(document: Any, path: tuple[str | int, ...], value: Any) -> Any:
    broken = copy.deepcopy(document)
    if not path:
        return value
    parent = broken
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return broken


def _other_type(type_name: str) -> Any:
    """A value of another JSON type than ``type_name`` (an integer: its decimal as a string)."""
    return {"string": 7, "integer": "7", "number": "7", "array": {}, "object": [], "boolean": 1}[
        type_name
    ]


_Candidate = tuple[str, tuple[str | int, ...], Any]
"""A keyword, the pointer path the row names, and the broken document."""


def _lone_item(bound: Any, value: Any, path: tuple[str | int, ...], doc: Any) -> _Candidate | None:
    """The array ``value`` at ``path`` written as its one item, bare (a ``type: array`` break).

    Only an array holding exactly one item that is not itself an array: listed again, the item
    gives ``doc`` back, so a Harness that wraps a lone item into a list (red team 9,
    ``r4_cite_string``) meets the valid base, and nothing but the ``type`` rejects the document.
    An array of two items or none is written so where a later base holds it with one.
    """
    if bound != "array" or not isinstance(value, list) or len(value) != 1:
        return None
    if isinstance(value[0], list):
        return None  # listed or not, the item is an array: no type break
    return "type", path, _set(doc, path, copy.deepcopy(value[0]))


def _array_location(path: tuple[str | int, ...]) -> str:
    """The array's place in the document, one per member path (``/analyses/*/tool_call_ids``)."""
    return "lone:" + "".join(f"/{'*' if isinstance(part, int) else part}" for part in path)


def _string_candidates(keyword: str, bound: Any, value: str) -> Iterator[Any]:
    if keyword == "minLength" and bound > 0:
        yield value[: bound - 1]
    elif keyword == "maxLength":
        yield (value * (bound // max(len(value), 1) + 2))[: bound + 1]
    elif keyword == "pattern":
        yield from ("-" + value[1:], value + " ", " " + value, value + "\n")


def _keyword_candidates(  # noqa: C901, PLR0912 - one branch per keyword
    keyword: str,
    bound: Any,
    value: Any,
    path: tuple[str | int, ...],
    doc: Any,
) -> Iterator[_Candidate]:
    """The broken documents that may break ``keyword`` (``bound``) at ``path`` (checked later)."""
    if keyword == "type":
        yield keyword, path, _set(doc, path, _other_type(bound))
    elif keyword == "required":
        for name in bound:
            if isinstance(value, dict) and name in value:
                broken = copy.deepcopy(value)
                del broken[name]
                yield keyword, (*path, name), _set(doc, path, broken)
    elif keyword == "additionalProperties":
        if bound is False and isinstance(value, dict):
            yield keyword, (*path, _EXTRA), _set(doc, path, {**value, _EXTRA: "x"})
    elif keyword in {"minLength", "maxLength", "pattern"}:
        if isinstance(value, str):
            for text in _string_candidates(keyword, bound, value):
                yield keyword, path, _set(doc, path, text)
    elif keyword in {"enum", "const"}:
        choices = bound if keyword == "enum" else [bound]
        for choice in choices:
            if isinstance(choice, str):
                yield keyword, path, _set(doc, path, choice.lower())
                yield keyword, path, _set(doc, path, choice + "_")
    elif keyword == "minimum":
        yield keyword, path, _set(doc, path, bound - 1)
    elif keyword == "maximum":
        yield keyword, path, _set(doc, path, bound + 1)
    elif keyword in {"minItems", "maxItems", "uniqueItems"} and isinstance(value, list):
        if keyword == "minItems" and bound > 0:
            yield keyword, path, _set(doc, path, value[: bound - 1])
        elif keyword == "maxItems":
            filler = value[:1] or ["a1"]
            yield keyword, path, _set(doc, path, (value + filler * (bound + 1))[: bound + 1])
        elif keyword == "uniqueItems" and bound is True and value:
            yield keyword, path, _set(doc, path, [*value, value[0]])
    elif keyword in {"minItems", "maxItems", "uniqueItems"}:
        return
    else:
        at = json_pointer(path)
        message = f"the keyword {keyword!r} at {at!r} has no break; teach _breaks it"
        raise UnbreakableKeywordError(message)


_STRUCTURE: Final = frozenset({"properties", "items", "$ref", "allOf", "if", "then", "else"})


def _walk(  # noqa: C901, PLR0912, PLR0913, PLR0917 - one branch per applicator
    node: Any,
    value: Any,
    path: tuple[str | int, ...],
    where: str,
    context: _Walk,
    resolver: Any,
) -> None:
    """Collect the candidate breaks of every keyword ``node`` applies to ``value``."""
    if not isinstance(node, dict):
        return
    for keyword, bound in node.items():
        if keyword in _ANNOTATIONS:
            continue
        location = f"{where}/{keyword}"  # walked location: kept for a later per-location mode
        if keyword == "$ref":
            target = resolver.lookup(bound)
            _walk(target.contents, value, path, location, context, target.resolver)
        elif keyword == "properties" and isinstance(value, dict):
            for name, sub in bound.items():
                if name in value:
                    _walk(sub, value[name], (*path, name), f"{location}/{name}", context, resolver)
        elif keyword == "items" and isinstance(value, list):
            for index, item in enumerate(value):
                _walk(bound, item, (*path, index), location, context, resolver)
        elif keyword == "allOf":
            for index, sub in enumerate(bound):
                _walk(sub, value, path, f"{location}/{index}", context, resolver)
        elif keyword == "if":
            branch = "then" if context.holds(bound, value) else "else"
            _walk(node.get(branch, True), value, path, f"{where}/{branch}", context, resolver)
        elif keyword in _STRUCTURE or context.open(keyword, path):
            continue
        else:
            key = f"type:{bound}" if keyword == "type" else _signature(node, keyword, path)
            for candidate in _keyword_candidates(keyword, bound, value, path, context.base):
                context.offer(key, candidate)
            lone = _lone_item(bound, value, path, context.base) if keyword == "type" else None
            if lone is not None:
                context.offer(_array_location(path), lone, lone_item=True)


def _signature(node: dict[str, Any], keyword: str, path: tuple[str | int, ...]) -> str:
    """What makes two keywords the same: the member name they constrain and their schema.

    Annotations aside, a keyword in the same schema under the same member name is broken once
    (the analysis-id items of a conclusion, an action and a recommendation), so the rows stay
    few; ``summary`` and ``statement`` (same schema, other names) are broken each.
    """
    names = [part for part in path if isinstance(part, str)]
    plain = {key: bound for key, bound in node.items() if key not in _ANNOTATIONS}
    canonical = json.dumps(plain, sort_keys=True, separators=(",", ":"))
    return f"{names[-1] if names else ''}|{keyword}|{canonical}"


@dataclass
class _Walk:
    contract: str
    base: Any
    validator: Any
    found: dict[str, KeywordBreak]

    def open(self, keyword: str, path: tuple[str | int, ...]) -> bool:
        """Whether the contract leaves ``keyword`` at ``path`` open (no break then).

        Tool arguments: extra members are left open (a Harness may execute such a call or refuse
        it, R3.malformed-arguments-error) and they are an object by the fixture's own schema.
        """
        if self.contract != ARGUMENTS:
            return False
        return keyword == "additionalProperties" or (keyword == "type" and not path)

    def holds(self, schema: Any, value: Any) -> bool:
        return bool(self.validator.evolve(schema=schema).is_valid(value))

    def offer(self, location: str, candidate: _Candidate, *, lone_item: bool = False) -> None:
        keyword, path, document = candidate
        key = f"{location}|{path[-1] if keyword == 'required' else ''}"
        if key in self.found:
            return
        errors = list(self.validator.iter_errors(document))
        if errors and {error.validator for error in errors} == {keyword}:
            self.found[key] = KeywordBreak(
                self.contract, keyword, json_pointer(path), document, lone_item=lone_item
            )


def keyword_breaks(contract: str, bases: Sequence[Any]) -> list[KeywordBreak]:
    """Return one document per breakable keyword of ``contract``'s schema, in walk order.

    Each breaks exactly one keyword: the contract's validator reports errors of that keyword
    only. A keyword is broken once per schema location (a ``type`` once per type name), at the
    first value of ``base`` it applies to. A keyword no one-value change can break alone (a
    ``minLength: 1`` under a ``pattern`` that needs a character) has no document. After them,
    in walk order, each array member path (``/analyses/*/tool_call_ids`` once) that a base holds
    with one item has a ``type`` break writing the array as that item
    (:attr:`KeywordBreak.lone_item`).

    Args:
        contract: one of :data:`CONTRACTS`.
        bases: valid documents of ``contract`` (:func:`base_documents`), walked in turn.

    Raises:
        ValueError: a base is not valid.
        UnbreakableKeywordError: the schema holds a keyword the walk cannot break.
    """
    validator = _validator(contract)
    schema = _schema(contract)
    found: dict[str, KeywordBreak] = {}
    for base in bases:
        if not validator.is_valid(base):
            message = f"the base {contract} document is not valid: {json.dumps(base)[:200]}"
            raise ValueError(message)
        context = _Walk(contract, base, validator, found)
        _walk(schema, base, (), "#", context, schema_registry().resolver(base_uri=schema["$id"]))
    return sorted(found.values(), key=lambda found_break: found_break.lone_item)


def broken_keyword(contract: str, document: Any) -> str | None:
    """Return the one keyword of ``contract`` that ``document`` breaks, if it breaks exactly one.

    ``None`` when ``document`` is valid or the contract's validator reports errors of more than
    one keyword (what :func:`keyword_breaks` writes breaks one). The vocabulary meter reads
    which keyword a scripted model output breaks with it.
    """
    kinds = {error.validator for error in _validator(contract).iter_errors(document)}
    return str(next(iter(kinds))) if len(kinds) == 1 else None


def break_at(
    contract: str, bases: Sequence[Any], keyword: str, pointer: str, *, lone_item: bool = False
) -> Any:
    """Return the document of :func:`keyword_breaks` that breaks ``keyword`` at ``pointer``.

    ``lone_item``: the break writing the array at ``pointer`` as its one item (the cell's
    :data:`LONE_ITEM` suffix), not the other-type one.

    Raises:
        KeyError: no such break (the row is stale: regenerate it).
    """
    found = _indexed(contract, json.dumps(list(bases))).get((keyword, pointer, lone_item))
    if found is not None:
        return copy.deepcopy(found)
    how = LONE_ITEM if lone_item else ""
    message = f"{contract} has no break of {keyword!r} at {pointer!r}{how}; regenerate the rows"
    raise KeyError(message)


@functools.lru_cache(maxsize=16)
def _indexed(contract: str, bases: str) -> dict[tuple[str, str, bool], Any]:
    """The breaks of ``contract`` from ``bases`` (JSON text) by keyword, pointer and lone item.

    Computed once per process and base: each row's Given step asks for one break.
    """
    return {
        (b.keyword, b.pointer, b.lone_item): b.document
        for b in keyword_breaks(contract, loads_strict(bases))
    }
