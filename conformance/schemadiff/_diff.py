"""Diff two schema files or two schema directories, contract by contract, with directions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from conformance.schemadiff._change import SchemaChange
from conformance.schemadiff._refs import through_refs
from conformance.schemadiff._rules import Direction, rule
from conformance.schemadiff._walk import walk

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = ["SchemaDiffError", "contract_name", "diff_paths", "diff_schemas"]

_SUFFIX = ".schema.json"


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


def diff_schemas(
    old: object, new: object, *, contract: str, direction: Direction
) -> list[SchemaChange]:
    """Classify every change from parsed schema ``old`` to ``new`` of one contract."""
    return [SchemaChange(contract, direction, f.rule, f.pointer, f.detail) for f in walk(old, new)]


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
) -> list[SchemaChange]:
    """Classify the changes between two schema files, or two directories of ``*.schema.json``.

    Every file is read strictly and meta-validated (JSON Schema 2020-12). In directories,
    contracts are named by their ``$id`` (the file name only for a schema without one) and
    paired by that name; a contract only in ``new`` is ``SD021 schema-added``, one only in
    ``old`` is ``SD022 schema-removed``. A change is also reported under every contract that
    reaches the changed place through ``$ref`` (directly or through other contracts), in that
    contract's direction (:func:`~conformance.schemadiff._refs.through_refs`). Each contract's
    direction comes from ``directions`` (normally the ``CONTRACTS`` registry), else ``default``
    (``BOTH``, the strictest).

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
    old_docs, new_docs = _by_contract(old), _by_contract(new)
    changes: list[SchemaChange] = []
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
            old_doc, new_doc = old_docs[name][1], new_docs[name][1]
            changes.extend(diff_schemas(old_doc, new_doc, contract=name, direction=direction))
    schemas = {name: doc for name, (_, doc) in {**old_docs, **new_docs}.items()}
    seen = through_refs(changes, schemas)
    return changes + [
        SchemaChange(c.contract, directions.get(c.contract, default), c.rule, c.pointer, c.detail)
        for c in seen
    ]
