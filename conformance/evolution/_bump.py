"""``srdh contract bump NAME``: give a contract its next ``$id`` version, everywhere at once.

A breaking change of a contract needs a new ``$id`` version (``…/v1/x.schema.json`` →
``…/v2/x.schema.json``). Changing the ``$id`` alone leaves every ``$ref`` to the contract
pointing at a version no schema has any more, and every document naming it by ``$schema`` naming
a retired version. :func:`bump_contract` does the whole step in a repository:

1. the contract's ``$id`` gets the next version; its own references to other contracts are
   written as absolute URIs (a relative one would now resolve under the new version's folder);
2. every ``$ref`` of the other schemas that resolves to the old ``$id`` names the new one
   (its full ``$id`` URI, fragment kept);
3. every JSON/NDJSON document under :data:`DOCUMENT_FOLDERS` whose ``$schema`` (or any string)
   is exactly the old ``$id`` names the new one;
4. the change reaches every contract that references it, in that contract's direction: a
   referrer for which it is breaking is bumped too (and so on);
5. the freeze lock records the new versions and the referrers' compatible (minor) changes;
6. the Pydantic models and TypeScript types are regenerated when the repository is the running
   kit's checkout (otherwise the commands are returned, to be run there).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from conformance.evolution._judge import ContractState, judge
from conformance.evolution._lock import EvolutionError, update_lock
from contracts import iter_refs, load_json_file

__all__ = ["DOCUMENT_FOLDERS", "REGENERATE", "BumpResult", "bump_contract", "regenerate"]

DOCUMENT_FOLDERS = ("schemas/examples", "contracts/data", "conformance/fixtures", "features")
"""Folders (relative to the repository) whose JSON documents may name a contract's ``$id``."""

REGENERATE = (
    ("contracts.codegen", "python -m contracts.codegen"),
    ("contracts.codegen_typescript", "python -m contracts.codegen_typescript"),
)
"""The generators to run after a bump: (module, the command as a user types it)."""

_SUFFIX = ".schema.json"
_VERSION = re.compile(r"/v(\d+)/([^/]+)$")
_KIT_CHECKOUT = Path(__file__).resolve().parents[2]


@dataclass
class BumpResult:
    """What :func:`bump_contract` did.

    Attributes:
        bumped: ``(contract, old $id, new $id)`` in the order they were bumped.
        reasons: contract -> why it was bumped (the requested one: ``requested``).
        rewritten: the files changed (schemas and documents), relative to the repository.
        regenerated: the generator commands that ran.
        to_run: the generator commands still to run (the repository is not the kit's checkout,
            or a generator failed: its message follows the command).
    """

    bumped: list[tuple[str, str, str]] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    rewritten: list[str] = field(default_factory=list)
    regenerated: list[str] = field(default_factory=list)
    to_run: list[str] = field(default_factory=list)


def _write_schema(path: Path, schema: object) -> None:
    path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _next_id(schema_id: str) -> str:
    match = _VERSION.search(schema_id)
    if match is None:
        msg = f"$id {schema_id!r} has no /v<N>/ version segment to bump"
        raise EvolutionError(msg)
    return f"{schema_id[: match.start()]}/v{int(match.group(1)) + 1}/{match.group(2)}"


def _set_ref(document: object, pointer: str, value: str) -> None:
    node = document
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]  # type: ignore[index]
    node[tokens[-1]] = value  # type: ignore[index]


def _retarget(schemas: Path, old_id: str, new_id: str, bumped_file: Path) -> list[Path]:
    """Steps 1-2 of the module docstring; return the schema files changed."""
    changed: list[Path] = []
    for path in sorted(schemas.glob(f"*{_SUFFIX}")):
        schema = load_json_file(path)
        base = str(schema.get("$id", "")) if isinstance(schema, dict) else ""
        before = json.dumps(schema)
        if path == bumped_file:
            schema["$id"] = new_id
        for pointer, ref in list(iter_refs(schema)):
            if ref.startswith("#"):
                continue
            absolute = urljoin(base, ref)
            uri, hash_, fragment = absolute.partition("#")
            if uri == old_id:
                _set_ref(schema, pointer, f"{new_id}{hash_}{fragment}")
            elif path == bumped_file and urljoin(new_id, ref) != absolute:
                _set_ref(schema, pointer, absolute)
        if json.dumps(schema) != before:
            _write_schema(path, schema)
            changed.append(path)
    return changed


