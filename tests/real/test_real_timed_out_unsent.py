"""A model call that times out before its HTTP request is sent leaves its turn unread, lawfully.

CI failure of stop 26: with ``model_call_timeout_ms: 1`` the OpenAI client's timeout sometimes
ended the Router call before the request reached the scripted server; the Harness recorded the
``TIMEOUT`` (as it must), the turn stayed in the script, and the reference's OpenAI IUT reported
``SCRIPT_UNCONSUMED`` (a false failure of the reference, R0.valid-observation). The kit's model
endpoint already excused such turns; the reference's scripted server now does too, by the same
count: turns left <= attempts finished without a request, all of them ``TIMEOUT``.
"""

from __future__ import annotations

from typing import Any

from reference_harness import ScriptedTools
from reference_harness.openai import iut as openai_iut
from reference_harness.openai.testing import ScriptedOpenAIServer


def _finished(component: str, outcome: str) -> dict[str, Any]:
    return {"type": "MODEL_CALL_FINISHED", "data": {"component": component, "outcome": outcome}}


def _error(trace: list[dict[str, Any]]) -> dict[str, str] | None:
    router_turn = {"kind": "intent", "intent": "DIAGNOSIS"}
    with ScriptedOpenAIServer.from_fixture({"router": [router_turn]}) as server:
        return openai_iut._script_error(server, ScriptedTools({}, []), [], trace=trace)


def test_a_turn_asked_for_by_an_unsent_timed_out_attempt_is_not_unconsumed() -> None:
    assert _error([_finished("ROUTER", "TIMEOUT")]) is None


def test_a_turn_nobody_asked_for_is_still_unconsumed() -> None:
    error = _error([])
    assert error is not None
    assert error["code"] == "SCRIPT_UNCONSUMED"
    assert "ROUTER: 1 turn(s) left" in error["message"]


def test_an_unsent_attempt_that_did_not_time_out_excuses_nothing() -> None:
    error = _error([_finished("ROUTER", "MALFORMED_OUTPUT")])
    assert error is not None
    assert error["code"] == "SCRIPT_UNCONSUMED"


def test_a_timeout_of_another_component_excuses_nothing() -> None:
    error = _error([_finished("DIAGNOSIS_AGENT", "TIMEOUT")])
    assert error is not None
    assert error["code"] == "SCRIPT_UNCONSUMED"
