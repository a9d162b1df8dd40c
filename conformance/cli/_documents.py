"""Read JSON and NDJSON documents for ``srdh validate``, each with its file line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conformance.cli._errors import CliSetupError
from contracts import CONTRACTS

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Document", "contract_for", "read_documents"]

_NDJSON_SUFFIXES = frozenset({".ndjson", ".jsonl"})


@dataclass(frozen=True)
class Document:
    """One parsed document: its ``file``, 1-based ``line`` (1 for a JSON file), ``value``.

    ``syntax_error`` is set (and ``value`` is None) when the text is not JSON.
    """

    file: Path
    line: int
    value: Any
    syntax_error: str = ""


def read_documents(path: Path) -> list[Document]:
    """Parse ``path`` as one JSON document, or as NDJSON (one document per non-blank line).

    ``.ndjson``/``.jsonl`` files are NDJSON; any other file is JSON, unless it is not one JSON
    value but every non-blank line is (then it is NDJSON).

    Raises:
        CliSetupError: the file is missing, a directory, unreadable or not UTF-8.
    """
    if not path.exists():
        msg = f"{path}: no such file"
        raise CliSetupError(msg)
    if path.is_dir():
        msg = f"{path}: is a directory, expected a JSON or NDJSON file"
        raise CliSetupError(msg)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"{path}: cannot read ({exc})"
        raise CliSetupError(msg) from None
    if path.suffix not in _NDJSON_SUFFIXES:
        try:
            return [Document(path, 1, json.loads(text))]
        except json.JSONDecodeError as exc:
            lines = _ndjson(path, text)
            if len(lines) > 1 and not any(d.syntax_error for d in lines):
                return lines
            return [Document(path, exc.lineno, None, f"not JSON: {exc.msg} (column {exc.colno})")]
    return _ndjson(path, text)


def _ndjson(path: Path, text: str) -> list[Document]:
    docs: list[Document] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            docs.append(Document(path, number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            docs.append(Document(path, number, None, f"not JSON: {exc.msg} (column {exc.colno})"))
    return docs


def contract_for(doc: Document, forced: str | None) -> str | None:
    """The contract to check ``doc`` against; ``None`` when none is named.

    ``forced`` wins; else the contract whose ``$id`` equals the document's ``$schema``.
    """
    if forced is not None:
        return forced
    named = doc.value.get("$schema") if isinstance(doc.value, dict) else None
    for name, info in CONTRACTS.items():
        if named == info.schema_id:
            return name
    return None
