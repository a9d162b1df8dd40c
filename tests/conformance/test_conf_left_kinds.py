"""Checks of the survivor kinds closed in docs/decisions/left-kinds-8.md.

Each test takes a reference observation (which passes), changes one thing a faulty Harness
does, and shows the check names the rule; the conforming neighbour still passes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conformance import checks

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
IN_BAND = "a-backend-answers-with-an-in-band-error"
TOOL_CANCELLED = "a-tool-answers-after-its-work-is-cancelled"


def _fixture(name):
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def observe():
    from conformance.adapters import InProcessAdapter  # noqa: PLC0415 - only when run

    adapter = InProcessAdapter("reference_harness.iut:create")
    seen = {}

    def run(name, fixture=None):
        fixture = fixture or _fixture(name)
        key = json.dumps(fixture, sort_keys=True)
        if key not in seen:
            seen[key] = adapter.run(fixture)
        return fixture, copy.deepcopy(seen[key])

    yield run
    adapter.close()


def _in_band_record(observation):
    return next(i for i in observation["invocations"] if (i["error"] or {}).get("code"))


# -- an in-band backend error's code reaches no record (R6.in-band-error-excluded) -----------


def test_the_reference_keeps_in_band_codes_out(observe):
    """The reference's records carry BACKEND_ERROR and its own safe message only."""
    fixture, observation = observe(IN_BAND)
    assert checks.check_global_invariants(observation, fixture).passed
    assert checks.check_model_inputs(observation, fixture).passed


@pytest.mark.parametrize(
    "message",
    [
        "The tool backend answered with an error: RATE_LIMITED",
        "backend said rate_limited",
        "RATE_LIMITED",
    ],
)
def test_an_in_band_code_in_the_safe_message_is_named(observe, message):
    """The backend's code, in any case, in an invocation's safe_message breaks the rule."""
    fixture, observation = observe(IN_BAND)
    _in_band_record(observation)["error"]["safe_message"] = message
    result = checks.check_global_invariants(observation, fixture)
    assert result.rules == ("R6.in-band-error-excluded",)
    assert checks.check_internal_error_excluded(observation, fixture).rules == (
        "R6.in-band-error-excluded",
    )


def test_an_in_band_code_in_a_projection_is_named(observe):
    """The error body projected as an item is backend text in the record too."""
    fixture, observation = observe(IN_BAND)
    projection = _in_band_record(observation)["projection"]
    projection["items"] = [{"text": "error RATE_LIMITED"}]
    assert "R6.in-band-error-excluded" in checks.check_global_invariants(observation, fixture).rules


def test_an_in_band_code_sent_to_a_model_is_named(observe):
    """The backend's code in the agent's tool message is a raw tool payload (R4)."""
    fixture, observation = observe(IN_BAND)
    call = next(
        c for c in observation["model_calls"] if any(m["role"] == "tool" for m in c["messages"])
    )
    message = [m for m in call["messages"] if m["role"] == "tool"][-1]
    message["content"] = message["content"].replace("BACKEND_ERROR", "BACKEND_ERROR RATE_LIMITED")
    assert checks.check_model_inputs(observation, fixture).rules == ("R4.no-raw-payload-to-model",)


def test_a_backend_code_that_is_a_contract_code_is_no_leak(observe):
    """A backend answering a code the contracts define (EVIDENCE_FOUND here) leaks nothing when
    the records carry the contract's own code of that name (call_1 is READY/EVIDENCE_FOUND)."""
    fixture = _fixture(IN_BAND)
    fixture["tools"]["query_metrics"]["default"]["code"] = "EVIDENCE_FOUND"
    fixture, observation = observe(IN_BAND, fixture)
    assert "EVIDENCE_FOUND" in json.dumps(observation["invocations"])
    assert checks.check_global_invariants(observation, fixture).passed
    assert checks.check_model_inputs(observation, fixture).passed


# -- the cancellation request comes first (R8.layered-cancellation) ---------------------------


def _moved(observation, event_type, before_type):
    """``observation`` with its first ``event_type`` moved just before the first ``before_type``."""
    trace = observation["trace"]
    moving = next(i for i, e in enumerate(trace) if e["type"] == event_type)
    event = trace.pop(moving)
    target = next(i for i, e in enumerate(trace) if e["type"] == before_type)
    trace.insert(target, event)
    for seq, item in enumerate(trace, start=1):
        item["seq"] = seq
    # the client received the first n events (up to its disconnect), in the new order
    frames = observation["client_frames"]
    sent = sum(1 for f in frames if f["event"] == "run_event")
    others = [f for f in frames if f["event"] != "run_event"]
    observation["client_frames"] = [{"event": "run_event", "data": e} for e in trace[:sent]]
    observation["client_frames"] += others
    return observation


