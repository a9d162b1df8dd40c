"""The Then checks hold on a conforming Run and fail, precisely, on a Run broken in one place.

Good observations come from the reference Harness (in-process); each test then breaks exactly
one rule in a copy and proves the check notices and names it.
"""

import copy

import pytest

from conformance import checks
from conformance.adapters import InProcessAdapter
from conformance.fixtures import FixtureBuilder


@pytest.fixture(scope="module")
def observe():
    adapter = InProcessAdapter("reference_harness.iut:create")
    cache: dict[str, dict] = {}

    def run(fixture: dict) -> dict:
        if fixture["fixture_id"] not in cache:
            cache[fixture["fixture_id"]] = adapter.run(fixture)
        return copy.deepcopy(cache[fixture["fixture_id"]])

    yield run
    adapter.close()


def duplicate_fixture() -> dict:
    b = FixtureBuilder()
    b.add_call(1, "search_logs", "call_1")
    b.add_call(2, "search_logs", "call_1")
    b.returns_lines("search_logs")
    b.submit(b.observing_draft(["call_1"]))
    b.review("supports")
    return b.build("checks-duplicate")


def no_evidence_fixture() -> dict:
    b = FixtureBuilder()
    b.add_call(1, "search_logs", "call_1")
    b.finds_nothing("search_logs")
    b.submit(b.observing_draft(["call_1"]))
    b.submit_repair(b.negative_draft("call_1"))
    b.review("supports")
    return b.build("checks-no-evidence")


def fallback_fixture() -> dict:
    b = FixtureBuilder()
    b.add_call(1, "search_logs", "call_1")
    b.returns_lines("search_logs")
    b.submit(b.observing_draft(["call_9"]), every_time=True)
    return b.build("checks-fallback")


def knowledge_fixture() -> dict:
    b = FixtureBuilder()
    b.ask("How do I rotate the key?", "KNOWLEDGE_QUERY")
    b.add_call(1, "lookup_documents", "lookup_1")
    b.returns_documents(["d1", "d2"])
    b.submit(b.answer("lookup_1", ["d1", "d9"]))
    b.submit_repair(b.answer("lookup_1", ["d1"]))
    b.review("supports")
    return b.build("checks-knowledge")


def retry_fixture() -> dict:
    b = FixtureBuilder()
    b.add_call(1, "search_logs", "call_1")
    b.returns_lines("search_logs")
    b.submit(b.observing_draft(["call_1"]))
    b.review("invalid_then_supports")
    return b.build("checks-retry")


def cancel_fixture() -> dict:
    b = FixtureBuilder()
    b.add_call(1, "search_logs", "call_1")
    b.returns_lines("search_logs")
    b.wrap_submission("block", b.observing_draft(["call_1"]))
    b.disconnect_during_submission()
    return b.build("checks-cancel")


def previous_fixture() -> dict:
    b = FixtureBuilder()
    b.add_prior_run(1, "DIAGNOSIS", "SUCCESS")
    b.add_prior_run(2, "DIAGNOSIS", "FALLBACK")
    b.add_call(1, "search_logs", "call_1")
    b.returns_lines("search_logs")
    b.submit(b.observing_draft(["call_1"]))
    b.review("supports")
    return b.build("checks-previous")


def _event(observation: dict, event_type: str) -> dict:
    return next(e for e in observation["trace"] if e["type"] == event_type)


def _fails(result: checks.CheckResult, text: str) -> None:
    assert not result.passed
    assert text in result.message
    with pytest.raises(AssertionError, match="failed"):
        result.require()


def test_identity_holds_and_detects_overwrite(observe):
    """A duplicate that overwrites the first invocation's arguments or projection is caught."""
    fixture = duplicate_fixture()
    observation = observe(fixture)
    checks.check_tool_call_identity(observation, fixture).require()
    twice = copy.deepcopy(observation)
    twice["invocations"].append(copy.deepcopy(twice["invocations"][0]))
    accepted = _event(twice, "TOOL_CALL_ACCEPTED")
    twice["trace"].insert(twice["trace"].index(accepted) + 1, copy.deepcopy(accepted))
    result = checks.check_tool_call_identity(twice, fixture)
    _fails(result, "'call_1': expected one invocation, got 2")
    _fails(result, "'call_1': expected one TOOL_CALL_ACCEPTED, got 2")
    second_args = fixture["agent"][1]["tool_calls"][0]["arguments"]
    observation["invocations"][0]["arguments"] = second_args
    observation["invocations"][0]["projection"]["items"][0]["text"] = "search_logs line 2"
    result = checks.check_tool_call_identity(observation, fixture)
    _fails(result, "the first canonical invocation was overwritten")
    _fails(result, "not the first execution's result")


