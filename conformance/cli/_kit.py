"""Where the kit's own data lives: its schemas, its name and version."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from contracts import schema_dir

__all__ = ["KIT_NAME", "kit_line", "kit_schemas_dir", "kit_version"]

KIT_NAME = "srdh-conformance-kit"
"""The distribution name."""


def kit_schemas_dir() -> Path:
    """The kit's contract schema folder (``contracts/_schemas`` installed, else ``schemas/``)."""
    return schema_dir()


def kit_version() -> str:
    """The installed kit version, or ``"0+unknown"`` when not installed as a distribution."""
    try:
        return version(KIT_NAME)
    except PackageNotFoundError:
        return "0+unknown"


def kit_line() -> str:
    """One line naming the running kit: ``kit: srdh-conformance-kit <version> (<package dir>)``.

    Commands print it so that a report or log says which kit judged (an installed wheel, or
    which checkout of an editable install).
    """
    package = Path(__file__).resolve().parents[1]
    return f"kit: {KIT_NAME} {kit_version()} ({package})"
