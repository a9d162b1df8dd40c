"""Pinned fixtures of the citation kinds the first evidence pins did not reach.

Each one puts a kind of fault in front of an IUT within the self-test's few examples (the global
invariants property starts with them, after :mod:`conformance.strategies._evidence_pins`):

* a semantic fallback (UNSUPPORTED, UNAVAILABLE) after a draft that leaves a READY call uncited and
  whose limitation cites a failed call and an in-band error: the Verified Snapshot and the Safe
  Fallback's verified sources must hold exactly the cited READY invocations;
* a Knowledge Answer beside another READY tool, after a failed lookup, and one naming the failed
  lookup (Requirement 5, "the single lookup Tool Call");
* an action plan and a recommendation naming an unknown analysis, an INFERENCE citing only
  NO_EVIDENCE, a NEGATIVE_OBSERVATION scoped to another tool or starting before its query;
* a lookup returning more documents than ``max_items`` (the answer cites one left out), and an
  oversize backend payload under tight limits;
* a KNOWLEDGE_QUERY Run whose newest earlier Runs ended FAILED and FALLBACK (their texts must not
  reach the agent);
* eight ineligible earlier Runs between the previous turn and the new Run, older Runs behind it
  (the skip report holds exactly the eight, each with the reason of its state first).

Each is consumed whole by a conforming Harness.
"""

from __future__ import annotations

from typing import Any, Final

from conformance.builders import (
    DEFAULT_LIMITS,
    analysis,
    answer_item,
    call_arguments,
    diagnosis_draft,
    diagnosis_fixture,
    document_rows,
    error_turn,
    failure,
    in_band_error,
    knowledge_answer,
    knowledge_fixture,
    limitation,
    no_rows,
    prior_run,
    query_scope,
    rows,
    supported_turn,
    tool_call,
    tool_script,
    unsupported_turn,
)

__all__ = ["citation_pinned_fixtures"]

Fixture = dict[str, Any]
_SECRET: Final = "lookup backend down at 10.0.0.9: token sk-live-1111"  # noqa: S105 - fake
_TIGHT: Final = {**DEFAULT_LIMITS, "max_items": 3, "max_item_chars": 100}


def _uncited_evidence(fixture_id: str, reviews: list[dict[str, object]]) -> Fixture:
    """``call_2`` is READY but uncited; a limitation cites a raised and an in-band error."""
    draft = diagnosis_draft(
        [analysis("a1", "OBSERVATION", ["call_1"])],
        limitations=[limitation("Two alert backends failed.", ["call_3", "call_4"])],
    )
    return diagnosis_fixture(
        fixture_id,
        steps=[
            [
                tool_call("call_1", "search_logs"),
                tool_call("call_2", "query_metrics"),
                tool_call("call_3", "list_alerts", call_arguments(query="raise")),
                tool_call("call_4", "list_alerts", call_arguments(query="in band")),
            ]
        ],
        draft=draft,
        reviews=reviews,
        tools={
            "search_logs": tool_script(rows("checkout 502")),
            "query_metrics": tool_script(rows("error rate 12%")),
            "list_alerts": tool_script(failure(_SECRET), in_band_error("UPSTREAM_5XX")),
        },
    )


def _repaired_then_unsupported() -> Fixture:
    """The first draft also cites ``call_2`` and an unknown call; the repair cites ``call_1`` only.

    The SemanticGuard finds the repair unsupported: the verified sources are the repair's
    (``call_1``), not the rejected draft's.
    """
    first = diagnosis_draft(
        [analysis("a1", "OBSERVATION", ["call_1", "call_2"])],
        limitations=[limitation("Not queried.", ["call_9"])],
    )
    return diagnosis_fixture(
        "pinned-sources-of-the-repaired-draft",
        steps=[[tool_call("call_1", "search_logs"), tool_call("call_2", "query_metrics")]],
        draft=first,
        repair=diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])]),
        reviews=[unsupported_turn(["a1"])],
        tools={
            "search_logs": tool_script(rows("checkout 502")),
            "query_metrics": tool_script(rows("error rate 12%")),
        },
    )


