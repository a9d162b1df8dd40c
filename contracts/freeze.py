"""The freeze lock: what a frozen schema validates may change only together with its ``$id``.

``schemas/freeze.lock.json`` holds two SHA-256 digests (of RFC 8785 canonical JSON) per frozen
schema, keyed by its ``$id``:

- ``schemas``: the *validation* part, the schema without its annotation keywords (``title``,
  ``description``, ``examples``, ``$comment``; :mod:`contracts._annotations`). A change here is a
  contract change. ``srdh contract check`` classifies it against the frozen copy (``frozen``) with
  the schema differ, in the contract's direction: a compatible change is a *minor* change that
  ``srdh contract update`` records (``minor`` counts them); a breaking one needs a new ``$id``
  version (``srdh contract bump NAME``). This module alone cannot classify (the differ is a
  conformance tool): its ``--update`` refuses every such change.
- ``annotations``: the whole schema. A change only here (a new ``title`` for code generators, a
  reworded ``description``) is non-breaking: ``--check`` reports it until ``--update`` records it.

Usage::

    python -m contracts.freeze --check    # exit 1 naming every changed or unrecorded schema
    python -m contracts.freeze --update   # record annotations and new $ids; refuse a changed
                                          # validation part under a frozen $id

A schema whose ``$id`` is not in the lock (a new contract, or one bumped ``v1`` -> ``v2``) passes
``--check`` with a note; ``--update`` freezes it (requirement "Contract set is frozen").

The kit's own protocol schemas (:data:`PROTOCOL_SCHEMAS`: the adapter messages, the Scenario
Fixture and the Run Observation) are versioned by the stdio protocol version instead of their
``$id``: their lock key is ``<$id>#protocol-<version>``, with the version taken from the
``hello`` message's ``protocol_version`` const in ``adapter-message.schema.json``. Changing one of
them therefore needs a protocol version bump, which every IUT sees in the handshake. Because the
lock cannot know whether that version was released, ``--update`` records a protocol schema's
changed validation part (printing it): bump ``protocol_version`` once a version is released.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from contracts._annotations import strip_annotations
from contracts._canonical import digest
from contracts._paths import schema_dir
from contracts._strict_json import load_json_file

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = [
    "PROTOCOL_SCHEMAS",
    "FreezeError",
    "FreezeReport",
    "Lock",
    "check",
    "compute_lock",
    "default_lock_path",
    "main",
    "protocol_version",
    "read_lock",
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


@dataclass(frozen=True)
class Lock:
    """The digest maps of a freeze lock, and what was frozen (see the module docstring).

    Attributes:
        validation: key -> digest of the schema without annotation keywords.
        annotations: key -> digest of the whole schema.
        frozen: key -> the schema without annotation keywords (what the digest is of), so that a
            later change can be classified against it (``srdh contract check``).
        minor: key -> how many compatible (minor) changes were recorded under that key.
    """

    validation: dict[str, str]
    annotations: dict[str, str]
    frozen: dict[str, Any] = field(default_factory=dict)
    minor: dict[str, int] = field(default_factory=dict)


class FreezeError(Exception):
    """``--update`` refused: a frozen ``$id``'s validation part changed (``str()`` names them)."""


def compute_lock(schemas: Path) -> Lock:
    """Return the :class:`Lock` of every ``*.schema.json`` in ``schemas``.

    The key is the schema's ``$id``; for a :data:`PROTOCOL_SCHEMAS` member it is
    ``<$id>#protocol-<version>`` (see :func:`protocol_version`).
    """
    validation, annotations, frozen = {}, {}, {}
    version: str | None = None
    for path in sorted(schemas.glob("*.schema.json")):
        schema = load_json_file(path, canonical=True)  # digested (RFC 8785)
        key = schema["$id"]
        if path.name.removesuffix(".schema.json") in PROTOCOL_SCHEMAS:
            version = version or protocol_version(schemas)
            key = f"{key}#protocol-{version}"
        frozen[key] = strip_annotations(schema)
        validation[key] = digest(frozen[key])
        annotations[key] = digest(schema)
    return Lock(
        dict(sorted(validation.items())),
        dict(sorted(annotations.items())),
        dict(sorted(frozen.items())),
    )


