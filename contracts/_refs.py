"""The ``$ref`` graph of a schema set: where each reference points, and which ones do not resolve.

A contract schema refers to another by a URI resolved against its own ``$id`` (RFC 3986): the
frozen set writes file names (``"tool-call-id.schema.json"`` inside
``https://srdh.dev/schemas/v1/…`` is ``https://srdh.dev/schemas/v1/tool-call-id.schema.json``); a
contract bumped to ``v2`` is referred to by its full ``$id``
(``https://srdh.dev/schemas/v2/tool-call-id.schema.json``), see :mod:`conformance.evolution`.

Validators resolve references by ``$id`` through a registry; tools that read files (the model and
TypeScript generators, the bundler) get a copy with every reference written as the target's file
name (:func:`file_refs`). A reference that names no schema of the set, or a fragment that is not
in its target, is a :class:`RefProblem` (requirement "Contract set is frozen": a bad schema set
is named by file and JSON pointer, never an internal error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin

from contracts._annotations import map_subschemas
from contracts._strict_json import load_json_file

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

__all__ = ["RefProblem", "file_refs", "iter_refs", "resolve_ref", "unresolved_refs"]

_SUFFIX = ".schema.json"


@dataclass(frozen=True, slots=True)
class RefProblem:
    """A ``$ref`` that does not resolve within the schema set.

    Attributes:
        file: the schema file holding the reference.
        pointer: RFC 6901 JSON pointer of the ``$ref`` keyword in that file.
        ref: the ``$ref`` value as written.
        resolved: the absolute URI it resolves to (against the file's ``$id``).
        reason: what is missing, in one line.
    """

    file: str
    pointer: str
    ref: str
    resolved: str
    reason: str

    def __str__(self) -> str:
        """``schemas/x.schema.json: /properties/id/$ref: "…" (resolves to …): <reason>``."""
        where = f"{self.file}: {self.pointer}"
        return f"{where}: $ref {self.ref!r} (resolves to {self.resolved}): {self.reason}"


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def iter_refs(node: Any, pointer: str = "") -> Iterator[tuple[str, str]]:  # noqa: ANN401 - any JSON value
    """Yield ``(pointer of the $ref keyword, value)`` for every string ``$ref`` in ``node``."""
    stack: list[tuple[object, str]] = [(node, pointer)]
    while stack:
        current, at = stack.pop()
        if isinstance(current, dict):
            for key, value in current.items():
                child = f"{at}/{_escape(str(key))}"
                if key == "$ref" and isinstance(value, str):
                    yield child, value
                else:
                    stack.append((value, child))
        elif isinstance(current, list):
            stack.extend((item, f"{at}/{index}") for index, item in enumerate(current))


def resolve_ref(base: str, ref: str) -> tuple[str, str]:
    """Return ``(absolute URI without fragment, decoded fragment)`` of ``ref`` against ``base``."""
    uri, _, fragment = urljoin(base, ref).partition("#")
    return uri, unquote(fragment)


def _has_pointer(document: Any, pointer: str) -> bool:  # noqa: ANN401 - any JSON value
    node = document
    for raw in pointer.split("/")[1:] if pointer else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def unresolved_refs(folder: Path) -> list[RefProblem]:
    """Every ``$ref`` of the ``*.schema.json`` files in ``folder`` that does not resolve.

    A reference resolves when its URI (against the file's ``$id``) is the ``$id`` of a schema in
    ``folder`` and its fragment, if any, is a JSON pointer present in that schema.
    """
    schemas = {path: load_json_file(path) for path in sorted(folder.glob(f"*{_SUFFIX}"))}
    by_id = {
        str(schema["$id"]).partition("#")[0]: schema
        for schema in schemas.values()
        if isinstance(schema, dict) and isinstance(schema.get("$id"), str)
    }
    problems: list[RefProblem] = []
    for path, schema in schemas.items():
        base = str(schema.get("$id", "")) if isinstance(schema, dict) else ""
        for pointer, ref in iter_refs(schema):
            uri, fragment = resolve_ref(base, ref)
            target = by_id.get(uri)
            where = f"{uri}#{fragment}" if fragment else uri
            if target is None:
                reason = "no schema of the set has this $id"
                problems.append(RefProblem(path.as_posix(), pointer, ref, where, reason))
            elif fragment and not _has_pointer(target, fragment):
                reason = f"{fragment} is not in that schema"
                problems.append(RefProblem(path.as_posix(), pointer, ref, where, reason))
    return problems


def file_refs(schemas: Mapping[str, Any]) -> dict[str, Any]:
    """Return copies of ``schemas`` (file stem -> schema) whose references name files.

    Every ``$ref`` that resolves (against its schema's ``$id``) to another schema of the set
    becomes ``<stem>.schema.json`` (plus its fragment), whatever version its ``$id`` carries;
    local (``#…``) and unknown references are left as they are.
    """
    stems = {
        str(schema["$id"]).partition("#")[0]: stem
        for stem, schema in schemas.items()
        if isinstance(schema, dict) and isinstance(schema.get("$id"), str)
    }

    def rewrite(base: str, self_stem: str) -> Any:  # noqa: ANN401 - a map_subschemas callback
        def change(node: dict[str, Any]) -> dict[str, Any]:
            ref = node.get("$ref")
            if not isinstance(ref, str) or ref.startswith("#"):
                return node
            uri, _, fragment = urljoin(base, ref).partition("#")
            stem = stems.get(uri)
            if stem is None:
                return node
            target = "" if stem == self_stem else f"{stem}{_SUFFIX}"
            return {**node, "$ref": f"{target}#{fragment}" if fragment else target or "#"}

        return change

    return {
        stem: map_subschemas(schema, rewrite(str(schema.get("$id", "")), stem))
        if isinstance(schema, dict)
        else schema
        for stem, schema in schemas.items()
    }
