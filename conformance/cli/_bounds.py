"""The range of every numeric option of ``srdh``, and the one-line error for a value outside it.

Every numeric option has a lower and an upper bound that the platform can honour, each with its
reason (``docs/cli.md``, "Numeric options"). The bounds are given to typer (``min=``/``max=``), so
``--help`` shows them (``[0.1<=x<=86400]``) and the value is checked before the command runs; a
value outside (``inf``, ``nan``, ``1e300``, ``99999999999999999999999``) or not a number is a
usage error: exit 2 and one line, ``srdh: error: --timeout 'inf': expected a number from 0.1 to
86400 (seconds; …)`` (:func:`out_of_range`), never an internal error further down (an
``OverflowError`` from a wait or a read).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BOUNDS",
    "EXAMPLES",
    "JOBS",
    "MAX_DOCUMENT_BYTES",
    "MAX_MESSAGE_BYTES",
    "PORT",
    "TIMEOUT_S",
    "Bound",
    "out_of_range",
]


@dataclass(frozen=True)
class Bound:
    """The allowed range of one numeric option, inclusive at both ends.

    Attributes:
        option: the option's name (``--timeout``); the same name has the same range in every
            command.
        low, high: the smallest and the largest value allowed.
        kind: ``"an integer"`` or ``"a number"`` (for the error message).
        reason: the unit and why the range ends where it does, one phrase.
    """

    option: str
    low: int | float
    high: int | float
    kind: str
    reason: str

    def describe(self) -> str:
        """``a number from 0.1 to 86400 (seconds; …)``: the range and its reason."""
        return f"{self.kind} from {_number(self.low)} to {_number(self.high)} ({self.reason})"


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


TIMEOUT_S = Bound(
    "--timeout",
    0.1,
    86_400.0,
    "a number",
    "seconds per IUT message; at most one day, which every timed wait of the platform honours "
    "(threading.TIMEOUT_MAX, time_t)",
)
"""``srdh run --timeout``, ``srdh demo --timeout`` (seconds)."""

MAX_MESSAGE_BYTES = Bound(
    "--max-message-bytes",
    1024,
    sys.maxsize,
    "an integer",
    "bytes in one IUT message; at least 1 KiB (a hello fits), at most what fits an index "
    f"(sys.maxsize, {sys.maxsize} here)",
)
"""``srdh run --max-message-bytes`` (bytes)."""

MAX_DOCUMENT_BYTES = Bound(
    "--max-document-bytes",
    1,
    sys.maxsize,
    "an integer",
    f"bytes in one document; at most what fits an index (sys.maxsize, {sys.maxsize} here): "
    "a read of more cannot be asked",
)
"""``srdh validate --max-document-bytes`` (bytes)."""

EXAMPLES = Bound(
    "--examples",
    0,
    1_000_000,
    "an integer",
    "generated examples per property; each is at least one Run of the IUT, so a million "
    "per property is days of work already",
)
"""``srdh run --examples``, ``srdh selftest --examples`` (and a recording's ``examples``)."""

JOBS = Bound(
    "--jobs",
    1,
    256,
    "an integer",
    "processes; each is a spawned Python interpreter holding two of srdh's file descriptors: "
    "256 stays far below the usual open-file limit (1024)",
)
"""``srdh selftest --jobs`` (processes)."""

PORT = Bound("--port", 0, 65535, "an integer", "a TCP port number; 0: any free port")
"""``srdh serve --port``."""

BOUNDS: dict[str, Bound] = {
    b.option: b for b in (TIMEOUT_S, MAX_MESSAGE_BYTES, MAX_DOCUMENT_BYTES, EXAMPLES, JOBS, PORT)
}
"""Every numeric option of every ``srdh`` command, by name (tests/cli check each)."""


def out_of_range(error: Exception) -> str | None:
    """The one-line message for a bad value of a bounded option, or ``None`` for other errors.

    ``error`` is the usage error typer raises for the option (its ``param`` names it; its
    cause, pydantic's validation error, holds the value as typed). The message names the option,
    the value and the allowed range with its reason.
    """
    param: Any = getattr(error, "param", None)
    names = [n for n in getattr(param, "opts", ()) if n in BOUNDS]
    if not names:
        return None
    bound = BOUNDS[names[0]]
    value = _typed_value(error)
    shown = f" {value!r}" if value is not None else ""
    return f"{bound.option}{shown}: expected {bound.describe()}"


def _typed_value(error: Exception) -> object | None:
    """The value as typed, from pydantic's validation error behind typer's (else ``None``)."""
    cause: Any = error.__cause__
    errors = getattr(cause, "errors", None)
    if not callable(errors):
        return None
    try:
        found = errors()
    except (TypeError, ValueError):
        return None
    return found[0].get("input") if found else None
