"""The contract-detail checks: what the trace must record where the spec's sentences stop."""

from __future__ import annotations

import copy
import json

from conformance.checks import check_contract_details, expected_binding_violations
from conformance.fixtures import ABSENT, FixtureBuilder, tool_call, tool_calls_turn


def _draft(*bindings: object) -> dict:
    builder = FixtureBuilder()
    draft = builder.unbound_draft()
    analysis = draft["analyses"][0]
    draft["analyses"] = []
    for n, binding in enumerate(bindings, 1):
        entry = {**copy.deepcopy(analysis), "analysis_id": f"a{n}"}
        if binding is None:
            entry.pop("tool_call_ids")
        else:
            entry["tool_call_ids"] = binding
        draft["analyses"].append(entry)
    draft["conclusion"]["analysis_ids"] = [a["analysis_id"] for a in draft["analyses"]]
    draft["action_plan"] = []
    draft["recommendations"] = []
    return draft


def test_each_missing_binding_is_expected_at_its_pointer():
    """An empty and an absent tool_call_ids each give MISSING_TOOL_CALL_IDS at their analysis."""
    found = expected_binding_violations("draft", _draft([], ["call_1"], None))
    assert found == [
        ("MISSING_TOOL_CALL_IDS", ("/analyses/0/tool_call_ids", "/analyses/0")),
        ("MISSING_TOOL_CALL_IDS", ("/analyses/2/tool_call_ids", "/analyses/2")),
    ]


def test_no_code_is_required_when_another_error_may_hide_it():
    """A draft that stays invalid with its bindings filled is judged by the structure checks."""
    draft = _draft([])
    draft["analyses"][0]["kind"] = "GUESS"
    assert expected_binding_violations("draft", draft) == []
    assert expected_binding_violations("draft", _draft(["call_1"])) == []


def _rejection(presented_id: object) -> dict:
    return {
        "run_id": "run-1",
        "trace": [
            {
                "run_id": "run-1",
                "seq": 1,
                "type": "TOOL_CALL_REJECTED",
                "data": {
                    "reason": "INVALID_ID",
                    "presented_id": presented_id,
                    "tool_name": "search_logs",
                    "step": 1,
                    "position": 0,
                },
            }
        ],
    }


def _fixture(call: dict) -> dict:
    return {"agent": [tool_calls_turn([call])], "perturbations": []}


def test_the_presented_id_is_the_json_text_of_the_value_presented():
    """42 is shown as ``42``; ``"call 1"`` with its quotes; an absent id as null, and only it."""
    numeric = _fixture(tool_call(42, "search_logs"))
    assert check_contract_details(_rejection("42"), numeric).passed
    result = check_contract_details(_rejection(None), numeric)
    assert not result.passed
    assert result.rules == ("R2.rejected-presented-id",)

    spaced = _fixture(tool_call(" call 1", "search_logs"))
    assert check_contract_details(_rejection('" call 1"'), spaced).passed
    assert not check_contract_details(_rejection(" call 1"), spaced).passed

    absent = _fixture(tool_call(ABSENT, "search_logs"))
    assert check_contract_details(_rejection(None), absent).passed
    assert not check_contract_details(_rejection("null"), absent).passed


def test_a_presented_id_cut_to_160_characters_may_be_cut_from_either_encoding():
    """100 fullwidth letters: 102 characters raw, 602 with \\u escapes; a cut of the escaped
    text is the JSON text cut to 160 characters, a cut of nothing is not."""
    value = "\uff43" * 100
    fixture = _fixture(tool_call(value, "search_logs"))
    escaped = json.dumps(value)[:160]
    assert check_contract_details(_rejection(escaped), fixture).passed
    assert check_contract_details(_rejection(json.dumps(value, ensure_ascii=False)), fixture).passed
    assert not check_contract_details(_rejection(value[:160]), fixture).passed


def _validated(violations: list[dict]) -> dict:
    return {
        "run_id": "run-1",
        "trace": [
            {
                "run_id": "run-1",
                "seq": 1,
                "type": "EVIDENCE_VALIDATION",
                "data": {
                    "attempt": 1,
                    "result_kind": "DIAGNOSIS_DRAFT",
                    "valid": False,
                    "violations": violations,
                },
            }
        ],
    }


def test_missing_tool_call_ids_names_an_analysis_without_bindings_and_nothing_else():
    """The code at the analysis that lacks its ids passes; at a limitation it is a misuse."""
    builder = FixtureBuilder()
    builder.ask("Why?")
    builder.add_call(1, "search_logs", "call_1")
    builder.returns_lines("search_logs")
    draft = builder.observing_draft(["call_1"], limited=["call_1"])
    del draft["limitations"][0]["tool_call_ids"]
    builder.submit(draft)
    builder.submit_repair(builder.observing_draft(["call_1"]))
    builder.review("supports")
    fixture = builder.build("limitation-without-ids")

    schema_invalid = {"code": "SCHEMA_INVALID", "pointer": "/limitations/0"}
    assert check_contract_details(_validated([schema_invalid]), fixture).passed
    misused = {"code": "MISSING_TOOL_CALL_IDS", "pointer": "/limitations/0/tool_call_ids"}
    result = check_contract_details(_validated([misused]), fixture)
    assert not result.passed
    assert result.rules == ("R4.missing-binding-code",)


