"""Whether a Run's verdict was decided by the machine's load: a timely answer seen after a timeout.

The kit answers a timely scripted turn (an intent, a draft, a verdict, an HTTP error, a tool's
rows) at once, but only the Harness's own clock says whether that answer came within
``model_call_timeout_ms`` or ``tool_timeout_ms``: a conforming Harness starved of CPU past its
timeout (a loaded CI machine, 300 ms timeouts) records ``TIMEOUT`` (or ``TOOL_TIMEOUT``) for it,
and its Run then follows that outcome, not the script. Requirement "Cancellation SHALL be
layered and observable" ("HTTP timeout for already-blocking synchronous model calls") allows
that, and the kit cannot see the Harness's clock, so such a Run says nothing about the rules:
:func:`starved_by_the_clock` names it, and the adapters run the fixture again
(:data:`conformance.adapters.STARVED_RUNS`). A Harness that times out timely answers on every
run is still judged, on its last run. ``docs/decisions/races.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from conformance.checks._late import tool_responses

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["starved_by_the_clock"]

_SCRIPTS: Final = {
    "ROUTER": ("router",),
    "DIAGNOSIS_AGENT": ("agent", "decoy_agent_turns"),
    "SEMANTIC_GUARD": ("semantic_guard",),
}
"""Component -> the fixture's turn lists it consumes, in order."""


def _times_out(turn: object) -> bool:
    """Whether a scripted model turn gives no timely answer (TIMEOUT, or held until cancelled)."""
    if not isinstance(turn, dict):
        return False
    kind = turn.get("kind")
    if kind == "ignore_cancellation":
        return _times_out(turn.get("then"))
    return kind == "block_until_cancelled" or (kind == "error" and turn.get("error") == "TIMEOUT")


def _blocks(response: Mapping[str, Any]) -> bool:
    """Whether a scripted tool response answers only once its work is cancelled."""
    return response.get("kind") == "block_until_cancelled"


def _model_calls(observation: Mapping[str, Any], fixture: Mapping[str, Any]) -> str | None:
    trace = observation.get("trace")
    if not isinstance(trace, list):
        return None
    for component, keys in _SCRIPTS.items():
        outcomes = [
            (e.get("data") or {}).get("outcome")
            for e in trace
            if isinstance(e, dict)
            and e.get("type") == "MODEL_CALL_FINISHED"
            and (e.get("data") or {}).get("component") == component
        ]
        turns = [t for key in keys for t in fixture.get(key) or []][: len(outcomes)]
        scripted = sum(1 for turn in turns if _times_out(turn))
        recorded = outcomes.count("TIMEOUT")
        if recorded > scripted:
            return (
                f"{component}: {recorded} attempt(s) recorded TIMEOUT, its first "
                f"{len(outcomes)} scripted turn(s) time out {scripted} time(s)"
            )
    return None


def _tool_calls(observation: Mapping[str, Any], fixture: Mapping[str, Any]) -> str | None:
    records = observation.get("invocations")
    if not isinstance(records, list):
        return None
    got = tool_responses(dict(observation), dict(fixture))
    for record in records:
        if not isinstance(record, dict):
            continue
        code = (record.get("error") or {}).get("code")
        call_id = record.get("tool_call_id")
        response = got.get(call_id)
        if code == "TOOL_TIMEOUT" and response is not None and not _blocks(response):
            return f"tool call {call_id!r} ended TOOL_TIMEOUT though its backend answers at once"
    return None


def starved_by_the_clock(observation: Mapping[str, Any], fixture: Mapping[str, Any]) -> str | None:
    """Return why ``observation`` shows a timely scripted answer ended by a timeout, or ``None``.

    Model calls: a component recorded more ``TIMEOUT`` attempts than its scripted turns (those
    its attempts consumed, in order; the agent's ``decoy_agent_turns`` follow ``agent``) time
    out (``error: TIMEOUT``, ``block_until_cancelled``, an ``ignore_cancellation`` around one).
    Tool calls: an invocation ended ``ERROR`` / ``TOOL_TIMEOUT`` although its backend response
    does not block (the n-th executed invocation of a tool gets that tool's n-th response, then
    its default; not judged once that count is unknown). Either shows the Harness's clock, not
    the script, deciding the Run.
    """
    return _model_calls(observation, fixture) or _tool_calls(observation, fixture)
