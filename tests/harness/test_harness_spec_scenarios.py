"""The 11 scenarios of the frozen spec, each run from a fixture dict with its THEN asserted."""

from __future__ import annotations

from contracts import canonical_json, load_component_registry, load_phase_plan

FORBIDDEN_FOR_HARNESS = {
    "PLANNING",
    "EXECUTOR",
    "COMPOSING",
    "WORKFLOW_ROUTING",
    "DIAGNOSIS_REASONING",
    "REPORT_TEXT_WRITING",
    "REPORT_AUTHORING",
}


def test_contract_ownership_is_inspected(h):
    """No Harness contract owns Planner/Executor/Composer/routing/reasoning; it writes no text."""
    registry = load_component_registry()
    harness = next(c for c in registry.components if c.component.value == "HARNESS")
    owned = {r.value for r in harness.owns}
    assert owned.isdisjoint(FORBIDDEN_FOR_HARNESS)
    draft = h.draft()
    observation = h.run(h.fixture(agent=[h.tool_calls(h.call()), h.draft_turn(draft)]))
    released = observation["published_result"]
    assert released["kind"] == "DIAGNOSIS_DRAFT"
    assert canonical_json(released["diagnosis_draft"]) == canonical_json(draft)


def test_duplicate_tool_call_id_is_proposed(h):
    """The second action with the same Tool Call ID is an error; the first invocation stays."""
    first = h.call("call_1", "search_logs", h.args(query="error"))
    second = h.call("call_1", "query_metrics", h.args(query="latency"))
    fixture = h.fixture(
        agent=[h.tool_calls(first), h.tool_calls(second), h.draft_turn(h.draft())],
    )
    observation = h.run(fixture)
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], r["step"], r["position"]) for r in rejected] == [("DUPLICATE_ID", 2, 0)]
    assert len(observation["invocations"]) == 1
    invocation = h.invocation(observation, "call_1")
    assert invocation["tool_name"] == "search_logs"
    assert invocation["arguments"] == h.args(query="error")
    assert (invocation["status"], invocation["evidence_status"]) == ("READY", "EVIDENCE_FOUND")
    assert h.final_run(observation)["state"] == "SUCCESS"


def test_successful_query_returns_no_evidence(h):
    """A successful tool with zero matches is READY with evidence status NO_EVIDENCE."""
    negative = h.analysis("a1", kind="NEGATIVE_OBSERVATION", scope=h.scope())
    fixture = h.fixture(
        agent=[h.tool_calls(h.call()), h.draft_turn(h.draft(negative))],
        tools=h.tools(search_logs=[h.rows()]),
    )
    observation = h.run(fixture)
    invocation = h.invocation(observation, "call_1")
    assert (invocation["status"], invocation["evidence_status"]) == ("READY", "NO_EVIDENCE")
    assert invocation["projection"]["items"] == []
    assert invocation["projection"]["total_matched"] == 0
    assert h.data(observation, "EVIDENCE_CLASSIFIED") == [
        {
            "tool_call_id": "call_1",
            "evidence_status": "NO_EVIDENCE",
            "item_count": 0,
            "total_matched": 0,
            "truncated": False,
        }
    ]


