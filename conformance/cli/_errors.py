"""Exit codes and the CLI's own error.

``srdh`` exits 0 when everything holds, 1 on non-conformance (a failed check, a refused gate, a
breaking schema change, an invalid document) and 2 on usage or setup problems (bad arguments, a
missing file, a directory without ``openspec/``, an IUT that cannot be started).
"""

from __future__ import annotations

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_SETUP", "CliSetupError"]

EXIT_OK = 0
"""Everything holds."""
EXIT_FAILED = 1
"""Non-conformance: the subject was checked and something does not hold."""
EXIT_SETUP = 2
"""Usage or setup: the check could not be run as asked."""


class CliSetupError(Exception):
    """A usage or setup problem found by the CLI itself; ``str()`` is one line naming it.

    The CLI prints it as ``srdh: error: <message>`` and exits :data:`EXIT_SETUP`.
    """
