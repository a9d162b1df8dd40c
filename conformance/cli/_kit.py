"""Where the kit's own data lives: its schemas, its name and version."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from contracts import schema_dir

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["KIT_NAME", "kit_schemas_dir", "kit_version"]

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
