"""The one error type for bad documents, and the violation value.

Requirement "Contract set is frozen": a bad document gets one clear error naming the file, the
line (JSON syntax errors), the RFC 6901 JSON pointer and what was expected, never a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["ContractError", "ContractViolation", "SchemaSetError", "json_pointer"]


def json_pointer(parts: Iterable[object]) -> str:
    """Return the RFC 6901 pointer of a path (an iterable of keys and indexes); root is ``""``."""
    tokens = [str(part).replace("~", "~0").replace("/", "~1") for part in parts]
    return "".join(f"/{token}" for token in tokens)


@dataclass(frozen=True, slots=True)
class ContractViolation:
    """One broken rule of a document.

    Attributes:
        pointer: RFC 6901 JSON pointer into the document (``""`` is the whole document).
        rule: ``"schema:<keyword>"`` for a JSON Schema rule (e.g. ``schema:enum``), otherwise the
            invariant's stable name (e.g. ``unique-analysis-ids``).
        message: what was expected, in one line.
    """

    pointer: str
    rule: str
    message: str

    @property
    def layer(self) -> str:
        """``"schema"`` for JSON Schema rules, ``"invariant"`` for the hand-written layer."""
        return "schema" if self.rule.startswith("schema:") else "invariant"


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Characters of a file name that would split or forge a one-line message."""


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"  # noqa: PLR2004 - one byte


class ContractError(ValueError):
    """A document is not a valid instance of its contract (or could not be read at all).

    Raised by :func:`contracts.load_document` for a missing or unreadable file, malformed JSON,
    a ``$schema`` naming another contract, a schema violation or a broken invariant.

    Attributes:
        path: the file, or ``None`` for in-memory documents.
        line: 1-based line of a JSON syntax error, else ``None``.
        pointer: RFC 6901 JSON pointer of the offending value (``""`` = the whole document).
        expected: what the contract expected there, e.g. ``"one of OBSERVATION, ..."``.
        message: the full one-line explanation (starts with ``expected`` when there is one).
        rule: the broken rule (``schema:<keyword>``, an invariant name, ``json-syntax``, ...).
    """

    def __init__(  # noqa: PLR0913 - every attribute is part of the documented error
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        pointer: str = "",
        expected: str = "",
        rule: str = "",
    ) -> None:
        """Build the error; ``str()`` is ``<file>[:line]: <pointer>: <message>``."""
        self.path = path
        self.line = line
        self.pointer = pointer
        self.expected = expected
        self.message = message
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        """Return ``file.json: /analyses/0/kind: expected one of ...`` (one line).

        The whole document is shown ``/``; an error about the file itself (rule ``file``) names
        no pointer.
        """
        where = _CONTROL.sub(_visible, self.path) if self.path else "<document>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        if self.rule == "file":  # the file itself (missing, a directory): no value to point at
            return f"{where}: {self.message}"
        # the whole document is ``/``, as ``srdh validate`` and ``srdh diff`` name it
        return f"{where}: {self.pointer or '/'}: {self.message}"


class SchemaSetError(ContractError):
    """The contract schemas themselves cannot be used: a ``$ref`` resolves to no schema of the set.

    Raised by the validators (:func:`contracts.validate_document` and friends) before any document
    is judged. ``path`` is the schema file, ``pointer`` the ``$ref`` keyword in it; ``message``
    says what it resolves to and what is missing, and how to repair the set.
    """
