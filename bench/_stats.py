"""Measurement primitives: interleaved repeated runs, medians, inter-quartile ranges, ratios.

Every benchmark compares a subject with a baseline measured in the same process, in alternating
order (A/B, then B/A, ...), so that slow drifts of the machine (other processes, thermal limits,
caches) hit both sides alike. Costs are reported as the median of the repeated measurements with
their inter-quartile range (IQR); comparisons as the median of the per-round (paired) ratios.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

__all__ = ["Summary", "interleave", "paired_ratios", "timed_ns"]


@dataclass(frozen=True, slots=True)
class Summary:
    """Median and quartiles of repeated measurements (any unit, stated by the caller).

    Attributes:
        median: the median.
        q1: the first quartile (inclusive method; equals the median for one value).
        q3: the third quartile.
        n: how many measurements.
    """

    median: float
    q1: float
    q3: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """Summarise ``values``.

        Raises:
            ValueError: ``values`` is empty.
        """
        if not values:
            msg = "cannot summarise zero measurements"
            raise ValueError(msg)
        if len(values) == 1:
            return cls(values[0], values[0], values[0], 1)
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return cls(median, q1, q3, len(values))

    @property
    def iqr(self) -> float:
        """``q3 - q1``."""
        return self.q3 - self.q1

    def scaled(self, factor: float) -> Summary:
        """Return the same summary with every statistic multiplied by ``factor`` (> 0)."""
        return Summary(self.median * factor, self.q1 * factor, self.q3 * factor, self.n)

    def as_dict(self) -> dict[str, Any]:
        """Return ``{median, q1, q3, iqr, n}`` for the JSON report."""
        return {
            "median": self.median,
            "q1": self.q1,
            "q3": self.q3,
            "iqr": self.iqr,
            "n": self.n,
        }

    def text(self, digits: int = 1) -> str:
        """Return ``"median ± IQR/2"``-style text: ``"12.3 (IQR 0.4)"``."""
        return f"{self.median:,.{digits}f} (IQR {self.iqr:,.{digits}f})"


def timed_ns(action: Callable[[], object]) -> int:
    """Run ``action`` once and return its wall time in nanoseconds (``time.perf_counter_ns``).

    A full garbage collection runs first, outside the timed region, so that one side does not pay
    for the other side's garbage.
    """
    gc.collect()
    start = time.perf_counter_ns()
    action()
    return time.perf_counter_ns() - start


def interleave(
    contenders: Mapping[str, Callable[[], float]], *, rounds: int, warmup: int = 1
) -> dict[str, list[float]]:
    """Measure every contender ``rounds`` times, alternating their order each round.

    Args:
        contenders: name -> a function that performs one measurement and returns its value.
        rounds: measured rounds (>= 1).
        warmup: rounds run first and discarded (imports, caches, JIT-like warm-ups).

    Returns:
        name -> the ``rounds`` values, in round order (round ``i`` of every contender ran
        back to back, so values at the same index can be paired).

    Raises:
        ValueError: ``rounds`` < 1 or ``warmup`` < 0.
    """
    if rounds < 1 or warmup < 0:
        msg = f"rounds must be >= 1 and warmup >= 0, got rounds={rounds}, warmup={warmup}"
        raise ValueError(msg)
    names = list(contenders)
    values: dict[str, list[float]] = {name: [] for name in names}
    for index in range(warmup + rounds):
        order = names if index % 2 == 0 else names[::-1]
        for name in order:
            value = contenders[name]()
            if index >= warmup:
                values[name].append(value)
    return values


def paired_ratios(subject: Sequence[float], baseline: Sequence[float]) -> list[float]:
    """Return ``subject[i] / baseline[i]`` for each round ``i``.

    Raises:
        ValueError: the sequences differ in length or a baseline value is not positive.
    """
    if len(subject) != len(baseline):
        msg = f"cannot pair {len(subject)} with {len(baseline)} measurements"
        raise ValueError(msg)
    if any(value <= 0 for value in baseline):
        msg = "a baseline measurement is not positive"
        raise ValueError(msg)
    return [a / b for a, b in zip(subject, baseline, strict=True)]
