"""Bad model output, bad tool behaviour and huge payloads end in a defined state, and no secret
(exception text, tool failure message, raw payload) ever reaches an output."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from contracts import canonical_json
from reference_harness.errors import ModelUnavailable
from reference_harness.ports import FinalAnswer, ProposedToolCall, ToolCallsAnswer

CANARY = "CANARY-7f3a-do-not-leak"


def _outputs(result) -> str:
    """Everything a Run exposes: trace, frames, row, invocations (as JSON text)."""
    return json.dumps(
        {
            "events": result.journal.events,
            "frames": result.frames,
            "row": result.row.model_dump(mode="json"),
            "invocations": result.journal.invocations,
            "published": result.journal.published_result,
        }
    )


@pytest.mark.parametrize(
    "turn",
    [
        {"kind": "raw", "text": "I think the database is down."},
        {"kind": "raw", "text": '{"conclusion": '},
        {"kind": "draft", "draft": [1, 2, 3]},
        {"kind": "draft", "draft": {"conclusion": "everything is fine"}},
        {"kind": "draft", "draft": None},
    ],
    ids=["prose", "truncated-json", "array", "wrong-shape", "null"],
)
def test_unusable_drafts_end_in_the_evidence_fallback(h, turn):
    """Non-JSON or wrongly shaped drafts: SCHEMA_INVALID twice, then EVIDENCE_VALIDATION_FAILED."""
    observation = h.run(h.fixture(agent=[h.tool_calls(h.call()), turn, turn], semantic_guard=[]))
    validations = h.data(observation, "EVIDENCE_VALIDATION")
    assert [v["valid"] for v in validations] == [False, False]
    assert all(any(v["code"] == "SCHEMA_INVALID" for v in d["violations"]) for d in validations)
    assert h.final_run(observation)["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"


def test_a_repair_answer_with_tool_calls_is_a_failed_repair(h):
    """Tools proposed in the no-Tool repair: not executed, counted as a failed repair."""
    unbound = h.draft(h.analysis("a1", ids=()))
    fixture = h.fixture(
        agent=[h.tool_calls(h.call()), h.draft_turn(unbound), h.tool_calls(h.call("call_2"))],
        semantic_guard=[],
    )
    observation = h.run(fixture)
    assert [i["tool_call_id"] for i in observation["invocations"]] == ["call_1"]
    second = h.data(observation, "EVIDENCE_VALIDATION")[1]
    assert second["violations"] == [{"code": "SCHEMA_INVALID", "pointer": ""}]
    assert h.final_run(observation)["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"


def test_ten_megabyte_strings_stay_out_of_the_outputs(h):
    """A 10 MB draft string and a 10 MB tool call id: bounded trace, defined fallback."""
    huge = "x" * (10 * 1024 * 1024)
    bloated = h.draft(h.analysis("a1"))
    bloated["conclusion"]["summary"] = huge
    fixture = h.fixture(
        agent=[
            h.tool_calls(h.call(huge), h.call("call_1")),
            h.draft_turn(bloated),
            h.draft_turn(bloated),
        ],
        semantic_guard=[],
    )
    observation = h.run(fixture)
    rejected = h.data(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], len(r["presented_id"])) for r in rejected] == [("INVALID_ID", 160)]
    assert h.final_run(observation)["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"
    outputs = {key: value for key, value in observation.items() if key != "model_calls"}
    assert len(h.dumps(outputs)) < 100_000
    # model_calls records the model's input as sent: the structural repair call carries the
    # agent's own (huge) answer back to it, and nothing else of it reaches an output.
    repair = [c for c in observation["model_calls"] if c["component"] == "DIAGNOSIS_AGENT"][-1]
    assert repair["tools"] == []
    assert sum(huge in str(m.get("content")) for m in repair["messages"]) == 1


def test_nul_bytes_in_a_valid_draft_are_released_unchanged(h):
    """A draft whose text holds NUL characters is valid; the stored release is byte-identical."""
    draft = h.draft(h.analysis("a1"))
    draft["analyses"][0]["statement"] = "before\u0000after"
    observation = h.run(
        h.fixture(
            user_message="why\u0000?",
            agent=[h.tool_calls(h.call()), h.draft_turn(draft)],
        )
    )
    stored = h.final_run(observation)["published_result"]["diagnosis_draft"]
    assert canonical_json(stored) == canonical_json(draft)
    assert canonical_json(observation["published_result"]["diagnosis_draft"]) == canonical_json(
        draft
    )


def test_invalid_arguments_end_the_invocation_in_error(h):
    """Arguments that break the tool schema: ERROR/ERROR INVALID_ARGUMENTS, never executed.

    The invocation keeps the arguments as presented (tool-invocation.schema.json: "kept as
    presented so that INVALID_ARGUMENTS can be recorded").
    """
    bad = h.call("call_1", "search_logs", {"target": "", "query": 7})
    reversed_range = h.call("call_2", "search_logs", h.args(start=10, end=5))
    fixture = h.fixture(
        agent=[
            h.tool_calls(bad, reversed_range),
            h.draft_turn(h.draft()),
            h.draft_turn(h.draft()),
        ],
        semantic_guard=[],
        tools={},
    )
    observation = h.run(fixture)
    for tool_call_id, presented in (("call_1", bad), ("call_2", reversed_range)):
        invocation = h.invocation(observation, tool_call_id)
        assert (invocation["status"], invocation["evidence_status"]) == ("ERROR", "ERROR")
        assert invocation["error"]["code"] == "INVALID_ARGUMENTS"
        assert invocation["arguments"] == presented["arguments"]
    assert "error" not in observation  # no tool was executed: the empty tool script held


def test_a_failing_tool_keeps_its_message_inside(h):
    """A tool that raises: ERROR/ERROR TOOL_FAILED, fixed safe message, the canary nowhere."""
    fixture = h.fixture(
        agent=[h.tool_calls(h.call()), h.draft_turn(h.draft()), h.draft_turn(h.draft())],
        semantic_guard=[],
        tools=h.tools(search_logs=[{"kind": "failure", "message": f"Traceback {CANARY}"}]),
    )
    observation = h.run(fixture)
    invocation = h.invocation(observation, "call_1")
    assert invocation["error"] == {"code": "TOOL_FAILED", "safe_message": "The tool failed."}
    assert CANARY not in h.dumps(observation)


def test_in_band_error_is_ready_with_error_evidence(h):
    """A backend error body: READY/ERROR, BACKEND_ERROR with the fixed message, code not shown."""
    fixture = h.fixture(
        agent=[h.tool_calls(h.call()), h.draft_turn(h.draft()), h.draft_turn(h.draft())],
        semantic_guard=[],
        tools=h.tools(search_logs=[{"kind": "in_band_error", "code": CANARY}]),
    )
    observation = h.run(fixture)
    invocation = h.invocation(observation, "call_1")
    assert (invocation["status"], invocation["evidence_status"]) == ("READY", "ERROR")
    assert invocation["error"]["code"] == "BACKEND_ERROR"
    assert CANARY not in h.dumps(observation)


def test_raw_payload_beyond_the_projection_stays_inside(h):
    """Text past max_item_chars and rows past max_items never leave the Harness."""
    kept = "a" * 10
    fixture = h.fixture(
        limits={"max_items": 2, "max_item_chars": 10},
        tools=h.tools(
            search_logs=[h.rows(kept + CANARY, kept, CANARY, CANARY, total=9)],
        ),
    )
    observation = h.run(fixture)
    projection = h.invocation(observation, "call_1")["projection"]
    assert projection["items"] == [{"text": kept}, {"text": kept}]
    assert (projection["total_matched"], projection["truncated"]) == (9, True)
    assert CANARY not in h.dumps(observation)


class CrashingAgent:
    """A port that raises an unexpected exception carrying the canary."""

    def step(self, _request, _interrupt):
        msg = f"secret stack {CANARY}"
        raise RuntimeError(msg)


class UnavailableAgent:
    """A port whose ModelUnavailable message carries the canary."""

    def step(self, _request, _interrupt):
        raise ModelUnavailable(CANARY)


@pytest.mark.parametrize(
    ("agent", "error_code"),
    [(CrashingAgent(), "INTERNAL_ERROR"), (UnavailableAgent(), "AGENT_UNAVAILABLE")],
    ids=["crash", "unavailable"],
)
def test_port_exceptions_become_fixed_public_errors(h, direct, agent, error_code):
    """A port exception becomes a fixed PublicError; its text appears in no output."""
    result = direct(h.fixture(agent=[], semantic_guard=[], tools={}), agent=agent)
    assert result.row.state.value == "FAILED"
    assert result.row.error_code.value == error_code
    assert result.journal.published_result == {
        "kind": "PUBLIC_ERROR",
        "public_error": {"error_code": error_code},
    }
    assert CANARY not in _outputs(result)


class UnknownToolAgent:
    """Proposes a tool that does not exist, then a draft without citations."""

    def __init__(self, draft) -> None:
        self.answers = [
            ToolCallsAnswer(calls=(ProposedToolCall("call_9", "rm_rf", {"x": 1}),)),
        ]
        self.draft = draft
        self.requests = []

    def step(self, request, _interrupt):
        self.requests.append(request)
        return self.answers.pop(0) if self.answers else FinalAnswer(self.draft)


def test_an_unknown_tool_name_is_never_executed(h, direct):
    """An unknown tool name: no invocation, no execution; the agent is told with a fixed notice."""
    agent = UnknownToolAgent(h.draft(h.analysis("a1", ids=("call_9",))))
    result = direct(h.fixture(agent=[], semantic_guard=[], tools={}), agent=agent)
    assert result.journal.invocations == []
    assert result.ports.tools.calls == []
    notice = agent.requests[1].messages[-1]
    assert notice["role"] == "user"
    assert "UNKNOWN_TOOL" in notice["content"]
    assert result.row.fallback_type.value == "EVIDENCE_VALIDATION_FAILED"


def test_a_hundred_megabyte_payload_keeps_memory_bounded(h):
    """A 100 MB raw payload is projected lazily: peak traced memory stays far below its size."""
    size = 100 * 1024 * 1024
    fixture = h.fixture(tools=h.tools(search_logs=[{"kind": "oversize", "bytes": size}]))
    tracemalloc.start()
    try:
        observation = h.run(fixture)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < size // 10
    projection = h.invocation(observation, "call_1")["projection"]
    assert len(projection["items"]) == 20
    assert all(len(item["text"]) <= 2000 for item in projection["items"])
    assert projection["total_matched"] == size // 4096
    assert projection["truncated"] is True
    assert h.final_run(observation)["state"] == "SUCCESS"
