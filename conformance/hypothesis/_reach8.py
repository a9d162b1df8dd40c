"""Red team 8's kinds, drawn last in :func:`conformance.hypothesis.scenario_fixtures`.

Each is a rewrite of an otherwise finished fixture (so the draws before it stay as they were):

* **A backend that miscounts** (``miscount``): one ``rows`` result of a diagnosis tool returns
  1-3 rows or just past ``max_items`` (truncated) and reports a ``total_matched`` below the rows
  it keeps (``under``: a Harness copying the backend's count breaks ``total_matched >=
  len(items)``) or above the rows it returns (``over``).
* **Earlier Runs named in a common id scheme** (``run_id_scheme``): the session's earlier Runs
  are named ``run-<seq>``, ``run_<seq>`` or ``<seq>`` and one of them takes the *next* seq's
  name, the id a Harness deriving Run ids from the sequence gives the new Run; or every one gets
  a uuid-like id.
* **A client gone before a public error's release** (``gone_before_release``): when the Run
  heads for a public error (the Router never routes, or the agent's last call fails or times
  out), the client disconnects on the Run's last ``MODEL_CALL_FINISHED``: the release gate is
  the only wait left, and the Run must end CANCELLED.

docs/decisions/red-team-8.md.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

from conformance.builders import rows

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "MISCOUNTS",
    "RUN_ID_SCHEMES",
    "gone_before_release",
    "miscounted",
    "model_calls",
    "renamed_prior_runs",
]


MISCOUNTS: Final = ("under", "over")
"""How a miscounting backend's ``total_matched`` misses its rows."""

RUN_ID_SCHEMES: Final = ("run-N", "run_N", "N", "uuid")
"""How the session's earlier Runs are named (``N``: a seq)."""

_FORMATS: Final = {"run-N": "run-{}", "run_N": "run_{}", "N": "{}"}
_LOOKUP: Final = "lookup_documents"


def miscounted(
    pick: Callable[[str, st.SearchStrategy[Any]], Any],
    draw: st.DrawFn,
    fixture: dict[str, Any],
) -> None:
    """Maybe make one diagnosis tool's ``rows`` result miscount its matches (in place)."""
    how = pick("miscount", st.sampled_from((None, None, None, None, *MISCOUNTS)))
    if how is None:
        return
    cap = int(fixture["limits"]["max_items"])
    if how == "under" and cap == 0:  # nothing kept: a count below the kept rows is impossible
        return
    candidates = [
        (name, index)
        for name, script in sorted(fixture["tools"].items())
        if name != _LOOKUP
        for index, response in enumerate(script.get("responses", []))
        if response.get("kind") == "rows" and response.get("items")
    ]
    if not candidates:
        return
    name, index = draw(st.sampled_from(candidates))
    count = draw(st.sampled_from((1, 2, 3, cap + 1, cap + 2)))  # past max_items: truncated
    if how == "under":
        reported = draw(st.integers(0, min(count, cap) - 1))
    else:
        reported = count + draw(st.integers(1, 5))
    texts = [f"{name} counted row {k}" for k in range(count)]
    fixture["tools"][name]["responses"][index] = rows(*texts, total_matched=reported)


def renamed_prior_runs(
    pick: Callable[[str, st.SearchStrategy[Any]], Any], draw: st.DrawFn, fixture: dict[str, Any]
) -> None:
    """Maybe name the session's earlier Runs in a common id scheme (in place)."""
    scheme = pick("run_id_scheme", st.sampled_from((None, None, None, *RUN_ID_SCHEMES)))
    session = fixture["session_id"]
    own = [run for run in fixture["prior_runs"] if run["session_id"] == session]
    if scheme is None or not own:
        return
    others = {run["run_id"] for run in fixture["prior_runs"] if run["session_id"] != session}
    if scheme == "uuid":
        names = [str(uuid.UUID(int=draw(st.integers(0, 2**128 - 1)), version=4)) for _ in own]
    else:
        following = 1 + max(int(run["seq"]) for run in own)
        chosen = draw(st.integers(0, len(own) - 1))
        names = [
            _FORMATS[scheme].format(following if n == chosen else run["seq"])
            for n, run in enumerate(own)
        ]
    if len(set(names)) == len(names) and not others & set(names):
        for run, name in zip(own, names, strict=True):
            run["run_id"] = name


def model_calls(fixture: dict[str, Any]) -> int:
    """How many model calls the fixture scripts (each scripted turn is one call)."""
    return len(fixture["router"]) + len(fixture["agent"]) + len(fixture["semantic_guard"])


def _fails_publicly(fixture: dict[str, Any], routed: bool) -> bool:  # noqa: FBT001 - a fact
    """Whether the Run heads for a public error: unrouted, or the agent's last call fails."""
    if not routed:
        return bool(fixture["router"])
    agent = fixture["agent"]
    if fixture["semantic_guard"] or not agent or fixture.get("decoy_agent_turns"):
        return False
    return agent[-1].get("kind") in {"error", "block_until_cancelled"}


def gone_before_release(
    pick: Callable[[str, st.SearchStrategy[Any]], Any],
    fixture: dict[str, Any],
    routed: bool,  # noqa: FBT001 - a fact of the drawn Router script
) -> bool:
    """Maybe script the disconnect on the last model call of a Run heading for a public error.

    Only when no disconnect is scripted yet. Returns whether it scripted one.
    """
    if fixture["client"] or not _fails_publicly(fixture, routed):
        return False
    if not pick("gone_before_release", st.sampled_from((False, False, True))):
        return False
    occurrence = model_calls(fixture)
    fixture["client"] = {
        "disconnect_on": {"event_type": "MODEL_CALL_FINISHED", "occurrence": occurrence}
    }
    return True
