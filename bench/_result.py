"""What every benchmark returns: a table, raw numbers, targets with verdicts, notes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["BenchResult", "Target"]


@dataclass(frozen=True, slots=True)
class Target:
    """One target of the issue and whether this run met it.

    Attributes:
        goal: the target as stated, e.g. ``"Harness <= 0.5x pydantic-ai per step"``.
        measured: the measured value as text, e.g. ``"0.42x"``.
        met: whether the measured value meets the goal.
        margin: by how much it was met or missed, as text.
    """

    goal: str
    measured: str
    met: bool
    margin: str


@dataclass(slots=True)
class BenchResult:
    """The outcome of one benchmark.

    Attributes:
        name: the benchmark's CLI name (``--only NAME``).
        title: one line saying what is measured.
        columns: table header.
        rows: table cells, already formatted (units in the header).
        data: the raw numbers (nanoseconds, counts, ratios) for the JSON report.
        targets: the issue's targets with their verdicts.
        notes: what each side does, caveats, and what would close a missed target.
        verdicts_agree: for benchmarks that compare verdicts, whether all sides agreed on every
            input (``None`` when the benchmark compares no verdicts).
    """

    name: str
    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdicts_agree: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON-ready form of this result."""
        return asdict(self)
