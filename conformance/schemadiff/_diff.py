"""Diff two schema files or two schema directories, contract by contract, with directions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conformance.schemadiff._rules import Direction, Rule, rule
from conformance.schemadiff._walk import walk

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = ["SchemaChange", "SchemaDiffError", "contract_name", "diff_paths", "diff_schemas"]

_SUFFIX = ".schema.json"


class SchemaDiffError(Exception):
    """A schema file or directory cannot be read: ``path`` and a one-line ``reason``."""

    def __init__(self, path: Path, reason: str) -> None:
        """Name the file and what is wrong with it."""
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class SchemaChange:
    """One classified change of one contract.

    Attributes:
        contract: the contract (file stem, e.g. ``diagnosis-draft``).
        direction: the contract's direction, which decides ``breaking``.
        rule: the rule (``SD003 enum-value-removed``).
        pointer: JSON pointer into the new schema (``/properties/state/enum``).
        detail: one line saying what changed.
    """

    contract: str
    direction: Direction
    rule: Rule
    pointer: str
    detail: str

    @property
    def breaking(self) -> bool:
        """True when the change breaks the other side of this contract's direction."""
        return self.rule.breaking_for(self.direction)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form: contract, direction, rule id and name, pointer, detail, breaking."""
        return {
            "contract": self.contract,
            "direction": self.direction.value,
            "rule_id": self.rule.rule_id,
            "rule": self.rule.name,
            "pointer": self.pointer,
            "detail": self.detail,
            "breaking": self.breaking,
        }


def contract_name(path: Path) -> str:
    """The contract name of a schema file: ``diagnosis-draft.schema.json`` → ``diagnosis-draft``."""
    name = path.name
    return name[: -len(_SUFFIX)] if name.endswith(_SUFFIX) else path.stem


def _load(path: Path) -> Any:  # noqa: ANN401 - a parsed JSON Schema is any JSON value
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SchemaDiffError(path, "no such file") from None
    except OSError as exc:
        raise SchemaDiffError(path, f"cannot read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaDiffError(path, f"line {exc.lineno}: not JSON ({exc.msg})") from None


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


def diff_paths(
    old: Path,
    new: Path,
    *,
    directions: Mapping[str, Direction],
    default: Direction = Direction.BOTH,
) -> list[SchemaChange]:
    """Classify the changes between two schema files, or two directories of ``*.schema.json``.

    Files in directories are paired by contract name; a contract only in ``new`` is
    ``SD021 schema-added``, one only in ``old`` is ``SD022 schema-removed``. Each contract's
    direction comes from ``directions`` (normally the ``CONTRACTS`` registry), else ``default``
    (``BOTH``, the strictest).

    Raises:
        SchemaDiffError: a path is missing, unreadable, not JSON, or a file is compared with a
            directory.
    """
    for path in (old, new):
        if not path.exists():
            raise SchemaDiffError(path, "no such file or directory")
    if old.is_dir() != new.is_dir():
        raise SchemaDiffError(new, "compare a file with a file, or a directory with a directory")
    if not old.is_dir():
        name = contract_name(new)
        direction = directions.get(name, default)
        return diff_schemas(_load(old), _load(new), contract=name, direction=direction)
    old_files, new_files = _schema_files(old), _schema_files(new)
    changes: list[SchemaChange] = []
    for name in sorted(set(old_files) | set(new_files)):
        direction = directions.get(name, default)
        if name not in new_files:
            changes.append(
                SchemaChange(name, direction, rule("schema-removed"), "", "contract removed")
            )
        elif name not in old_files:
            changes.append(
                SchemaChange(name, direction, rule("schema-added"), "", "contract added")
            )
        else:
            old_doc, new_doc = _load(old_files[name]), _load(new_files[name])
            changes.extend(diff_schemas(old_doc, new_doc, contract=name, direction=direction))
    return changes
