"""The ``srdh`` command line (console script ``srdh = conformance.cli:main``).

Exit codes: 0 everything holds, 1 non-conformance, 2 usage or setup. See ``docs/cli.md``.
"""

from conformance.cli._app import app, main
from conformance.cli._errors import EXIT_FAILED, EXIT_OK, EXIT_SETUP, CliSetupError

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_SETUP", "CliSetupError", "app", "main"]
