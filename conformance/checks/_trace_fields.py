"""Trace fields the contract derives from another record, and the code of refused arguments.

A trace event that restates a record (the accepted call, the bounded projection) must restate it
exactly: a Harness whose records are right but whose events say something else passes every check
that reads only the records. Global invariants, applied to every Run:

* ``R2.accepted-call-recorded``: the k-th TOOL_CALL_ACCEPTED has ``sequence`` k (acceptance order
  within the Run, from 1: rejected calls are not counted); its ``tool_name``, ``step`` and
  ``sequence`` are its canonical invocation's; and, when the fixture scripts the calls (no
  perturbations), the accepted call's tool and agent step (the n-th ``tool_calls`` turn is step n)
  and its place among the calls the contract accepts;
* ``R3.classified-as-projected``: EVIDENCE_CLASSIFIED's ``evidence_status``, ``item_count``,
  ``total_matched`` and ``truncated`` are its READY invocation's evidence status and projection's
  ``len(items)``, ``total_matched`` and ``truncated``; a READY invocation is classified once (and
  in a Run never cancelled, exactly once);
* ``R7.trace-agrees-with-run``: RUN_STARTED's ``session_id`` is the fixture's; RESULT_RELEASED is
  emitted once when a result is published (never otherwise), naming its ``kind``; RUN_FINISHED's
  ``fallback_type`` and ``error_code`` are the ``diagnosis_run`` row's (its ``state`` and the
  row's ``seq`` against RUN_STARTED's ``run_seq`` are ``R7.durable-run-outcome``'s and
  ``R7.durable-run-intent``'s);
* ``R3.malformed-arguments-error``: an accepted call whose arguments give no query scope (not an
  object with a ``target`` string of 1-256 characters, a ``time_range`` of non-negative integers
  ``start_ms <= end_ms`` and a ``query`` string of at most 1024 characters) ends ERROR/ERROR with
  code ``INVALID_ARGUMENTS``; a call whose arguments are exactly that shape never gets the code.
  Arguments with extra members are left open (a Harness may ignore them or refuse them).

EVIDENCE_CLASSIFIED for a record that is not READY is ``R8.late-tool-result-discarded``'s, and the
projection itself is judged against the backend's rows by ``R4.bounded-projection``: here only the
agreement of the event with the record is judged.
"""

from __future__ import annotations

from typing import Any, Final

from conformance.checks._oracle import PresentedCall, arguments_give_scope, expected_identity
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import canonical, events, first_index
from contracts import json_value_problem

__all__ = [
    "arguments_give_scope",
    "arguments_kept_as_presented",
    "check_arguments_as_presented",
    "check_arguments_refused",
    "check_trace_fields",
    "record_trace_fields",
]

_ACCEPTED: Final = "R2.accepted-call-recorded"
_CLASSIFIED: Final = "R3.classified-as-projected"
_ARGUMENTS: Final = "R3.malformed-arguments-error"
_RUN: Final = "R7.trace-agrees-with-run"


