"""One Hypothesis strategy per spec Scenario whose WHEN is a Run: fixtures satisfying the WHEN.

Each strategy varies what the spec leaves open (step layout, where a duplicate falls, how many
tool calls, the evidence mix, the cancellation point, the session history) and keeps the Scenario
Fixture self-consistent: every scripted turn and tool response is consumed by a conforming Harness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

from conformance.builders import (
    ABSENT,
    blocks_until_cancelled,
    disconnect_during_agent_turn,
    draft_and_tool_calls_turn,
    draft_turn,
    invalid_verdict_turn,
    knowledge_fixture,
    prior_run,
    raw_turn,
    scenario_fixture,
    supported_turn,
    tool_call,
    tool_calls_turn,
    verdict_turn,
)
from conformance.strategies._drafts import (
    broken_drafts,
    fabricated_answers,
    valid_answers,
    valid_drafts,
)
from conformance.strategies._plans import (
    DIAGNOSIS_TOOLS,
    arguments,
    plan_from_steps,
    tool_call_ids,
    tool_plans,
)

if TYPE_CHECKING:
    from conformance.strategies._plans import ToolPlan

__all__ = [
    "client_disconnects_fixtures",
    "draft_analysis_fixtures",
    "duplicate_id_fixtures",
    "fabricated_citation_fixtures",
    "fails_twice_fixtures",
    "invalid_review_fixtures",
    "latest_fallback_fixtures",
    "no_evidence_cited_fixtures",
    "session_histories",
    "zero_match_fixtures",
]

Fixture = dict[str, Any]
_PRIOR_STATES: Final = ("SUCCESS", "FALLBACK", "FAILED", "CANCELLED", "RUNNING")
_LOOKALIKE: Final = "".join(chr(0xFF00 + ord(c) - 0x20) for c in "call") + "_1"
"""A Tool Call ID of full-width look-alikes of ``call_1`` (NFKC would make it ``call_1``)."""
_UNUSABLE_IDS: Final = st.sampled_from(
    [
        ABSENT,
        None,
        "",
        "   ",
        "call\u0000x",
        "a" * 300,
        42,
        " call_1 ",
        "call_1\n",
        _LOOKALIKE,
        "c" * 129,
        7.5,
        ["call_1"],
    ]
)
"""Presented ids that are MISSING_ID or INVALID_ID: empty, whitespace, control characters, too
long, padded, Unicode look-alikes, numbers and other JSON values."""
_USER_MESSAGES: Final = (
    "Why is checkout failing?",
    "Did checkout log any errors in the last 15 minutes?",
    "And what about the payment service?",
    "",
)


@st.composite
def session_histories(
    draw: st.DrawFn, *, latest: str | None = None, ids: tuple[str, ...] = ()
) -> list[dict[str, object]]:
    """0-12 earlier Runs of the session and 0-3 of another session, any intent and state.

    The newest 0-12 Runs of the session are drawn ineligible (any state but SUCCESS, or a
    KNOWLEDGE_QUERY SUCCESS), so long stretches of passed-over Runs lie between the previous
    turn and the new Run, and older Runs (eligible or not) lie behind it: a Harness that scans
    only the newest few Runs, or reports older ones as skipped, is seen.
    States include RUNNING; ``seq`` increases per session with gaps (unique over the fixture,
    listed in ``seq`` order as the fixture contract requires); creation times may disagree with
    ``seq`` (a Harness must order by ``seq``). ``latest`` forces the state of the session's
    newest Run (and at least one Run). A DIAGNOSIS SUCCESS Run's draft may cite some of ``ids``
    (the new Run's Tool Call IDs: duplicates are judged within one Run, so the new Run must
    accept them again).
    """
    own = draw(st.integers(1 if latest else 0, 12))
    other = draw(st.integers(0, 3))
    seqs = draw(
        st.lists(st.integers(1, 60), min_size=own + other, max_size=own + other, unique=True)
    )
    mine = sorted(seqs[:own])
    tail = set(mine[len(mine) - draw(st.integers(0, own)) :]) if own else set()
    ranks = draw(st.permutations(range(len(seqs)))) if draw(st.booleans()) else range(len(seqs))
    runs = []
    for index, seq in enumerate(seqs):
        same = index < own
        state = draw(st.sampled_from(_PRIOR_STATES))
        if latest is not None and same and seq == mine[-1]:
            state = latest
        intents: list[str | None] = ["DIAGNOSIS", "KNOWLEDGE_QUERY"]
        if state in {"FAILED", "CANCELLED", "RUNNING"}:
            intents.append(None)
        session = "session-1" if same else "session-2"
        cited = tuple(draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))) if ids else ()
        intent = draw(st.sampled_from(intents))
        if same and seq in tail and state == "SUCCESS":
            intent = "KNOWLEDGE_QUERY"  # the ineligible stretch before the new Run
        run = prior_run(
            seq,
            intent=intent,
            state=state,
            session_id=session,
            cited=cited or ("prior_call",),
        )
        if not same:
            run["run_id"] = f"session-2-run-{seq}"
        created = int(str(run["created_at_ms"])) - (seq - 1 - list(ranks)[index]) * 60_000
        run["created_at_ms"] = created
        if run["finished_at_ms"] is not None:
            run["finished_at_ms"] = created + 1_000
        runs.append(run)
    return sorted(runs, key=lambda run: int(str(run["seq"])))


def _diagnosis(  # noqa: PLR0913 - the parts of a diagnosis fixture
    draw: st.DrawFn,
    scenario: str,
    plan: ToolPlan,
    submissions: list[object],
    *,
    reviewed: bool,
    reviews: list[dict[str, object]] | None = None,
) -> Fixture:
    """A DIAGNOSIS fixture: the plan's steps, then ``submissions`` (first draft, repair answer).

    ``reviewed``: a submission passes EvidenceGuard, so the reviewer turns (default: one
    SUPPORTED) are scripted. The session history and the user message are drawn.
    """
    agent = [tool_calls_turn(list(step)) for step in plan.steps]
    agent.extend(draft_turn(s) for s in submissions)
    return scenario_fixture(
        scenario,
        semantic_guard=(reviews or [supported_turn()]) if reviewed else [],
        tools=plan.tools,
        prior_runs=draw(session_histories(ids=tuple(e.call_id for e in plan.evidence))),
        user_message=draw(st.sampled_from(_USER_MESSAGES)),
        agent=agent,
        scenario_id=scenario,
    )


@st.composite
def duplicate_id_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN two Tool actions in one Run present the same framework Tool Call ID.

    1-2 later actions reuse an accepted id, in the same step or a later (possibly new) step, with
    another tool or other arguments; 0-2 actions with a missing or invalid id fall anywhere; the
    agent then submits a valid draft; the reviewer supports.
    """
    plan = draw(tool_plans(kinds=("found",)))
    steps = [list(step) for step in plan.steps]
    for _ in range(draw(st.integers(1, 2))):
        source = draw(st.sampled_from(plan.evidence))
        origin = next(
            i for i, step in enumerate(steps) if any(c.get("id") == source.call_id for c in step)
        )
        target = draw(st.integers(origin, len(steps)))
        if target == len(steps):
            steps.append([])
        arguments_ = draw(arguments())
        arguments_["target"] = f"{arguments_['target']}-again"
        duplicate = tool_call(source.call_id, draw(st.sampled_from(DIAGNOSIS_TOOLS)), arguments_)
        low = (
            next(i for i, c in enumerate(steps[target]) if c.get("id") == source.call_id) + 1
            if target == origin
            else 0
        )
        steps[target].insert(draw(st.integers(low, len(steps[target]))), duplicate)
    for _ in range(draw(st.integers(0, 2))):  # missing or invalid ids: rejected, the Run goes on
        where = draw(st.integers(0, len(steps) - 1))
        noise = tool_call(draw(_UNUSABLE_IDS), draw(st.sampled_from(DIAGNOSIS_TOOLS)))
        steps[where].insert(draw(st.integers(0, len(steps[where]))), noise)
    full = plan_from_steps(steps, {})
    draft = draw(valid_drafts(full))
    return _diagnosis(draw, "duplicate-tool-call-id-is-proposed", full, [draft], reviewed=True)


