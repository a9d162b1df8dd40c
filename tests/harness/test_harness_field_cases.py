"""Every row of /work/shared/cases/field-cases.md as a test with the right value."""

from __future__ import annotations

import threading

import pytest

from reference_harness import CancelScope
from reference_harness.errors import ModelTimeout, ModelUnavailable
from reference_harness.ports import FinalAnswer


def test_row_1_same_id_twice_in_one_step(h):
    """Row 1: the second `call_1` of a step is DUPLICATE_ID; the first invocation is unchanged."""
    first = h.call("call_1", "search_logs", h.args(query="error"))
    second = h.call("call_1", "search_logs", h.args(query="timeout"))
    tools = h.tools(search_logs=[h.rows("HTTP 500 on /pay")])
    alone = h.run(h.fixture(agent=[h.tool_calls(first), h.draft_turn(h.draft())], tools=tools))
    both = h.run(
        h.fixture(agent=[h.tool_calls(first, second), h.draft_turn(h.draft())], tools=tools)
    )
    assert [(r["reason"], r["position"]) for r in h.data(both, "TOOL_CALL_REJECTED")] == [
        ("DUPLICATE_ID", 1)
    ]
    assert both["invocations"] == alone["invocations"]
    assert h.invocation(both, "call_1")["arguments"]["query"] == "error"


def test_row_2_id_reused_on_a_later_step(h):
    """Row 2: the id of step 1 reused on step 3 is DUPLICATE_ID; step 1's evidence unchanged."""
    reused = "functions.get_weather:0"
    agent = [
        h.tool_calls(h.call(reused, "query_metrics")),
        h.tool_calls(h.call("call_2", "search_logs")),
        h.tool_calls(h.call(reused, "search_logs", h.args(query="other"))),
        h.draft_turn(h.draft(h.analysis("a1", ids=(reused,)))),
    ]
    tools = h.tools(
        query_metrics=[h.rows("p99 2.3 s")],
        search_logs=[h.rows("HTTP 500")],
    )
    observation = h.run(h.fixture(agent=agent, tools=tools))
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], r["step"], r["presented_id"]) for r in rejected] == [
        ("DUPLICATE_ID", 3, '"functions.get_weather:0"')
    ]
    step_1 = h.invocation(observation, reused)
    assert (step_1["step"], step_1["tool_name"], step_1["sequence"]) == (1, "query_metrics", 1)
    assert step_1["projection"]["items"] == [{"text": "p99 2.3 s"}]
    assert step_1["evidence_status"] == "EVIDENCE_FOUND"
    assert len(observation["invocations"]) == 2


@pytest.mark.parametrize(
    ("presented", "reason", "shown"),
    [
        ("", "MISSING_ID", '""'),
        (None, "MISSING_ID", "null"),
        ("   ", "INVALID_ID", '"   "'),
        ("call\u0000x", "INVALID_ID", '"call\\u0000x"'),
        ("c" * 300, "INVALID_ID", ('"' + "c" * 300)[:160]),
        (42, "INVALID_ID", "42"),
        ({"id": "call_1"}, "INVALID_ID", '{"id": "call_1"}'),
        ("call_1\n", "INVALID_ID", '"call_1\\n"'),
    ],
    ids=["empty", "null", "spaces", "nul-byte", "300-chars", "number", "object", "final-newline"],
)
def test_row_3_missing_or_invalid_ids_are_never_executed(h, presented, reason, shown):
    """Row 3: bad ids are MISSING_ID/INVALID_ID, never executed, no record; the Run goes on."""
    agent = [
        h.tool_calls(h.call(presented, "search_logs")),
        h.tool_calls(h.call("call_1", "search_logs")),
        h.draft_turn(h.draft()),
    ]
    observation = h.run(h.fixture(agent=agent))
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert rejected == [
        {
            "reason": reason,
            "presented_id": shown,
            "tool_name": "search_logs",
            "step": 1,
            "position": 0,
        }
    ]
    assert [i["tool_call_id"] for i in observation["invocations"]] == ["call_1"]
    assert h.final_run(observation)["state"] == "SUCCESS"
    assert "error" not in observation  # the one scripted tool response was used by call_1 only


def test_row_3_absent_id(h):
    """Row 3: a call without an id key is MISSING_ID with presented_id null."""
    agent = [
        h.tool_calls(h.no_id_call()),
        h.tool_calls(h.call("call_1")),
        h.draft_turn(h.draft()),
    ]
    observation = h.run(h.fixture(agent=agent))
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], r["presented_id"]) for r in rejected] == [("MISSING_ID", None)]
    assert [i["tool_call_id"] for i in observation["invocations"]] == ["call_1"]


