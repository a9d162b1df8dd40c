"""The kit's documented error families, as the CLI catches them at its top.

Each family is an exception class a kit package documents for bad input or setup. A package that
is not importable contributes nothing (its commands then fail earlier with a setup error).
"""

from __future__ import annotations

from conformance.adapters import AdapterError
from conformance.cli._errors import CliSetupError
from conformance.gate import GateSetupError
from conformance.openspec import ParseError
from conformance.reports import ReportDirError, SchemaEnumError
from conformance.schemadiff import SchemaDiffError
from conformance.suite import CatalogueError, SuiteSetupError
from contracts import ContractError

__all__ = ["describe", "kit_error_families"]


def kit_error_families() -> tuple[type[BaseException], ...]:
    """Exception classes that mean "bad input or setup": printed as one line, exit 2."""
    families: list[type[BaseException]] = [
        CliSetupError,
        GateSetupError,
        SchemaDiffError,
        ContractError,
        AdapterError,
        SuiteSetupError,
        CatalogueError,
        ParseError,
        ReportDirError,
        SchemaEnumError,
        OSError,
    ]
    return tuple(families)


def describe(exc: BaseException) -> str:
    """One line for ``exc``: file-system errors name the path and the reason."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split("\n")[:1]) or type(exc).__name__
