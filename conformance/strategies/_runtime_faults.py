"""Runtime faults for the global invariants: every model-call outcome, a disconnect anywhere.

Each fault keeps the fixture self-consistent for a conforming Harness (every scripted turn is
consumed, or the Run is cancelled, which may leave turns unread):

* ``router_outcomes``: the Router answers a drawn sequence of VALID, INVALID, UNAVAILABLE,
  TIMEOUT or BLOCK; when it cannot route under the full policy, nothing after it is scripted;
* ``review_outcomes``: the SemanticGuard answers a drawn sequence of the same kinds, ending in
  SUPPORTED or UNSUPPORTED or in a failure, exactly as long as the policy consumes it;
* ``agent_failure``: the submission's model call fails (UNAVAILABLE, TIMEOUT) or blocks past its
  timeout; nothing after it is scripted;
* ``disconnect_anywhere``: the client disconnects on a drawn occurrence of a drawn event type
  over the whole Run; tool backends may answer after their cancellation.

Blocking answers come with a short ``model_call_timeout_ms`` so that a Run stays quick.
"""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from conformance.checks import attempt_policy, expected_attempts
from conformance.checks._runtime_oracle import review_outcome, router_outcome
from conformance.fixtures import (
    blocks_until_cancelled,
    error_turn,
    intent_turn,
    invalid_verdict_turn,
    raw_turn,
    supported_turn,
    unsupported_turn,
)

__all__ = ["RUNTIME_FAULTS", "apply_runtime_fault"]

Fixture = dict[str, Any]

RUNTIME_FAULTS: Final = (
    "router_outcomes",
    "review_outcomes",
    "agent_failure",
    "disconnect_anywhere",
)
"""The runtime faults :func:`apply_runtime_fault` knows."""

_FAST_TIMEOUT_MS: Final = 300
_FAILURES: Final = ("INVALID", "UNAVAILABLE", "TIMEOUT", "BLOCK")
_EVENTS: Final = (
    "RUN_STARTED",
    "MODEL_CALL_STARTED",
    "MODEL_CALL_FINISHED",
    "INTENT_ROUTED",
    "PREVIOUS_TURN_SELECTED",
    "TOOL_CALL_ACCEPTED",
    "INVOCATION_STATUS_CHANGED",
    "EVIDENCE_CLASSIFIED",
    "DRAFT_SUBMITTED",
    "EVIDENCE_VALIDATION",
    "STRUCTURAL_REPAIR_REQUESTED",
    "SEMANTIC_VERDICT",
)


def _fast(fixture: Fixture) -> None:
    fixture["limits"] = {**fixture["limits"], "model_call_timeout_ms": _FAST_TIMEOUT_MS}


def _intent(fixture: Fixture) -> str:
    intents = [t.get("intent") for t in fixture["router"] if t.get("kind") == "intent"]
    return str(intents[-1]) if intents else "DIAGNOSIS"


def _turn(word: str, *, router: bool, intent: str, late: dict[str, object]) -> dict[str, object]:
    if word in {"UNAVAILABLE", "TIMEOUT"}:
        return error_turn(word)
    if word == "BLOCK":
        return blocks_until_cancelled(late)
    if router:
        return raw_turn("DIAGNOSE") if word == "INVALID" else intent_turn(intent)
    return invalid_verdict_turn()


def _router_outcomes(draw: st.DrawFn, fixture: Fixture) -> bool:
    if (
        fixture["client"]
        or len(fixture["router"]) != 1
        or router_outcome(fixture["router"][0]) != "VALID"
    ):
        return False
    intent = _intent(fixture)
    words = draw(st.lists(st.sampled_from(("VALID", *_FAILURES)), min_size=1, max_size=2))
    router = [_turn(w, router=True, intent=intent, late=intent_turn(intent)) for w in words]
    made = expected_attempts([router_outcome(t) for t in router], attempt_policy()["ROUTER"])
    router = router[: len(made)]
    if made[-1] != "VALID":
        fixture["agent"], fixture["semantic_guard"], fixture["tools"] = [], [], {}
    fixture["router"] = router
    _fast(fixture)
    return True


def _review_outcomes(draw: st.DrawFn, fixture: Fixture) -> bool:
    if fixture["semantic_guard"] != [supported_turn()] or fixture["client"]:
        return False
    target = "i1" if _intent(fixture) == "KNOWLEDGE_QUERY" else "a1"
    words = draw(st.lists(st.sampled_from(_FAILURES), max_size=2))
    last = draw(st.sampled_from(("SUPPORTED", "UNSUPPORTED")))
    turns = [_turn(w, router=False, intent="", late=supported_turn()) for w in words]
    turns.append(supported_turn() if last == "SUPPORTED" else unsupported_turn([target]))
    made = expected_attempts(
        [review_outcome(t, None)[0] for t in turns], attempt_policy()["SEMANTIC_GUARD"]
    )
    fixture["semantic_guard"] = turns[: len(made)]
    _fast(fixture)
    return True


def _agent_failure(draw: st.DrawFn, fixture: Fixture) -> bool:
    agent = fixture["agent"]
    submissions = [i for i, t in enumerate(agent) if t.get("kind") != "tool_calls"]
    if not submissions or fixture["client"]:
        return False
    index = submissions[0]
    word = draw(st.sampled_from(("UNAVAILABLE", "TIMEOUT", "BLOCK")))
    turn = blocks_until_cancelled(agent[index]) if word == "BLOCK" else error_turn(word)
    fixture["agent"] = [*agent[:index], turn]
    fixture["semantic_guard"] = []
    _fast(fixture)
    return True


def _disconnect_anywhere(draw: st.DrawFn, fixture: Fixture) -> bool:
    if fixture["client"]:
        return False
    if draw(st.booleans()):  # tools answer late, after the disconnect on the first acceptance
        fixture["client"] = {"disconnect_on": {"event_type": "TOOL_CALL_ACCEPTED", "occurrence": 1}}
        for script in fixture["tools"].values():
            script["responses"] = [
                {"kind": "block_until_cancelled", "then": r} if r.get("kind") == "rows" else r
                for r in script.get("responses", [])
            ]
        fixture["limits"] = {**fixture["limits"], "tool_timeout_ms": _FAST_TIMEOUT_MS}
        return True
    event = draw(st.sampled_from(_EVENTS))
    occurrence = draw(st.integers(1, 4))
    fixture["client"] = {"disconnect_on": {"event_type": event, "occurrence": occurrence}}
    return True


def apply_runtime_fault(draw: st.DrawFn, fixture: Fixture, fault: str) -> bool:
    """Apply the runtime ``fault`` to ``fixture`` in place; return whether it applied.

    Raises:
        KeyError: an unknown fault name.
    """
    apply = {
        "router_outcomes": _router_outcomes,
        "review_outcomes": _review_outcomes,
        "agent_failure": _agent_failure,
        "disconnect_anywhere": _disconnect_anywhere,
    }[fault]
    return apply(draw, fixture)
