"""Then checks of the evidence extension scenarios (Requirements 3-6), built on the outcome oracle.

Each names the rule it tests and fails when the fixture does not put its WHEN in front of the IUT
(so a scenario cannot pass vacuously).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance.checks._evidence import check_rejected_then_released
from conformance.checks._fallback import check_rejected_twice_fallback
from conformance.checks._outcome_oracle import expected_outcome
from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import events, invocation, validations

if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = [
    "check_bounded_projection",
    "check_failed_repair",
    "check_first_rejected_with",
    "check_invocation_ends",
    "check_projection_whole",
    "check_rejected_at",
    "check_step_budget",
]


def check_invocation_ends(  # noqa: PLR0913 - the invocation and the three values it must end with
    observation: dict[str, Any],
    fixture: dict[str, Any],
    tool_call_id: str,
    *,
    status: str,
    evidence_status: str,
    code: str,
) -> CheckResult:
    """Check invocation ``tool_call_id`` ends ``status``/``evidence_status`` with error ``code``.

    The fixture's backend result must fix that outcome (the oracle agrees), and the invocation
    must have been observed PROJECTING first.
    """
    found = Findings(
        f"{tool_call_id!r} ends {status} / {evidence_status} ({code})", "R3.invocation-outcome"
    )
    row = expected_outcome(fixture).invocation(tool_call_id)
    found.expect(
        row is not None and (row.status, row.evidence_status) == (status, evidence_status),
        f"the fixture's backend result for {tool_call_id!r} does not fix {status} / "
        f"{evidence_status} (the WHEN would not hold)",
    )
    records = invocation(observation, tool_call_id)
    if found.expect(len(records) == 1, f"expected one invocation, got {len(records)}"):
        record = records[0]
        pair = (record.get("status"), record.get("evidence_status"))
        found.expect(
            pair == (status, evidence_status),
            f"status {pair[0]} / evidence {pair[1]}, expected {status} / {evidence_status}",
        )
        error = (record.get("error") or {}).get("code")
        found.expect(error == code, f"error code {error}, expected {code}")
    changes = [
        e["data"].get("status")
        for e in events(observation, "INVOCATION_STATUS_CHANGED")
        if e["data"].get("tool_call_id") == tool_call_id
    ]
    found.expect(
        changes[:1] == ["PROJECTING"],
        f"status changes {changes}: the invocation was not observed PROJECTING first",
        rule="R3.invocation-lifecycle",
    )
    return found.result()


def check_bounded_projection(
    observation: dict[str, Any], fixture: dict[str, Any], tool_call_id: str
) -> CheckResult:
    """Check the projection of ``tool_call_id`` is the backend result cut to the fixture's limits.

    At most ``max_items`` items, each the backend row cut to ``max_item_chars``, the backend's
    ``total_matched``, and ``truncated`` true. The fixture must make the result exceed a limit
    (more rows than ``max_items``, a longer text than ``max_item_chars``, or a backend
    ``total_matched`` larger than the rows kept, e.g. zero rows of three matches).
    """
    found = Findings(f"{tool_call_id!r} has a bounded projection", "R4.bounded-projection")
    row = expected_outcome(fixture).invocation(tool_call_id)
    expected = None if row is None else row.projection
    if not found.expect(
        expected is not None and expected.must_truncate and expected.texts is not None,
        f"the fixture's backend result for {tool_call_id!r} exceeds no projection limit",
    ):
        return found.result()
    assert expected is not None  # noqa: S101 - narrowed by the expectation above
    assert expected.texts is not None  # noqa: S101 - narrowed by the expectation above
    records = invocation(observation, tool_call_id)
    if not found.expect(len(records) == 1, f"expected one invocation, got {len(records)}"):
        return found.result()
    projection = records[0].get("projection") or {}
    items = projection.get("items") or []
    lengths = [len(str(i.get("text", ""))) for i in items]
    found.expect(
        len(items) == len(expected.texts),
        f"{len(items)} items projected, expected {len(expected.texts)} (max_items "
        f"{expected.max_items} of the backend's rows)",
    )
    found.expect(
        [i.get("text") for i in items] == list(expected.texts),
        f"item texts of {lengths} characters are not the backend rows cut to "
        f"{expected.max_item_chars} characters ({[len(t) for t in expected.texts]})",
    )
    found.expect(
        projection.get("total_matched") == expected.total_matched,
        f"total_matched {projection.get('total_matched')}, the backend matched "
        f"{expected.total_matched}",
    )
    found.expect(
        projection.get("truncated") is True,
        f"truncated is {projection.get('truncated')}: the projection left data out",
    )
    return found.result()


def check_rejected_at(
    observation: dict[str, Any], fixture: dict[str, Any], code: str, pointer: str
) -> CheckResult:
    """Check the first submission was rejected with ``code`` at ``pointer``, the repair released.

    The oracle must agree that the submission breaks that rule there.
    """
    found = Findings(f"first submission rejected with {code} at {pointer}", "R4.tool-call-bindings")
    verdicts = expected_outcome(fixture).verdicts
    found.expect(
        verdicts and any(code in r.codes and pointer in r.pointers for r in verdicts[0].required),
        f"the first submission of the fixture does not break a rule with {code} at {pointer}",
    )
    first = validations(observation).get(1, {})
    reported = [(v.get("code"), v.get("pointer")) for v in first.get("violations", [])]
    found.expect(
        first.get("valid") is False and (code, pointer) in reported,
        f"EVIDENCE_VALIDATION attempt 1 reports {reported or first or 'nothing'}, expected "
        f"{code} at {pointer!r}",
    )
    released = check_rejected_then_released(observation, fixture, code)
    for rule_id, problem in _lines(released):
        found.add(problem, rule=rule_id)
    return found.result()


def check_first_rejected_with(
    observation: dict[str, Any], fixture: dict[str, Any], codes: Collection[str], pointer: str
) -> CheckResult:
    """Check the first submission was rejected with one of ``codes`` at ``pointer``.

    For a rule two violation codes fit (contract sheet, "Where two codes fit"): either is a
    conforming report. What follows the rejection (the repair's verdict, the release) is the
    outcome oracle's, judged by the global invariants.
    """
    shown = " or ".join(codes)
    found = Findings(
        f"first submission rejected with {shown} at {pointer}", "R5.exact-rag-bindings"
    )
    verdicts = expected_outcome(fixture).verdicts
    found.expect(
        verdicts
        and any(set(codes) <= r.codes and pointer in r.pointers for r in verdicts[0].required),
        f"the first submission of the fixture does not break a rule with {shown} at {pointer}",
    )
    first = validations(observation).get(1, {})
    reported = [(v.get("code"), v.get("pointer")) for v in first.get("violations", [])]
    found.expect(
        first.get("valid") is False and any((code, pointer) in reported for code in codes),
        f"EVIDENCE_VALIDATION attempt 1 reports {reported or first or 'nothing'}, expected "
        f"{shown} at {pointer!r}",
    )
    return found.result()


def check_failed_repair(
    observation: dict[str, Any], fixture: dict[str, Any], tool_call_id: str
) -> CheckResult:
    """Check a repair answer that called tools failed, and ``tool_call_id`` never ran.

    The THEN and the failed-repair shape of the implementers guide ("A failed structural
    repair"), nothing more: no TOOL_CALL_ACCEPTED and no invocation for ``tool_call_id``; an
    EVIDENCE_VALIDATION of attempt 2, when the Harness records one, is invalid (any code, any
    pointer; none is required); the Run falls back with EVIDENCE_VALIDATION_FAILED and empty
    verified sources.
    """
    found = Findings("a repair that calls tools fails", "R6.repair-offers-no-tools")
    verdicts = expected_outcome(fixture).verdicts
    found.expect(
        len(verdicts) == 2 and verdicts[1].by_tool_calls,  # noqa: PLR2004 - submission, repair
        "the fixture's structural repair answer does not call a tool (the WHEN would not hold)",
    )
    accepted = [
        e
        for e in events(observation, "TOOL_CALL_ACCEPTED")
        if e["data"].get("tool_call_id") == tool_call_id
    ]
    found.expect(
        not accepted and not invocation(observation, tool_call_id),
        f"{tool_call_id!r}, called in the structural repair, was accepted or executed",
    )
    second = validations(observation).get(2)
    found.expect(
        second is None or second.get("valid") is False,
        f"EVIDENCE_VALIDATION attempt 2 should be invalid (a failed repair), got {second}",
    )
    fallback = check_rejected_twice_fallback(observation, repair_submitted=False)
    for rule_id, problem in _lines(fallback):
        found.add(problem, rule=rule_id)
    return found.result()


def _lines(result: CheckResult) -> list[tuple[str, str]]:
    """The ``(rule id, problem)`` lines of a failed result."""
    if result.passed:
        return []
    found = []
    for line in result.message.splitlines()[1:]:
        tag, _, problem = line.strip().removeprefix("- ").partition("] ")
        found.append((tag.removeprefix("["), problem))
    return found


def check_projection_whole(
    observation: dict[str, Any], fixture: dict[str, Any], tool_call_id: str
) -> CheckResult:
    """Check a backend result exactly at the projection limits is kept whole, not truncated.

    "marked truncated iff it left something out" (``R4.bounded-projection``): the fixture's result
    for ``tool_call_id`` must exceed no limit (at most ``max_items`` rows, none longer than
    ``max_item_chars``, no more matches than rows) and reach one of them (the WHEN: a result at
    a bound). The projection then holds every row as it was, the backend's ``total_matched`` and
    ``truncated`` false.
    """
    found = Findings(f"{tool_call_id!r} is kept whole at the limits", "R4.bounded-projection")
    row = expected_outcome(fixture).invocation(tool_call_id)
    expected = None if row is None else row.projection
    at_bound = expected is not None and (
        len(expected.texts or ()) == expected.max_items
        or any(len(t) == expected.max_item_chars for t in expected.texts or ())
    )
    if not found.expect(
        expected is not None
        and expected.texts is not None
        and not expected.must_truncate
        and at_bound,
        f"the fixture's backend result for {tool_call_id!r} is not exactly at a projection limit",
    ):
        return found.result()
    assert expected is not None  # noqa: S101 - narrowed by the expectation above
    records = invocation(observation, tool_call_id)
    if not found.expect(len(records) == 1, f"expected one invocation, got {len(records)}"):
        return found.result()
    projection = records[0].get("projection") or {}
    texts = [i.get("text") for i in projection.get("items") or []]
    found.expect(
        texts == list(expected.texts or ()),
        f"{len(texts)} items projected, expected the backend's {len(expected.texts or ())} rows "
        "whole",
    )
    found.expect(
        projection.get("total_matched") == expected.total_matched,
        f"total_matched {projection.get('total_matched')}, the backend matched "
        f"{expected.total_matched}",
    )
    found.expect(
        projection.get("truncated") is False,
        f"truncated is {projection.get('truncated')}, but the projection left nothing out (the "
        f"result is at, not beyond, max_items {expected.max_items} / max_item_chars "
        f"{expected.max_item_chars})",
    )
    return found.result()


def check_step_budget(observation: dict[str, Any], fixture: dict[str, Any]) -> CheckResult:
    """Check the Harness runs no tool call of an agent step beyond the step budget.

    ``limits.max_steps`` (default 8) bounds the agent's tool steps: no TOOL_CALL_ACCEPTED or
    TOOL_CALL_REJECTED, and no invocation, has a ``step`` above it (``R1.step-budget``). The
    fixture's agent must propose more tool steps than the budget (else the WHEN does not hold);
    the steps past the budget may be decoy turns, since a Harness may stop at its budget without
    asking the agent again.
    """
    found = Findings("the step budget holds", "R1.step-budget")
    budget = int({"max_steps": 8, **fixture.get("limits", {})}["max_steps"])
    proposed = 0
    turns = [*fixture.get("agent", []), *fixture.get("decoy_agent_turns", [])]
    for turn in turns:
        if turn.get("kind") != "tool_calls":
            break
        proposed += 1
    found.expect(
        proposed > budget,
        f"the fixture's agent proposes {proposed} tool steps within a budget of {budget}",
    )
    steps = [
        e.get("data", {}).get("step")
        for e in observation.get("trace", [])
        if e.get("type") in {"TOOL_CALL_ACCEPTED", "TOOL_CALL_REJECTED"}
    ]
    steps += [i.get("step") for i in observation.get("invocations", [])]
    beyond = sorted({s for s in steps if isinstance(s, int) and s > budget})
    found.expect(
        not beyond,
        f"tool calls of step(s) {beyond} were taken, beyond the step budget max_steps {budget}",
    )
    return found.result()
