"""Determinism across processes: the normalized observation of one fixture in fresh processes.

Requirement "Design contracts SHALL separate deterministic control from diagnosis reasoning"
("Harness as deterministic execution control"): the same fixture gives the same normalized
observation, in the same process *and* in two fresh IUT processes (for a Python IUT, under
different ``PYTHONHASHSEED`` values, so that set or dict-of-hash ordering shows).
"""

from __future__ import annotations

from typing import Any, Final

from conformance.checks._normalize import _Placeholders
from conformance.checks._result import CheckResult, Findings

__all__ = ["HASH_SEEDS", "check_same_normalized_observation", "normalize_observation"]

HASH_SEEDS: Final = ("1", "2")
"""The ``PYTHONHASHSEED`` of the two fresh IUT processes."""

_VOLATILE: Final = frozenset({"ts_ms", "created_at_ms", "finished_at_ms"})
_PARTS: Final = ("trace", "invocations", "published_result", "client_frames", "runs")


def _drop_times(value: Any) -> Any:  # noqa: ANN401 - any JSON
    if isinstance(value, dict):
        return {k: _drop_times(v) for k, v in value.items() if k not in _VOLATILE}
    if isinstance(value, list):
        return [_drop_times(v) for v in value]
    return value


def normalize_observation(observation: dict[str, Any]) -> dict[str, Any]:
    """Return the parts of ``observation`` a deterministic Harness reproduces exactly.

    The trace, canonical invocations, published result, client frames and run rows, without
    times (``ts_ms``, ``created_at_ms``, ``finished_at_ms``), the observed Run's id as
    ``<run:1>`` and snapshot digests as ``<digest:N>`` in order of first appearance.
    """
    run_id = observation.get("run_id")
    placeholders = _Placeholders({run_id} if isinstance(run_id, str) else set())
    return {part: placeholders.replace(_drop_times(observation.get(part))) for part in _PARTS}


def check_same_normalized_observation(
    first: dict[str, Any], second: dict[str, Any], *, where: str = "two fresh IUT processes"
) -> CheckResult:
    """Check two observations of one fixture (from ``where``) normalize to the same value."""
    found = Findings(
        f"the same fixture in {where} gives the same normalized observation",
        "R1.deterministic-control",
    )
    a, b = normalize_observation(first), normalize_observation(second)
    for part in _PARTS:
        x, y = a[part], b[part]
        if x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            index = next(
                (i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q),
                min(len(x), len(y)),
            )
            shown = (x[index] if index < len(x) else None, y[index] if index < len(y) else None)
            found.add(f"{part}[{index}] differs: {shown[0]} vs {shown[1]}")
        else:
            found.add(f"{part} differs: {x} vs {y}")
    return found.result()
