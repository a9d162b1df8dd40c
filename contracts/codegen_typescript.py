"""Regenerate the TypeScript types in ``types/typescript/contracts.ts`` from ``schemas/``.

Usage::

    python -m contracts.codegen_typescript           # rewrite types/typescript/contracts.ts
    python -m contracts.codegen_typescript --check   # exit 1 when the committed file drifted

The generator is json-schema-to-typescript (npm, pinned in ``package.json``; ``npm ci`` installs
it into ``node_modules``). One module holds every contract's types once: the generator reads a
root schema whose ``Contracts`` type maps each contract name (file stem) to its type, so
``Contracts["diagnosis-run"]`` is ``DiagnosisRun``. Before generating, a copy of the schemas is
prepared (the files in ``schemas/`` are not changed); each step is a type-preserving rewrite:

0. Every ``$ref`` to another contract names its file (:func:`contracts.file_refs`; a contract
   bumped to ``v2`` is referred to by its ``$id`` URI).

1. ``if``/``then``/``else`` are dropped: a conditional rule is no TypeScript type (the JSON Schema
   stays the validator; TypeScript types describe shapes).
2. A ``$ref``'s sibling annotations (``description`` …) are dropped: json-schema-to-typescript
   otherwise declares a numbered copy of the referenced type per sibling text (its issue #193).
3. A schema of annotations only (any JSON value, e.g. a presented Tool Call ID) gets
   ``tsType: "unknown"``: json2ts otherwise types it as an object.
4. Sub-schemas that share a ``title`` (and therefore, by :func:`title_clashes`, one shape) become
   one definition: the first in file order, moved into its file's ``$defs`` when it was inline,
   and referenced from the others. So ``DraftAttempt`` or ``ModelComponent`` is declared once.
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

from contracts._annotations import iter_subschemas, map_subschemas, strip_annotations
from contracts._refs import file_refs
from contracts._strict_json import load_json_file

__all__ = [
    "GENERATED",
    "JSON2TS_ARGS",
    "check",
    "generate",
    "main",
    "prepare_schemas",
    "render",
    "title_clashes",
]

REPO: Final = Path(__file__).resolve().parent.parent
GENERATED: Final = REPO / "types" / "typescript" / "contracts.ts"
ROOT_TITLE: Final = "Contracts"

JSON2TS_ARGS: tuple[str, ...] = (
    "--unknownAny",
    "--style.printWidth=100",
    "--bannerComment",
    (
        "/* Generated from schemas/ by json-schema-to-typescript: do not edit. Regenerate with\n"
        " * `python -m contracts.codegen_typescript` (CI fails on drift; see docs/types.md). */"
    ),
)  # fmt: skip
"""The json2ts options: ``unknown`` (not ``any``) for open values, prettier at 100 columns."""

_SUFFIX: Final = ".schema.json"
_CONDITIONALS: Final = ("if", "then", "else")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _at(document: Any, pointer: str) -> Any:  # noqa: ANN401 - any JSON value
    node = document
    for token in pointer.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[_unescape(token)]
    return node


def _shape(node: dict[str, Any]) -> str:
    """The validation content of a titled sub-schema, for comparing two of them."""
    body = {k: v for k, v in node.items() if k not in {"$id", "$schema", "$defs"}}
    return json.dumps(strip_annotations(body), sort_keys=True)


def _qualify(node: Any, stem: str) -> Any:  # noqa: ANN401 - any JSON value
    """Rewrite local ``#/...`` references as ``<stem>.schema.json#/...`` (movable across files)."""
    if isinstance(node, list):
        return [_qualify(item, stem) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: (f"{stem}{_SUFFIX}{value}" if key == "$ref" and str(value).startswith("#") else
              _qualify(value, stem))
        for key, value in node.items()
    }  # fmt: skip


