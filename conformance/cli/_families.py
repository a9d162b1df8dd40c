"""The kit's documented error families, as the CLI catches them at its top.

Each family is an exception class a kit package documents for bad input or setup. Families of
heavy packages are looked up among the modules already imported: a package that was never
imported cannot have raised, and the CLI stays fast to start (commands import lazily).
"""

from __future__ import annotations

import sys

from conformance.cli._errors import CliSetupError
from conformance.schemadiff import SchemaDiffError

__all__ = ["LAZY_FAMILIES", "describe", "kit_error_families"]

LAZY_FAMILIES = (
    ("conformance.openspec", "ParseError"),
    ("conformance.reports", "ReportDirError"),
    ("conformance.reports", "SchemaEnumError"),
    ("contracts", "ContractError"),
    ("conformance.gate", "GateSetupError"),
    ("conformance.adapters", "AdapterError"),
    ("conformance.adapters", "RecordingError"),
    ("conformance.suite", "SuiteSetupError"),
    ("conformance.suite", "CatalogueError"),
    ("reference_harness.openai", "ConfigError"),
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