def test_row_4_two_parallel_empty_ids(h):
    """Row 4: two parallel calls with id "" are both MISSING_ID, not a DUPLICATE of each other."""
    agent = [
        h.tool_calls(h.call("", "search_logs"), h.call("", "query_metrics")),
        h.tool_calls(h.call("call_1")),
        h.draft_turn(h.draft()),
    ]
    observation = h.run(h.fixture(agent=agent))
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], r["position"]) for r in rejected] == [
        ("MISSING_ID", 0),
        ("MISSING_ID", 1),
    ]


class CountingRouter:
    """A Router endpoint that always fails; counts the requests it receives."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.requests = 0
        self.lock = threading.Lock()

    def classify(self, _request, _interrupt):
        with self.lock:
            self.requests += 1
        raise self.error


class CountingReviewer:
    """A SemanticGuard endpoint that always fails; counts the requests it receives."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.requests = 0

    def review(self, _request, _interrupt):
        self.requests += 1
        raise self.error


@pytest.mark.parametrize(
    ("error", "requests", "outcome"),
    [(ModelUnavailable("429"), 2, "UNAVAILABLE"), (ModelTimeout("timeout"), 1, "TIMEOUT")],
    ids=["always-429", "always-timeout"],
)
def test_row_5_router_attempts_follow_the_policy(h, direct, error, requests, outcome):
    """Row 5: one request per attempt; 429 gets the policy's 2 attempts, a timeout only 1."""
    router = CountingRouter(error)
    fixture = h.fixture(router=[], agent=[], semantic_guard=[], tools={})
    result = direct(fixture, router=router)
    attempts = [e["data"] for e in result.journal.events if e["type"] == "MODEL_CALL_FINISHED"]
    assert router.requests == requests
    assert [(a["attempt"], a["outcome"]) for a in attempts] == [
        (n, outcome) for n in range(1, requests + 1)
    ]
    assert (result.row.state.value, result.row.error_code.value) == ("FAILED", "ROUTER_UNAVAILABLE")


def test_row_5_reviewer_attempts_follow_the_policy(h, direct):
    """Row 5: an always-429 reviewer gets exactly 2 requests, then SEMANTIC_UNAVAILABLE."""
    reviewer = CountingReviewer(ModelUnavailable("429"))
    result = direct(h.fixture(semantic_guard=[]), reviewer=reviewer)
    assert reviewer.requests == 2
    started = [
        e["data"]
        for e in result.journal.events
        if e["type"] == "MODEL_CALL_STARTED" and e["data"]["component"] == "SEMANTIC_GUARD"
    ]
    assert len(started) == 2
    assert result.row.fallback_type.value == "SEMANTIC_UNAVAILABLE"


def test_row_5_agent_gets_one_attempt(h):
    """Row 5: an always-429 Diagnosis Agent gets one attempt, then FAILED AGENT_UNAVAILABLE."""
    fixture = h.fixture(
        agent=[{"kind": "error", "error": "UNAVAILABLE"}], semantic_guard=[], tools={}
    )
    observation = h.run(fixture)
    assert [a["outcome"] for a in h.attempts(observation, "DIAGNOSIS_AGENT")] == ["UNAVAILABLE"]
    run = h.final_run(observation)
    assert (run["state"], run["error_code"]) == ("FAILED", "AGENT_UNAVAILABLE")
    assert observation["published_result"] == {
        "kind": "PUBLIC_ERROR",
        "public_error": {"error_code": "AGENT_UNAVAILABLE"},
    }


@pytest.mark.parametrize(
    ("scope_change", "valid"),
    [
        ({}, True),
        ({"target": "all-services"}, False),
        ({"start": 1_767_225_000_000 - 86_400_000}, False),
        ({"query": "timeout"}, False),
    ],
    ids=["same-scope", "all-services", "a-day", "other-query"],
)
def test_row_6_zero_hits_bound_the_claim(h, scope_change, valid):
    """Row 6: zero hits for checkout/15 min: only a NEGATIVE_OBSERVATION within that scope."""
    negative = h.analysis("a1", kind="NEGATIVE_OBSERVATION", scope=h.scope(**scope_change))
    agent = [h.tool_calls(h.call()), h.draft_turn(h.draft(negative))]
    if not valid:
        agent.append(h.draft_turn(h.draft(negative)))
    fixture = h.fixture(
        agent=agent,
        semantic_guard=[h.supported()] if valid else [],
        tools=h.tools(search_logs=[h.rows()]),
    )
    observation = h.run(fixture)
    invocation = h.invocation(observation, "call_1")
    assert (invocation["status"], invocation["evidence_status"]) == ("READY", "NO_EVIDENCE")
    expected = "SUCCESS" if valid else "FALLBACK"
    assert h.final_run(observation)["state"] == expected


