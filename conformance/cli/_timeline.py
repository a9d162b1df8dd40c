"""A Run trace as a readable timeline: one row per trace event."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["event_summary", "timeline_rows"]

_MAX_CELL = 90
_DIGEST_SHOWN = 12


def _value(value: Any) -> str:  # noqa: ANN401 - any JSON value
    if isinstance(value, str):
        return value
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= _MAX_CELL else text[: _MAX_CELL - 1] + "…"


def _short(key: str, value: Any) -> str:  # noqa: ANN401 - any JSON value
    """Digests are shown by their first 12 hex digits."""
    if key.endswith("digest") and isinstance(value, str) and len(value) > _DIGEST_SHOWN:
        return value[:_DIGEST_SHOWN] + "…"
    return _value(value)


def event_summary(data: Any) -> str:  # noqa: ANN401 - any JSON value
    """``key=value`` pairs of an event's ``data`` (nulls and empty lists dropped), one line."""
    if not isinstance(data, dict):
        return _value(data)
    parts = [f"{k}={_short(k, v)}" for k, v in data.items() if v not in (None, [], {})]
    return " ".join(parts)


def timeline_rows(observation: dict[str, Any]) -> list[list[str]]:
    """Rows ``[seq, type, details]`` for every trace event of a RunObservation, in order."""
    trace = observation.get("trace", [])
    return [
        [str(event.get("seq", "")), str(event.get("type", "")), event_summary(event.get("data"))]
        for event in trace
    ]
