"""Repository arguments: a directory that holds ``openspec/``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.cli._errors import CliSetupError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["require_openspec"]


def require_openspec(repo: Path) -> Path:
    """Return ``repo`` if it is a directory with an ``openspec/`` folder.

    Raises:
        CliSetupError: ``repo`` is missing, not a directory, or has no ``openspec/``.
    """
    if not repo.exists():
        msg = f"{repo}: no such directory"
        raise CliSetupError(msg)
    if not repo.is_dir():
        msg = f"{repo}: not a directory (expected a repository with openspec/)"
        raise CliSetupError(msg)
    if not (repo / "openspec").is_dir():
        msg = f"{repo}: no openspec/ directory (expected {repo / 'openspec'})"
        raise CliSetupError(msg)
    return repo
