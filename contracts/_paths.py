"""Where the JSON Schemas live at runtime.

An installed wheel carries ``schemas/`` as ``contracts/_schemas/`` (pyproject force-include); a
source checkout has them at ``<repo>/schemas``. :func:`schema_dir` prefers the former.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_DIR", "SCHEMA_BASE_URI", "schema_dir", "schema_path", "stem_of_id"]

_PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = _PACKAGE_DIR / "data"
SCHEMA_BASE_URI = "https://srdh.dev/schemas/v1/"


def schema_dir() -> Path:
    """Return the folder holding ``<contract>.schema.json`` files."""
    packaged = _PACKAGE_DIR / "_schemas"
    return packaged if packaged.is_dir() else _PACKAGE_DIR.parent / "schemas"


def schema_path(contract: str) -> Path:
    """Return the schema file of ``contract`` (a sheet stem such as ``"diagnosis-draft"``).

    Raises:
        KeyError: ``contract`` has no schema file.
    """
    path = schema_dir() / f"{contract}.schema.json"
    if not path.is_file():
        msg = f"unknown contract {contract!r}: no {path.name} in {path.parent}"
        raise KeyError(msg)
    return path


def stem_of_id(schema_id: str) -> str | None:
    """Return the contract stem named by a schema ``$id`` (any version), or ``None``."""
    name = schema_id.rsplit("/", 1)[-1]
    suffix = ".schema.json"
    return name[: -len(suffix)] if name.endswith(suffix) else None
