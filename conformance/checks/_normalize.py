"""The trace normalizer: what "the same fixture run twice gives the same trace" compares."""

from __future__ import annotations

import re
from typing import Any

from conformance.checks._result import CheckResult, Findings

__all__ = ["check_same_normalized_trace", "normalize_trace"]

_DIGEST = re.compile(r"[0-9a-f]{64}")
_DISCARD = "LATE_RESULT_DISCARDED"


class _Placeholders:
    """Replaces volatile strings by ``<kind:N>``, numbered in order of first appearance."""

    def __init__(self, run_ids: set[str]) -> None:
        self.run_ids = run_ids
        self.mapping: dict[str, str] = {}
        self.counts = {"run": 0, "digest": 0}

    def _name(self, kind: str) -> str:
        self.counts[kind] += 1
        return f"<{kind}:{self.counts[kind]}>"

    def string(self, value: str) -> str:
        if value not in self.mapping:
            if value in self.run_ids:
                self.mapping[value] = self._name("run")
            elif _DIGEST.fullmatch(value):
                self.mapping[value] = self._name("digest")
            else:
                return value
        return self.mapping[value]

    def replace(self, value: Any) -> Any:  # noqa: ANN401 - any JSON
        if isinstance(value, dict):
            return {k: self.replace(v) for k, v in value.items() if k != "ts_ms"}
        if isinstance(value, list):
            return [self.replace(v) for v in value]
        if isinstance(value, str):
            return self.string(value)
        return value


def normalize_trace(observation: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the trace with its volatile parts replaced.

    ``ts_ms`` is dropped; the observed Run's id becomes ``<run:1>``; snapshot digests (which hash
    the run id) become ``<digest:N>`` in order of first appearance. Run ids seeded by the fixture
    and everything else are kept.
    """
    run_id = observation.get("run_id")
    placeholders = _Placeholders({run_id} if isinstance(run_id, str) else set())
    return [placeholders.replace(event) for event in observation.get("trace", [])]


def _without_discards(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``trace`` without ``LATE_RESULT_DISCARDED`` events, later ``seq`` values moved down."""
    kept: list[dict[str, Any]] = []
    dropped = 0
    for event in trace:
        if event.get("type") == _DISCARD:
            dropped += 1
            continue
        seq = event.get("seq")
        if dropped and isinstance(seq, int) and not isinstance(seq, bool):
            event = {**event, "seq": seq - dropped}  # noqa: PLW2901 - the moved copy is kept
        kept.append(event)
    return kept


def check_same_normalized_trace(first: dict[str, Any], second: dict[str, Any]) -> CheckResult:
    """Check two observations of one fixture have identical normalized traces.

    ``LATE_RESULT_DISCARDED`` events are left out of the comparison (and the ``seq`` after them
    moved down): whether an interrupted call's answer comes before the Harness stops waiting
    for it is timing, not control (a short timeout or a starved process decides it; "discards
    any late model result" holds either way; ``docs/decisions/races.md``). Everything else,
    including every other event's order, must be the same.
    """
    found = Findings(
        "re-running the fixture gives the same normalized trace", "R1.deterministic-control"
    )
    a = _without_discards(normalize_trace(first))
    b = _without_discards(normalize_trace(second))
    found.expect(len(a) == len(b), f"trace lengths differ: {len(a)} vs {len(b)}")
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            found.add(f"event {index} differs: {x} vs {y}")
            break
    return found.result()