def test_identity_detects_missing_or_wrong_rejection(observe):
    """No rejection event, or the wrong reason, fails the identity check."""
    fixture = duplicate_fixture()
    observation = observe(fixture)
    _event(observation, "TOOL_CALL_REJECTED")["data"]["reason"] = "INVALID_ID"
    _fails(checks.check_tool_call_identity(observation, fixture), "expected DUPLICATE_ID")
    observation["trace"] = [e for e in observation["trace"] if e["type"] != "TOOL_CALL_REJECTED"]
    _fails(checks.check_tool_call_identity(observation, fixture), "no TOOL_CALL_REJECTED")


@pytest.mark.parametrize(
    ("value", "present", "reason"),
    [
        ("", True, "MISSING_ID"),
        (None, False, "MISSING_ID"),
        (None, True, "MISSING_ID"),
        ("   ", True, "INVALID_ID"),
        ("call\u0000x", True, "INVALID_ID"),
        ("a" * 129, True, "INVALID_ID"),
        ("call_1\n", True, "INVALID_ID"),
        (7, True, "INVALID_ID"),
        ("a" * 128, True, None),
        ("functions.get_weather:0", True, None),
        ("call_1", True, "DUPLICATE_ID"),
    ],
)
def test_presented_id_classification(value, present, reason):
    """The oracle classifies presented ids exactly as the contract sheet says."""
    call = checks.PresentedCall(1, 0, "search_logs", present, value, {})
    assert checks.classify_presented_id(call, {"call_1"}) == reason


def test_no_evidence_checks(observe):
    """READY+NO_EVIDENCE and a bounded NEGATIVE_OBSERVATION hold; breaking either is caught."""
    fixture = no_evidence_fixture()
    observation = observe(fixture)
    checks.check_no_evidence_invocation(observation, fixture).require()
    checks.check_no_evidence_citations(observation, fixture).require()
    misclassified = copy.deepcopy(observation)
    _event(misclassified, "EVIDENCE_CLASSIFIED")["data"]["evidence_status"] = "EVIDENCE_FOUND"
    _fails(
        checks.check_no_evidence_invocation(misclassified, fixture),
        "'call_1': EVIDENCE_CLASSIFIED should say NO_EVIDENCE",
    )
    unbounded = copy.deepcopy(observation)
    unbounded["invocations"][0]["projection"]["total_matched"] = 1
    _fails(
        checks.check_no_evidence_invocation(unbounded, fixture),
        "'call_1': projection should hold zero items and total_matched 0",
    )
    broken = copy.deepcopy(observation)
    broken["invocations"][0]["evidence_status"] = "EVIDENCE_FOUND"
    _fails(checks.check_no_evidence_invocation(broken, fixture), "expected READY and NO_EVIDENCE")
    _event(observation, "EVIDENCE_VALIDATION")["data"].update(valid=True, violations=[])
    _fails(checks.check_no_evidence_citations(observation, fixture), "breaks the rule")


def test_scope_within():
    """A scope is within another only with the same tool, target, query and a narrower window."""
    outer = {
        "tool": "search_logs",
        "target": "checkout",
        "query": "q",
        "time_range": {"start_ms": 0, "end_ms": 10},
    }
    assert checks.scope_within(outer, outer)
    assert checks.scope_within({**outer, "time_range": {"start_ms": 2, "end_ms": 5}}, outer)
    assert not checks.scope_within({**outer, "time_range": {"start_ms": 0, "end_ms": 11}}, outer)
    assert not checks.scope_within({**outer, "target": "all-services"}, outer)
    assert not checks.scope_within({**outer, "query": "other"}, outer)
    assert not checks.scope_within(None, outer)


