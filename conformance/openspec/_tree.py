"""Load a whole ``openspec/`` tree: main specs, active changes and archived changes."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.openspec._lint_change import discover_delta_specs
from conformance.openspec._model import ChangeDocument, Location, ParseError, SpecDocument, SpecTree
from conformance.openspec._parser import parse_delta, parse_spec

ARCHIVE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-(.+)$")
"""An archive folder name: ``YYYY-MM-DD-<change-id>``."""


def openspec_dir(root: Path | str) -> Path:
    """Return ``<root>/openspec`` (or ``root`` itself when it is the ``openspec`` folder)."""
    base = Path(root)
    if (base / "openspec").is_dir() or base.name != "openspec":
        return base / "openspec"
    return base


def main_spec_files(osdir: Path) -> dict[str, Path]:
    """Return ``capability id -> spec.md`` for ``openspec/specs`` (nested ids joined with ``/``)."""
    specs = osdir / "specs"
    return {"/".join(p.parent.relative_to(specs).parts): p for p in discover_delta_specs(specs)}


def change_dirs(osdir: Path) -> list[tuple[Path, bool]]:
    """Return ``(folder, archived)`` for every change, active ones first, each group sorted."""
    changes = osdir / "changes"
    archive = changes / "archive"

    def dirs(base: Path) -> list[Path]:
        if not base.is_dir():
            return []
        return sorted(
            p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".") and p != archive
        )

    return [(p, False) for p in dirs(changes)] + [(p, True) for p in dirs(archive)]


def _file(folder: Path, name: str) -> Path | None:
    path = folder / name
    return path if path.is_file() else None


def load_change(folder: Path, *, archived: bool) -> ChangeDocument:
    """Read one change folder (its delta specs parsed, its other files located).

    Raises:
        ParseError: a delta spec cannot be read.
    """
    match = ARCHIVE_NAME.match(folder.name) if archived else None
    return ChangeDocument(
        id=match.group(2) if match else folder.name,
        path=folder,
        archived=archived,
        archive_date=match.group(1) if match else None,
        proposal=_file(folder, "proposal.md"),
        design=_file(folder, "design.md"),
        tasks=_file(folder, "tasks.md"),
        deltas=tuple(parse_delta(p) for p in discover_delta_specs(folder / "specs")),
    )


def load_tree(root: Path | str) -> SpecTree:
    """Read ``<root>/openspec``: main specs, ``changes/<id>/``, ``changes/archive/<date>-<id>/``.

    Raises:
        ParseError: ``openspec/`` is missing, or one of its spec files cannot be read.
    """
    osdir = openspec_dir(root)
    if not osdir.is_dir():
        raise ParseError(Location(osdir, 0), "expected an openspec/ folder")
    specs: dict[str, SpecDocument] = {}
    for capability, path in main_spec_files(osdir).items():
        specs[capability] = parse_spec(path)
    changes = tuple(load_change(p, archived=a) for p, a in change_dirs(osdir))
    return SpecTree(root=osdir.parent, specs=specs, changes=changes)
