"""The SSE frames the client received: the trace, the result and the end, in the contract's order.

The contract sheet: "SSE frames: ``run_event`` carries a RunTraceEvent; ``result`` carries the
PublishedResult; ``end`` carries ``{state}``"; the design freeze: "The terminal row is written
first, then RESULT_RELEASED → ``result`` frame → RUN_FINISHED → ``end``". Global invariants,
applied to every Run:

* ``R7.client-stream``: up to the disconnect (the whole Run when the client stays), the client's
  ``run_event`` frames are the trace's events, in trace order, each equal to its event (``ts_ms``
  aside: it is volatile and dropped by the normalizer); every ``result`` frame comes after the
  RESULT_RELEASED event's frame and before the RUN_FINISHED event's frame; a client that stays
  gets exactly one ``end`` frame, last, whose ``state`` is RUN_FINISHED's state (other members
  of its open data object are the Harness's own). (How many
  ``result`` frames, and that each equals the published result, is ``R7.durable-run-outcome``'s.)
* ``R8.nothing-after-disconnect``: the scripted client disconnects on the ``occurrence``-th
  ``run_event`` frame of ``client.disconnect_on.event_type`` and keeps that frame; no frame
  follows it.
"""

from __future__ import annotations

from typing import Any, Final

from conformance.checks._result import CheckResult, Findings

__all__ = ["check_client_frames", "left_before", "record_client_frames"]

_STREAM: Final = "R7.client-stream"
_AFTER: Final = "R8.nothing-after-disconnect"


