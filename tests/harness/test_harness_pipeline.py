"""Routing, previous turn, the ReAct loop's budget, the release pipeline and the client frames."""

from __future__ import annotations

import dataclasses
import json

from contracts import canonical_json
from reference_harness.ports import ReviewRequest


def test_router_gets_a_second_attempt_after_an_invalid_answer(h):
    """Router INVALID_SCHEMA then VALID: two attempts of call 1, then the Run goes on."""
    observation = h.run(
        h.fixture(router=[{"kind": "raw", "text": "diagnosis please"}, h.fixture()["router"][0]])
    )
    assert [
        (a["call_index"], a["attempt"], a["outcome"]) for a in h.attempts(observation, "ROUTER")
    ] == [
        (1, 1, "INVALID_SCHEMA"),
        (1, 2, "VALID"),
    ]
    assert h.final_run(observation)["intent"] == "DIAGNOSIS"


def test_router_exhausted_fails_the_run_with_a_public_error(h):
    """Two invalid Router answers: FAILED ROUTER_UNAVAILABLE; the agent is never called."""
    raw = {"kind": "raw", "text": "DIAGNOSIS "}
    observation = h.run(h.fixture(router=[raw, raw], agent=[], semantic_guard=[], tools={}))
    run = h.final_run(observation)
    assert (run["state"], run["error_code"], run["intent"]) == (
        "FAILED",
        "ROUTER_UNAVAILABLE",
        None,
    )
    assert observation["published_result"] == {
        "kind": "PUBLIC_ERROR",
        "public_error": {"error_code": "ROUTER_UNAVAILABLE"},
    }
    assert h.attempts(observation, "DIAGNOSIS_AGENT") == []
    assert "error" not in observation


def test_knowledge_query_takes_the_same_release_path(h):
    """KNOWLEDGE_QUERY: no previous turn, EvidenceGuard and SemanticGuard, answer released as is."""
    answer = h.knowledge("call_1", ("d1", "d2"))
    observation = h.run(
        h.fixture(
            router=[{"kind": "intent", "intent": "KNOWLEDGE_QUERY"}],
            agent=[h.tool_calls(h.call("call_1", "lookup_documents")), h.answer_turn(answer)],
            semantic_guard=[h.supported()],
            tools=h.tools(lookup_documents=[h.doc_rows("d1", "d2")]),
        )
    )
    types = h.types(observation)
    assert "PREVIOUS_TURN_SELECTED" not in types
    assert h.data(observation, "DRAFT_SUBMITTED") == [
        {"attempt": 1, "result_kind": "KNOWLEDGE_ANSWER"}
    ]
    assert canonical_json(observation["published_result"]["knowledge_answer"]) == canonical_json(
        answer
    )
    run = h.final_run(observation)
    assert (run["state"], run["intent"]) == ("SUCCESS", "KNOWLEDGE_QUERY")


def test_previous_turn_selection_reports_every_skipped_run(h):
    """Newer ineligible Runs are skipped newest first with their reasons."""
    prior = [
        h.prior_run("p1", 1, "SUCCESS"),
        h.prior_run(
            "p2",
            2,
            "SUCCESS",
            intent="KNOWLEDGE_QUERY",
            published={
                "kind": "KNOWLEDGE_ANSWER",
                "knowledge_answer": h.knowledge("call_1", ("d1",)),
            },
        ),
        h.prior_run("p3", 3, "FAILED"),
        h.prior_run("p4", 4, "CANCELLED"),
    ]
    observation = h.run(h.fixture(prior_runs=prior))
    assert h.data(observation, "PREVIOUS_TURN_SELECTED") == [
        {
            "selected_run_id": "p1",
            "skipped": [
                {"run_id": "p4", "reason": "STATE_CANCELLED"},
                {"run_id": "p3", "reason": "STATE_FAILED"},
                {"run_id": "p2", "reason": "INTENT_KNOWLEDGE_QUERY"},
            ],
        }
    ]
    assert [r["seq"] for r in observation["runs"]] == [1, 2, 3, 4, 5]
    assert h.data(observation, "RUN_STARTED") == [{"session_id": "session-1", "run_seq": 5}]


def test_unsupported_verdict_publishes_the_fallback_with_verified_sources(h):
    """UNSUPPORTED: SEMANTIC_UNSUPPORTED with the cited READY invocation as verified source."""
    observation = h.run(h.fixture(semantic_guard=[h.unsupported("a1")]))
    assert observation["published_result"]["safe_fallback"] == {
        "fallback_type": "SEMANTIC_UNSUPPORTED",
        "message_code": "CLAIMS_NOT_SUPPORTED",
        "verified_sources": [
            {
                "tool_call_id": "call_1",
                "tool_name": "search_logs",
                "query_scope": h.scope(),
                "evidence_status": "EVIDENCE_FOUND",
            }
        ],
    }
    assert h.data(observation, "SEMANTIC_VERDICT")[0]["unsupported_analysis_ids"] == ["a1"]