@st.composite
def zero_match_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN a Tool executes successfully and its bounded projection has zero matching evidence.

    Any evidence mix with at least one zero-match result; a valid draft citing it as a bounded
    NEGATIVE_OBSERVATION.
    """
    plan = draw(tool_plans(must_include="empty"))
    empty = plan.with_status("NO_EVIDENCE")[0]
    draft = draw(valid_drafts(plan, must_cite=empty))
    return _diagnosis(draw, "successful-query-returns-no-evidence", plan, [draft], reviewed=True)


@st.composite
def no_evidence_cited_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN a Diagnosis Draft cites a NO_EVIDENCE Tool result.

    The first draft cites it as a bounded NEGATIVE_OBSERVATION, or breaks the rule (another kind,
    or a scope wider than the query); a broken first draft gets one repair, valid or broken.
    """
    plan = draw(tool_plans(must_include="empty"))
    how = draw(
        st.sampled_from(
            ["valid", "no_evidence_not_negative", "negative_too_wide", "negative_wider_than_later"]
        )
    )
    if how == "negative_wider_than_later":
        plan = draw(_nested_empty_plans())
    empty = plan.with_status("NO_EVIDENCE")[0]
    if how == "valid":
        draft = draw(valid_drafts(plan, must_cite=empty))
        return _diagnosis(draw, "no-evidence-result-is-cited", plan, [draft], reviewed=True)
    first, _ = draw(broken_drafts(plan, how=how))
    if draw(st.booleans()):
        repaired = draw(valid_drafts(plan, must_cite=empty))
        return _diagnosis(
            draw, "no-evidence-result-is-cited", plan, [first, repaired], reviewed=True
        )
    again = draw(
        st.sampled_from(
            ["no_evidence_not_negative", "negative_too_wide", "negative_wider_than_later"]
            if how == "negative_wider_than_later"
            else ["no_evidence_not_negative", "negative_too_wide"]
        )
    )
    broken, _ = draw(broken_drafts(plan, how=again))
    return _diagnosis(draw, "no-evidence-result-is-cited", plan, [first, broken], reviewed=False)


