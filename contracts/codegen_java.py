"""Generate Java classes (Jackson) from ``schemas/`` with quicktype, following docs/types.md.

Usage::

    python -m contracts.codegen_java OUT_DIR   # writes OUT_DIR/dev/srdh/contracts/*.java

The Java classes are not committed: implementers generate them into their own build (or copy the
recipe). quicktype (npm, pinned in ``package.json``) reads the same prepared copy of the schemas
as the TypeScript generator (:func:`contracts.codegen_typescript.prepare_schemas`: no
``if``/``then``, one definition per title). Its output is then annotated for the one thing plain
Jackson fields cannot say, *absent* versus ``null``:

- every class gets ``@JsonInclude(NON_NULL)``: an optional property left ``null`` is omitted
  (the schemas never accept ``null`` for an optional property);
- the getter of a property that is *required and nullable* (``"evidence_status": null``) gets
  ``@JsonInclude(ALWAYS)``: it is written as ``null``, never dropped.

The class of a schema is found by its ``title`` (quicktype appends ``Class`` or ``Element`` when
a name is taken). quicktype merges the variants of a ``oneOf`` into one class; such a class has no
title and keeps ``NON_NULL`` only (docs/types.md: decode the discriminator first).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

from contracts._annotations import iter_subschemas
from contracts._strict_json import load_json_file
from contracts.codegen_typescript import REPO, prepare_schemas

__all__ = ["PACKAGE", "QUICKTYPE_ARGS", "generate", "main", "required_nullable"]

PACKAGE: Final = "dev.srdh.contracts"
QUICKTYPE_ARGS: tuple[str, ...] = (
    "--src-lang", "schema",
    "--lang", "java",
    "--package", PACKAGE,
    "--array-type", "list",
)  # fmt: skip
_SUFFIX: Final = ".schema.json"
_SUFFIXES: Final = ("", "Class", "Element")


def _nullable(schema: Any) -> bool:  # noqa: ANN401 - any JSON Schema
    if not isinstance(schema, dict):
        return schema is True
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_nullable(branch) for branch in schema.get("anyOf", []) + schema.get("oneOf", []))


def required_nullable(schemas: dict[str, Any]) -> dict[str, set[str]]:
    """Map each object schema's ``title`` to its properties that are required and nullable."""
    found: dict[str, set[str]] = {}
    for schema in schemas.values():
        for _, node in iter_subschemas(schema):
            title, properties = node.get("title"), node.get("properties")
            if not isinstance(title, str) or not isinstance(properties, dict):
                continue
            names = {p for p in node.get("required", []) if _nullable(properties.get(p))}
            found.setdefault(title, set()).update(names)
    return found


_INCLUDE: Final = "@com.fasterxml.jackson.annotation.JsonInclude"
_INCLUSION: Final = "com.fasterxml.jackson.annotation.JsonInclude.Include"


def _annotate(source: str, always: set[str]) -> str:
    """Add the inclusion annotations of the module docstring to one bean class's source."""
    if "@JsonProperty(" not in source:
        return source  # an enum or a union wrapper with its own serializer
    source = re.sub(
        r"^public class ",
        f"{_INCLUDE}({_INCLUSION}.NON_NULL)\npublic class ",
        source,
        count=1,
        flags=re.MULTILINE,
    )
    for name in sorted(always):
        getter = re.compile(
            rf'^(\s*)(@JsonProperty\("{re.escape(name)}"\)\n\s*public \S.* get)', re.MULTILINE
        )
        source = getter.sub(rf"\1{_INCLUDE}({_INCLUSION}.ALWAYS)\n\1\2", source, count=1)
    return source


def generate(out_dir: Path, repo: Path = REPO) -> list[Path]:
    """Write the annotated Java sources under ``out_dir/dev/srdh/contracts``; return them.

    Raises:
        RuntimeError: quicktype is not installed (``npm ci``) or failed (its stderr included).
    """
    schemas = {
        path.name.removesuffix(_SUFFIX): load_json_file(path)
        for path in sorted((repo / "schemas").glob(f"*{_SUFFIX}"))
    }
    prepared = prepare_schemas(schemas)
    executable = repo / "node_modules" / ".bin" / "quicktype"
    if not executable.is_file():
        msg = f"{executable} is missing: run `npm ci` in {repo} (package.json pins it)"
        raise RuntimeError(msg)
    target = out_dir / Path(*PACKAGE.split("."))
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for stem, schema in prepared.items():
            (Path(tmp) / f"{stem}{_SUFFIX}").write_text(json.dumps(schema), "utf-8")
            names.append(f"{stem}{_SUFFIX}")
        command = [str(executable), *QUICKTYPE_ARGS, "-o", str(target / "Converter.java")]
        done = subprocess.run(  # noqa: S603 - fixed argv
            [*command, *sorted(names)], cwd=tmp, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            msg = f"quicktype failed ({done.returncode}): {done.stderr.strip()}"
            raise RuntimeError(msg)
    # quicktype's Converter helper: its mapper ignores unknown properties (and it does not compile
    # against Jackson 2.14); the recipe's mapper replaces it (docs/types.md)
    (target / "Converter.java").unlink(missing_ok=True)
    always = required_nullable(schemas)
    written = sorted(target.glob("*.java"))
    for path in written:
        title = next(
            (path.stem.removesuffix(s) for s in _SUFFIXES[1:] if path.stem.endswith(s)), path.stem
        )
        names_always = always.get(path.stem, always.get(title, set()))
        path.write_text(_annotate(path.read_text("utf-8"), names_always), "utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return 0, or 1 when quicktype is missing or failed."""
    parser = argparse.ArgumentParser(prog="python -m contracts.codegen_java", description=__doc__)
    parser.add_argument("out_dir", type=Path, help="folder for dev/srdh/contracts/*.java")
    args = parser.parse_args(argv)
    try:
        written = generate(args.out_dir)
    except RuntimeError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    sys.stdout.write(f"wrote {len(written)} Java sources under {args.out_dir}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