def test_semantic_review_unavailable_after_two_bad_attempts(h):
    """Invalid then unavailable review: SEMANTIC_UNAVAILABLE after exactly two attempts."""
    observation = h.run(
        h.fixture(
            semantic_guard=[
                {"kind": "verdict", "verdict": {"verdict": "MAYBE"}},
                {"kind": "error", "error": "UNAVAILABLE"},
            ]
        )
    )
    assert [a["outcome"] for a in h.attempts(observation, "SEMANTIC_GUARD")] == [
        "INVALID_SCHEMA",
        "UNAVAILABLE",
    ]
    run = h.final_run(observation)
    assert (run["state"], run["fallback_type"]) == ("FALLBACK", "SEMANTIC_UNAVAILABLE")
    sources = observation["published_result"]["safe_fallback"]["verified_sources"]
    assert [s["tool_call_id"] for s in sources] == ["call_1"]


def test_semantic_review_request_is_the_snapshot_alone(h, direct):
    """SemanticGuard gets one snapshot, no tools, no history; its digest is the traced one."""
    assert [f.name for f in dataclasses.fields(ReviewRequest)] == ["snapshot"]
    result = direct(h.fixture())
    [request] = result.ports.reviewer.requests
    snapshot = request.snapshot.model_dump(mode="json", exclude_none=True)
    started = [
        e["data"]["snapshot_digest"]
        for e in result.journal.events
        if e["type"] == "MODEL_CALL_STARTED" and e["data"]["component"] == "SEMANTIC_GUARD"
    ]
    assert started == [snapshot["digest"]]
    assert [e["tool_call_id"] for e in snapshot["evidence"]] == ["call_1"]


def test_repair_request_carries_only_codes_and_pointers(h, direct):
    """The repair call offers no tools and adds only the violation codes and pointers."""
    unbound = h.draft(h.analysis("a1", ids=()))
    result = direct(
        h.fixture(
            agent=[h.draft_turn(unbound), h.draft_turn(h.draft())], semantic_guard=[], tools={}
        )
    )
    repair = result.ports.agent.requests[1]
    assert (repair.purpose, repair.tools) == ("STRUCTURAL_REPAIR", ())
    instruction = repair.messages[-1]["content"]
    payload = json.loads(instruction[instruction.index("{") :])
    repaired = [
        e["data"] for e in result.journal.events if e["type"] == "STRUCTURAL_REPAIR_REQUESTED"
    ]
    assert payload == {"violations": repaired[0]["violations"]}
    assert all(set(v) == {"code", "pointer"} for v in payload["violations"])


def test_step_budget_exhausted_ends_in_the_evidence_fallback(h):
    """After max_steps tool steps, a further tools answer is not executed: evidence fallback."""
    fixture = h.fixture(
        limits={"max_steps": 1},
        agent=[h.tool_calls(h.call("call_1")), h.tool_calls(h.call("call_2"))],
        semantic_guard=[],
    )
    observation = h.run(fixture)
    assert [i["tool_call_id"] for i in observation["invocations"]] == ["call_1"]
    assert "DRAFT_SUBMITTED" not in h.types(observation)
    run = h.final_run(observation)
    assert (run["state"], run["fallback_type"]) == ("FALLBACK", "EVIDENCE_VALIDATION_FAILED")
    assert observation["published_result"]["safe_fallback"]["verified_sources"] == []


def test_frames_are_events_then_result_then_end(h):
    """The client receives every event, then the result, then end with the final state."""
    observation = h.run(h.fixture())
    frames = observation["client_frames"]
    events = [f["data"] for f in frames if f["event"] == "run_event"]
    assert events == observation["trace"]
    kinds = [f["event"] for f in frames]
    assert kinds[-3:] == ["result", "run_event", "end"]
    assert frames[-3]["data"] == observation["published_result"]
    assert frames[-1]["data"] == {"state": "SUCCESS"}
    assert [e["seq"] for e in observation["trace"]] == list(range(1, len(observation["trace"]) + 1))


def test_tool_messages_carry_the_bounded_projection(h, direct):
    """The agent sees each accepted call's bounded projection as a tool message."""
    result = direct(h.fixture())
    second = result.ports.agent.requests[1].messages
    tool_messages = [m for m in second if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_1"]
    body = json.loads(tool_messages[0]["content"])
    assert body["projection"] == result.journal.invocations[0]["projection"]
    assert (body["status"], body["evidence_status"]) == ("READY", "EVIDENCE_FOUND")