def test_fallback_checks(observe):
    """Two failed validations give the fixed fallback; sources or a wrong code are caught."""
    fixture = fallback_fixture()
    observation = observe(fixture)
    checks.check_rejected_twice_fallback(observation).require()
    checks.check_one_repair_only(observation, fixture).require()
    mislabelled = copy.deepcopy(observation)
    row = next(r for r in mislabelled["runs"] if r["run_id"] == mislabelled["run_id"])
    row["fallback_type"] = "SEMANTIC_UNAVAILABLE"
    _fails(
        checks.check_fallback(mislabelled, "EVIDENCE_VALIDATION_FAILED"),
        "diagnosis_run is FALLBACK / SEMANTIC_UNAVAILABLE, expected FALLBACK / EVIDENCE_VALID",
    )
    released = copy.deepcopy(observation)
    finished = _event(released, "RUN_FINISHED")
    release = {**copy.deepcopy(finished), "type": "RESULT_RELEASED"}
    release["data"] = {"kind": "DIAGNOSIS_DRAFT"}
    released["trace"].insert(released["trace"].index(finished), release)
    _fails(
        checks.check_fallback(released, "EVIDENCE_VALIDATION_FAILED"),
        "a fallback Run released ['SAFE_FALLBACK', 'DIAGNOSIS_DRAFT']",
    )
    fallback = observation["published_result"]["safe_fallback"]
    fallback["verified_sources"] = [{"tool_call_id": "call_1"}]
    fallback["message_code"] = "REVIEW_UNAVAILABLE"
    result = checks.check_fallback(observation, "EVIDENCE_VALIDATION_FAILED")
    _fails(result, "verified sources should be empty")
    _fails(result, "expected EVIDENCE_NOT_VERIFIED")


def test_fabricated_citation_check(observe):
    """Publishing the fabricated document, or validating it, is caught."""
    fixture = knowledge_fixture()
    observation = observe(fixture)
    checks.check_fabricated_citation_rejected(observation, fixture).require()
    answer = observation["published_result"]["knowledge_answer"]
    answer["items"][0]["references"][0]["document_id"] = "d9"
    _event(observation, "EVIDENCE_VALIDATION")["data"].update(valid=True, violations=[])
    result = checks.check_fabricated_citation_rejected(observation, fixture)
    _fails(result, "the published answer cites ['d9']")
    _fails(result, "EVIDENCE_VALIDATION attempt 1 is")


def test_semantic_retry_check(observe):
    """Two attempts on one digest hold; a second digest or a third attempt is caught."""
    fixture = retry_fixture()
    observation = observe(fixture)
    checks.check_semantic_retry(observation, second_outcome="VALID").require()
    checks.check_global_invariants(observation, fixture).require()
    elsewhere = copy.deepcopy(observation)
    _event(elsewhere, "SEMANTIC_VERDICT")["data"]["snapshot_digest"] = "0" * 64
    _fails(checks.check_semantic_retry(elsewhere, second_outcome="VALID"), "another snapshot")
    _fails(checks.check_global_invariants(elsewhere, fixture), "not the reviewed snapshot's")
    finished = [
        e
        for e in observation["trace"]
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == "SEMANTIC_GUARD"
    ]
    finished[1]["data"]["snapshot_digest"] = "0" * 64
    _fails(checks.check_semantic_retry(observation, second_outcome="VALID"), "digests differ")
    third = copy.deepcopy(finished[1])
    third["data"]["attempt"] = 3
    observation["trace"].insert(observation["trace"].index(finished[1]) + 1, third)
    _fails(checks.check_global_invariants(observation, fixture), "policy allows 2")
    _fails(
        checks.check_semantic_retry(observation, second_outcome="VALID"),
        "expected 2 SemanticGuard attempts",
    )


