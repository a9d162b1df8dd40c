"""The optional order cache: which probes killed each mutant last time.

Only the *order* in which a mutant's probes run comes from it, never a verdict: a missing,
stale, corrupt or unwritable cache costs time and nothing else. The file is JSON
(``{"version": 1, "killers": {mutant: [probe key, ...]}}``) in a folder that ignores itself in
git (``.gitignore`` with ``*``), like ``.pytest_cache``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["CACHE_DIR", "read_killers", "write_killers"]

CACHE_DIR = ".srdh_cache"
"""The cache folder's name, in the verified repository (``srdh verify``) or the current folder."""

_VERSION = 1


def read_killers(path: Path | None) -> dict[str, list[str]]:
    """Return mutant name → probe keys that killed it last time; ``{}`` if unusable."""
    if path is None:
        return {}
    try:
        from contracts import load_json_file  # noqa: PLC0415 - contracts loads schemas on import

        document = load_json_file(path)
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or document.get("version") != _VERSION:
        return {}
    killers = document.get("killers")
    if not isinstance(killers, dict):
        return {}
    return {
        str(name): [k for k in keys if isinstance(k, str)]
        for name, keys in killers.items()
        if isinstance(keys, list)
    }


def write_killers(path: Path | None, killers: Mapping[str, Sequence[str]]) -> None:
    """Merge ``killers`` into the cache at ``path`` (atomically); errors are ignored."""
    if path is None:
        return
    merged = read_killers(path) | {name: list(keys) for name, keys in killers.items()}
    text = json.dumps({"version": _VERSION, "killers": merged}, indent=1, sort_keys=True)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        ignore = path.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by srdh: the whole folder is a cache\n*\n", "utf-8")
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".selftest-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text + "\n")
            Path(temporary).replace(path)
        finally:
            Path(temporary).unlink(missing_ok=True)
