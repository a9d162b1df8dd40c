"""Errors of the phase gate."""

from __future__ import annotations

__all__ = ["GateSetupError"]


class GateSetupError(Exception):
    """The gate cannot look at the repository or stage it was given.

    Raised for a path that is not a directory, not inside a git work tree, without an
    ``openspec/`` folder, a missing ``git`` executable, or an unknown stage label. ``str()`` is
    one line naming the path or value and what was expected.
    """