def _lookup_fixtures() -> list[Fixture]:
    """A lookup beside another READY tool; a failed lookup, then a READY one, named or not."""
    documents = document_rows("d1", "d2")

    def answer(lookup: str, *cited: str) -> dict[str, object]:
        return knowledge_answer(lookup, [answer_item("i1", lookup, list(cited))])

    beside = knowledge_fixture(
        "pinned-lookup-beside-another-tool",
        steps=[[tool_call("lookup_1", "lookup_documents"), tool_call("call_2", "search_logs")]],
        answer=answer("lookup_1", "d1"),
        reviews=[unsupported_turn(["i1"])],
        tools={
            "lookup_documents": tool_script(documents),
            "search_logs": tool_script(rows("checkout 502")),
        },
    )
    failed_then_ready = {
        "lookup_documents": tool_script(failure(_SECRET), documents),
    }
    retried = knowledge_fixture(
        "pinned-failed-lookup-then-ready",
        steps=[
            [tool_call("lookup_1", "lookup_documents")],
            [tool_call("lookup_2", "lookup_documents")],
        ],
        answer=answer("lookup_2", "d1"),
        reviews=[supported_turn()],
        tools=failed_then_ready,
    )
    # the stricter reading of "the single lookup Tool Call" rejects it and asks for the repair
    retried["decoy_agent_turns"] = [
        {"kind": "knowledge_answer", "answer": answer("lookup_2", "d1")}
    ]
    names_failed = knowledge_fixture(
        "pinned-answer-names-failed-lookup",
        steps=[
            [tool_call("lookup_1", "lookup_documents")],
            [tool_call("lookup_2", "lookup_documents")],
        ],
        answer=knowledge_answer("lookup_1", []),
        repair=answer("lookup_2", "d2"),
        reviews=[supported_turn()],
        tools=failed_then_ready,
    )
    beyond = knowledge_fixture(
        "pinned-lookup-beyond-max-items",
        steps=[[tool_call("lookup_1", "lookup_documents")]],
        answer=answer("lookup_1", "d1", "d5"),
        repair=answer("lookup_1", "d3"),
        reviews=[supported_turn()],
        tools={"lookup_documents": tool_script(document_rows("d1", "d2", "d3", "d4", "d5"))},
        limits=_TIGHT,
    )
    return [beside, retried, names_failed, beyond]


def _repaired(fixture_id: str, first: object, *, found: bool = True) -> Fixture:
    """``call_1`` (search_logs) finds a line (or nothing); ``first`` fails, the repair passes."""
    if found:
        repair = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
        result = rows("checkout 502")
    else:
        scope = query_scope("search_logs", call_arguments())
        repair = diagnosis_draft([analysis("a1", "NEGATIVE_OBSERVATION", ["call_1"], scope=scope)])
        result = no_rows()
    return diagnosis_fixture(
        fixture_id,
        steps=[[tool_call("call_1", "search_logs")]],
        draft=first,
        repair=repair,
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(result)},
    )