@dataclass
class FreezeReport:
    """The outcome of :func:`check`.

    Attributes:
        changed: keys whose validation part changed while the ``$id`` stayed (errors).
        annotated: keys whose annotations changed but not their validation part (non-breaking;
            errors of ``--check`` until ``--update`` records them).
        unfrozen: keys not in the lock yet (new or bumped; notes).
        retired: keys in the lock with no schema any more (notes).
    """

    changed: list[str] = field(default_factory=list)
    annotated: list[str] = field(default_factory=list)
    unfrozen: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the lock records every frozen schema as it is (nothing changed)."""
        return not self.changed and not self.annotated


def read_lock(lock_path: Path | None = None) -> Lock:
    """Read the lock file (default :func:`default_lock_path`).

    Raises:
        FileNotFoundError: the lock file does not exist (run ``--update``).
    """
    loaded = load_json_file(lock_path or default_lock_path())
    return Lock(
        dict(loaded["schemas"]),
        dict(loaded.get("annotations", {})),
        dict(loaded.get("frozen", {})),
        dict(loaded.get("minor", {})),
    )


def check(schemas: Path | None = None, lock_path: Path | None = None) -> FreezeReport:
    """Compare the schemas in ``schemas`` with the lock.

    Raises:
        FileNotFoundError: the lock file does not exist (run ``--update``).
    """
    current = compute_lock(schemas or schema_dir())
    frozen = read_lock(lock_path)
    changed = [
        k
        for k in current.validation
        if frozen.validation.get(k, current.validation[k]) != current.validation[k]
    ]
    return FreezeReport(
        changed=changed,
        annotated=[
            k
            for k in current.annotations
            if k in frozen.validation
            and k not in changed
            and frozen.annotations.get(k) != current.annotations[k]
        ],
        unfrozen=[k for k in current.validation if k not in frozen.validation],
        retired=[k for k in frozen.validation if k not in current.validation],
    )


def update(
    schemas: Path | None = None,
    lock_path: Path | None = None,
    *,
    accept: Collection[str] = (),
) -> Lock:
    """Rewrite the lock from the current schemas and return it.

    Annotation changes and new keys are recorded; so is a protocol schema's changed validation
    part (its key names the protocol version; see the module docstring), and the changed
    validation part of every key in ``accept`` (a change ``srdh contract check`` classified as
    compatible in the contract's direction: a minor change, counted in :attr:`Lock.minor`).

    Raises:
        FreezeError: a schema frozen under its ``$id`` (not a protocol schema, not accepted)
            changed what it validates; nothing is written.
    """
    target = lock_path or default_lock_path()
    current = compute_lock(schemas or schema_dir())
    minor: dict[str, int] = {}
    if target.is_file():
        frozen = read_lock(target)
        moved = [
            k
            for k, value in current.validation.items()
            if k in frozen.validation and frozen.validation[k] != value
        ]
        refused = [k for k in moved if "#protocol-" not in k and k not in accept]
        minor = {
            k: frozen.minor.get(k, 0) + (k in moved and k in accept)
            for k in current.validation
            if frozen.minor.get(k, 0) + (k in moved and k in accept)
        }
        if refused:
            names = ", ".join(refused)
            message = (
                f"{names}: what the schema validates changed under a frozen $id; "
                "`srdh contract update` records a change that is compatible in the contract's "
                "direction, `srdh contract bump NAME` bumps the $id version of a breaking one"
            )
            raise FreezeError(message)
    document = {
        "description": "RFC 8785 canonical SHA-256 per frozen schema, keyed by $id: 'schemas' "
        "digests what the schema validates (annotation keywords title, description, examples, "
        "$comment removed), 'annotations' the whole schema; 'minor' counts the compatible "
        "changes recorded under a $id, 'frozen' holds what 'schemas' digests (to classify a "
        "later change). Regenerate with: srdh contract update",
        "schemas": current.validation,
        "annotations": current.annotations,
        "minor": dict(sorted(minor.items())),
        "frozen": current.frozen,
    }
    target.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return Lock(current.validation, current.annotations, current.frozen, minor)


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
        try:
            frozen = update(args.schemas, args.lock)
        except FreezeError as error:
            sys.stderr.write(f"{error}\n")
            return 1
        sys.stdout.write(f"froze {len(frozen.validation)} schemas\n")
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
            f"{schema_id}: what it validates changed under a frozen $id: classify it with "
            "`srdh contract check` (a compatible change is recorded by `srdh contract update`, "
            "a breaking one needs `srdh contract bump NAME`; for a protocol schema, bump the "
            "hello protocol_version)\n"
        )
    for schema_id in report.annotated:
        sys.stderr.write(
            f"{schema_id}: annotations changed (title, description, examples or $comment; "
            "non-breaking): record them with --update\n"
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
