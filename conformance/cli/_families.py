"""The kit's documented error families, as the CLI catches them at its top.

Each family is an exception class a kit package documents for bad input or setup. Families of
heavy packages are looked up among the modules already imported: a package that was never
imported cannot have raised, and the CLI stays fast to start (commands import lazily).
"""

from __future__ import annotations

import sys

from conformance.cli._errors import CliSetupError
from conformance.openspec import ParseError
from conformance.reports import ReportDirError, SchemaEnumError
from conformance.schemadiff import SchemaDiffError

__all__ = ["LAZY_FAMILIES", "describe", "kit_error_families"]

LAZY_FAMILIES = (
    ("contracts", "ContractError"),
    ("conformance.gate", "GateSetupError"),
    ("conformance.adapters", "AdapterError"),
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
        ParseError,
        ReportDirError,
        SchemaEnumError,
        OSError,
    ]
    for module_name, class_name in LAZY_FAMILIES:
        module = sys.modules.get(module_name)
        family = getattr(module, class_name, None) if module is not None else None
        if isinstance(family, type) and issubclass(family, BaseException):
            families.append(family)
    return tuple(families)


def describe(exc: BaseException) -> str:
    """One line for ``exc``: file-system errors name the path and the reason."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split("\n")[:1]) or type(exc).__name__