def _draft_fixtures() -> list[Fixture]:
    """Unknown analyses in the plan and recommendations; INFERENCE on NO_EVIDENCE; scopes."""
    observed = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    in_plan = {
        **observed,
        "action_plan": [{"action": "Roll back payments.", "analysis_ids": ["a1", "a9"]}],
    }
    in_recommendation = {
        **observed,
        "recommendations": [{"text": "Alert on payments.", "analysis_ids": ["a7"]}],
    }
    arguments = call_arguments()
    window = arguments["time_range"]
    assert isinstance(window, dict)  # noqa: S101 - call_arguments builds dicts
    other_tool = query_scope("query_metrics", arguments)
    earlier = query_scope(
        "search_logs",
        {**arguments, "time_range": {**window, "start_ms": int(window["start_ms"]) - 60_000}},
    )
    # 1 ms past the query's end, which falls on a whole second: a whole-second comparison passes
    later_end = query_scope(
        "search_logs",
        {**arguments, "time_range": {**window, "end_ms": int(window["end_ms"]) + 1}},
    )

    def negative(scope: dict[str, object]) -> dict[str, object]:
        return diagnosis_draft([analysis("a1", "NEGATIVE_OBSERVATION", ["call_1"], scope=scope)])

    return [
        _repaired("pinned-unknown-analysis-in-action-plan", in_plan),
        _repaired("pinned-unknown-analysis-in-recommendation", in_recommendation),
        _repaired(
            "pinned-inference-on-no-evidence",
            diagnosis_draft([analysis("a1", "INFERENCE", ["call_1"])]),
            found=False,
        ),
        _repaired("pinned-negative-scope-other-tool", negative(other_tool), found=False),
        _repaired("pinned-negative-scope-earlier-start", negative(earlier), found=False),
        _repaired("pinned-negative-scope-later-end-by-1-ms", negative(later_end), found=False),
    ]


def _oversize_fixture() -> Fixture:
    """An oversize search_logs payload (about 13 generated rows) under 3 items of 100 chars."""
    return diagnosis_fixture(
        "pinned-oversize-under-tight-limits",
        steps=[[tool_call("call_1", "search_logs")]],
        draft=diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])]),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script({"kind": "oversize", "bytes": 50_000})},
        limits=_TIGHT,
    )


def _knowledge_after_failures() -> Fixture:
    """A KNOWLEDGE_QUERY Run whose newest earlier Runs ended FAILED and FALLBACK."""
    fixture = knowledge_fixture(
        "pinned-knowledge-after-failed-runs",
        steps=[[tool_call("lookup_1", "lookup_documents")]],
        answer=knowledge_answer("lookup_1", [answer_item("i1", "lookup_1", ["d1"])]),
        reviews=[supported_turn()],
        tools={"lookup_documents": tool_script(document_rows("d1"))},
    )
    fixture["prior_runs"] = [
        prior_run(1),
        prior_run(2, state="FAILED"),
        prior_run(3, intent="KNOWLEDGE_QUERY", state="FALLBACK"),
    ]
    return fixture


def _long_history() -> Fixture:
    """Eight ineligible Runs (every state, both intents) between the previous turn and the Run.

    Behind the previous turn (seq 3) lie an older SUCCESS and an older FAILED Run, and another
    session's Run sits in the middle: none of them is skipped or selected.
    """
    history = [
        prior_run(1),
        prior_run(2, state="FAILED"),
        prior_run(3),
        prior_run(4, intent="KNOWLEDGE_QUERY", state="FALLBACK"),
        prior_run(5, intent="KNOWLEDGE_QUERY"),
        prior_run(6, session_id="session-2"),
        prior_run(7, intent=None, state="FAILED"),
        prior_run(8, state="CANCELLED"),
        prior_run(9, intent="KNOWLEDGE_QUERY", state="RUNNING"),
        prior_run(10, state="FALLBACK"),
        prior_run(11, intent="KNOWLEDGE_QUERY", state="CANCELLED"),
        prior_run(12, state="RUNNING"),
    ]
    history[5]["run_id"] = "session-2-run-6"
    return diagnosis_fixture(
        "pinned-long-ineligible-history",
        steps=[[tool_call("call_1", "search_logs")]],
        draft=diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])]),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(rows("checkout 502"))},
        prior_runs=history,
    )


def citation_pinned_fixtures() -> list[Fixture]:
    """Return the pinned citation fixtures (see the module docstring)."""
    return [
        _uncited_evidence("pinned-uncited-evidence-unsupported", [unsupported_turn(["a1"])]),
        _uncited_evidence("pinned-uncited-evidence-unavailable", [error_turn(), error_turn()]),
        _repaired_then_unsupported(),
        *_lookup_fixtures(),
        *_draft_fixtures(),
        _oversize_fixture(),
        _knowledge_after_failures(),
        _long_history(),
    ]
