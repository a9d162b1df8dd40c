"""Conforming behaviour the false-kill audit 8 showed the kit failing: each passes now, and the
faulty behaviour next to it still fails naming its rule (docs/decisions/false-kills-8.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conformance import checks
from tests.conformance.test_conf_false_kills import _failing_rules, _fixture, _run

# -- F1: a draft text or raised message that coincides with legitimate text is no leak --------


def _unsupported(statement: str) -> dict[str, Any]:
    """A draft whose second analysis says ``statement``; the SemanticGuard rejects the first."""
    fixture = _fixture("draft-contains-an-analysis-item")
    fixture["agent"][-1]["draft"]["analyses"][1]["statement"] = statement
    verdict = {"verdict": "UNSUPPORTED", "unsupported_analysis_ids": ["a1"]}
    fixture["semantic_guard"] = [{"kind": "verdict", "verdict": verdict}]
    return fixture


@pytest.mark.parametrize(
    "statement",
    [
        "level:error step 1 call 1",  # the call's own query: the fallback lists its query scope
        "a1",  # the analysis id the verdict names
        "search_logs",  # a tool name
        "CLAIMS_NOT_SUPPORTED",  # the fallback's message code
        "EVIDENCE_FOUND",  # an evidence status
        "call_1",  # a Tool Call ID
        "session-1",  # the session id
    ],
)
def test_f1_a_statement_that_is_legitimate_text_is_no_leak(statement):
    """A semantic fallback of a draft whose statement is a word the Run carries anyway: passes."""
    fixture = _unsupported(statement)
    observation = _run(fixture)
    assert observation["published_result"]["safe_fallback"]["fallback_type"] == (
        "SEMANTIC_UNSUPPORTED"
    )
    checks.check_global_invariants(observation, fixture).require()


def test_f1_a_statement_leaked_into_the_fallback_still_fails():
    """The rejected draft's own sentence in the run row is still caught."""
    fixture = _unsupported("the payment dependency times out since 10:02")
    observation = _run(fixture)
    checks.check_global_invariants(observation, fixture).require()
    leaked = copy.deepcopy(observation)
    row = next(r for r in leaked["runs"] if r["run_id"] == leaked["run_id"])
    row["error_code"] = "the payment dependency times out since 10:02"
    assert "R6.fallback-fixed-schema" in _failing_rules(
        checks.check_global_invariants(leaked, fixture)
    )


def _raising(message: str) -> dict[str, Any]:
    """query_metrics raises ``message``; the draft cites only the search_logs call."""
    fixture = _fixture("draft-contains-an-analysis-item")
    fixture["tools"]["query_metrics"] = {"responses": [{"kind": "failure", "message": message}]}
    draft = fixture["agent"][-1]["draft"]
    draft["analyses"] = draft["analyses"][:1]
    for entry in [draft["conclusion"], *draft["action_plan"], *draft["recommendations"]]:
        entry["analysis_ids"] = ["a1"]
    return fixture


@pytest.mark.parametrize(
    "message", ["ERROR", "TOOL_FAILED", "search_logs", "call_1", "1", "null", "true", ":"]
)
def test_f1_a_raised_message_that_is_legitimate_text_is_no_leak(message):
    """A tool raising a word the Run carries anyway (its own error code, a status, a literal)."""
    fixture = _raising(message)
    observation = _run(fixture)
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    checks.check_global_invariants(observation, fixture).require()


def test_f1_a_raised_message_kept_still_fails():
    """The backend's own words stored as the invocation's safe message are still caught."""
    fixture = _raising("connection refused by 10.0.0.9:5432")
    observation = _run(fixture)
    checks.check_global_invariants(observation, fixture).require()
    leaked = copy.deepcopy(observation)
    failed = next(i for i in leaked["invocations"] if i["tool_call_id"] == "call_2")
    failed["error"]["safe_message"] = "connection refused by 10.0.0.9:5432"
    rules = _failing_rules(checks.check_global_invariants(leaked, fixture))
    assert "R6.internal-error-excluded" in rules


