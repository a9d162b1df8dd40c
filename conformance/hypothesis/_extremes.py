"""The largest valid values of the Scenario Fixture's unbounded integers, drawn last.

The contract bounds ``limits.max_steps``, ``limits.model_call_timeout_ms``,
``limits.tool_timeout_ms``, ``client.disconnect_on.occurrence`` and a ``rows`` result's
``total_matched`` below only; a fixture is an I-JSON document (RFC 7493), so the largest valid
value of each is :data:`LARGEST` (2**53 - 1). Their smallest values are drawn already (the
``one_step``, ``tiny_model_timeout`` and ``tiny_tool_timeout`` presets, occurrence 1, an
under-reported count of 0). ``extremes`` (a choice of
:func:`~conformance.hypothesis.scenario_fixtures`) rewrites an otherwise finished fixture, so
the draws before it stay as they were, and only where the value keeps the fixture's meaning:

* ``max_steps`` when the agent's tool steps stay below the drawn budget (the budget never binds);
* ``model_call_timeout_ms`` when no model turn blocks or times out (no call waits for it);
* ``tool_timeout_ms`` when no tool result blocks;
* a disconnect that never comes (``occurrence`` :data:`LARGEST` of a drawn event type) when the
  client has none;
* one diagnosis tool's ``rows`` result with items reports :data:`LARGEST` matches, when it
  reports none or at least its rows (an over-report, ``truncated``).

A conforming Harness treats each as what it means: a wait no Run reaches, a budget no Run spends,
a count it copies. docs/decisions/extreme-limits-11.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

from contracts import MAX_SAFE_INTEGER

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["EXTREMES", "LARGEST", "at_extremes"]

LARGEST: Final = MAX_SAFE_INTEGER
"""The largest valid value of an unbounded integer of the fixture: the I-JSON bound, 2**53 - 1."""

EXTREMES: Final = ("largest",)
"""The values of the ``extremes`` choice besides ``None`` (no rewrite)."""

_LOOKUP: Final = "lookup_documents"
_TOOL_STEPS: Final = frozenset({"tool_calls", "draft_and_tool_calls"})


def _tool_steps(turns: Sequence[dict[str, Any]]) -> int:
    steps = 0
    for turn in turns:
        inner = turn
        while inner.get("kind") in {"block_until_cancelled", "ignore_cancellation"}:
            inner = inner.get("then") or {}
        steps += inner.get("kind") in _TOOL_STEPS
    return steps


def at_extremes(
    pick: Callable[[str, st.SearchStrategy[Any]], Any],
    draw: st.DrawFn,
    fixture: dict[str, Any],
    *,
    events: Sequence[str],
) -> None:
    """Maybe set the fixture's unbounded integers to :data:`LARGEST` (in place; module docstring).

    ``events``: the trace event types a (never firing) client disconnect may name; empty when the
    fixture may script no disconnect.
    """
    how = pick("extremes", st.sampled_from((None, None, None, None, None, *EXTREMES)))
    if how is None:
        return
    limits = fixture["limits"]
    agent = [*fixture["agent"], *fixture.get("decoy_agent_turns", [])]
    if _tool_steps(agent) < limits["max_steps"]:
        limits["max_steps"] = LARGEST
    models = repr([*fixture["router"], *agent, *fixture["semantic_guard"]])
    if "block_until_cancelled" not in models and "'TIMEOUT'" not in models:
        limits["model_call_timeout_ms"] = LARGEST
    if "block_until_cancelled" not in repr(fixture["tools"]):
        limits["tool_timeout_ms"] = LARGEST
    if events and not fixture.get("client"):
        event = draw(st.sampled_from(events))
        fixture["client"] = {"disconnect_on": {"event_type": event, "occurrence": LARGEST}}
    candidates = [
        response
        for name, script in sorted(fixture["tools"].items())
        if name != _LOOKUP
        for response in script.get("responses", [])
        if response.get("kind") == "rows"
        and response.get("items")
        and response.get("total_matched", len(response["items"])) >= len(response["items"])
    ]
    if candidates:
        draw(st.sampled_from(candidates))["total_matched"] = LARGEST