def check_trace_fields(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check the derived trace fields and the refused-arguments code; see the module docstring."""
    found = Findings("trace fields agree with the records", _ACCEPTED)
    record_trace_fields(found, observation, fixture)
    return found.result()


def record_trace_fields(
    found: Findings, observation: dict[str, Any], fixture: dict[str, Any]
) -> None:
    """Record into ``found`` every problem :func:`check_trace_fields` finds."""
    scripted = not fixture.get("perturbations")  # a real model does not present the scripted calls
    accepted = expected_identity(fixture)[0] if scripted else []
    calls = {c.value: (order, c) for order, c in enumerate(accepted, start=1)}
    _accepted_events(found, observation, calls)
    _classified_events(found, observation)
    _run_events(found, observation, fixture)
    if scripted:
        _argument_codes(found, observation, calls)
        _executions(found, observation, fixture, calls)


def _records(observation: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    """The canonical invocations by Tool Call ID (the first one of an id, if repeated)."""
    found: dict[Any, dict[str, Any]] = {}
    for record in observation.get("invocations", []):
        found.setdefault(record.get("tool_call_id"), record)
    return found


# --------------------------------------------------------------------------- accepted calls


def _accepted_events(
    found: Findings,
    observation: dict[str, Any],
    calls: dict[Any, tuple[int, PresentedCall]],
) -> None:
    records = _records(observation)
    for order, event in enumerate(events(observation, "TOOL_CALL_ACCEPTED"), start=1):
        data = event.get("data") or {}
        call_id = data.get("tool_call_id")
        said = (data.get("tool_name"), data.get("step"), data.get("sequence"))
        name = f"TOOL_CALL_ACCEPTED of {call_id!r}"
        found.expect(
            said[2] == order,
            f"{name} is the Run's accepted call {order} but says sequence {said[2]} (acceptance "
            "order within the Run, from 1; rejected calls are not counted)",
            rule=_ACCEPTED,
        )
        record = records.get(call_id)
        if record is not None:
            kept = (record.get("tool_name"), record.get("step"), record.get("sequence"))
            found.expect(
                said == kept,
                f"{name} says tool {said[0]}, step {said[1]}, sequence {said[2]}; its invocation "
                f"records tool {kept[0]}, step {kept[1]}, sequence {kept[2]}",
                rule=_ACCEPTED,
            )
        if call_id not in calls:
            continue  # not a call the contract accepts: R2.tool-call-identity
        place, call = calls[call_id]
        wanted = (call.tool, call.step, place)
        found.expect(
            said == wanted,
            f"{name} says tool {said[0]}, step {said[1]}, sequence {said[2]}; the agent presented "
            f"it as a {call.tool} call in step {call.step}, the Run's accepted call {place}",
            rule=_ACCEPTED,
        )
        if record is not None:
            kept = (record.get("tool_name"), record.get("step"), record.get("sequence"))
            found.expect(
                kept == wanted,
                f"the invocation of {call_id!r} records tool {kept[0]}, step {kept[1]}, sequence "
                f"{kept[2]}; the agent presented it as a {call.tool} call in step {call.step}, "
                f"the Run's accepted call {place}",
                rule=_ACCEPTED,
            )


# --------------------------------------------------------------------------- classification


def _classified_events(found: Findings, observation: dict[str, Any]) -> None:
    records = _records(observation)
    seen: dict[Any, int] = {}
    for event in events(observation, "EVIDENCE_CLASSIFIED"):
        data = event.get("data") or {}
        call_id = data.get("tool_call_id")
        seen[call_id] = seen.get(call_id, 0) + 1
        record = records.get(call_id) or {}
        projection = record.get("projection")
        if record.get("status") != "READY" or not isinstance(projection, dict):
            continue  # a classification of no READY record: R8.late-tool-result-discarded
        items = projection.get("items")
        wanted = {
            "evidence_status": record.get("evidence_status"),
            "item_count": len(items) if isinstance(items, list) else None,
            "total_matched": projection.get("total_matched"),
            "truncated": projection.get("truncated"),
        }
        wrong = {k: data.get(k) for k, v in wanted.items() if data.get(k) != v}
        found.expect(
            not wrong,
            f"EVIDENCE_CLASSIFIED of {call_id!r} says "
            + ", ".join(f"{k} {v!r}" for k, v in wrong.items())
            + "; its READY invocation has "
            + ", ".join(f"{k} {wanted[k]!r}" for k in wrong),
            rule=_CLASSIFIED,
        )
    never_cancelled = first_index(observation, "CANCEL_REQUESTED") is None
    for call_id, record in records.items():
        if record.get("status") != "READY":
            continue
        count = seen.get(call_id, 0)
        found.expect(
            count == 1 or (count == 0 and not never_cancelled),
            f"the READY invocation {call_id!r} is classified {count} times (EVIDENCE_CLASSIFIED "
            "once for every READY invocation)",
            rule=_CLASSIFIED,
        )


# --------------------------------------------------------------------------- the Run


def _run_events(found: Findings, observation: dict[str, Any], fixture: dict[str, Any]) -> None:
    for event in events(observation, "RUN_STARTED")[:1]:
        session = (event.get("data") or {}).get("session_id")
        found.expect(
            session == fixture.get("session_id"),
            f"RUN_STARTED names session {session!r}, the Run's is {fixture.get('session_id')!r}",
            rule=_RUN,
        )
    published = observation.get("published_result")
    kinds = [(e.get("data") or {}).get("kind") for e in events(observation, "RESULT_RELEASED")]
    wanted = [] if not isinstance(published, dict) else [published.get("kind")]
    cancelled = first_index(observation, "CANCEL_REQUESTED") is not None
    found.expect(
        kinds == wanted or cancelled,  # a cancelled Run's release: R8.cancelled-releases-nothing
        f"RESULT_RELEASED kinds {kinds}, but the Run published "
        + (f"a {wanted[0]} (one RESULT_RELEASED naming it)" if wanted else "nothing"),
        rule=_RUN,
    )
    row = next(
        (r for r in observation.get("runs", []) if r.get("run_id") == observation.get("run_id")),
        None,
    )
    finished = events(observation, "RUN_FINISHED")
    if row is None or not finished:
        return  # R7.durable-run-outcome / R0.valid-observation
    data = finished[-1].get("data") or {}
    said = (data.get("fallback_type"), data.get("error_code"))
    kept = (row.get("fallback_type"), row.get("error_code"))
    found.expect(
        said == kept,
        f"RUN_FINISHED says fallback_type {said[0]} and error_code {said[1]}; the diagnosis_run "
        f"row stores {kept[0]} and {kept[1]}",
        rule=_RUN,
    )


# --------------------------------------------------------------------------- arguments


def _argument_codes(
    found: Findings,
    observation: dict[str, Any],
    calls: dict[Any, tuple[int, PresentedCall]],
) -> None:
    cancelled = first_index(observation, "CANCEL_REQUESTED") is not None
    for call_id, record in _records(observation).items():
        if call_id not in calls:
            continue
        call = calls[call_id][1]
        scope = arguments_give_scope(call.arguments)
        status, evidence = record.get("status"), record.get("evidence_status")
        code = (record.get("error") or {}).get("code")
        if scope is False:
            if status == "PROJECTING" or (cancelled and code == "CANCELLED"):
                continue  # never ended (R3.invocation-lifecycle) or stopped by the cancellation
            found.expect(
                (status, evidence, code) == ("ERROR", "ERROR", "INVALID_ARGUMENTS"),
                f"{call_id!r} presents arguments that give no query scope "
                f"({_short(call.arguments)}), but its invocation ended {status}/{evidence} with "
                f"code {code}, not ERROR/ERROR INVALID_ARGUMENTS",
                rule=_ARGUMENTS,
            )
        elif scope is True:
            found.expect(
                code != "INVALID_ARGUMENTS",
                f"{call_id!r} presents well-formed arguments ({_short(call.arguments)}), but its "
                "invocation ended with code INVALID_ARGUMENTS",
                rule=_ARGUMENTS,
            )


def _executions(
    found: Findings,
    observation: dict[str, Any],
    fixture: dict[str, Any],
    calls: dict[Any, tuple[int, PresentedCall]],
) -> None:
    """A refused call is never executed: the next well-formed call of its tool gets its response.

    Judged per tool whose accepted calls all have arguments that either give a query scope or
    certainly do not (an open one makes the count unknown): the n-th well-formed call gets the
    tool's n-th response; a READY one answered by ``rows`` projects those rows' texts (cut to the
    fixture's limits).
    """
    limits = {"max_items": 20, "max_item_chars": 2000, **fixture.get("limits", {})}
    records = _records(observation)
    by_tool: dict[str, list[PresentedCall]] = {}
    for _, call in sorted(calls.values(), key=lambda pair: pair[0]):
        by_tool.setdefault(call.tool, []).append(call)
    for tool, tool_calls in by_tool.items():
        shapes = [arguments_give_scope(c.arguments) for c in tool_calls]
        if None in shapes or all(shapes):
            continue  # nothing refused, or an open shape: R4.bounded-projection's oracle judges
        script = fixture.get("tools", {}).get(tool) or {}
        responses = script.get("responses", [])
        executed = [c for c, ok in zip(tool_calls, shapes, strict=True) if ok]
        for nth, call in enumerate(executed):
            response = responses[nth] if nth < len(responses) else script.get("default")
            record = records.get(call.value) or {}
            if (response or {}).get("kind") != "rows" or record.get("status") != "READY":
                continue
            kept = (response or {}).get("items", [])[: limits["max_items"]]
            wanted = [str(row.get("text"))[: limits["max_item_chars"]] for row in kept]
            texts = [i.get("text") for i in (record.get("projection") or {}).get("items", [])]
            found.expect(
                texts == wanted,
                f"{call.value!r} is the {_ordinal(nth + 1)} {tool} call with well-formed "
                f"arguments, so it gets the backend's {_ordinal(nth + 1)} response {wanted!r}, "
                f"but it projects {texts!r}: a call whose arguments give no query scope was "
                "executed",
                rule=_ARGUMENTS,
            )


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")  # noqa: PLR2004
    return f"{n}{suffix}"


def check_arguments_refused(
    observation: dict[str, Any], fixture: dict[str, Any], tool_call_id: str
) -> CheckResult:
    """Check the call ``tool_call_id``, whose arguments give no query scope, was refused.

    The fixture must present it with such arguments (the WHEN holds); its invocation is observed
    PROJECTING, then ends ERROR/ERROR with code ``INVALID_ARGUMENTS``; it was never executed (the
    next well-formed call of its tool gets the response it would have got).
    """
    found = Findings(f"{tool_call_id!r} is refused for its arguments", _ARGUMENTS)
    accepted = expected_identity(fixture)[0]
    calls = {c.value: (order, c) for order, c in enumerate(accepted, start=1)}
    call = calls.get(tool_call_id)
    found.expect(
        call is not None and arguments_give_scope(call[1].arguments) is False,
        f"the fixture does not present {tool_call_id!r} with arguments that give no query scope "
        "(the WHEN would not hold)",
    )
    record = _records(observation).get(tool_call_id)
    if found.expect(record is not None, f"no invocation of {tool_call_id!r}"):
        assert record is not None  # noqa: S101 - narrowed by the expectation above
        got = (
            record.get("status"),
            record.get("evidence_status"),
            (record.get("error") or {}).get("code"),
        )
        found.expect(
            got == ("ERROR", "ERROR", "INVALID_ARGUMENTS"),
            f"{tool_call_id!r} ended {got[0]}/{got[1]} with code {got[2]}, expected ERROR/ERROR "
            "with code INVALID_ARGUMENTS",
        )
    changes = [
        (e.get("data") or {}).get("status")
        for e in events(observation, "INVOCATION_STATUS_CHANGED")
        if (e.get("data") or {}).get("tool_call_id") == tool_call_id
    ]
    found.expect(
        changes == ["PROJECTING", "ERROR"],
        f"status changes of {tool_call_id!r}: {changes}, expected PROJECTING then ERROR",
        rule="R3.invocation-lifecycle",
    )
    _executions(found, observation, fixture, calls)
    return found.result()


_SCOPE_MEMBERS: Final = frozenset({"target", "time_range", "query"})


def arguments_kept_as_presented(recorded: object, presented: object) -> bool | None:
    """Whether an invocation's ``arguments`` are the object the agent presented, member for member.

    tool-invocation.schema.json: "kept as presented so that INVALID_ARGUMENTS can be recorded";
    executed or refused, extra members included, compared as canonical JSON (RFC 8785). ``None``
    when ``presented`` is not a plain I-JSON object (not an object, an integer beyond
    +/-2^53-1, a lone surrogate, deeper than the kit reads): what is recorded then is open.
    """
    if not isinstance(presented, dict) or json_value_problem(presented) is not None:
        return None
    return json_value_problem(recorded) is None and canonical(recorded) == canonical(presented)


def check_arguments_as_presented(
    observation: dict[str, Any], fixture: dict[str, Any], tool_call_id: str
) -> CheckResult:
    """Check the invocation of ``tool_call_id`` records its arguments as presented.

    The fixture must present the call with members beyond ``{target, time_range, query}`` (the
    WHEN holds). Whether the Harness executed it or refused it with INVALID_ARGUMENTS is its
    latitude; its invocation's ``arguments`` are the presented object, extra members included.
    """
    found = Findings(f"{tool_call_id!r} records its arguments as presented", _ARGUMENTS)
    accepted = {c.value: c for c in expected_identity(fixture)[0]}
    call = accepted.get(tool_call_id)
    presented = call.arguments if call is not None else None
    found.expect(
        isinstance(presented, dict) and bool(set(presented) - _SCOPE_MEMBERS),
        f"the fixture does not present {tool_call_id!r} with extra argument members "
        "(the WHEN would not hold)",
    )
    record = _records(observation).get(tool_call_id)
    if found.expect(record is not None, f"no invocation of {tool_call_id!r}"):
        assert record is not None  # noqa: S101 - narrowed by the expectation above
        found.expect(
            arguments_kept_as_presented(record.get("arguments"), presented) is True,
            f"{tool_call_id!r} records the arguments {_short(record.get('arguments'))}, not the "
            f"arguments as presented {_short(presented)}",
        )
    return found.result()


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."  # noqa: PLR2004 - a message length
