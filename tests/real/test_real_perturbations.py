"""Perturbations force a scenario's WHEN on a well-behaved model (DESIGN §9).

The scripted server plays a model that behaves well; the perturbation wrappers around the OpenAI
ports make it misbehave exactly as the scenario needs, and the Harness must then do what the
scenario's THEN says.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from conformance import fixtures as fx
from reference_harness.openai import (
    FABRICATED_DOCUMENT_ID,
    INVALID_REVIEW,
    ModelPorts,
    PerturbationError,
    perturb,
)
from reference_harness.openai import iut as openai_iut
from reference_harness.ports import (
    AgentRequest,
    FinalAnswer,
    ProposedToolCall,
    ReviewAnswer,
    ToolCallsAnswer,
)

_DRAFT = fx.diagnosis_draft([fx.analysis("a1", "OBSERVATION", ["call_1"])])
_LOGS = {"search_logs": fx.tool_script(fx.rows("checkout error 500"))}


def _run(fixture: dict[str, Any]) -> dict[str, Any]:
    iut = openai_iut.OpenAIIUT(endpoint="scripted", apply_perturbations=True)
    observation = iut.run(fixture)
    assert "error" not in observation, observation.get("error")
    return observation


def _events(observation: dict[str, Any], event_type: str) -> list[dict[str, Any]]:
    return [e["data"] for e in observation["trace"] if e["type"] == event_type]


def _final_state(observation: dict[str, Any]) -> str:
    return observation["runs"][-1]["state"]


def test_duplicate_first_tool_call_id_is_rejected_and_first_kept() -> None:
    """DUPLICATE_FIRST_TOOL_CALL_ID: the copy is rejected DUPLICATE_ID; the first is kept."""
    fixture = fx.diagnosis_fixture(
        "p-dup",
        steps=[[fx.tool_call("call_1")]],
        draft=_DRAFT,
        reviews=[fx.supported_turn()],
        tools=_LOGS,
        perturbations=["DUPLICATE_FIRST_TOOL_CALL_ID"],
    )
    observation = _run(fixture)
    rejected = _events(observation, "TOOL_CALL_REJECTED")
    assert [(r["reason"], r["position"]) for r in rejected] == [("DUPLICATE_ID", 1)]
    assert [i["tool_call_id"] for i in observation["invocations"]] == ["call_1"]
    assert observation["invocations"][0]["status"] == "READY"


def test_strip_draft_bindings_ends_in_evidence_fallback() -> None:
    """STRIP_DRAFT_BINDINGS: initial and repaired drafts both fail → EVIDENCE_VALIDATION_FAILED."""
    fixture = fx.diagnosis_fixture(
        "p-strip",
        steps=[[fx.tool_call("call_1")]],
        draft=_DRAFT,
        repair=_DRAFT,
        tools=_LOGS,
        perturbations=["STRIP_DRAFT_BINDINGS"],
    )
    observation = _run(fixture)
    assert [v["valid"] for v in _events(observation, "EVIDENCE_VALIDATION")] == [False, False]
    published = observation["published_result"]
    assert published["kind"] == "SAFE_FALLBACK"
    assert published["safe_fallback"]["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"
    assert published["safe_fallback"]["verified_sources"] == []


def test_invalid_first_review_gets_one_more_attempt_on_the_same_snapshot() -> None:
    """INVALID_FIRST_REVIEW: attempt 1 INVALID_SCHEMA, attempt 2 on the same digest, both kept."""
    fixture = fx.diagnosis_fixture(
        "p-review",
        steps=[[fx.tool_call("call_1")]],
        draft=_DRAFT,
        reviews=[fx.supported_turn(), fx.supported_turn()],
        tools=_LOGS,
        perturbations=["INVALID_FIRST_REVIEW"],
    )
    observation = _run(fixture)
    reviews = [
        f for f in _events(observation, "MODEL_CALL_FINISHED") if f["component"] == "SEMANTIC_GUARD"
    ]
    assert [(r["attempt"], r["outcome"]) for r in reviews] == [(1, "INVALID_SCHEMA"), (2, "VALID")]
    assert reviews[0]["snapshot_digest"] == reviews[1]["snapshot_digest"] is not None
    assert _final_state(observation) == "SUCCESS"


def test_fabricated_document_id_is_never_published() -> None:
    """FABRICATE_DOCUMENT_ID: the fabricated citation is rejected; the answer is not released."""
    lookup = fx.tool_call("call_l", "lookup_documents")
    answer = fx.knowledge_answer("call_l", [fx.answer_item("i1", "call_l", ["d1"])])
    fixture = fx.knowledge_fixture(
        "p-fabricate",
        steps=[[lookup]],
        answer=answer,
        repair=answer,
        tools={"lookup_documents": fx.tool_script(fx.document_rows("d1", "d2"))},
        perturbations=["FABRICATE_DOCUMENT_ID"],
    )
    observation = _run(fixture)
    codes = {
        v["code"] for e in _events(observation, "EVIDENCE_VALIDATION") for v in e["violations"]
    }
    assert "FABRICATED_DOCUMENT_ID" in codes
    assert observation["published_result"]["kind"] == "SAFE_FALLBACK"


def test_disconnect_during_model_call_cancels_and_discards_the_late_answer() -> None:
    """DISCONNECT_DURING_MODEL_CALL: CANCELLED, no result frame, LATE_RESULT_DISCARDED recorded."""
    fixture = fx.diagnosis_fixture(
        "p-disconnect",
        steps=[[fx.tool_call("call_1")]],
        perturbations=["DISCONNECT_DURING_MODEL_CALL"],
    )
    observation = _run(fixture)
    assert _final_state(observation) == "CANCELLED"
    assert _events(observation, "CANCEL_REQUESTED") == [{"cause": "CLIENT_DISCONNECTED"}]
    assert len(_events(observation, "LATE_RESULT_DISCARDED")) == 1
    assert all(frame["event"] != "result" for frame in observation["client_frames"])
    assert observation["published_result"] is None


class _Agent:
    def __init__(self, answer: object) -> None:
        self.answer = answer

    def step(self, request: AgentRequest, interrupt: threading.Event) -> Any:
        assert isinstance(request, AgentRequest)
        assert not interrupt.is_set()
        return self.answer


class _Reviewer:
    def review(self, request: object, interrupt: threading.Event) -> ReviewAnswer:
        assert request is None
        assert not interrupt.is_set()
        return ReviewAnswer({"verdict": "SUPPORTED", "unsupported_analysis_ids": []})


_REQUEST = AgentRequest("AGENT_STEP", (), (), "DIAGNOSIS")


def test_duplicate_uses_the_second_call_when_the_step_has_two() -> None:
    """With two calls in the step, the second takes the first's id (its own arguments kept)."""
    calls = (
        ProposedToolCall("a", "search_logs", {"q": 1}),
        ProposedToolCall("b", "list_alerts", {"q": 2}),
    )
    ports = perturb(
        ModelPorts(None, _Agent(ToolCallsAnswer(calls)), _Reviewer()),
        ["DUPLICATE_FIRST_TOOL_CALL_ID"],
    )  # type: ignore[arg-type]
    first = ports.agent.step(_REQUEST, threading.Event())
    again = ports.agent.step(_REQUEST, threading.Event())
    assert first == ToolCallsAnswer((calls[0], ProposedToolCall("a", "list_alerts", {"q": 2})))
    assert again == ToolCallsAnswer(calls)


