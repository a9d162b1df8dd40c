r"""``srdh validate FILE...``: check JSON or NDJSON documents against their contracts.

The work: read JSON and NDJSON documents one at a time, each with its file line. Every text goes
through the kit's strict reader (:func:`contracts.loads_strict`: RFC 8259 and I-JSON). An NDJSON
file is streamed: records end at LF only (U+2028, U+2029, U+0085, VT, FF are data inside a record,
a CR before the LF is JSON whitespace), so memory is bounded by the largest record, not the file.
Only regular files are read: a FIFO, a device or a socket is refused before it is opened (it could
block forever or never end). One document (a JSON file, an NDJSON record) is at most
``--max-document-bytes`` bytes (:data:`DEFAULT_MAX_DOCUMENT_BYTES`, 64 MiB): a larger one is refused
before it is read (exit 2, naming the file, line and limit), so memory stays bounded. File names are
shown with their control characters escaped (``a\x0ab.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conformance._inert import shown_path
from conformance.cli._bounds import MAX_DOCUMENT_BYTES
from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._output import Output, kit_line, kit_schemas_dir

if TYPE_CHECKING:
    from collections.abc import Iterator

    from contracts import StrictJSONError

__all__ = [
    "DEFAULT_MAX_DOCUMENT_BYTES",
    "Document",
    "check_regular_file",
    "contract_for",
    "iter_documents",
    "validate",
]

DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""Largest document ``srdh validate`` reads (a JSON file, one NDJSON record), in bytes: 64 MiB."""


def validate(
    files: Annotated[list[Path], typer.Argument(help="JSON or NDJSON files.")],
    contract: Annotated[
        str | None,
        typer.Option("--contract", help="Contract name (default: from each document's $schema)."),
    ] = None,
    max_document_bytes: Annotated[
        int,
        typer.Option(
            "--max-document-bytes",
            min=MAX_DOCUMENT_BYTES.low,
            max=MAX_DOCUMENT_BYTES.high,
            help="Largest document (a JSON file, one NDJSON record) read, in bytes "
            "(default 64 MiB).",
        ),
    ] = DEFAULT_MAX_DOCUMENT_BYTES,
) -> None:
    """Validate each document against its contract; print one line per violation.

    The contract is --contract, else the document's "$schema" (an $id of the kit's schemas). Each
    error reads FILE:LINE: POINTER: what was expected [rule]. Text is read strictly (RFC 8259 and
    I-JSON: duplicate member names, NaN, lone surrogates are refused); NDJSON records end at LF
    only and are streamed one at a time. Exit 1 if any document is invalid, 2 if a file is
    missing or not a regular file, a document is larger than --max-document-bytes, or no
    contract can be determined.
    """
    from contracts import CONTRACTS, validate_document  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    if contract is not None and contract not in CONTRACTS:
        msg = f"unknown contract {contract!r}: expected one of {', '.join(CONTRACTS)}"
        raise CliSetupError(msg)
    checked = invalid = 0
    for path in files:
        _check_file(path)
    # printed before the first result: a document naming no contract is one error line alone
    out.first((kit_line(), f"schemas: the kit's {kit_schemas_dir().resolve()}"))
    limit = max_document_bytes
    for where_from, doc in ((p, doc) for p in files for doc in _or_none(p, limit)):
        if doc is None:
            # an empty (or blank) file holds no document: said, never a silent "0 invalid"
            out.line(f"{shown_path(where_from)}: no documents (the file is empty or blank)")
            continue
        checked += 1
        where = f"{shown_path(doc.file)}:{doc.line}"
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
                f"{shown_path(doc.file)}:{doc.line_of(v.pointer)}: {v.pointer or '/'}: "
                f"{v.message} [{v.rule}]"
            )
        invalid += bool(violations)
    out.line(f"{checked} document(s), {invalid} invalid" if checked else "no documents checked")
    if invalid:
        raise typer.Exit(EXIT_FAILED)


def _or_none(path: Path, limit: int) -> Iterator[Document | None]:
    """The documents of ``path``, or one ``None`` when it holds none (empty or blank)."""
    empty = True
    for doc in iter_documents(path, max_bytes=limit):
        empty = False
        yield doc
    if empty:
        yield None


def _check_file(path: Path) -> None:
    """Refuse a missing, directory or non-regular ``path`` before any document is read."""
    check_regular_file(path)


_NDJSON_SUFFIXES = frozenset({".ndjson", ".jsonl"})


@dataclass(frozen=True)
class Document:
    """One parsed document: its ``file``, 1-based ``line`` where it starts, ``value``.

    ``syntax_error`` is set (and ``value`` is None) when the text is refused by the strict reader:
    ``POINTER: not JSON|not I-JSON: ... [json-<rule>]``, and ``line`` is then the offending line.
    ``text`` is the document's text when it spans several lines (a pretty-printed ``.json``
    file), so that :meth:`line_of` can place a violation on its own line.
    """

    file: Path
    line: int
    value: Any
    syntax_error: str = ""
    text: str | None = None

    def line_of(self, pointer: str) -> int:
        """The file line of the value at ``pointer`` (the document's line if it is not found)."""
        if self.text is None:
            return self.line
        from contracts import line_of_pointer  # noqa: PLC0415 - lazy: `srdh --help` stays fast

        found = line_of_pointer(self.text, pointer)
        return self.line if found is None else self.line + found - 1