# -- F4: at most 256 violations are reported ------------------------------------------------


def _three_hundred_unknown_citations() -> dict[str, Any]:
    """A draft of 300 analyses, each citing an unknown call: 300 violations; a valid repair."""
    fixture = _fixture("draft-contains-an-analysis-item")
    valid = copy.deepcopy(fixture["agent"][-1])
    draft = fixture["agent"][-1]["draft"]
    draft["analyses"] = [
        {"analysis_id": f"a{i}", "kind": "INFERENCE", "statement": f"inference {i}"}
        | {"tool_call_ids": ["call_9"]}
        for i in range(300)
    ]
    for entry in [draft["conclusion"], *draft["action_plan"], *draft["recommendations"]]:
        entry["analysis_ids"] = ["a1"]
    fixture["agent"].append(valid)
    return fixture


def test_f4_a_guard_reporting_the_first_256_violations_is_conforming():
    """Design freeze: "At most 256 violations are reported, in document order"."""
    fixture = _three_hundred_unknown_citations()
    observation = _run(fixture)
    first = next(e for e in observation["trace"] if e["type"] == "EVIDENCE_VALIDATION")
    assert len(first["data"]["violations"]) == 256
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    checks.check_global_invariants(observation, fixture).require()


def test_f4_a_guard_leaving_out_a_violation_below_the_cap_still_fails():
    """Fewer than 256 reported: every broken rule must be among them."""
    fixture = _three_hundred_unknown_citations()
    observation = _run(fixture)
    cut = copy.deepcopy(observation)
    for event in cut["trace"]:
        cut_here = event["type"] in {"EVIDENCE_VALIDATION", "STRUCTURAL_REPAIR_REQUESTED"}
        if cut_here and event["data"]["violations"]:
            event["data"]["violations"] = event["data"]["violations"][:255]
    for frame in cut["client_frames"]:
        if frame["event"] == "run_event":
            frame["data"] = next(e for e in cut["trace"] if e["seq"] == frame["data"]["seq"])
    assert "R4.tool-call-bindings" in _failing_rules(checks.check_global_invariants(cut, fixture))


# -- F5: a step's calls accepted before the first executes -------------------------------------


def _disconnect_on_first_acceptance() -> dict[str, Any]:
    fixture = _fixture("four-parallel-calls-give-the-same-observation-in-every-fresh-process")
    fixture["client"] = {"disconnect_on": {"event_type": "TOOL_CALL_ACCEPTED", "occurrence": 1}}
    return fixture


def test_f5_accepting_a_whole_step_before_executing_is_conforming():
    """Three calls accepted after the disconnect frame, never run (ERROR/CANCELLED): no work
    started before the Harness's next wait."""
    fixture = _disconnect_on_first_acceptance()
    observation = _run(fixture, "reference_harness.variants:step_accepted_first")
    types = [e["type"] for e in observation["trace"]]
    assert types.index("CANCEL_REQUESTED") > max(
        i for i, t in enumerate(types) if t == "TOOL_CALL_ACCEPTED"
    )
    assert observation["runs"][-1]["state"] == "CANCELLED"
    checks.check_global_invariants(observation, fixture).require()


def test_f5_calls_run_on_after_the_disconnect_still_fail():
    """Two calls that ran to a result after the disconnect frame: the disconnect went unnoticed."""
    fixture = _disconnect_on_first_acceptance()
    observation = _run(fixture, "reference_harness.variants:step_accepted_first")
    ran_on = copy.deepcopy(observation)
    for record in ran_on["invocations"]:
        if record["tool_call_id"] in {"call_2", "call_3"}:
            record["error"] = {"code": "TOOL_FAILED", "safe_message": "The tool failed."}
    rules = _failing_rules(checks.check_global_invariants(ran_on, fixture))
    assert "R8.disconnect-noticed" in rules


# -- Session 11: a step's calls accepted but never run owe no TOOL_WORK_CANCELLED -------------

NEVER_RUN = "the-client-disconnects-at-any-event-of-the-run-example-4"
"""Two calls in step 1, the client gone on the first TOOL_CALL_ACCEPTED."""


