"""Regenerate the Pydantic models in ``contracts/_generated`` from ``schemas/``.

Usage::

    python -m contracts.codegen           # rewrite contracts/_generated from schemas/
    python -m contracts.codegen --check   # regenerate into a temp dir; exit 1 naming drifted files

The generator is datamodel-code-generator 0.89 with every option fixed below (explicit
``--formatters`` so it prints no FutureWarning, ``--disable-timestamp`` so output is
deterministic). It drops ``if``/``then`` and ``uniqueItems``: :mod:`contracts._schema_rules`
restores them (requirement "Contract set is frozen").
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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
        for schema in sorted((REPO / "schemas").glob("*.schema.json")):
            shutil.copyfile(schema, source / schema.name)
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


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 drift or generator failure)."""
    parser = argparse.ArgumentParser(prog="python -m contracts.codegen", description=__doc__)
    parser.add_argument("--check", action="store_true", help="report drift instead of writing")
    args = parser.parse_args(argv)
    try:
        if args.check:
            drifted = check()
            for name in drifted:
                sys.stderr.write(f"drifted: {name} (run: python -m contracts.codegen)\n")
            if not drifted:
                sys.stdout.write("contracts/_generated is up to date\n")
            return 1 if drifted else 0
        generate(GENERATED)
    except RuntimeError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    sys.stdout.write(f"regenerated {GENERATED.relative_to(REPO)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