def _refused(path: Path, error: StrictJSONError, default_line: int) -> Document:
    detail = f"{error.pointer or '/'}: {error.message} [{error.rule}]"
    return Document(path, error.line or default_line, None, detail)


def check_regular_file(path: Path) -> None:
    """Refuse what is not a readable regular file, without opening it.

    Raises:
        CliSetupError: missing, a directory, or not a regular file (FIFO, device, socket).
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        msg = f"{shown_path(path)}: no such file"
        raise CliSetupError(msg) from None
    except OSError as exc:
        msg = f"{shown_path(path)}: cannot read ({exc.strerror or type(exc).__name__})"
        raise CliSetupError(msg) from None
    from contracts import not_a_file  # noqa: PLC0415 - lazy, as every contracts import here

    refused = not_a_file(mode)
    if refused:
        msg = f"{shown_path(path)}: {refused}"
        raise CliSetupError(msg)


def _too_large(path: Path, line: int, limit: int) -> CliSetupError:
    return CliSetupError(
        f"{shown_path(path)}:{line}: a document larger than {limit} bytes; documents are read "
        "whole, so this one is not read (raise --max-document-bytes to check it)"
    )


def iter_documents(
    path: Path, *, max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES
) -> Iterator[Document]:
    """Yield the documents of ``path``: one JSON document, or NDJSON (one per non-blank record).

    ``.ndjson``/``.jsonl`` files are NDJSON and streamed record by record; any other file is one
    JSON document, unless it is not one JSON value but every non-blank record is (then it is
    NDJSON, read from the file again).

    Raises:
        CliSetupError: the file is missing, a directory, not a regular file, or unreadable; or
            a document (the file, or one NDJSON record) is larger than ``max_bytes``.
    """
    from contracts import StrictJSONError, loads_strict  # noqa: PLC0415 - lazy

    check_regular_file(path)
    if path.suffix in _NDJSON_SUFFIXES:
        yield from _ndjson(path, max_bytes)
        return
    try:
        if path.stat().st_size > max_bytes:
            if _every_record_parses(path, max_bytes):
                yield from _ndjson(path, max_bytes)
                return
            raise _too_large(path, 1, max_bytes)
        raw = path.read_bytes()
    except OSError as exc:
        msg = f"{shown_path(path)}: cannot read ({exc.strerror or type(exc).__name__})"
        raise CliSetupError(msg) from None
    try:
        value = loads_strict(raw, source=str(path))
    except StrictJSONError as error:
        if error.rule == "json-syntax" and raw.count(b"\n") > 1:
            del raw  # records are streamed from the file again, one at a time
            if _every_record_parses(path, max_bytes):
                yield from _ndjson(path, max_bytes)
                return
        yield _refused(path, error, 1)
        return
    multi_line = b"\n" in raw.rstrip(b"\n")
    yield Document(path, 1, value, text=raw.decode("utf-8") if multi_line else None)


def _every_record_parses(path: Path, max_bytes: int) -> bool:
    """Whether ``path`` holds more than one record and every one is JSON (streamed).

    Raises:
        CliSetupError: a record is larger than ``max_bytes``.
    """
    count = 0
    for count, record in enumerate(_ndjson(path, max_bytes), start=1):  # noqa: B007 - read after
        if record.syntax_error:
            return False
    return count > 1


def _ndjson(path: Path, max_bytes: int) -> Iterator[Document]:
    from contracts import StrictJSONError, loads_strict  # noqa: PLC0415 - lazy

    try:
        with path.open("rb") as stream:
            # Binary readline splits at b"\n" only (the NDJSON record separator) and reads at
            # most one byte past the limit (its LF, or proof that the record is too large).
            for number, record in enumerate(iter(lambda: stream.readline(max_bytes + 2), b""), 1):
                if len(record.rstrip(b"\r\n")) > max_bytes:
                    raise _too_large(path, number, max_bytes)
                if not record.strip():
                    continue
                try:
                    yield Document(path, number, loads_strict(record, first_line=number))
                except StrictJSONError as error:
                    yield _refused(path, error, number)
    except OSError as exc:
        msg = f"{shown_path(path)}: cannot read ({exc.strerror or type(exc).__name__})"
        raise CliSetupError(msg) from None


def contract_for(doc: Document, forced: str | None) -> str | None:
    """The contract to check ``doc`` against; ``None`` when none is named.

    ``forced`` wins; else the contract whose ``$id`` equals the document's ``$schema``.
    """
    if forced is not None:
        return forced
    from contracts import CONTRACTS  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    named = doc.value.get("$schema") if isinstance(doc.value, dict) else None
    for name, info in CONTRACTS.items():
        if named == info.schema_id:
            return name
    return None
