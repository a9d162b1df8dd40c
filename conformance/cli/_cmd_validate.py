"""``srdh validate FILE...``: check JSON or NDJSON documents against their contracts."""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._output import Output

__all__ = ["validate"]


def validate(
    files: Annotated[list[Path], typer.Argument(help="JSON or NDJSON files.")],
    contract: Annotated[
        str | None,
        typer.Option("--contract", help="Contract name (default: from each document's $schema)."),
    ] = None,
) -> None:
    """Validate each document against its contract; print one line per violation.

    The contract is --contract, else the document's "$schema" (an $id of the kit's schemas). Each
    error reads FILE:LINE: POINTER: what was expected [rule]. Text is read strictly (RFC 8259 and
    I-JSON: duplicate member names, NaN, lone surrogates are refused); NDJSON records end at LF
    only and are streamed one at a time. Exit 1 if any document is invalid, 2 if a file is
    missing or not a regular file, or no contract can be determined.
    """
    from conformance.cli._documents import contract_for, iter_documents  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.cli._kit import announce, kit_line, kit_schemas_dir  # noqa: PLC0415 - lazy
    from contracts import CONTRACTS, validate_document  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    if contract is not None and contract not in CONTRACTS:
        msg = f"unknown contract {contract!r}: expected one of {', '.join(CONTRACTS)}"
        raise CliSetupError(msg)
    checked = invalid = 0
    for path in files:
        _check_file(path)
    announce(out, (kit_line(), f"schemas: the kit's {kit_schemas_dir().resolve()}"))
    for doc in (doc for path in files for doc in iter_documents(path)):
        checked += 1
        where = f"{doc.file}:{doc.line}"
        if doc.syntax_error:
            out.line(f"{where}: {doc.syntax_error}")
            invalid += 1
            continue
        name = contract_for(doc, contract)
        if name is None:
            msg = (
                f"{where}: no contract: its $schema is missing or not an $id of the kit's "
                "schemas; pass --contract NAME"
            )
            raise CliSetupError(msg)
        violations = validate_document(doc.value, name)
        for v in violations:
            out.line(
                f"{doc.file}:{doc.line_of(v.pointer)}: {v.pointer or '/'}: {v.message} [{v.rule}]"
            )
        invalid += bool(violations)
    out.line(f"{checked} document(s), {invalid} invalid")
    if invalid:
        raise typer.Exit(EXIT_FAILED)


def _check_file(path: Path) -> None:
    """Refuse a missing, directory or non-regular ``path`` before any document is read."""
    from conformance.cli._documents import check_regular_file  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    check_regular_file(path)