def test_no_evidence_result_is_cited(h):
    """Citing NO_EVIDENCE needs NEGATIVE_OBSERVATION bounded to the query scope."""
    as_observation = h.draft(h.analysis("a1", kind="OBSERVATION"))
    wider = h.draft(
        h.analysis("a1", kind="NEGATIVE_OBSERVATION", scope=h.scope(target="all-services"))
    )
    within = h.draft(h.analysis("a1", kind="NEGATIVE_OBSERVATION", scope=h.scope()))
    base = {"tools": h.tools(search_logs=[h.rows()])}
    rejected = h.run(
        h.fixture(
            agent=[h.tool_calls(h.call()), h.draft_turn(as_observation), h.draft_turn(wider)],
            semantic_guard=[],
            **base,
        )
    )
    codes = [{v["code"] for v in d["violations"]} for d in h.data(rejected, "EVIDENCE_VALIDATION")]
    assert len(codes) == 2
    assert "NO_EVIDENCE_NOT_NEGATIVE" in codes[0]
    assert codes[1] == {"NEGATIVE_SCOPE_TOO_WIDE"}
    assert h.final_run(rejected)["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"
    accepted = h.run(h.fixture(agent=[h.tool_calls(h.call()), h.draft_turn(within)], **base))
    assert h.final_run(accepted)["state"] == "SUCCESS"
    assert canonical_json(accepted["published_result"]["diagnosis_draft"]) == canonical_json(within)


def test_draft_contains_an_analysis_item(h):
    """A released draft has unique analysis ids, fixed kinds and >= 1 Tool Call ID each."""
    duplicate = h.draft(h.analysis("a1"), h.analysis("a1"))
    unbound = h.draft(h.analysis("a1", ids=()))
    observation = h.run(
        h.fixture(
            agent=[h.tool_calls(h.call()), h.draft_turn(duplicate), h.draft_turn(unbound)],
            semantic_guard=[],
        )
    )
    assert observation["published_result"]["kind"] == "SAFE_FALLBACK"
    good = h.draft(h.analysis("a1"), h.analysis("a2", kind="INFERENCE"))
    released = h.run(h.fixture(agent=[h.tool_calls(h.call()), h.draft_turn(good)]))
    analyses = released["published_result"]["diagnosis_draft"]["analyses"]
    ids = [a["analysis_id"] for a in analyses]
    assert len(ids) == len(set(ids))
    assert all(a["kind"] in {"OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE"} for a in analyses)
    assert all(len(a["tool_call_ids"]) >= 1 for a in analyses)


def test_knowledge_answer_cites_an_unknown_document(h):
    """A reference to a document the lookup did not return is rejected, never published."""
    fabricated = h.knowledge("call_1", ("d1", "d9"))
    fixture = h.fixture(
        router=[{"kind": "intent", "intent": "KNOWLEDGE_QUERY"}],
        agent=[
            h.tool_calls(h.call("call_1", "lookup_documents")),
            h.answer_turn(fabricated),
            h.answer_turn(fabricated),
        ],
        semantic_guard=[],
        tools=h.tools(lookup_documents=[h.doc_rows("d1", "d2")]),
    )
    observation = h.run(fixture)
    validations = h.data(observation, "EVIDENCE_VALIDATION")
    assert [v["valid"] for v in validations] == [False, False]
    assert all(
        any(v["code"] == "FABRICATED_DOCUMENT_ID" for v in d["violations"]) for d in validations
    )
    assert observation["published_result"]["kind"] == "SAFE_FALLBACK"
    assert "d9" not in h.dumps(observation["published_result"])


def test_evidence_validation_fails_twice(h):
    """Initial validation and the one no-Tool repair both fail: EVIDENCE_VALIDATION_FAILED, []."""
    unbound = h.draft(h.analysis("a1", ids=()))
    observation = h.run(
        h.fixture(
            agent=[h.tool_calls(h.call()), h.draft_turn(unbound), h.draft_turn(unbound)],
            semantic_guard=[],
        )
    )
    run = h.final_run(observation)
    assert (run["state"], run["fallback_type"]) == ("FALLBACK", "EVIDENCE_VALIDATION_FAILED")
    fallback = observation["published_result"]["safe_fallback"]
    assert fallback["verified_sources"] == []
    assert fallback["message_code"] == "EVIDENCE_NOT_VERIFIED"
    assert h.types(observation).count("STRUCTURAL_REPAIR_REQUESTED") == 1


def test_latest_run_is_a_fallback(h, direct):
    """A FALLBACK latest Run is skipped; the latest DIAGNOSIS + SUCCESS Run is the previous turn."""
    eligible = h.prior_run("prior-1", 1, "SUCCESS")
    fixture = h.fixture(
        prior_runs=[eligible, h.prior_run("prior-2", 2, "FALLBACK")],
    )
    outcome = direct(fixture)
    selected = [e["data"] for e in outcome.journal.events if e["type"] == "PREVIOUS_TURN_SELECTED"]
    assert selected == [
        {
            "selected_run_id": "prior-1",
            "skipped": [{"run_id": "prior-2", "reason": "STATE_FALLBACK"}],
        }
    ]
    first_request = outcome.ports.agent.requests[0]
    contents = [m["content"] for m in first_request.messages]
    assert canonical_json(eligible["published_result"]).decode() in contents
    fallback_text = canonical_json(fixture["prior_runs"][1]["published_result"]).decode()
    assert fallback_text not in contents


def test_client_disconnects_during_a_model_call(h):
    """Disconnect during a blocked model call: no release, interrupt, CANCELLED, late drop."""
    fixture = h.fixture(
        agent=[
            h.tool_calls(h.call()),
            {"kind": "block_until_cancelled", "then": h.draft_turn(h.draft())},
        ],
        semantic_guard=[],
        client={"disconnect_on": {"event_type": "MODEL_CALL_STARTED", "occurrence": 3}},
    )
    observation = h.run(fixture)
    types = h.types(observation)
    tail = types[types.index("CANCEL_REQUESTED") :]
    assert tail == [
        "CANCEL_REQUESTED",
        "NEW_WORK_PREVENTED",
        "INTERRUPT_REQUESTED",
        "MODEL_CALL_FINISHED",
        "LATE_RESULT_DISCARDED",
        "RUN_FINISHED",
    ]
    assert h.data(observation, "CANCEL_REQUESTED") == [{"cause": "CLIENT_DISCONNECTED"}]
    assert h.attempts(observation, "DIAGNOSIS_AGENT")[-1]["outcome"] == "CANCELLED"
    run = h.final_run(observation)
    assert (run["state"], run["published_result"]) == ("CANCELLED", None)
    assert observation["published_result"] is None
    assert "RESULT_RELEASED" not in types
    assert all(frame["event"] == "run_event" for frame in observation["client_frames"])
    assert "error" not in observation


def test_semantic_guard_returns_an_invalid_schema(h):
    """An invalid first review gets one more attempt on the same snapshot; both are recorded."""
    fixture = h.fixture(
        semantic_guard=[{"kind": "raw", "text": "looks fine to me"}, h.supported()],
    )
    observation = h.run(fixture)
    attempts = h.attempts(observation, "SEMANTIC_GUARD")
    assert [(a["call_index"], a["attempt"], a["outcome"]) for a in attempts] == [
        (1, 1, "INVALID_SCHEMA"),
        (1, 2, "VALID"),
    ]
    digests = {a["snapshot_digest"] for a in attempts}
    assert len(digests) == 1
    assert None not in digests
    started = [
        d["snapshot_digest"]
        for d in h.data(observation, "MODEL_CALL_STARTED")
        if d["component"] == "SEMANTIC_GUARD"
    ]
    assert started == [attempts[0]["snapshot_digest"]] * 2
    assert h.final_run(observation)["state"] == "SUCCESS"


def test_stage_4_completes_internal_agent_tests():
    """Before stage 6B the public chat entry stays LEGACY; 6B is the first SINGLE_REACT stage."""
    plan = load_phase_plan()
    entries = [(c.stage.value, c.public_entry.value) for c in plan.changes]
    stages = [stage for stage, _ in entries]
    cutover = stages.index("6B")
    assert stages.index("4") < stages.index("5") < cutover
    assert all(entry == "LEGACY" for _, entry in entries[:cutover])
    assert entries[cutover][1] == "SINGLE_REACT"
