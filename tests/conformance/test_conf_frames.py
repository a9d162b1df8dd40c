"""The client's SSE frames: the reference's pass; a copy with one frame moved, dropped or added
after the disconnect fails under the rule it breaks."""

from __future__ import annotations

import copy

import pytest

from conformance.checks import check_client_frames
from tests.conformance.conftest import reference_observation, reference_observation_copy

RELEASED = "a-backend-answers-with-an-in-band-error"
DISCONNECT = "client-disconnects-during-a-model-call"


def _kinds(frames: list[dict]) -> list[str]:
    return [f["data"]["type"] if f["event"] == "run_event" else f["event"] for f in frames]


@pytest.mark.parametrize("name", [RELEASED, DISCONNECT])
def test_the_reference_frames_pass(name):
    """The reference streams the trace, the result and the end in the contract's order."""
    fixture, observation = reference_observation(name)
    result = check_client_frames(observation, fixture)
    assert result.passed, result.message


def test_the_reference_stream_ends_as_the_design_freeze_orders_it():
    """RESULT_RELEASED, result, RUN_FINISHED, end: the order the check holds the IUT to."""
    _, observation = reference_observation(RELEASED)
    assert _kinds(observation["client_frames"])[-4:] == [
        "RESULT_RELEASED",
        "result",
        "RUN_FINISHED",
        "end",
    ]


def _fails(observation: dict, fixture: dict, rule: str) -> str:
    result = check_client_frames(observation, fixture)
    assert result.rules == (rule,), result.message
    return result.message


def test_a_result_after_run_finished_fails():
    """The result frame comes before the RUN_FINISHED event's frame."""
    fixture, observation = reference_observation_copy(RELEASED)
    frames = observation["client_frames"]
    frames[-3], frames[-2] = frames[-2], frames[-3]
    assert "before RUN_FINISHED" in _fails(observation, fixture, "R7.client-stream")


def test_a_missing_end_frame_fails():
    """A client that stays gets exactly one end frame, last."""
    fixture, observation = reference_observation_copy(RELEASED)
    observation["client_frames"].pop()
    assert "0 end frames" in _fails(observation, fixture, "R7.client-stream")


def test_an_end_frame_with_another_state_fails():
    """The end frame carries RUN_FINISHED's state."""
    fixture, observation = reference_observation_copy(RELEASED)
    observation["client_frames"][-1]["data"] = {"state": "FALLBACK"}
    assert "RUN_FINISHED says state SUCCESS" in _fails(observation, fixture, "R7.client-stream")


def test_a_trace_event_not_streamed_fails():
    """Every trace event reaches the client as a run_event frame, in order."""
    fixture, observation = reference_observation_copy(RELEASED)
    frames = observation["client_frames"]
    first = next(
        i for i, f in enumerate(frames) if f["data"].get("type") == "INVOCATION_STATUS_CHANGED"
    )
    del frames[first]
    assert "first difference" in _fails(observation, fixture, "R7.client-stream")


def test_a_frame_that_differs_from_its_event_fails():
    """A run_event frame carries its trace event, equal to it."""
    fixture, observation = reference_observation_copy(RELEASED)
    frame = next(f for f in observation["client_frames"] if f["data"].get("type") == "RUN_STARTED")
    frame["data"]["data"]["run_seq"] += 1
    _fails(observation, fixture, "R7.client-stream")


def test_a_frame_timestamp_is_volatile():
    """ts_ms is dropped by the normalizer: a frame's may differ from its event's."""
    fixture, observation = reference_observation_copy(RELEASED)
    for frame in observation["client_frames"]:
        if frame["event"] == "run_event" and "ts_ms" in frame["data"]:
            frame["data"]["ts_ms"] += 7
    assert check_client_frames(observation, fixture).passed


def test_frames_after_the_disconnect_fail_under_the_disconnect_rule():
    """A client that left receives nothing more; the frames up to the disconnect still mirror."""
    fixture, observation = reference_observation_copy(DISCONNECT)
    frames = observation["client_frames"]
    sent = len(frames)
    later = observation["trace"][sent:]
    assert later, "the trace goes on after the disconnect"
    frames.extend({"event": "run_event", "data": copy.deepcopy(e)} for e in later)
    frames.append({"event": "end", "data": {"state": "CANCELLED"}})
    message = _fails(observation, fixture, "R8.nothing-after-disconnect")
    assert f"received {len(later) + 1} more" in message