@st.composite
def _nested_empty_plans(draw: st.DrawFn) -> ToolPlan:
    """Two zero-match calls of one query, the second over the last minutes of the first's window.

    A NEGATIVE_OBSERVATION citing both must stay within the narrower. Maybe more calls follow.
    """
    wide = draw(arguments())
    start = int(wide["time_range"]["start_ms"])  # type: ignore[index]
    end = start + draw(st.integers(2, 60)) * 60_000
    wide["time_range"] = {"start_ms": start, "end_ms": end}
    cut = draw(st.integers(1, (end - start) // 60_000 - 1)) * 60_000
    narrow = {**wide, "time_range": {"start_ms": end - cut, "end_ms": end}}
    tool = draw(st.sampled_from(DIAGNOSIS_TOOLS))
    ids = draw(st.lists(tool_call_ids(), min_size=2, max_size=2, unique=True))
    calls = [tool_call(ids[0], tool, wide), tool_call(ids[1], tool, narrow)]
    extra = draw(tool_plans(kinds=("found",), max_calls=2))
    extra_calls = [c for step in extra.steps for c in step if c.get("id") not in ids]
    separate: bool = draw(st.booleans())
    steps = [calls, extra_calls] if extra_calls and separate else [calls + extra_calls]
    kinds = {0: "empty", 1: "empty"}
    return plan_from_steps(steps, kinds)


@st.composite
def draft_analysis_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN the Diagnosis Agent emits a structured Draft.

    A valid draft (1-4 analyses over any evidence mix), or a first draft with a repeated analysis
    id, an analysis without Tool Call IDs or an unknown id, then a valid repair.
    """
    plan = draw(tool_plans(must_include="found"))
    if draw(st.booleans()):
        draft = draw(valid_drafts(plan))
        return _diagnosis(draw, "draft-contains-an-analysis-item", plan, [draft], reviewed=True)
    how = draw(
        st.sampled_from(
            [
                "duplicate_analysis",
                "no_ids",
                "unknown_id",
                "unknown_among_known",
                "unknown_in_limitation",
                "unknown_analysis_reference",
            ]
        )
    )
    first, _ = draw(broken_drafts(plan, how=how))
    repair = draw(valid_drafts(plan))
    return _diagnosis(draw, "draft-contains-an-analysis-item", plan, [first, repair], reviewed=True)


@st.composite
def fabricated_citation_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN an answer item references a document ID absent from the bounded lookup result.

    One lookup returning 1-4 documents; a first answer with a fabricated reference among real
    ones; the repair cites only returned documents, or fabricates again.
    """
    lookup_id = draw(tool_call_ids())
    documents = draw(
        st.lists(
            st.sampled_from(["d1", "d2", "d3", "runbook-7", "kb-42"]),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    steps = [[tool_call(lookup_id, "lookup_documents", draw(arguments()))]]
    second = f"{lookup_id}-again"
    two_lookups = len(second) <= 128 and draw(st.integers(0, 4)) == 0  # noqa: PLR2004 - id max
    if two_lookups:  # answers naming several lookups: LOOKUP_CALL_COUNT, both times
        steps[0].append(tool_call(second, "lookup_documents", draw(arguments())))
    plan = plan_from_steps(steps, {}, documents)
    lookup = plan.evidence[0]
    first = draw(fabricated_answers(lookup))
    repaired = not two_lookups and draw(st.booleans())
    repair = draw(valid_answers(lookup)) if repaired else draw(fabricated_answers(lookup))
    return knowledge_fixture(
        "knowledge-answer-cites-an-unknown-document",
        steps=plan.steps,
        answer=first,
        repair=repair,
        reviews=[supported_turn()] if repaired else [],
        tools=plan.tools,
        user_message="How do I rotate the checkout API key?",
        scenario_id="knowledge-answer-cites-an-unknown-document",
    )


@st.composite
def fails_twice_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN initial validation and the single no-Tool structural repair both fail.

    Both submissions break an evidence rule drawn from those the evidence allows; the repair may
    instead propose a tool call (a failed repair) or answer non-JSON text.
    """
    plan = draw(tool_plans())
    first, _ = draw(broken_drafts(plan))
    scenario = "evidence-validation-fails-twice"
    fixture = _diagnosis(draw, scenario, plan, [first], reviewed=False)
    citable = bool(plan.with_status("EVIDENCE_FOUND", "NO_EVIDENCE"))
    kinds = ["draft", "draft", "tool_calls", "raw", *(["mixed"] if citable else [])]
    repair_kind = draw(st.sampled_from(kinds))
    in_repair = tool_call("call_in_repair", "search_logs")
    if repair_kind == "draft":
        repair: dict[str, object] = draft_turn(draw(broken_drafts(plan))[0])
    elif repair_kind == "tool_calls":
        repair = tool_calls_turn([in_repair])
    elif repair_kind == "mixed":  # one message holding a valid draft and a tool call
        repair = draft_and_tool_calls_turn(draw(valid_drafts(plan)), [in_repair])
    else:
        repair = raw_turn("I cannot produce a draft.")
    fixture["agent"].append(repair)
    if repair_kind in {"tool_calls", "mixed"} and citable:
        # what a Harness that wrongly runs the repair's call would get next: a valid draft
        fixture["decoy_agent_turns"] = [draft_turn(draw(valid_drafts(plan)))]
    return fixture


@st.composite
def latest_fallback_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN the latest same-session Run ended with FALLBACK (any older history before it)."""
    plan = draw(tool_plans(must_include="found"))
    draft = draw(valid_drafts(plan))
    fixture = _diagnosis(draw, "latest-run-is-a-fallback", plan, [draft], reviewed=True)
    fixture["prior_runs"] = draw(session_histories(latest="FALLBACK"))
    return fixture


@st.composite
def client_disconnects_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN an SSE client disconnects while a synchronous model call is in flight.

    The agent call that blocks is drawn: any tool step, the draft, or the structural repair; it
    answers late with tool calls, a valid draft or a broken one. The client disconnects when that
    call starts; nothing after it is scripted.
    """
    plan = draw(tool_plans(must_include="found"))
    point = draw(st.integers(0, len(plan.steps) + 1))
    steps = list(plan.steps[: min(point, len(plan.steps))])
    executed = plan_from_steps(steps, {})
    late_options: list[dict[str, object]] = [draft_turn(draw(valid_drafts(plan)))]
    late_options.append(tool_calls_turn([tool_call("call_late", "search_logs")]))
    late = draw(st.sampled_from(late_options))
    agent = [tool_calls_turn(list(step)) for step in steps]
    if point == len(plan.steps) + 1:  # block in the structural repair
        first, _ = draw(broken_drafts(plan, how="unknown_id"))
        agent.append(draft_turn(first))
        tools = plan.tools
    else:
        tools = executed.tools
    index = len(agent)
    agent.append(blocks_until_cancelled(late))
    return scenario_fixture(
        "client-disconnects-during-a-model-call",
        agent=agent,
        tools=tools,
        client=disconnect_during_agent_turn(index),
        prior_runs=draw(session_histories()),
        scenario_id="client-disconnects-during-a-model-call",
    )


def _invalid_reviews() -> st.SearchStrategy[dict[str, object]]:
    return st.sampled_from(
        [
            invalid_verdict_turn(),
            raw_turn("SUPPORTED"),
            verdict_turn({"verdict": "SUPPORTED", "unsupported_analysis_ids": ["a1"]}),
            verdict_turn({"verdict": "UNSUPPORTED", "unsupported_analysis_ids": []}),
            verdict_turn({"verdict": "SUPPORTED"}),
            verdict_turn(["SUPPORTED"]),
        ]
    )


@st.composite
def invalid_review_fixtures(draw: st.DrawFn) -> Fixture:
    """WHEN the first SemanticGuard attempt returns an invalid structured result.

    A valid draft over any evidence mix; the reviewer's first answer breaks the SemanticVerdict
    schema in one of several ways, its second supports the draft.
    """
    plan = draw(tool_plans(must_include="found"))
    draft = draw(valid_drafts(plan))
    reviews = [draw(_invalid_reviews()), supported_turn()]
    return _diagnosis(
        draw,
        "semanticguard-returns-an-invalid-schema",
        plan,
        [draft],
        reviewed=True,
        reviews=reviews,
    )