def test_tool_work_cancelled_before_the_request_is_named(observe):
    """TOOL_WORK_CANCELLED recorded before CANCEL_REQUESTED breaks the layer order."""
    fixture, observation = observe(TOOL_CANCELLED)
    assert checks.check_global_invariants(observation, fixture).passed
    broken = _moved(observation, "TOOL_WORK_CANCELLED", "CANCEL_REQUESTED")
    assert "R8.layered-cancellation" in checks.check_global_invariants(broken, fixture).rules


def test_tool_work_cancelled_before_the_interruption_is_conforming(observe):
    """After CANCEL_REQUESTED, TOOL_WORK_CANCELLED may precede INTERRUPT_REQUESTED (and
    NEW_WORK_PREVENTED): the spec distinguishes the layers, it orders none of them but the
    request, their cause."""
    fixture, observation = observe(TOOL_CANCELLED)
    moved = _moved(observation, "TOOL_WORK_CANCELLED", "NEW_WORK_PREVENTED")
    result = checks.check_global_invariants(moved, fixture)
    assert result.passed, result.message


# -- the order of a lookup's documents (R4.bounded-projection, R1.released-is-agent-authored) --

ORDER = "a-released-knowledge-answer-keeps-the-order-of-its-items-and-references-example-3"


def _lookup(observation):
    return next(i for i in observation["invocations"] if i["tool_name"] == "lookup_documents")


def test_sorted_document_ids_of_a_lookup_are_conforming(observe):
    """The projection's document_ids list is the items' ids, unique, in no stated order: a
    Harness listing them sorted passes."""
    fixture, observation = observe(ORDER)
    projection = _lookup(observation)["projection"]
    assert projection["document_ids"] != sorted(projection["document_ids"])
    projection["document_ids"].sort()
    result = checks.check_global_invariants(observation, fixture)
    assert result.passed, result.message


def test_an_item_labelled_with_another_rows_document_is_named(observe):
    """Each projected item keeps the document id of the row it comes from."""
    fixture, observation = observe(ORDER)
    items = _lookup(observation)["projection"]["items"]
    items[0]["document_id"], items[1]["document_id"] = (
        items[1]["document_id"],
        items[0]["document_id"],
    )
    assert checks.check_global_invariants(observation, fixture).rules == ("R4.bounded-projection",)


def test_a_released_answer_in_another_order_is_named(observe):
    """Items or references released in another order than the agent wrote are not its answer."""
    fixture, observation = observe(ORDER)
    answer = observation["published_result"]["knowledge_answer"]
    answer["items"].sort(key=lambda item: item["item_id"])
    observation["runs"][-1]["published_result"] = observation["published_result"]
    for frame in observation["client_frames"]:
        if frame["event"] == "result":
            frame["data"] = observation["published_result"]
    assert checks.check_global_invariants(observation, fixture).rules == (
        "R1.released-is-agent-authored",
    )


def test_tool_work_cancelled_in_a_run_never_cancelled_is_named(observe):
    """A tool its own timeout stopped is TOOL_TIMEOUT; recorded as cancelled tool work in a
    Run with no CANCEL_REQUESTED, the timeout and the cancellation are not told apart."""
    fixture, observation = observe("a-tool-blocks-past-its-timeout-and-answers-late")
    assert checks.check_global_invariants(observation, fixture).passed
    trace = observation["trace"]
    stopped = next(i for i in observation["invocations"] if i["status"] == "ERROR")
    assert stopped["error"]["code"] == "TOOL_TIMEOUT"
    at = next(
        i
        for i, e in enumerate(trace)
        if e["type"] == "INVOCATION_STATUS_CHANGED" and e["data"]["status"] == "ERROR"
    )
    trace.insert(
        at,
        {
            "run_id": observation["run_id"],
            "seq": 0,
            "type": "TOOL_WORK_CANCELLED",
            "data": {"tool_call_id": stopped["tool_call_id"]},
        },
    )
    for seq, event in enumerate(trace, start=1):
        event["seq"] = seq
    frames = [f for f in observation["client_frames"] if f["event"] != "run_event"]
    result = [f for f in frames if f["event"] == "result"]
    observation["client_frames"] = []
    for event in trace:
        if event["type"] == "RUN_FINISHED":
            observation["client_frames"] += result
        observation["client_frames"].append({"event": "run_event", "data": event})
    observation["client_frames"] += [f for f in frames if f["event"] == "end"]
    assert checks.check_global_invariants(observation, fixture).rules == ("R8.tool-stop-recorded",)