def _never_run() -> tuple[dict[str, Any], dict[str, Any]]:
    fixture = _fixture(NEVER_RUN)
    observation = _run(fixture, "reference_harness.variants:step_accepted_first_unrecorded")
    return fixture, observation


def test_s11_a_call_accepted_but_never_run_needs_no_tool_work_cancelled():
    """call_2, accepted before call_1 ran and never run, ends ERROR CANCELLED with no
    TOOL_WORK_CANCELLED: none of its work was in flight ("once per cancellable in-flight tool
    call")."""
    fixture, observation = _never_run()
    stopped = [
        e["data"]["tool_call_id"]
        for e in observation["trace"]
        if e["type"] == "TOOL_WORK_CANCELLED"
    ]
    assert stopped == ["call_1"]
    ends = {i["tool_call_id"]: i["error"]["code"] for i in observation["invocations"]}
    assert ends == {"call_1": "CANCELLED", "call_2": "CANCELLED"}
    checks.check_disconnect(observation, fixture).require()
    checks.check_global_invariants(observation, fixture).require()


def test_s11_the_call_whose_work_ran_still_owes_its_record():
    """call_1, the first unfinished call of the step (its work started: executions go in order,
    accepting is no wait), still needs its TOOL_WORK_CANCELLED: without it the kit fails the Run."""
    fixture, observation = _never_run()
    unrecorded = copy.deepcopy(observation)
    unrecorded["trace"] = [e for e in unrecorded["trace"] if e["type"] != "TOOL_WORK_CANCELLED"]
    result = checks.check_disconnect(unrecorded, fixture)
    assert _failing_rules(result) == ("R8.tool-work-cancelled",)
    assert "'call_1' was in flight" in str(result)
    assert "'call_2'" not in str(result)


# -- F6/F7: the reviewer's user message as content parts, instructions beside the snapshot -----

REPAIRED_THEN_REVIEWED = "a-semantic-fallback-after-a-repair-lists-the-repaired-draft-s-sources"
_REVIEW_INSTRUCTIONS = (
    "Review the Verified Snapshot below and answer with one SemanticVerdict as JSON.\n\n"
)


def _reviewed(fixture_id: str = "draft-contains-an-analysis-item") -> tuple[Any, Any]:
    fixture = _fixture(fixture_id)
    observation = _run(fixture)
    checks.check_model_inputs(observation, fixture).require()
    return fixture, observation


def _review_messages(observation: dict[str, Any]) -> list[dict[str, Any]]:
    reviews = [c for c in observation["model_calls"] if c["component"] == "SEMANTIC_GUARD"]
    assert reviews
    return [m for c in reviews for m in c["messages"] if m["role"] == "user"]


@pytest.mark.parametrize(
    "shape", ["text parts", "split text parts", "instructions before", "instructions after"]
)
def test_f6_f7_the_snapshot_in_content_parts_or_beside_instructions_is_conforming(shape):
    """OpenAI content parts, or the instructions in the same user message: still one isolated
    single-turn review of the snapshot."""
    fixture, observation = _reviewed()
    reshaped = copy.deepcopy(observation)
    for message in _review_messages(reshaped):
        text = message["content"]
        message["content"] = {
            "text parts": [{"type": "text", "text": text}],
            "split text parts": [
                {"type": "text", "text": text[:10]},
                {"type": "text", "text": text[10:]},
            ],
            "instructions before": _REVIEW_INSTRUCTIONS + text,
            "instructions after": text + "\n\nAnswer with one SemanticVerdict as JSON.",
        }[shape]
    checks.check_model_inputs(reshaped, fixture).require()


