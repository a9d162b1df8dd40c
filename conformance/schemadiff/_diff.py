"""Diff two schema files or two schema directories, contract by contract, with directions."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from conformance.schemadiff._change import SchemaChange
from conformance.schemadiff._refs import through_refs
from conformance.schemadiff._rules import Direction, rule
from conformance.schemadiff._walk import walk

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping
    from pathlib import Path

__all__ = [
    "SchemaDiffError",
    "contract_name",
    "diff_documents",
    "diff_paths",
    "diff_schemas",
    "id_version",
]

_SUFFIX = ".schema.json"
_VERSION = re.compile(r"/v(\d+)/[^/]*$")
PROTOCOL_VERSION_AT = (
    "adapter-message",
    ("$defs", "HelloMessage", "properties", "protocol_version", "const"),
)
"""Where the stdio protocol version lives: contract, then the path to its ``const``."""


class SchemaDiffError(Exception):
    """A schema file or directory cannot be read: ``path`` and a one-line ``reason``."""

    def __init__(self, path: Path, reason: str) -> None:
        """Name the file and what is wrong with it."""
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def contract_name(path: Path) -> str:
    """The contract name of a schema file: ``diagnosis-draft.schema.json`` → ``diagnosis-draft``."""
    name = path.name
    return name[: -len(_SUFFIX)] if name.endswith(_SUFFIX) else path.stem


def _id_name(schema: object) -> str | None:
    """The contract named by a schema's ``$id`` (``…/query-scope.schema.json``: ``query-scope``)."""
    schema_id = schema.get("$id") if isinstance(schema, dict) else None
    if not isinstance(schema_id, str):
        return None
    last = urlsplit(schema_id).path.rsplit("/", 1)[-1]
    return last[: -len(_SUFFIX)] if last.endswith(_SUFFIX) else (last or None)


