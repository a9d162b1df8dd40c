"""Changes seen through ``$ref``: a change of one contract, judged under each contract that uses it.

A contract that reads another through ``$ref`` (``diagnosis-draft`` → ``query-scope.schema.json``)
accepts what that other schema accepts at that place: a change there changes it too, and must be
judged in *its* direction (a tightening ``query-scope`` change is compatible for the EMIT contract
``query-scope`` but breaking for the BOTH contract ``diagnosis-draft``). References are resolved
against the referring schema's ``$id`` (RFC 3986) and followed transitively; a reference to a
fragment (``…#/$defs/TimeRange``) only sees changes under that fragment.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin, urlsplit

from conformance.schemadiff._rules import Effect

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from conformance.schemadiff._change import SchemaChange
    from conformance.schemadiff._rules import Rule

__all__ = ["Reference", "SeenChange", "references", "through_refs"]

_SUFFIX = ".schema.json"


@dataclass(frozen=True, slots=True)
class Reference:
    """``referrer`` holds a ``$ref`` at pointer ``at`` into contract ``target`` at ``fragment``."""

    referrer: str
    at: str
    target: str
    fragment: str


@dataclass(frozen=True, slots=True)
class SeenChange:
    """A change of another contract as ``contract`` sees it, at its ``$ref`` ``pointer``."""

    contract: str
    rule: Rule
    pointer: str
    detail: str


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _name_of(uri: str) -> str | None:
    last = urlsplit(uri).path.rsplit("/", 1)[-1]
    return last[: -len(_SUFFIX)] if last.endswith(_SUFFIX) else None


def references(schemas: Mapping[str, Any]) -> list[Reference]:
    """Every ``$ref`` from one contract into another, with where it is and what it names."""
    by_uri: dict[str, str] = {}
    for name, schema in schemas.items():
        schema_id = schema.get("$id") if isinstance(schema, dict) else None
        if isinstance(schema_id, str):
            by_uri[schema_id.partition("#")[0]] = name
    found: list[Reference] = []
    for name, schema in schemas.items():
        base = schema.get("$id", "") if isinstance(schema, dict) else ""
        stack: list[tuple[object, str]] = [(schema, "")]
        while stack:
            node, pointer = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str):
                    uri, _, fragment = urljoin(str(base), ref).partition("#")
                    target = by_uri.get(uri) or _name_of(uri)
                    if target is not None and target != name and target in schemas:
                        found.append(Reference(name, pointer, target, unquote(fragment)))
                stack.extend((child, f"{pointer}/{_escape(str(k))}") for k, child in node.items())
            elif isinstance(node, list):
                stack.extend((child, f"{pointer}/{i}") for i, child in enumerate(node))
    return sorted(found, key=lambda r: (r.referrer, r.at))


def _under(pointer: str, fragment: str) -> bool:
    return not fragment or pointer == fragment or pointer.startswith(fragment + "/")


def through_refs(changes: Sequence[SchemaChange], schemas: Mapping[str, Any]) -> list[SeenChange]:
    """Each non-neutral change, once for every contract that reaches it through ``$ref``.

    ``schemas`` maps contract names to their (new, else old) parsed schema. The seen change
    keeps the rule; its pointer is the ``$ref`` in the referring contract; its detail names the
    contract and pointer where the change is.
    """
    edges = references(schemas)
    seen: list[SeenChange] = []
    for change in changes:
        if change.rule.effect is Effect.NEUTRAL or change.rule.name == "schema-added":
            continue
        where = f"{change.contract}:{change.pointer or '/'}"
        queue = deque([(change.contract, change.pointer)])
        visited: set[tuple[str, str]] = set()
        while queue:
            contract, pointer = queue.popleft()
            for edge in edges:
                key = (edge.referrer, edge.at)
                if edge.target != contract or not _under(pointer, edge.fragment) or key in visited:
                    continue
                visited.add(key)
                detail = f"through $ref to {where}: {change.detail}"
                seen.append(SeenChange(edge.referrer, change.rule, edge.at, detail))
                queue.append(key)
    return seen
