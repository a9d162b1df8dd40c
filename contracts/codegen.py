"""Regenerate the Pydantic models in ``contracts/_generated`` from ``schemas/``.

Usage::

    python -m contracts.codegen           # rewrite contracts/_generated from schemas/
    python -m contracts.codegen --check   # regenerate into a temp dir; exit 1 naming drifted files
                                          # (the TypeScript types too, where the checkout has them)

The generator is datamodel-code-generator 0.89 with every option fixed below (explicit
``--formatters`` so it prints no FutureWarning, ``--disable-timestamp`` so output is
deterministic). It reads a staged copy of the schemas whose references are file names
(:func:`contracts.file_refs`: a contract bumped to ``v2`` is referred to by its ``$id`` URI,
which the generator would try to download). It drops ``if``/``then`` and ``uniqueItems``:
:mod:`contracts._schema_rules` restores them (requirement "Contract set is frozen").
"""

from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from contracts._refs import file_refs
from contracts._strict_json import load_json_file

__all__ = ["CODEGEN_ARGS", "check", "generate", "main"]

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "contracts" / "_generated"

CODEGEN_ARGS: tuple[str, ...] = (
    "--input-file-type", "jsonschema",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--disable-timestamp",
    "--formatters", "ruff-format",
    "--target-python-version", "3.11",
    "--use-annotated",
    "--use-standard-collections",
    "--use-union-operator",
    "--use-double-quotes",
    "--strict-nullable",
    "--use-subclass-enum",
    "--use-field-description",
    "--use-schema-description",
    "--use-title-as-name",
    "--extra-fields", "forbid",
    "--strict-types", "str", "int", "bool",
    "--base-class", "contracts._base.ContractModel",
)  # fmt: skip


# The formatter reads the nearest ruff config; generating under a folder holding this one makes
# the output independent of where it is written and of any user configuration.
_RUFF_TOML = 'line-length = 100\ntarget-version = "py311"\n'


def generate(output: Path) -> None:
    """Generate the models from ``<repo>/schemas`` into the folder ``output`` (replaced).

    Raises:
        RuntimeError: the generator failed (its stderr is included).
    """
    executable = Path(sys.executable).with_name("datamodel-codegen")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "ruff.toml").write_text(_RUFF_TOML, encoding="utf-8")
        source = Path(tmp) / "schemas"  # only the schema files, not schemas/examples
        source.mkdir()
        paths = sorted((REPO / "schemas").glob("*.schema.json"))
        loaded = {path.name.removesuffix(".schema.json"): load_json_file(path) for path in paths}
        staged_schemas = file_refs(loaded)  # a bumped contract's $id URI -> its file name
        for path in paths:
            stem = path.name.removesuffix(".schema.json")
            if staged_schemas[stem] == loaded[stem]:
                shutil.copyfile(path, source / path.name)
            else:
                text = json.dumps(staged_schemas[stem], indent=2, ensure_ascii=False) + "\n"
                (source / path.name).write_text(text, encoding="utf-8")
        staged = Path(tmp) / "_generated"
        command = [str(executable), "--input", "schemas", "--output", str(staged), *CODEGEN_ARGS]
        try:
            done = subprocess.run(command, cwd=tmp, capture_output=True, text=True, check=False)  # noqa: S603 - fixed argv
        except OSError as error:
            msg = f"cannot run {executable}: {error.strerror} (pip install -e '.[dev]')"
            raise RuntimeError(msg) from None
        if done.returncode != 0 or done.stderr.strip():
            msg = f"datamodel-codegen failed ({done.returncode}): {done.stderr.strip()}"
            raise RuntimeError(msg)
        shutil.rmtree(staged / ".ruff_cache", ignore_errors=True)
        if output.exists():
            shutil.rmtree(output)
        shutil.copytree(staged, output)


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.py")}


def check() -> list[str]:
    """Regenerate into a temporary folder; return the drifted files (relative to the repo)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "_generated"
        generate(fresh)
        names = sorted(_files(fresh) | (_files(GENERATED) if GENERATED.is_dir() else set()))
        drifted = []
        for name in names:
            old, new = GENERATED / name, fresh / name
            if not (old.is_file() and new.is_file() and filecmp.cmp(old, new, shallow=False)):
                drifted.append(f"contracts/_generated/{name}")
        return drifted


_TYPESCRIPT = REPO / "types" / "typescript" / "contracts.ts"


def _typescript_drift() -> str | None:
    """Why the TypeScript types drifted (or cannot be regenerated), or None when current.

    Checked only where the checkout carries them (``types/typescript/contracts.ts``; an installed
    kit has none). Drift is a failure, and so is a missing generator (``npm ci``): types that
    cannot be regenerated cannot be said to be current.
    """
    if not _TYPESCRIPT.is_file():
        return None
    from contracts import codegen_typescript  # noqa: PLC0415 - needs node only when checked

    try:
        if codegen_typescript.check(_TYPESCRIPT):
            return None
    except (RuntimeError, ValueError) as error:
        return f"types/typescript/contracts.ts not checked: {error}"
    return "drifted: types/typescript/contracts.ts (run: python -m contracts.codegen_typescript)"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 drift or generator failure).

    ``--check`` covers the Pydantic models and, in a checkout that carries them, the TypeScript
    types (:mod:`contracts.codegen_typescript`).
    """
    parser = argparse.ArgumentParser(prog="python -m contracts.codegen", description=__doc__)
    parser.add_argument("--check", action="store_true", help="report drift instead of writing")
    args = parser.parse_args(argv)
    try:
        if args.check:
            drifted = check()
            for name in drifted:
                sys.stderr.write(f"drifted: {name} (run: python -m contracts.codegen)\n")
            typescript = _typescript_drift()
            if typescript:
                sys.stderr.write(f"{typescript}\n")
            if not drifted and not typescript:
                checked = " and types/typescript" if _TYPESCRIPT.is_file() else ""
                sys.stdout.write(f"contracts/_generated{checked} up to date\n")
            return 1 if drifted or typescript else 0
        generate(GENERATED)
    except RuntimeError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    sys.stdout.write(f"regenerated {GENERATED.relative_to(REPO)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
