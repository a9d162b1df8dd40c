"""The real adapter path gives the same observation as the scripted ports, fixture by fixture.

``reference_harness.openai.iut:create`` runs the Harness with the OpenAI-compatible adapters over
HTTP against the scripted server playing the fixture's turns; ``reference_harness.iut:create`` runs
it with in-process scripted ports. Both use the fake clock and counter run ids, so every
observation must be equal: trace, client frames, rows, invocations, published result.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance import fixtures as fx
from reference_harness import iut as scripted_iut
from reference_harness.openai import _prompts as openai_prompts
from reference_harness.openai import iut as openai_iut

_ARGS_2 = fx.call_arguments(query="level:warn")
_OBSERVATION = fx.analysis("a1", "OBSERVATION", ["call_1"])
_GOOD_DRAFT = fx.diagnosis_draft([_OBSERVATION])
_FAST = {**fx.DEFAULT_LIMITS, "model_call_timeout_ms": 400}


def _logs(*responses: dict[str, object]) -> dict[str, dict[str, object]]:
    return {"search_logs": fx.tool_script(*responses)}


def _fixtures() -> dict[str, dict[str, Any]]:
    lookup = fx.tool_call("call_l", "lookup_documents")
    docs = {"lookup_documents": fx.tool_script(fx.document_rows("d1", "d2"))}
    fabricated = fx.knowledge_answer("call_l", [fx.answer_item("i1", "call_l", ["d1", "d9"])])
    negative = fx.analysis(
        "a1",
        "NEGATIVE_OBSERVATION",
        ["call_1"],
        scope=fx.query_scope("search_logs", fx.call_arguments()),
    )
    return {
        "success": fx.diagnosis_fixture(
            "success",
            steps=[[fx.tool_call("call_1")]],
            draft=_GOOD_DRAFT,
            reviews=[fx.supported_turn()],
            tools=_logs(fx.rows("checkout error 500")),
        ),
        "duplicate-id": fx.diagnosis_fixture(
            "duplicate-id",
            steps=[[fx.tool_call("call_1"), fx.tool_call("call_1", arguments=_ARGS_2)]],
            draft=_GOOD_DRAFT,
            reviews=[fx.supported_turn()],
            tools=_logs(fx.rows("checkout error 500")),
        ),
        "empty-ids": fx.diagnosis_fixture(
            "empty-ids",
            steps=[
                [fx.tool_call(""), fx.tool_call("", arguments=_ARGS_2)],
                [fx.tool_call("call_1")],
            ],
            draft=_GOOD_DRAFT,
            reviews=[fx.supported_turn()],
            tools=_logs(fx.rows("checkout error 500")),
        ),
        "missing-and-odd-ids": fx.diagnosis_fixture(
            "missing-and-odd-ids",
            steps=[
                [fx.tool_call(fx.ABSENT), fx.tool_call(None), fx.tool_call(7), fx.tool_call("   ")]
            ],
            draft=_GOOD_DRAFT,
            repair=_GOOD_DRAFT,
        ),
        "no-evidence": fx.diagnosis_fixture(
            "no-evidence",
            steps=[[fx.tool_call("call_1")]],
            draft=fx.diagnosis_draft([negative]),
            reviews=[fx.supported_turn()],
            tools=_logs(fx.no_rows()),
        ),
        "validation-fails-twice": fx.diagnosis_fixture(
            "validation-fails-twice",
            steps=[[fx.tool_call("call_1")]],
            draft=fx.diagnosis_draft([fx.analysis("a1", "OBSERVATION", [])]),
            repair=fx.diagnosis_draft([fx.analysis("a1", "OBSERVATION", [])]),
            tools=_logs(fx.rows("checkout error 500")),
        ),
        "fabricated-document": fx.knowledge_fixture(
            "fabricated-document",
            steps=[[lookup]],
            answer=fabricated,
            repair=fabricated,
            tools=docs,
            user_message="How do I restart checkout?",
        ),
        "semantic-invalid-then-supported": fx.diagnosis_fixture(
            "semantic-invalid-then-supported",
            steps=[[fx.tool_call("call_1")]],
            draft=_GOOD_DRAFT,
            reviews=[fx.invalid_verdict_turn(), fx.supported_turn()],
            tools=_logs(fx.rows("checkout error 500")),
        ),
        "router-unavailable": fx.scenario_fixture(
            "router-unavailable",
            router=[fx.error_turn("UNAVAILABLE"), fx.error_turn("UNAVAILABLE")],
        ),
        "agent-timeout": fx.diagnosis_fixture(
            "agent-timeout", submission_turn=fx.error_turn("TIMEOUT"), limits=_FAST
        ),
        "disconnect-during-model-call": fx.diagnosis_fixture(
            "disconnect-during-model-call",
            steps=[[fx.tool_call("call_1")]],
            submission_turn=fx.blocks_until_cancelled(fx.draft_turn(_GOOD_DRAFT)),
            tools=_logs(fx.rows("checkout error 500")),
            client=fx.disconnect_during_agent_turn(1),
        ),
        "latest-run-is-fallback": fx.diagnosis_fixture(
            "latest-run-is-fallback",
            prior_runs=[
                fx.prior_run(1, intent="DIAGNOSIS", state="SUCCESS"),
                fx.prior_run(2, intent="DIAGNOSIS", state="FALLBACK"),
            ],
            steps=[[fx.tool_call("call_1")]],
            draft=_GOOD_DRAFT,
            reviews=[fx.supported_turn()],
            tools=_logs(fx.rows("checkout error 500")),
        ),
    }


_FIXTURES = _fixtures()


@pytest.fixture(scope="module")
def reference_iut() -> Any:
    iut = scripted_iut.create()
    yield iut
    iut.close()


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("name", sorted(_FIXTURES))
def test_openai_path_observes_what_the_scripted_path_observes(
    reference_iut: Any, name: str, stream: bool
) -> None:
    """Through HTTP and the OpenAI adapters, the Run is observed exactly as with scripted ports."""
    fixture = _FIXTURES[name]
    expected = reference_iut.run(fixture)
    iut = openai_iut.OpenAIIUT(endpoint="scripted", apply_perturbations=False, stream=stream)
    observed = iut.run(fixture)
    assert "error" not in expected, expected.get("error")
    assert _without_port_prompts(observed) == expected


def _without_port_prompts(observation: dict[str, Any]) -> dict[str, Any]:
    """The observation with each model call's leading system prompt of the OpenAI port removed.

    The OpenAI ports send their own system prompt first (the scripted ports have none); every
    other message of every model call must be the same on both paths.
    """
    prompts = {
        openai_prompts.ROUTER_SYSTEM,
        openai_prompts.AGENT_SYSTEM,
        openai_prompts.REVIEWER_SYSTEM,
    }
    calls = []
    for call in observation["model_calls"]:
        first, *rest = call["messages"]
        assert first["role"] == "system"
        assert first["content"] in prompts
        calls.append({**call, "messages": rest})
    return {**observation, "model_calls": calls}