def _simplify_node(node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return {"$ref": node["$ref"]}
    if node and not strip_annotations(node):  # annotations only: any JSON value
        return {**node, "tsType": "unknown"}
    out = {k: v for k, v in node.items() if k not in _CONDITIONALS}
    if "allOf" in out:
        out["allOf"] = [item for item in out["allOf"] if item != {}]
        if not out["allOf"]:
            del out["allOf"]
    return out


def _simplify(schema: Any) -> Any:  # noqa: ANN401 - any JSON Schema
    """Steps 1 and 2 of the module docstring, on every schema position (not on data)."""
    return map_subschemas(schema, _simplify_node)


def _titled(schemas: dict[str, Any]) -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    """Map each title to its ``(stem, pointer, node)`` places, files sorted, pre-order."""
    found: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for stem in sorted(schemas):
        for pointer, node in iter_subschemas(schemas[stem]):
            if isinstance(node.get("title"), str):
                found.setdefault(node["title"], []).append((stem, pointer, node))
    return found


def title_clashes(schemas: dict[str, Any]) -> list[str]:
    """Return one line per ``title`` given to two sub-schemas of different validation content.

    ``schemas`` maps file stems to parsed schemas. One name per concept: generators name types
    after titles, so a title must not stand for two shapes.
    """
    clashes = []
    for title, places in _titled(schemas).items():
        shapes = {_shape(node) for _, _, node in places}
        if len(shapes) > 1:
            where = ", ".join(f"{stem}{_SUFFIX}#{pointer}" for stem, pointer, _ in places)
            clashes.append(f"title {title!r} names {len(shapes)} different schemas: {where}")
    return clashes


def _is_definition(pointer: str) -> bool:
    parts = pointer.split("/")
    return pointer == "" or (len(parts) == 3 and parts[1] in {"$defs", "definitions"})  # noqa: PLR2004 - "", "$defs", name


def prepare_schemas(schemas: dict[str, Any]) -> dict[str, Any]:
    """Return the generator's copy of ``schemas`` (stem -> schema), see the module docstring.

    Raises:
        ValueError: a title names two different shapes (see :func:`title_clashes`).
    """
    clashes = title_clashes(schemas)
    if clashes:
        raise ValueError("; ".join(clashes))
    prepared = {stem: _simplify(_qualify(copy.deepcopy(s), stem)) for stem, s in schemas.items()}
    for title, places in _titled(prepared).items():
        if len(places) < 2:  # noqa: PLR2004 - a single place needs no shared definition
            continue
        stem, pointer, node = places[0]
        if _is_definition(pointer):
            target = f"{stem}{_SUFFIX}#{pointer}" if pointer else f"{stem}{_SUFFIX}"
            others = places[1:]
        else:
            defs = prepared[stem].setdefault("$defs", {})
            if title in defs:
                continue  # the name is taken by another definition: leave the copies
            defs[title] = dict(node)
            target = f"{stem}{_SUFFIX}#/$defs/{title}"
            others = places
        for other_stem, other_pointer, other in others:
            if other_stem == stem and other_pointer == pointer and _is_definition(pointer):
                continue
            try:  # skip a copy inside a copy already replaced by a reference
                reachable = _at(prepared[other_stem], other_pointer) is other
            except (KeyError, IndexError, TypeError):
                reachable = False
            if not reachable:
                continue
            other.clear()
            other["$ref"] = target
    return prepared


def _root(stems: list[str]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": ROOT_TITLE,
        "description": "Every contract by name (schema file stem): Contracts['diagnosis-run'] "
        "is the DiagnosisRun type.",
        "type": "object",
        "properties": {stem: {"$ref": f"{stem}{_SUFFIX}"} for stem in stems},
        "required": stems,
        "additionalProperties": False,
    }


def _json2ts(repo: Path) -> Path:
    return repo / "node_modules" / ".bin" / "json2ts"


def render(schema_folder: Path | None = None, repo: Path = REPO) -> str:
    """Return the generated TypeScript module for the schemas in ``schema_folder``.

    Raises:
        RuntimeError: json2ts is not installed (``npm ci``) or failed (its stderr included).
        ValueError: see :func:`prepare_schemas`.
    """
    folder = schema_folder or repo / "schemas"
    schemas = file_refs(
        {
            path.name.removesuffix(_SUFFIX): load_json_file(path)
            for path in sorted(folder.glob(f"*{_SUFFIX}"))
        }
    )
    prepared = prepare_schemas(schemas)
    executable = _json2ts(repo)
    if not executable.is_file():
        msg = f"{executable} is missing: run `npm ci` in {repo} (package.json pins it)"
        raise RuntimeError(msg)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for stem, schema in prepared.items():
            (work / f"{stem}{_SUFFIX}").write_text(json.dumps(schema, indent=1), "utf-8")
        (work / "contracts.json").write_text(json.dumps(_root(sorted(prepared))), "utf-8")
        out = work / "contracts.ts"
        command = [str(executable), "-i", "contracts.json", "-o", str(out), *JSON2TS_ARGS]
        try:
            done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv
        except OSError as error:
            msg = f"cannot run {executable}: {error.strerror}"
            raise RuntimeError(msg) from None
        if done.returncode != 0 or not out.is_file():
            msg = f"json2ts failed ({done.returncode}): {done.stderr.strip()}"
            raise RuntimeError(msg)
        return out.read_text("utf-8")


def generate(target: Path = GENERATED) -> None:
    """Write :func:`render`'s module to ``target`` (its folder is created)."""
    text = render()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, "utf-8")


def check(target: Path = GENERATED) -> bool:
    """Return True when ``target`` holds exactly what :func:`render` generates now."""
    return target.is_file() and target.read_text("utf-8") == render()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return 0 (ok), 1 (drift or generator failure)."""
    parser = argparse.ArgumentParser(
        prog="python -m contracts.codegen_typescript", description=__doc__
    )
    parser.add_argument("--check", action="store_true", help="report drift instead of writing")
    args = parser.parse_args(argv)
    where = GENERATED.relative_to(REPO)
    try:
        if args.check:
            if check():
                sys.stdout.write(f"{where} is up to date\n")
                return 0
            sys.stderr.write(f"drifted: {where} (run: python -m contracts.codegen_typescript)\n")
            return 1
        generate()
    except (RuntimeError, ValueError) as error:
        sys.stderr.write(f"{error}\n")
        return 1
    sys.stdout.write(f"regenerated {where}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