def _rewrite_documents(repo: Path, old_id: str, new_id: str) -> list[Path]:
    """Step 3: replace the JSON string ``old_id`` (with or without a fragment) by ``new_id``."""
    pattern = re.compile('"' + re.escape(old_id) + r'(#[^"]*)?"')
    changed: list[Path] = []
    for folder in DOCUMENT_FOLDERS:
        root = repo / folder
        files = sorted([*root.rglob("*.json"), *root.rglob("*.ndjson")]) if root.is_dir() else []
        for path in files:
            text = path.read_text(encoding="utf-8")
            new_text = pattern.sub(lambda m: f'"{new_id}{m.group(1) or ""}"', text)
            if new_text != text:
                path.write_text(new_text, encoding="utf-8")
                changed.append(path)
    return changed


def _bump_one(repo: Path, contract: str, result: BumpResult) -> None:
    schemas = repo / "schemas"
    path = schemas / f"{contract}{_SUFFIX}"
    schema = load_json_file(path)
    old_id = str(schema.get("$id", "")) if isinstance(schema, dict) else ""
    new_id = _next_id(old_id)
    files = _retarget(schemas, old_id, new_id, path) + _rewrite_documents(repo, old_id, new_id)
    result.bumped.append((contract, old_id, new_id))
    for file in files:
        relative = file.relative_to(repo).as_posix()
        if relative not in result.rewritten:
            result.rewritten.append(relative)


def regenerate(repo: Path) -> tuple[list[str], list[str]]:
    """Run the :data:`REGENERATE` generators when ``repo`` is the running kit's checkout.

    Returns ``(commands run, commands still to run)``: every command is still to run when
    ``repo`` is another checkout (the generators write into the running kit); a command that
    failed is still to run, followed by its last line of output in parentheses.
    """
    if repo.resolve() != _KIT_CHECKOUT:
        return [], [command for _, command in REGENERATE]
    ran: list[str] = []
    to_run: list[str] = []
    for module, command in REGENERATE:
        done = subprocess.run(  # noqa: S603 - our interpreter, a module name we chose
            [sys.executable, "-m", module],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode == 0:
            ran.append(command)
        else:
            why = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["failed"]
            to_run.append(f"{command} ({why[0]})")
    return ran, to_run


def bump_contract(repo: Path, contract: str, *, generate: bool = True) -> BumpResult:
    """Bump ``contract``'s ``$id`` version in ``repo`` (see the module docstring).

    Raises:
        EvolutionError: no such contract schema in ``repo/schemas``; its ``$id`` has no
            ``/v<N>/`` segment; or the freeze lock cannot record the result (a breaking change
            left under a frozen ``$id``, named with its command).
    """
    schemas = repo / "schemas"
    path = schemas / f"{contract}{_SUFFIX}"
    if not path.is_file():
        known = sorted(p.name.removesuffix(_SUFFIX) for p in schemas.glob(f"*{_SUFFIX}"))
        msg = f"{path}: no such contract schema; expected one of: {', '.join(known)}"
        raise EvolutionError(msg)
    lock = schemas / "freeze.lock.json"
    result = BumpResult(reasons={contract: "requested"})
    pending = [contract]
    while pending:
        name = pending.pop(0)
        _bump_one(repo, name, result)
        done = {bumped for bumped, _, _ in result.bumped}
        for verdict in judge(schemas, lock).of(ContractState.BREAKING):
            if verdict.contract not in done and verdict.contract not in pending:
                first = next(c for c in verdict.changes if c.breaking)
                result.reasons[verdict.contract] = (
                    f"{first.rule.label} is breaking in its direction ({first.direction.value}):"
                    f" {first.detail}"
                )
                pending.append(verdict.contract)
    update_lock(schemas, lock)
    if generate:
        result.regenerated, result.to_run = regenerate(repo)
    return result
