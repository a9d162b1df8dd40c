"""Bundle a contract schema with every schema it references into one self-contained document.

Tools that only follow local references (hypothesis-jsonschema; many code generators used by
Java teams) get one file per contract: each referenced file's body and ``$defs`` move into the
bundle's ``$defs`` under ``<stem>`` and ``<stem>.<def>``, and every ``$ref`` becomes local.
"""

from __future__ import annotations

from typing import Any

from contracts._paths import schema_path
from contracts._strict_json import load_json_file

__all__ = ["bundle_schema"]

_SUFFIX = ".schema.json"


def _load(stem: str) -> dict[str, Any]:
    loaded: dict[str, Any] = load_json_file(schema_path(stem))
    return loaded


def _local(ref: str, current: str) -> tuple[str, str]:
    """Return ``(stem, bundle $ref)`` for a ``$ref`` written inside the file ``current``."""
    target, _, fragment = ref.partition("#")
    target = target.rsplit("/", 1)[-1]  # a bumped contract's $id URI names its file last
    stem = target[: -len(_SUFFIX)] if target else current
    if not fragment:
        return stem, f"#/$defs/{stem}"
    prefix = "/$defs/"
    if not fragment.startswith(prefix) or "/" in fragment[len(prefix) :]:
        msg = f"{current}{_SUFFIX}: unsupported $ref {ref!r} (only files and #/$defs/<name>)"
        raise ValueError(msg)
    return stem, f"#/$defs/{stem}.{fragment[len(prefix) :]}"


def _rewrite(node: Any, current: str, seen: set[str]) -> Any:  # noqa: ANN401 - any JSON value
    if isinstance(node, list):
        return [_rewrite(item, current, seen) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            stem, out[key] = _local(value, current)
            seen.add(stem)
        else:
            out[key] = _rewrite(value, current, seen)
    return out


def bundle_schema(contract: str) -> dict[str, Any]:
    """Return ``contract``'s schema with all references inlined as local ``$defs``.

    The result has no ``$id`` on inner parts and validates exactly the same instances.

    Raises:
        KeyError: ``contract`` has no schema file.
        ValueError: a ``$ref`` of a form this bundler does not support.
    """
    defs: dict[str, Any] = {}
    pending, done = [contract], set()
    root_body: dict[str, Any] = {}
    while pending:
        stem = pending.pop()
        if stem in done:
            continue
        done.add(stem)
        seen: set[str] = set()
        schema = _rewrite(_load(stem), stem, seen)
        for name, definition in schema.pop("$defs", {}).items():
            defs[f"{stem}.{name}"] = definition
        body = {k: v for k, v in schema.items() if k not in {"$schema", "$id"}}
        defs[stem] = body
        if stem == contract:
            root_body = body
        pending.extend(sorted(seen - done))
    bundled = {"$schema": "https://json-schema.org/draft/2020-12/schema", **root_body}
    del defs[contract]
    bundled["$defs"] = dict(sorted(defs.items()))
    return bundled