def _load(path: Path) -> Any:  # noqa: ANN401 - a parsed JSON Schema is any JSON value
    """Read ``path`` strictly and check it is a JSON Schema 2020-12 (meta-validation).

    Raises:
        SchemaDiffError: missing, unreadable, not I-JSON, or not a valid 2020-12 schema.
    """
    from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    from contracts import StrictJSONError, load_json_file  # noqa: PLC0415 - lazy, as above

    if not path.exists():
        raise SchemaDiffError(path, "no such file")
    try:
        schema = load_json_file(path)
    except StrictJSONError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        raise SchemaDiffError(path, f"{where}{exc.message} at {exc.pointer or '/'}") from None
    errors = sorted(
        Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        first = errors[0]
        pointer = "".join(f"/{part}" for part in first.absolute_path) or "/"
        reason = f"not a valid JSON Schema 2020-12 at {pointer}: {first.message}"
        raise SchemaDiffError(path, reason)
    return schema


def id_version(schema: object) -> int | None:
    """The version of a schema's ``$id`` (``…/v2/x.schema.json``: 2), or None without one."""
    schema_id = schema.get("$id") if isinstance(schema, dict) else None
    if not isinstance(schema_id, str):
        return None
    match = _VERSION.search(urlsplit(schema_id).path)
    return int(match.group(1)) if match else None


def _versionless(node: Any, base: str) -> Any:  # noqa: ANN401 - any JSON value
    """A copy of ``node`` whose references to other contracts name them without a version.

    ``tool-call-id.schema.json`` (against a ``…/v1/`` ``$id``) and
    ``https://srdh.dev/schemas/v2/tool-call-id.schema.json`` both become
    ``tool-call-id.schema.json``: pointing a reference at a contract's next version is no change
    of the referring schema itself; what changed in the target is reported under the referrer by
    :func:`~conformance.schemadiff._refs.through_refs`.
    """
    if isinstance(node, list):
        return [_versionless(item, base) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            uri, hash_, fragment = urljoin(base, value).partition("#")
            name = urlsplit(uri).path.rsplit("/", 1)[-1]
            out[key] = f"{name}{hash_}{fragment}" if name.endswith(_SUFFIX) else value
        else:
            out[key] = _versionless(value, base)
    return out


def _bump(old: object, new: object) -> tuple[object, object, str | None]:
    """Set a version bump aside: ``(old, new with old's $id, detail)`` when it is one."""
    before, after = id_version(old), id_version(new)
    same = _id_name(old) is not None and _id_name(old) == _id_name(new)
    if not (same and before is not None and after is not None and after > before):
        return old, new, None
    if not isinstance(old, dict) or not isinstance(new, dict):  # pragma: no cover - implied above
        return old, new, None
    return old, {**new, "$id": old["$id"]}, f"$id version v{before} -> v{after}"


def diff_schemas(
    old: object, new: object, *, contract: str, direction: Direction
) -> list[SchemaChange]:
    """Classify every change from parsed schema ``old`` to ``new`` of one contract.

    A higher ``$id`` version of the same contract is ``SD025 version-bumped`` (neutral), and
    marks every breaking change of the diff as made with a bump (:attr:`SchemaChange.bumped`);
    references are compared without versions (:func:`_versionless`).
    """
    old, new, bumped = _bump(old, new)
    base_old = old.get("$id", "") if isinstance(old, dict) else ""
    base_new = new.get("$id", "") if isinstance(new, dict) else ""
    findings = walk(_versionless(old, str(base_old)), _versionless(new, str(base_new)))
    changes = [
        SchemaChange(contract, direction, f.rule, f.pointer, f.detail, bumped=bumped is not None)
        for f in findings
    ]
    if bumped is not None:
        changes.insert(
            0,
            SchemaChange(contract, direction, rule("version-bumped"), "/$id", bumped, bumped=True),
        )
    return changes


def _schema_files(root: Path) -> dict[str, Path]:
    files = {contract_name(p): p for p in sorted(root.glob(f"*{_SUFFIX}"))}
    if not files:
        files = {contract_name(p): p for p in sorted(root.glob("*.json"))}
    return files


def _by_contract(root: Path) -> dict[str, tuple[Path, Any]]:
    """The schemas of a folder, each named by its ``$id`` (else by its file name).

    Raises:
        SchemaDiffError: a file is not a valid schema, or two files name the same contract.
    """
    found: dict[str, tuple[Path, Any]] = {}
    for path in _schema_files(root).values():
        schema = _load(path)
        name = _id_name(schema) or contract_name(path)
        if name in found:
            reason = f"names contract {name!r} by its $id, as {found[name][0].name} does"
            raise SchemaDiffError(path, reason)
        found[name] = (path, schema)
    return found


def diff_paths(
    old: Path,
    new: Path,
    *,
    directions: Mapping[str, Direction],
    default: Direction = Direction.BOTH,
    protocol: Collection[str] = (),
) -> list[SchemaChange]:
    """Classify the changes between two schema files, or two directories of ``*.schema.json``.

    Every file is read strictly and meta-validated (JSON Schema 2020-12). In directories,
    contracts are named by their ``$id`` (the file name only for a schema without one) and
    paired by that name (:func:`diff_documents`). Each contract's direction comes from
    ``directions`` (normally the ``CONTRACTS`` registry), else ``default`` (``BOTH``, the
    strictest); the contracts named in ``protocol`` are versioned by the stdio protocol.

    Raises:
        SchemaDiffError: a path is missing, unreadable, not I-JSON, not a valid schema, two
            files name one contract, or a file is compared with a directory.
    """
    for path in (old, new):
        if not path.exists():
            raise SchemaDiffError(path, "no such file or directory")
    if old.is_dir() != new.is_dir():
        raise SchemaDiffError(new, "compare a file with a file, or a directory with a directory")
    if not old.is_dir():
        old_doc, new_doc = _load(old), _load(new)
        name = _id_name(new_doc) or contract_name(new)
        direction = directions.get(name, default)
        return diff_schemas(old_doc, new_doc, contract=name, direction=direction)
    old_docs = {name: doc for name, (_, doc) in _by_contract(old).items()}
    new_docs = {name: doc for name, (_, doc) in _by_contract(new).items()}
    return diff_documents(
        old_docs, new_docs, directions=directions, default=default, protocol=protocol
    )


def diff_documents(
    old_docs: Mapping[str, Any],
    new_docs: Mapping[str, Any],
    *,
    directions: Mapping[str, Direction],
    default: Direction = Direction.BOTH,
    protocol: Collection[str] = (),
) -> list[SchemaChange]:
    """Classify the changes between two schema sets (contract name -> parsed schema).

    A contract only in ``new_docs`` is ``SD021 schema-added``, one only in ``old_docs`` is
    ``SD022 schema-removed``. A change is also reported under every contract that reaches the
    changed place through ``$ref`` (directly or through other contracts), in that contract's
    direction (:func:`~conformance.schemadiff._refs.through_refs`); it counts as made with a
    version bump when that contract's ``$id`` version went up too. A contract named in
    ``protocol`` is versioned by the stdio protocol (:attr:`SchemaChange.protocol`): its changes
    count as made with a bump when the hello ``protocol_version`` (:data:`PROTOCOL_VERSION_AT`)
    changed.
    """
    changes: list[SchemaChange] = []
    bumped: set[str] = set()
    for name in sorted(set(old_docs) | set(new_docs)):
        direction = directions.get(name, default)
        if name not in new_docs:
            changes.append(
                SchemaChange(name, direction, rule("schema-removed"), "", "contract removed")
            )
        elif name not in old_docs:
            changes.append(
                SchemaChange(name, direction, rule("schema-added"), "", "contract added")
            )
        else:
            found = diff_schemas(old_docs[name], new_docs[name], contract=name, direction=direction)
            bumped |= {c.contract for c in found if c.rule.name == "version-bumped"}
            changes.extend(found)
    schemas = {**old_docs, **new_docs}
    seen = through_refs([c for c in changes if c.rule.name != "version-bumped"], schemas)
    every = changes + [
        replace(
            SchemaChange(
                c.contract, directions.get(c.contract, default), c.rule, c.pointer, c.detail
            ),
            bumped=c.contract in bumped,
        )
        for c in seen
    ]
    protocol_bumped = _protocol_version(old_docs) != _protocol_version(new_docs)
    return [
        replace(c, protocol=True, bumped=c.bumped or protocol_bumped)
        if c.contract in protocol
        else c
        for c in every
    ]


def _protocol_version(docs: Mapping[str, Any]) -> object:
    """The hello ``protocol_version`` const of the set's ``adapter-message``, or None."""
    node: object = docs.get(PROTOCOL_VERSION_AT[0])
    for token in PROTOCOL_VERSION_AT[1]:
        node = node.get(token) if isinstance(node, dict) else None
    return node