def test_missing_tool_call_ids_may_name_a_binding_that_is_no_list():
    """``"tool_call_ids": "call_1"`` is no list of Tool Call IDs: the code may name it."""
    builder = FixtureBuilder()
    builder.ask("Why?")
    builder.add_call(1, "search_logs", "call_1")
    builder.returns_lines("search_logs")
    draft = builder.observing_draft(["call_1"])
    draft["analyses"][0]["tool_call_ids"] = "call_1"
    builder.submit(draft)
    builder.submit_repair(builder.observing_draft(["call_1"]))
    builder.review("supports")
    fixture = builder.build("string-binding")

    named = {"code": "MISSING_TOOL_CALL_IDS", "pointer": "/analyses/0/tool_call_ids"}
    assert check_contract_details(_validated([named]), fixture).passed
    elsewhere = {"code": "MISSING_TOOL_CALL_IDS", "pointer": "/analyses/1/tool_call_ids"}
    assert not check_contract_details(_validated([elsewhere]), fixture).passed


def test_a_rejection_names_the_tool_the_call_presented():
    """A rejected call that named search_logs is recorded with that tool name, never null."""
    fixture = _fixture(tool_call(42, "search_logs"))
    observation = _rejection("42")
    assert check_contract_details(observation, fixture).passed
    observation["trace"][0]["data"]["tool_name"] = None
    result = check_contract_details(observation, fixture)
    assert result.rules == ("R2.rejected-tool-name",)
    observation["trace"][0]["data"]["tool_name"] = "search_metrics"
    assert not check_contract_details(observation, fixture).passed


def test_every_invocation_names_its_own_run():
    """An invocation whose run_id is the session's (or another Run's) is not the Run's."""
    invocation = {"tool_call_id": "call_1", "run_id": "run-1"}
    observation = {"run_id": "run-1", "trace": [], "invocations": [invocation]}
    fixture = {"agent": [], "perturbations": []}
    assert check_contract_details(observation, fixture).passed
    invocation["run_id"] = "session-1"
    result = check_contract_details(observation, fixture)
    assert result.rules == ("R2.invocation-run-id",)


def _event(seq: int, event_type: str, data: dict) -> dict:
    return {"run_id": "run-1", "seq": seq, "type": event_type, "data": data}


def test_a_repair_request_holds_every_violation_of_the_failed_validation():
    """Two violations found, one sent: named; both, in another order: kept."""
    first = {"code": "UNKNOWN_TOOL_CALL_ID", "pointer": "/analyses/0/tool_call_ids/0"}
    second = {"code": "NO_EVIDENCE_NOT_NEGATIVE", "pointer": "/analyses/1"}
    validation = {"attempt": 1, "valid": False, "violations": [first, second]}
    validation["result_kind"] = "DIAGNOSIS_DRAFT"
    repair = {"violations": [first]}
    observation = {
        "run_id": "run-1",
        "trace": [
            _event(1, "EVIDENCE_VALIDATION", validation),
            _event(2, "STRUCTURAL_REPAIR_REQUESTED", repair),
        ],
        "invocations": [],
    }
    fixture = {"agent": [], "perturbations": []}
    assert check_contract_details(observation, fixture).rules == ("R6.repair-sends-violations",)
    repair["violations"] = [second, first]
    assert check_contract_details(observation, fixture).passed


def test_each_component_numbers_its_logical_calls_in_start_order():
    """The agent's repair after its call 1 is its call 2; a retry keeps its call's index."""

    def started(seq: int, component: str, purpose: str, index: int, attempt: int = 1) -> dict:
        data = {"component": component, "purpose": purpose, "call_index": index}
        return _event(seq, "MODEL_CALL_STARTED", {**data, "attempt": attempt})

    trace = [
        started(1, "ROUTER", "ROUTE", 1),
        started(2, "ROUTER", "ROUTE", 1, attempt=2),
        started(3, "DIAGNOSIS_AGENT", "AGENT_STEP", 1),
        started(4, "DIAGNOSIS_AGENT", "STRUCTURAL_REPAIR", 2),
    ]
    observation = {"run_id": "run-1", "trace": trace, "invocations": []}
    fixture = {"agent": [], "perturbations": []}
    assert check_contract_details(observation, fixture).passed
    trace[3]["data"]["call_index"] = 1
    result = check_contract_details(observation, fixture)
    assert result.rules == ("R9.call-index-per-component",)


def test_a_verdict_follows_only_a_valid_review():
    """A verdict after a SemanticGuard attempt that ended UNAVAILABLE is named; after VALID: kept;
    a second verdict of one review is named."""
    digest = "0" * 64
    finished = {
        "component": "SEMANTIC_GUARD",
        "purpose": "SEMANTIC_REVIEW",
        "call_index": 1,
        "attempt": 1,
        "snapshot_digest": digest,
        "outcome": "UNAVAILABLE",
    }
    verdict = {"snapshot_digest": digest, "verdict": "SUPPORTED", "unsupported_analysis_ids": []}
    trace = [_event(1, "MODEL_CALL_FINISHED", finished), _event(2, "SEMANTIC_VERDICT", verdict)]
    observation = {"run_id": "run-1", "trace": trace, "invocations": []}
    fixture = {"agent": [], "perturbations": []}
    result = check_contract_details(observation, fixture)
    assert result.rules == ("R9.verdict-after-valid-review",)
    finished["outcome"] = "VALID"
    assert check_contract_details(observation, fixture).passed
    trace.append(_event(3, "SEMANTIC_VERDICT", verdict))
    assert not check_contract_details(observation, fixture).passed