def test_f7_the_conversation_beside_the_snapshot_still_fails():
    """The agent's conversation pasted as text around the snapshot is history: R1 fails."""
    fixture = _fixture(REPAIRED_THEN_REVIEWED)
    first, repaired = (t["draft"] for t in fixture["agent"] if t["kind"] == "draft")
    said = "the rejected reading of the logs"
    first["analyses"][0]["statement"] = said  # only the conversation holds it
    observation = _run(fixture)
    checks.check_model_inputs(observation, fixture).require()
    assert said not in json.dumps(repaired)
    pasted = copy.deepcopy(observation)
    for message in _review_messages(pasted):
        message["content"] = f"Earlier the agent said: {said}\n{message['content']}"
    rules = _failing_rules(checks.check_model_inputs(pasted, fixture))
    assert "R1.reviewer-isolated-single-turn" in rules


def test_f7_a_user_message_without_a_snapshot_still_fails():
    """Instructions alone, the snapshot left out: R1 fails."""
    fixture, observation = _reviewed()
    emptied = copy.deepcopy(observation)
    for message in _review_messages(emptied):
        message["content"] = [{"type": "text", "text": _REVIEW_INSTRUCTIONS}]
    rules = _failing_rules(checks.check_model_inputs(emptied, fixture))
    assert "R1.reviewer-isolated-single-turn" in rules


# -- F9: the end frame's open data object -----------------------------------------------------


def test_f9_an_end_frame_carrying_more_than_the_state_is_conforming():
    """ "end carries {state}"; the frame's data is an open object: more members are allowed."""
    fixture, observation = _reviewed()
    extended = copy.deepcopy(observation)
    extended["client_frames"][-1]["data"] = {"state": "SUCCESS", "run_id": observation["run_id"]}
    checks.check_global_invariants(extended, fixture).require()


@pytest.mark.parametrize("data", [{"run_id": "iut-run-1"}, {"state": "FALLBACK", "x": 1}])
def test_f9_an_end_frame_without_the_right_state_still_fails(data):
    """No state, or another state than RUN_FINISHED's, beside other members: R7 fails."""
    fixture, observation = _reviewed()
    broken = copy.deepcopy(observation)
    broken["client_frames"][-1]["data"] = data
    assert "R7.client-stream" in _failing_rules(checks.check_global_invariants(broken, fixture))


# -- F11: a fabricated document cited under another call --------------------------------------


def _fabricated_under_another_call() -> dict[str, Any]:
    """The answer's second item cites ``d9`` (never returned) under the search_logs call."""
    fixture = _fixture("knowledge-answer-cites-an-unknown-document")
    window = {"start_ms": 1767225600000, "end_ms": 1767226500000}
    arguments = {"target": "checkout", "time_range": window, "query": "level:error"}
    fixture["agent"][0]["tool_calls"].append(
        {"id": "call_2", "name": "search_logs", "arguments": arguments}
    )
    fixture["tools"]["search_logs"] = {"responses": [{"kind": "rows", "items": [{"text": "l"}]}]}
    second = fixture["agent"][1]["answer"]["items"][1]
    second["references"] = [{"tool_call_id": "call_2", "document_id": "d9"}]
    return fixture


def test_f11_rejecting_it_as_a_reference_to_another_call_is_conforming():
    """REFERENCE_OTHER_CALL alone (the binding breaks first): the answer is rejected, the Then
    holds."""
    fixture = _fabricated_under_another_call()
    observation = _run(fixture)
    first = next(e for e in observation["trace"] if e["type"] == "EVIDENCE_VALIDATION")
    assert {v["code"] for v in first["data"]["violations"]} == {"REFERENCE_OTHER_CALL"}
    checks.check_fabricated_citation_rejected(observation, fixture).require()
    checks.check_global_invariants(observation, fixture).require()


def test_f11_accepting_it_still_fails():
    """The same answer passed by EvidenceGuard: the fabricated citation is caught."""
    fixture = _fabricated_under_another_call()
    observation = _run(fixture)
    accepted = copy.deepcopy(observation)
    for event in accepted["trace"]:
        if event["type"] == "EVIDENCE_VALIDATION" and event["data"]["attempt"] == 1:
            event["data"]["valid"] = True
            event["data"]["violations"] = []
    rules = _failing_rules(checks.check_fabricated_citation_rejected(accepted, fixture))
    assert "R5.fabricated-citation-rejected" in rules
