"""Exit codes, the CLI's own error, and the error families its top turns into one line.

``srdh`` exits 0 when everything holds, 1 on non-conformance (a failed check, a refused gate, a
breaking schema change, an invalid document) and 2 on usage or setup problems (bad arguments, a
missing file, a directory without ``openspec/``, an IUT that cannot be started).

Each error family is an exception class a kit package documents for bad input or setup. Families
of heavy packages are looked up among the modules already imported: a package that was never
imported cannot have raised, and the CLI stays fast to start (commands import lazily).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from conformance.schemadiff import SchemaDiffError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_SETUP",
    "LAZY_FAMILIES",
    "CliSetupError",
    "describe",
    "kit_error_families",
    "require_openspec",
]

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


LAZY_FAMILIES = (
    ("conformance.openspec", "ParseError"),
    ("conformance.reports", "ReportDirError"),
    ("conformance.reports", "SchemaEnumError"),
    ("contracts", "ContractError"),
    ("conformance.gate", "GateSetupError"),
    ("conformance.evolution", "EvolutionError"),
    ("conformance.scaffold", "ScaffoldError"),
    ("conformance.adapters", "AdapterError"),
    ("conformance.adapters", "RecordingError"),
    ("conformance.suite", "SuiteSetupError"),
    ("conformance.suite", "CatalogueError"),
    ("conformance.bdd", "ThenRegistryError"),
    ("reference_harness.openai", "ConfigError"),
    ("reference_harness.store", "RunStoreError"),
)
"""``(module, class)`` of each documented family of a package imported on demand."""


def kit_error_families() -> tuple[type[BaseException], ...]:
    """Exception classes that mean "bad input or setup": printed as one line, exit 2."""
    families: list[type[BaseException]] = [
        CliSetupError,
        SchemaDiffError,
        OSError,
    ]
    for module_name, class_name in LAZY_FAMILIES:
        module = sys.modules.get(module_name)
        family = getattr(module, class_name, None) if module is not None else None
        if isinstance(family, type) and issubclass(family, BaseException):
            families.append(family)
    return tuple(families)


_STDERR_LINES = 3
_STDERR_CHARS = 400


def describe(exc: BaseException) -> str:
    """One line for ``exc``: file-system errors name the path and the reason.

    An error that carries the IUT's ``stderr_tail`` (``AdapterError``) keeps the last lines of
    it on the same line, so that an IUT that dies at start-up says why (e.g. a missing module).
    """
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    line = " ".join(str(exc).split("\n")[:1]) or type(exc).__name__
    tail = getattr(exc, "stderr_tail", "")
    if isinstance(tail, str) and tail.strip():
        last = [text.strip() for text in tail.strip().splitlines() if text.strip()]
        shown = " | ".join(last[-_STDERR_LINES:])[-_STDERR_CHARS:]
        line = f"{line}; IUT stderr: {shown}"
    return line