def check_client_frames(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check the client's frames against the trace; see the module docstring."""
    found = Findings("the client's frames mirror the Run", _STREAM)
    record_client_frames(found, observation, fixture)
    return found.result()


def record_client_frames(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` every problem :func:`check_client_frames` finds."""
    frames = [f for f in observation.get("client_frames", []) if isinstance(f, dict)]
    trace = [e for e in observation.get("trace", []) if isinstance(e, dict)]
    where = _disconnect_frame(frames, fixture)
    if where is not None:
        after = frames[where + 1 :]
        found.expect(
            not after,
            f"the client disconnected on frame {where + 1} (run_event "
            f"{_type(frames[where])}) but received {len(after)} more: "
            f"{_describe(after[:5])}",
            rule=_AFTER,
        )
        frames = frames[: where + 1]
    sent = _sent_events(trace, fixture)
    _mirror(found, frames, sent)
    _result_and_end(found, frames, trace, stayed=where is None and len(sent) == len(trace))


def _type(frame: dict[str, Any]) -> object:
    data = frame.get("data")
    return data.get("type") if isinstance(data, dict) else None


def _describe(frames: list[dict[str, Any]]) -> str:
    return ", ".join(
        f"{f.get('event')} {_type(f)}" if f.get("event") == "run_event" else str(f.get("event"))
        for f in frames
    )


def _disconnect_on(fixture: dict[str, Any]) -> tuple[object, int] | None:
    script = (fixture.get("client") or {}).get("disconnect_on")
    if not isinstance(script, dict):
        return None
    return script.get("event_type"), int(script.get("occurrence") or 1)


def _disconnect_frame(frames: list[dict[str, Any]], fixture: dict[str, Any]) -> int | None:
    """Index of the frame the scripted client disconnects on, or ``None`` (it never does)."""
    wanted = _disconnect_on(fixture)
    if wanted is None:
        return None
    seen = 0
    for index, frame in enumerate(frames):
        if frame.get("event") == "run_event" and _type(frame) == wanted[0]:
            seen += 1
            if seen == wanted[1]:
                return index
    return None


def _sent_events(trace: list[dict[str, Any]], fixture: dict[str, Any]) -> list[dict[str, Any]]:
    """The trace events the client must receive: all, or those up to the disconnect's."""
    wanted = _disconnect_on(fixture)
    if wanted is None:
        return trace
    seen = 0
    for index, event in enumerate(trace):
        if event.get("type") == wanted[0]:
            seen += 1
            if seen == wanted[1]:
                return trace[: index + 1]
    return trace


def left_before(trace: list[dict[str, Any]], fixture: dict[str, Any], event_type: str) -> bool:
    """Whether the scripted client left at or before the first ``event_type`` event of ``trace``.

    The client disconnects on the ``occurrence``-th ``run_event`` frame of
    ``client.disconnect_on.event_type`` and receives nothing after it (implementers guide, "When
    a scripted disconnect takes effect"): a frame the Run sends after that one, e.g. the
    ``result`` frame after a disconnect on ``RESULT_RELEASED``, never reaches it. ``False`` when
    the client never disconnects, or the Run has no ``event_type`` event.
    """
    wanted = _disconnect_on(fixture)
    if wanted is None:
        return False
    seen = 0
    cut = None
    for index, event in enumerate(trace):
        if event.get("type") == wanted[0]:
            seen += 1
            if seen == wanted[1]:
                cut = index
                break
    position = next((i for i, e in enumerate(trace) if e.get("type") == event_type), None)
    return cut is not None and position is not None and cut <= position


def _stable(event: object) -> object:
    """``event`` without its volatile ``ts_ms``."""
    if not isinstance(event, dict):
        return event
    return {k: v for k, v in event.items() if k != "ts_ms"}


def _mirror(found: Findings, frames: list[dict[str, Any]], sent: list[dict[str, Any]]) -> None:
    streamed = [_stable(f.get("data")) for f in frames if f.get("event") == "run_event"]
    wanted = [_stable(e) for e in sent]
    if streamed == wanted:
        return
    first = next(
        (i for i, (s, w) in enumerate(zip(streamed, wanted, strict=False)) if s != w),
        min(len(streamed), len(wanted)),
    )
    got = streamed[first] if first < len(streamed) else None
    exp = wanted[first] if first < len(wanted) else None
    found.add(
        f"the client's run_event frames are not the trace's events in order: {len(streamed)} "
        f"frames for {len(wanted)} events; the first difference is at event {first + 1}: frame "
        f"{_brief(got)}, trace {_brief(exp)}",
        rule=_STREAM,
    )


def _brief(event: object) -> str:
    if event is None:
        return "(none)"
    if isinstance(event, dict):
        return f"seq {event.get('seq')} {event.get('type')} {str(event.get('data'))[:100]}"
    return str(event)[:100]


def _position(frames: list[dict[str, Any]], event_type: str) -> int | None:
    return next(
        (
            i
            for i, f in enumerate(frames)
            if f.get("event") == "run_event" and _type(f) == event_type
        ),
        None,
    )


def _result_and_end(
    found: Findings, frames: list[dict[str, Any]], trace: list[dict[str, Any]], *, stayed: bool
) -> None:
    released = _position(frames, "RESULT_RELEASED")
    finished = _position(frames, "RUN_FINISHED")
    for index, frame in enumerate(frames):
        if frame.get("event") != "result":
            continue
        found.expect(
            released is not None
            and released < index
            and (finished is None or index < finished)
            and (finished is not None or not stayed),
            f"the result frame is frame {index + 1}; the RESULT_RELEASED event's frame is "
            f"{_nth(released)} and the RUN_FINISHED event's {_nth(finished)} (result after "
            "RESULT_RELEASED, before RUN_FINISHED)",
            rule=_STREAM,
        )
    ends = [i for i, f in enumerate(frames) if f.get("event") == "end"]
    if not stayed:
        return  # the client left: R8.nothing-after-disconnect judged what came after
    last = [e for e in trace if e.get("type") == "RUN_FINISHED"][-1:]
    state = (last[0].get("data") or {}).get("state") if last else None
    if not found.expect(
        len(ends) == 1 and ends[0] == len(frames) - 1,
        f"the client got {len(ends)} end frames"
        + (f", at frames {[i + 1 for i in ends]} of {len(frames)}" if ends else "")
        + " (exactly one end frame, last, after the RUN_FINISHED event's frame)",
        rule=_STREAM,
    ):
        return
    # "end carries {state}": its state is RUN_FINISHED's; the frame's data is an open object
    # (run-observation schema, ClientFrame), so members beside it are the Harness's own: F9 of
    # docs/decisions/false-kills-8.md
    data = frames[-1].get("data")
    found.expect(
        isinstance(data, dict) and "state" in data and data["state"] == state,
        f"the end frame carries {data!r}, RUN_FINISHED says state {state} "
        "(the end frame carries {state})",
        rule=_STREAM,
    )


def _nth(index: int | None) -> str:
    return "missing" if index is None else f"frame {index + 1}"