def test_cancellation_checks(observe):
    """Layered cancellation holds; a missing layer or a released draft is caught."""
    fixture = cancel_fixture()
    observation = observe(fixture)
    checks.check_layered_cancellation(observation).require()
    swapped = copy.deepcopy(observation)
    trace = swapped["trace"]
    new_work = trace.index(_event(swapped, "NEW_WORK_PREVENTED"))
    interrupt = trace.index(_event(swapped, "INTERRUPT_REQUESTED"))
    trace[new_work], trace[interrupt] = trace[interrupt], trace[new_work]
    _fails(checks.check_layered_cancellation(swapped), "events out of order")
    late_start = copy.deepcopy(observation)
    prevented = _event(late_start, "NEW_WORK_PREVENTED")
    started = {**copy.deepcopy(prevented), "type": "MODEL_CALL_STARTED"}
    late_start["trace"].insert(late_start["trace"].index(prevented) + 1, started)
    _fails(
        checks.check_layered_cancellation(late_start),
        "MODEL_CALL_STARTED (event",
    )
    broken = copy.deepcopy(observation)
    broken["trace"] = [e for e in broken["trace"] if e["type"] != "LATE_RESULT_DISCARDED"]
    _fails(checks.check_layered_cancellation(broken), "no LATE_RESULT_DISCARDED event")
    checks.check_cancelled_nothing_released(observation).require()
    released = copy.deepcopy(observation)
    finished = _event(released, "RUN_FINISHED")
    release = {**copy.deepcopy(finished), "type": "RESULT_RELEASED"}
    release["data"] = {"kind": "DIAGNOSIS_DRAFT"}
    released["trace"].insert(released["trace"].index(finished), release)
    _fails(checks.check_cancelled_nothing_released(released), "released ['DIAGNOSIS_DRAFT']")
    published = copy.deepcopy(observation)
    published["published_result"] = {"kind": "DIAGNOSIS_DRAFT"}
    _fails(checks.check_cancelled_nothing_released(published), "the observation has a published")
    observation["client_frames"].append({"event": "result", "data": {"kind": "DIAGNOSIS_DRAFT"}})
    _fails(checks.check_cancelled_nothing_released(observation), "the client received result")


def test_previous_turn_check(observe):
    """The fallback Run is skipped for the earlier success; another choice is caught."""
    fixture = previous_fixture()
    observation = observe(fixture)
    assert checks.expected_previous_turn(fixture) == (
        "prior-run-1",
        [{"run_id": "prior-run-2", "reason": "STATE_FALLBACK"}],
    )
    checks.check_previous_turn(observation, fixture).require()
    for skipped in ([], [{"run_id": "prior-run-2", "reason": "INTENT_KNOWLEDGE_QUERY"}]):
        unreported = copy.deepcopy(observation)
        _event(unreported, "PREVIOUS_TURN_SELECTED")["data"]["skipped"] = skipped
        _fails(checks.check_previous_turn(unreported, fixture), f"skipped {skipped}, expected")
    unselected = copy.deepcopy(observation)
    unselected["trace"].remove(_event(unselected, "PREVIOUS_TURN_SELECTED"))
    _fails(checks.check_previous_turn(unselected, fixture), "expected one PREVIOUS_TURN_SELECTED")
    _event(observation, "PREVIOUS_TURN_SELECTED")["data"]["selected_run_id"] = "prior-run-2"
    _fails(checks.check_previous_turn(observation, fixture), "expected 'prior-run-1'")


def test_global_invariants_catch_rewritten_release(observe):
    """A released draft that differs from the agent's submission is caught."""
    fixture = duplicate_fixture()
    observation = observe(fixture)
    checks.check_global_invariants(observation, fixture).require()
    checks.check_released_is_submitted(observation, fixture).require()
    draft = observation["published_result"]["diagnosis_draft"]
    draft["conclusion"]["summary"] = "The Harness wrote this."
    for row in observation["runs"]:
        if row["run_id"] == observation["run_id"]:
            row["published_result"] = observation["published_result"]
    _fails(checks.check_released_is_submitted(observation, fixture), "differs from every draft")
    _fails(checks.check_global_invariants(observation, fixture), "not canonical-JSON-identical")


def test_global_invariants_catch_unvalidated_release(observe):
    """A release with no SUPPORTED verdict before it is caught."""
    fixture = duplicate_fixture()
    observation = observe(fixture)
    observation["trace"] = [e for e in observation["trace"] if e["type"] != "SEMANTIC_VERDICT"]
    for seq, event in enumerate(observation["trace"], start=1):
        event["seq"] = seq
    _fails(checks.check_global_invariants(observation, fixture), "without a SUPPORTED")