def test_row_7_fabricated_citation_survives_the_repair(h):
    """Row 7: d9 is fabricated; one repair; still d9 → EVIDENCE_VALIDATION_FAILED, no sources."""
    answer = h.knowledge("call_1", ("d1", "d9"))
    fixture = h.fixture(
        router=[{"kind": "intent", "intent": "KNOWLEDGE_QUERY"}],
        agent=[
            h.tool_calls(h.call("call_1", "lookup_documents")),
            h.answer_turn(answer),
            h.answer_turn(answer),
        ],
        semantic_guard=[],
        tools=h.tools(lookup_documents=[h.doc_rows("d1", "d2")]),
    )
    observation = h.run(fixture)
    assert h.types(observation).count("STRUCTURAL_REPAIR_REQUESTED") == 1
    repair = h.data(observation, "STRUCTURAL_REPAIR_REQUESTED")[0]["violations"]
    assert {"code": "FABRICATED_DOCUMENT_ID", "pointer": "/items/0/references/1/document_id"} in (
        repair
    )
    assert observation["published_result"]["safe_fallback"] == {
        "fallback_type": "EVIDENCE_VALIDATION_FAILED",
        "message_code": "EVIDENCE_NOT_VERIFIED",
        "verified_sources": [],
    }


def test_row_7_repaired_citation_is_released(h):
    """Row 7 (other branch): a repair that cites only d1 passes and is released unchanged."""
    fixed = h.knowledge("call_1", ("d1",))
    fixture = h.fixture(
        router=[{"kind": "intent", "intent": "KNOWLEDGE_QUERY"}],
        agent=[
            h.tool_calls(h.call("call_1", "lookup_documents")),
            h.answer_turn(h.knowledge("call_1", ("d1", "d9"))),
            h.answer_turn(fixed),
        ],
        tools=h.tools(lookup_documents=[h.doc_rows("d1", "d2")]),
    )
    observation = h.run(fixture)
    assert observation["published_result"] == {
        "kind": "KNOWLEDGE_ANSWER",
        "knowledge_answer": fixed,
    }


def test_row_8_unbound_drafts_get_exactly_two_agent_calls(h, direct):
    """Row 8: drafts without tool call ids: initial + one no-Tool repair call, then fallback."""
    unbound = h.draft(h.analysis("a1", ids=()))
    fixture = h.fixture(
        agent=[h.draft_turn(unbound), h.draft_turn(unbound)], semantic_guard=[], tools={}
    )
    result = direct(fixture)
    requests = result.ports.agent.requests
    assert [r.purpose for r in requests] == ["AGENT_STEP", "STRUCTURAL_REPAIR"]
    assert requests[0].tools != ()
    assert requests[1].tools == ()
    assert result.row.fallback_type.value == "EVIDENCE_VALIDATION_FAILED"


class LateAgent:
    """An agent endpoint that ignores the interrupt and answers only when the test releases it."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.release = threading.Event()
        self.returned = threading.Event()

    def step(self, _request, _interrupt):
        self.release.wait(30)
        self.returned.set()
        return self.answer


def test_row_9_late_valid_draft_after_disconnect(h, direct):
    """Row 9: disconnect during a blocked call; the valid draft arrives later and is discarded."""
    agent = LateAgent(FinalAnswer(h.draft(h.analysis("a1", ids=()))))
    scope = CancelScope()
    frames: list[dict] = []

    def sink(frame):
        frames.append(frame)
        if frame["event"] != "run_event":
            return
        if frame["data"]["type"] == "MODEL_CALL_STARTED" and frame["data"]["data"]["component"] == (
            "DIAGNOSIS_AGENT"
        ):
            scope.cancel("CLIENT_DISCONNECTED")
        if frame["data"]["type"] == "INTERRUPT_REQUESTED":
            agent.release.set()  # "2 s later" the model answers anyway

    fixture = h.fixture(agent=[], semantic_guard=[], tools={})
    result = direct(fixture, agent=agent, sink=sink, scope=scope)
    assert agent.returned.is_set()
    assert result.row.state.value == "CANCELLED"
    assert result.row.published_result is None
    assert not any(f["event"] == "result" for f in frames)
    types = result.types()
    assert types[-2:] == ["LATE_RESULT_DISCARDED", "RUN_FINISHED"]
    assert "DRAFT_SUBMITTED" not in types


def test_row_10_swallowed_cancellation_still_cancels(h):
    """Row 10: an adapter that swallows the cancel and answers a finished draft: still CANCELLED."""
    fixture = h.fixture(
        agent=[
            h.tool_calls(h.call()),
            {"kind": "ignore_cancellation", "then": h.draft_turn(h.draft())},
        ],
        semantic_guard=[],
        client={"disconnect_on": {"event_type": "MODEL_CALL_STARTED", "occurrence": 3}},
    )
    observation = h.run(fixture)
    run = h.final_run(observation)
    assert (run["state"], run["published_result"]) == ("CANCELLED", None)
    assert "RESULT_RELEASED" not in h.types(observation)
    assert "DRAFT_SUBMITTED" not in h.types(observation)
    assert h.data(observation, "LATE_RESULT_DISCARDED") == [
        {"component": "DIAGNOSIS_AGENT", "purpose": "AGENT_STEP", "call_index": 2, "attempt": 1}
    ]