def test_fabrication_and_invalid_review_values() -> None:
    """The fabricated reference names the lookup call; only the first review is replaced."""
    answer = fx.knowledge_answer("call_l", [fx.answer_item("i1", "call_l", ["d1"])])
    ports = perturb(
        ModelPorts(None, _Agent(FinalAnswer(answer)), _Reviewer()),  # type: ignore[arg-type]
        ["FABRICATE_DOCUMENT_ID", "INVALID_FIRST_REVIEW"],
    )
    result = ports.agent.step(_REQUEST, threading.Event())
    assert isinstance(result, FinalAnswer)
    assert result.content["items"][0]["references"][-1] == {  # type: ignore[index]
        "tool_call_id": "call_l",
        "document_id": FABRICATED_DOCUMENT_ID,
    }
    assert answer["items"][0]["references"] == [{"tool_call_id": "call_l", "document_id": "d1"}]  # type: ignore[index]
    reviews = [ports.reviewer.review(None, threading.Event()).content for _ in range(2)]  # type: ignore[arg-type]
    assert reviews == [INVALID_REVIEW, {"verdict": "SUPPORTED", "unsupported_analysis_ids": []}]


def test_unknown_perturbation_and_missing_hook_are_clear_errors() -> None:
    """An unknown name, or a disconnect without a hook, is refused with a message naming it."""
    ports = ModelPorts(None, _Agent(None), _Reviewer())  # type: ignore[arg-type]
    with pytest.raises(PerturbationError, match="UNKNOWN_THING"):
        perturb(ports, ["UNKNOWN_THING"])
    with pytest.raises(PerturbationError, match="disconnect"):
        perturb(ports, ["DISCONNECT_DURING_MODEL_CALL"])