def test_global_invariants_catch_draft_text_in_fallback_and_schema(observe):
    """Draft text inside a fallback, a second repair and an invalid event are all caught."""
    fixture = fallback_fixture()
    observation = observe(fixture)
    checks.check_global_invariants(observation, fixture).require()
    statement = fixture["agent"][1]["draft"]["analyses"][0]["statement"]
    observation["published_result"]["safe_fallback"]["leak"] = statement
    repair = _event(observation, "STRUCTURAL_REPAIR_REQUESTED")
    observation["trace"].insert(0, copy.deepcopy(repair))
    result = checks.check_global_invariants(observation, fixture)
    _fails(result, "unreleased draft text reached")
    _fails(result, "2 structural repairs")
    _fails(result, "RunObservation")


def test_normalized_trace(observe):
    """Run ids, digests and timestamps do not count; any other difference does."""
    fixture = retry_fixture()
    first = observe(fixture)
    second = copy.deepcopy(first)
    new_id = "another-run"
    for event in second["trace"]:
        event["run_id"] = new_id
        event["ts_ms"] = 1
        if event["data"].get("snapshot_digest"):
            event["data"]["snapshot_digest"] = "f" * 64
    second["run_id"] = new_id
    checks.check_same_normalized_trace(first, second).require()
    second["trace"][-1]["data"]["state"] = "FALLBACK"
    _fails(checks.check_same_normalized_trace(first, second), "differs")


def test_contract_data_checks():
    """The registry and plan rules fail on a Harness that plans or an early cutover."""
    registry = {
        "components": [
            {"component": "HARNESS", "owns": ["PLANNING"], "never": ["EXECUTOR"]},
            {"component": "DIAGNOSIS_AGENT", "owns": ["REPORT_AUTHORING"], "never": []},
        ]
    }
    result = checks.check_harness_ownership(registry)
    _fails(result, "HARNESS owns ['PLANNING']")
    _fails(result, "does not declare")
    stages = ["0", "1", "2", "3", "4", "5", "6A", "6B", "7", "8", "9"]
    plan = {
        "changes": [
            {"order": n, "stage": s, "public_entry": "SINGLE_REACT" if n >= 5 else "LEGACY"}
            for n, s in enumerate(stages, start=1)
        ]
    }
    _fails(checks.check_serial_cutover(plan), "leave the legacy public entry before 6B")


def test_global_invariants_catch_rewritten_history(observe):
    """An earlier Run changed by the new Run (terminal rows are immutable) is caught."""
    fixture = previous_fixture()
    observation = observe(fixture)
    checks.check_global_invariants(observation, fixture).require()
    prior = next(r for r in observation["runs"] if r["run_id"] == "prior-run-2")
    prior["user_message"] = "rewritten"
    _fails(checks.check_global_invariants(observation, fixture), "'prior-run-2' changed")


def test_global_invariants_catch_script_errors(observe):
    """An observation reporting a fixture run error (e.g. SCRIPT_UNCONSUMED) is a failure."""
    fixture = duplicate_fixture()
    observation = observe(fixture)
    observation["error"] = {"code": "SCRIPT_UNCONSUMED", "message": "semantic_guard: 1 left"}
    _fails(checks.check_global_invariants(observation, fixture), "SCRIPT_UNCONSUMED")


def test_router_failure_checks(observe):
    """Two UNAVAILABLE Router attempts end FAILED; a third attempt or another code is caught."""
    b = FixtureBuilder()
    b.script_router("unavailable")
    fixture = b.build("checks-router-down")
    observation = observe(fixture)
    checks.check_attempt_outcomes(observation, "ROUTER", ["UNAVAILABLE", "UNAVAILABLE"]).require()
    checks.check_failed_run(observation, "ROUTER_UNAVAILABLE").require()
    checks.check_global_invariants(observation, fixture).require()
    _fails(checks.check_failed_run(observation, "AGENT_UNAVAILABLE"), "expected FAILED")
    finished = [
        e
        for e in observation["trace"]
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == "ROUTER"
    ]
    third = copy.deepcopy(finished[-1])
    third["data"]["attempt"] = 3
    observation["trace"].insert(observation["trace"].index(finished[-1]) + 1, third)
    _fails(checks.check_global_invariants(observation, fixture), "(policy allows 2)")
    _fails(
        checks.check_attempt_outcomes(observation, "DIAGNOSIS_AGENT", ["UNAVAILABLE"]),
        "recorded []",
    )
