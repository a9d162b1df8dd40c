"""Read-only queries over a RunObservation dict (``schemas/run-observation.schema.json``)."""

from __future__ import annotations

from typing import Any

__all__ = [
    "canonical",
    "current_run",
    "events",
    "first_index",
    "in_band_codes",
    "invocation",
    "model_attempts",
    "released_kinds",
    "validations",
]


JSON = Any
"""Any JSON value (observations are plain parsed JSON)."""


def canonical(value: JSON) -> bytes:
    """Return the RFC 8785 canonical JSON of ``value`` (what "identical" means for documents)."""
    from contracts import canonical_json  # noqa: PLC0415 - contracts loads schemas on import

    return canonical_json(value)


def events(observation: JSON, event_type: str | None = None) -> list[dict[str, Any]]:
    """Return the trace events of ``observation`` (of one ``type`` when given), in trace order."""
    trace = observation.get("trace", [])
    return [e for e in trace if event_type is None or e.get("type") == event_type]


def first_index(observation: JSON, event_type: str) -> int | None:
    """Return the position in the trace of the first event of ``event_type``, or ``None``."""
    for index, event in enumerate(observation.get("trace", [])):
        if event.get("type") == event_type:
            return index
    return None


def invocation(observation: JSON, tool_call_id: str) -> list[dict[str, Any]]:
    """Return every canonical invocation whose ``tool_call_id`` is ``tool_call_id``."""
    return [i for i in observation.get("invocations", []) if i.get("tool_call_id") == tool_call_id]


def current_run(observation: JSON) -> dict[str, Any] | None:
    """Return the ``diagnosis_run`` row of the observed Run, or ``None`` when it is missing."""
    for row in observation.get("runs", []):
        if row.get("run_id") == observation.get("run_id"):
            return dict(row)
    return None


def model_attempts(observation: JSON, component: str) -> list[dict[str, Any]]:
    """Return the Attempt Records (MODEL_CALL_FINISHED data) of ``component``, in trace order."""
    return [
        e["data"]
        for e in events(observation, "MODEL_CALL_FINISHED")
        if e.get("data", {}).get("component") == component
    ]


def validations(observation: JSON) -> dict[int, dict[str, Any]]:
    """Return EVIDENCE_VALIDATION data by attempt (1 = first draft, 2 = structural repair)."""
    return {e["data"]["attempt"]: e["data"] for e in events(observation, "EVIDENCE_VALIDATION")}


def released_kinds(observation: JSON) -> list[str]:
    """Return the ``kind`` of every RESULT_RELEASED event."""
    return [e["data"]["kind"] for e in events(observation, "RESULT_RELEASED")]


def in_band_codes(fixture: dict[str, Any]) -> list[str]:
    """The error codes the fixture's tool backends answer in band (``in_band_error`` results)."""
    return [
        str(response.get("code", ""))
        for script in fixture.get("tools", {}).values()
        for response in [*script.get("responses", []), script.get("default") or {}]
        if response.get("kind") == "in_band_error"
    ]
