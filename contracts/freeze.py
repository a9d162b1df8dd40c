"""The freeze lock: a frozen schema may change only together with its ``$id`` version.

``schemas/freeze.lock.json`` maps every frozen schema's ``$id`` to the SHA-256 of its RFC 8785
canonical JSON. Usage::

    python -m contracts.freeze --check    # exit 1 naming every schema changed under a frozen $id
    python -m contracts.freeze --update   # rewrite the lock from the current schemas

A schema whose ``$id`` is not in the lock (a new contract, or one bumped ``v1`` -> ``v2``) passes
``--check`` with a note; ``--update`` freezes it (requirement "Contract set is frozen").

The kit's own protocol schemas (:data:`PROTOCOL_SCHEMAS`: the adapter messages, the Scenario
Fixture and the Run Observation) are versioned by the stdio protocol version instead of their
``$id``: their lock key is ``<$id>#protocol-<version>``, with the version taken from the
``hello`` message's ``protocol_version`` const in ``adapter-message.schema.json``. Changing one of
them therefore needs a protocol version bump, which every IUT sees in the handshake.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from contracts._canonical import digest
from contracts._paths import schema_dir
from contracts._strict_json import load_json_file

__all__ = [
    "PROTOCOL_SCHEMAS",
    "FreezeReport",
    "check",
    "compute_lock",
    "default_lock_path",
    "main",
    "protocol_version",
    "update",
]

PROTOCOL_SCHEMAS: Final = frozenset({"adapter-message", "run-observation", "scenario-fixture"})
"""Schema names (file stems) locked under the protocol version rather than their ``$id``."""


def default_lock_path() -> Path:
    """``<schemas>/freeze.lock.json``."""
    return schema_dir() / "freeze.lock.json"


def protocol_version(schemas: Path) -> str:
    """Return the ``hello`` ``protocol_version`` const of ``schemas/adapter-message.schema.json``.

    Raises:
        FileNotFoundError: the folder has no adapter-message schema.
        KeyError: the schema has no ``HelloMessage.protocol_version`` const.
    """
    path = schemas / "adapter-message.schema.json"
    schema: dict[str, Any] = load_json_file(path)
    version: str = schema["$defs"]["HelloMessage"]["properties"]["protocol_version"]["const"]
    return version


def compute_lock(schemas: Path) -> dict[str, str]:
    """Return ``{key: canonical sha256}`` for every ``*.schema.json`` in ``schemas``.

    The key is the schema's ``$id``; for a :data:`PROTOCOL_SCHEMAS` member it is
    ``<$id>#protocol-<version>`` (see :func:`protocol_version`).
    """
    lock = {}
    version: str | None = None
    for path in sorted(schemas.glob("*.schema.json")):
        schema = load_json_file(path, canonical=True)  # digested (RFC 8785)
        key = schema["$id"]
        if path.name.removesuffix(".schema.json") in PROTOCOL_SCHEMAS:
            version = version or protocol_version(schemas)
            key = f"{key}#protocol-{version}"
        lock[key] = digest(schema)
    return dict(sorted(lock.items()))


@dataclass
class FreezeReport:
    """The outcome of :func:`check`.

    Attributes:
        changed: ``$id``s whose content changed while the ``$id`` stayed (errors).
        unfrozen: ``$id``s not in the lock yet (new or bumped; notes).
        retired: ``$id``s in the lock with no schema any more (notes).
    """

    changed: list[str] = field(default_factory=list)
    unfrozen: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no frozen schema changed under its frozen ``$id``."""
        return not self.changed


def _read_lock(lock_path: Path) -> dict[str, str]:
    loaded = load_json_file(lock_path)
    frozen: dict[str, str] = loaded["schemas"]
    return frozen


def check(schemas: Path | None = None, lock_path: Path | None = None) -> FreezeReport:
    """Compare the schemas in ``schemas`` with the lock.

    Raises:
        FileNotFoundError: the lock file does not exist (run ``--update``).
    """
    current = compute_lock(schemas or schema_dir())
    frozen = _read_lock(lock_path or default_lock_path())
    return FreezeReport(
        changed=[i for i in current if i in frozen and frozen[i] != current[i]],
        unfrozen=[i for i in current if i not in frozen],
        retired=[i for i in frozen if i not in current],
    )


def update(schemas: Path | None = None, lock_path: Path | None = None) -> dict[str, str]:
    """Rewrite the lock from the current schemas and return its ``schemas`` map."""
    current = compute_lock(schemas or schema_dir())
    document = {
        "description": "RFC 8785 canonical SHA-256 of every frozen schema, keyed by $id. "
        "Regenerate with: python -m contracts.freeze --update",
        "schemas": current,
    }
    target = lock_path or default_lock_path()
    target.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return current


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return 0 (ok) or 1 (a frozen schema changed, or no lock)."""
    parser = argparse.ArgumentParser(prog="python -m contracts.freeze", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="fail on a changed frozen schema")
    action.add_argument("--update", action="store_true", help="rewrite the lock")
    parser.add_argument("--schemas", type=Path, default=None, help="schema folder")
    parser.add_argument("--lock", type=Path, default=None, help="lock file")
    args = parser.parse_args(argv)
    if args.update:
        frozen = update(args.schemas, args.lock)
        sys.stdout.write(f"froze {len(frozen)} schemas\n")
        return 0
    try:
        report = check(args.schemas, args.lock)
    except FileNotFoundError as error:
        sys.stderr.write(
            f"{error.filename}: no freeze lock (run: python -m contracts.freeze --update)\n"
        )
        return 1
    for schema_id in report.changed:
        sys.stderr.write(
            f"{schema_id}: content changed but its version did not (bump the version in "
            "$id, e.g. v1 -> v2, or for a protocol schema the hello protocol_version; "
            "then run --update)\n"
        )
    for schema_id in report.unfrozen:
        sys.stdout.write(f"{schema_id}: not frozen yet (run --update)\n")
    for schema_id in report.retired:
        sys.stdout.write(f"{schema_id}: frozen but no longer present (superseded)\n")
    if report.ok:
        sys.stdout.write("freeze lock ok\n")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
