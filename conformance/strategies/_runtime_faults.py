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
  over the whole Run; tool backends may answer after their cancellation;
* ``tool_timeout``: one more call in the first tool step, to a tool the fixture does not use
  otherwise and that no submission cites, blocks past ``tool_timeout_ms`` and then answers late
  (no disconnect): it must end ERROR / TOOL_TIMEOUT and its late answer be discarded.

Blocking answers come with a short ``model_call_timeout_ms`` so that a Run stays quick.
"""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from conformance.builders import (
    blocks_until_cancelled,
    error_turn,
    intent_turn,
    invalid_verdict_turn,
    raw_turn,
    supported_turn,
    unsupported_turn,
)
from conformance.checks import attempt_policy, expected_attempts
from conformance.checks._runtime_oracle import review_outcome, router_outcome

__all__ = ["RUNTIME_FAULTS", "apply_runtime_fault", "runtime_pinned_fixtures"]

Fixture = dict[str, Any]

RUNTIME_FAULTS: Final = (
    "router_outcomes",
    "review_outcomes",
    "agent_failure",
    "disconnect_anywhere",
    "tool_timeout",
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
    limit = attempt_policy()["ROUTER"]
    made = expected_attempts([router_outcome(t) for t in router], limit)
    if made[-1] is None:  # the policy retries past the drawn answers: the next one routes
        router.append(intent_turn(intent))
        made = expected_attempts([router_outcome(t) for t in router], limit)
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


_LATE_TOOLS: Final = ("list_alerts", "query_metrics", "search_logs")
_LATE_ID: Final = "call_timed_out"


def _tool_timeout(draw: st.DrawFn, fixture: Fixture) -> bool:
    agent = fixture["agent"]
    free = [t for t in _LATE_TOOLS if t not in fixture["tools"]]
    if fixture["client"] or not free or not agent or agent[0].get("kind") != "tool_calls":
        return False
    if _intent(fixture) != "DIAGNOSIS" or _LATE_ID in str(agent):
        return False
    from conformance.builders import call_arguments, rows, tool_call  # noqa: PLC0415 - fixtures

    tool = draw(st.sampled_from(free))
    late = rows(f"{tool} late answer after the tool timeout")
    call = tool_call(_LATE_ID, tool, call_arguments(query=f"level:error {tool} timed out"))
    fixture["agent"] = [{**agent[0], "tool_calls": [*agent[0]["tool_calls"], call]}, *agent[1:]]
    fixture["tools"] = {
        **fixture["tools"],
        tool: {"responses": [{"kind": "block_until_cancelled", "then": late}]},
    }
    fixture["limits"] = {**fixture["limits"], "tool_timeout_ms": _FAST_TIMEOUT_MS}
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
        "tool_timeout": _tool_timeout,
    }[fault]
    return apply(draw, fixture)


def runtime_pinned_fixtures() -> list[Fixture]:
    """Hand-built runtime fixtures every invariants run starts with (explicit examples).

    One per runtime kind at its limit: the SemanticGuard times out, or blocks past its timeout;
    the agent's submission blocks past its timeout with no disconnect; the Router stays
    unavailable for every allowed attempt; the agent is unavailable; a tool answers after the
    client disconnected on its acceptance; earlier Runs include a RUNNING one, another session's
    and creation times that disagree with ``seq``; four parallel calls in one step; a tool blocks
    past its timeout and answers late (no disconnect); the SemanticGuard is unavailable once,
    then supports the snapshot (a retry after UNAVAILABLE).
    """
    from conformance.builders import (  # noqa: PLC0415 - only needed when pinning
        analysis,
        diagnosis_draft,
        diagnosis_fixture,
        draft_turn,
        prior_run,
        rows,
        tool_call,
        tool_script,
    )

    fast = {
        "max_steps": 8,
        "max_items": 20,
        "max_item_chars": 2000,
        "model_call_timeout_ms": _FAST_TIMEOUT_MS,
        "tool_timeout_ms": _FAST_TIMEOUT_MS,
    }
    draft = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    steps = [[tool_call("call_1")]]

    def tools() -> dict[str, Any]:
        return {"search_logs": tool_script(rows("checkout error rate 12%"))}

    def plain(fixture_id: str, **fields: Any) -> Fixture:  # noqa: ANN401 - fixture fields
        fields.setdefault("limits", fast)
        fields.setdefault("tools", tools())
        return diagnosis_fixture(fixture_id, steps=steps, **fields)

    review_timeout = plain("pinned-review-timeout", draft=draft, reviews=[error_turn("TIMEOUT")])
    review_block = plain(
        "pinned-review-blocks", draft=draft, reviews=[blocks_until_cancelled(supported_turn())]
    )
    agent_block = plain(
        "pinned-agent-blocks", submission_turn=blocks_until_cancelled(draft_turn(draft))
    )
    agent_down = plain("pinned-agent-unavailable", submission_turn=error_turn("UNAVAILABLE"))
    router_down = diagnosis_fixture("pinned-router-unavailable", limits=fast)
    router_down["router"] = [error_turn("UNAVAILABLE"), error_turn("UNAVAILABLE")]
    late_tool = plain(
        "pinned-tool-answers-after-cancel",
        tools={"search_logs": tool_script({"kind": "block_until_cancelled", "then": rows("late")})},
        client={"disconnect_on": {"event_type": "TOOL_CALL_ACCEPTED", "occurrence": 1}},
    )
    timed_out = diagnosis_fixture(
        "pinned-tool-times-out",
        steps=[[tool_call("call_1"), tool_call("call_2", "list_alerts")]],
        draft=draft,
        reviews=[supported_turn()],
        tools={
            **tools(),
            "list_alerts": tool_script(
                {"kind": "block_until_cancelled", "then": rows("alert answered too late")}
            ),
        },
        limits=fast,
    )
    review_retry = plain(
        "pinned-review-unavailable-then-supported",
        draft=draft,
        reviews=[error_turn("UNAVAILABLE"), supported_turn()],
    )
    history = [
        prior_run(1, state="SUCCESS"),
        prior_run(2, state="SUCCESS", session_id="session-2"),
        prior_run(3, state="SUCCESS"),
        prior_run(4, state="RUNNING"),
        prior_run(5, intent="KNOWLEDGE_QUERY", state="SUCCESS"),
        prior_run(6, state="SUCCESS", session_id="session-2"),
    ]
    history[1]["run_id"], history[5]["run_id"] = "session-2-run-2", "session-2-run-6"
    history[0]["created_at_ms"] = int(str(history[4]["created_at_ms"])) + 10_000
    history[0]["finished_at_ms"] = int(str(history[0]["created_at_ms"])) + 1_000
    sessions = plain("pinned-sessions", draft=draft, reviews=[supported_turn()], prior_runs=history)
    parallel = diagnosis_fixture(
        "pinned-four-parallel-calls",
        steps=[
            [
                tool_call("call_1"),
                tool_call("call_2", "list_alerts"),
                tool_call("call_3"),
                tool_call("call_4"),
            ]
        ],
        draft=draft,
        reviews=[supported_turn()],
        tools={
            "search_logs": tool_script(*(rows(f"line {n}") for n in range(1, 4))),
            "list_alerts": tool_script(rows("alert 1")),
        },
    )
    return [
        review_timeout,
        review_block,
        agent_block,
        agent_down,
        router_down,
        late_tool,
        sessions,
        parallel,
        timed_out,
        review_retry,
    ]
