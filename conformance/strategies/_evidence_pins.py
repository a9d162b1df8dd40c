"""Pinned fixtures of the evidence kinds: each puts one kind of suite gap in front of an IUT.

The global invariants property starts with these (Hypothesis explicit examples), so every
invariants run, whatever its example budget, judges: Tool Call ID variants (padded, look-alike,
numeric, too long, differing only in case, used by an earlier Run), every tool outcome (rows,
zero rows, in-band error, raise, rows over both projection limits), a NEGATIVE_OBSERVATION over
two calls, one unknown binding among known ones (analysis, limitation, analysis reference), an
analysis citing ERROR or found evidence as negative, document-id look-alikes, two lookups, a
structural repair that calls tools, and a partial UNSUPPORTED verdict. Each is consumed whole by a
conforming Harness.
"""

from __future__ import annotations

from typing import Any, Final

from conformance.builders import (
    ABSENT,
    analysis,
    answer_item,
    call_arguments,
    diagnosis_draft,
    diagnosis_fixture,
    document_rows,
    draft_and_tool_calls_turn,
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

__all__ = ["evidence_pinned_fixtures"]

Fixture = dict[str, Any]
_SECRET: Final = "connection refused by 10.0.0.7: token sk-live-0000"  # noqa: S105 - fake
_LONG: Final = 3000
"""Characters of a backend row longer than the default max_item_chars (2000)."""


def _ids_fixture() -> Fixture:
    """Every Tool Call ID kind in one step; ``call_3`` was cited by an earlier Run.

    Missing (absent, ``""``, ``null``), padded, full-width look-alike, numeric and too long ids
    are rejected; ``call_1`` and ``CALL_1`` are two ids; ``call_3`` is new in this Run.
    """
    lookalike = "".join(chr(0xFF00 + ord(c) - 0x20) for c in "call") + "_2"  # full-width "call"
    bad = [ABSENT, "", None, " call_1 ", lookalike, 42, "x" * 129]
    good = ["call_1", "CALL_1", "call_3"]
    step = [tool_call(i, "search_logs", call_arguments(query=f"q{n}")) for n, i in enumerate(bad)]
    step += [tool_call(i, "query_metrics", call_arguments(query=i)) for i in good]
    draft = diagnosis_draft([analysis(f"a{n}", "OBSERVATION", [i]) for n, i in enumerate(good, 1)])
    fixture = diagnosis_fixture(
        "pinned-tool-call-id-kinds",
        steps=[step],
        draft=draft,
        reviews=[supported_turn()],
        tools={
            "query_metrics": tool_script(*(rows(f"metric {i}") for i in good)),
            "search_logs": tool_script(default=rows("a rejected call was executed")),
        },
    )
    fixture["prior_runs"] = [prior_run(1, cited=("call_3",))]
    return fixture


def _outcomes_fixture() -> Fixture:
    """Rows, zero rows, in-band error, a raise, rows over both limits; a draft keeping the rules."""
    calls = {
        "found": tool_call("found_1", "search_logs", call_arguments(query="found")),
        "empty": tool_call("empty_1", "query_metrics", call_arguments(query="empty")),
        "in_band": tool_call("in_band_1", "list_alerts", call_arguments(query="in band")),
        "raise": tool_call("raise_1", "list_alerts", call_arguments(query="raise")),
        "long": tool_call("long_1", "search_logs", call_arguments(query="long")),
        "many": tool_call("many_1", "search_logs", call_arguments(query="many")),
    }
    scope = query_scope("query_metrics", call_arguments(query="empty"))
    draft = diagnosis_draft(
        [
            analysis("a1", "OBSERVATION", ["found_1", "long_1", "many_1"]),
            analysis("a2", "NEGATIVE_OBSERVATION", ["empty_1"], scope=scope),
        ],
        limitations=[limitation("Two backends failed.", ["in_band_1", "raise_1"])],
    )
    many = rows(*(f"row {n}" for n in range(30)), total_matched=45)
    return diagnosis_fixture(
        "pinned-tool-outcomes",
        steps=[list(calls.values())],
        draft=draft,
        reviews=[supported_turn()],
        tools={
            "search_logs": tool_script(rows("checkout 502"), rows("y" * _LONG), many),
            "query_metrics": tool_script(no_rows()),
            "list_alerts": tool_script(in_band_error("UPSTREAM_5XX"), failure(_SECRET)),
        },
    )


def _repaired(fixture_id: str, first: object, *, tools: dict[str, Any] | None = None) -> Fixture:
    """``call_1`` (search_logs) finds a line; ``first`` is rejected, the repair passes."""
    steps = [[tool_call("call_1", "search_logs")]]
    scripts = {"search_logs": tool_script(rows("checkout 502"))}
    if tools is not None:
        steps = [[tool_call("call_1", "search_logs"), tool_call("call_2", "list_alerts")]]
        scripts.update(tools)
    repair = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    return diagnosis_fixture(
        fixture_id,
        steps=steps,
        draft=first,
        repair=repair,
        reviews=[supported_turn()],
        tools=scripts,
    )


def _binding_fixtures() -> list[Fixture]:
    """First drafts that each break exactly one binding rule, then a valid repair."""
    observed = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    unknown_analysis = {
        **observed,
        "conclusion": {**observed["conclusion"], "analysis_ids": ["a1", "a9"]},  # type: ignore[dict-item]
    }
    scope = query_scope("search_logs", call_arguments())
    return [
        _repaired(
            "pinned-unknown-among-known",
            diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1", "call_9"])]),
        ),
        _repaired(
            "pinned-unknown-in-limitation",
            diagnosis_draft(
                [analysis("a1", "OBSERVATION", ["call_1"])],
                limitations=[limitation("Not queried.", ["call_9"])],
            ),
        ),
        _repaired("pinned-unknown-analysis-reference", unknown_analysis),
        _repaired(
            "pinned-negative-on-found",
            diagnosis_draft([analysis("a1", "NEGATIVE_OBSERVATION", ["call_1"], scope=scope)]),
        ),
        _repaired(
            "pinned-error-evidence-cited",
            diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1", "call_2"])]),
            tools={"list_alerts": tool_script(in_band_error("RATE_LIMITED"))},
        ),
    ]


def _scope_fixture() -> Fixture:
    """Two empty calls of one query, 15 and 5 minutes; a negative claim over the 15 minutes."""
    wide = call_arguments()
    window = wide["time_range"]
    assert isinstance(window, dict)  # noqa: S101 - call_arguments builds dicts
    narrow = call_arguments(start_ms=int(window["end_ms"]) - 5 * 60_000)
    claim = analysis(
        "a1",
        "NEGATIVE_OBSERVATION",
        ["call_1", "call_2"],
        scope=query_scope("search_logs", wide),
    )
    draft = diagnosis_draft([claim])
    return diagnosis_fixture(
        "pinned-negative-scope-of-every-citation",
        steps=[
            [tool_call("call_1", "search_logs", wide), tool_call("call_2", "search_logs", narrow)]
        ],
        draft=draft,
        repair=draft,
        tools={"search_logs": tool_script(default=no_rows())},
    )


def _knowledge_fixtures() -> list[Fixture]:
    """Answers citing look-alike document ids, an empty answer, an answer beside two lookups."""
    lookup = [[tool_call("lookup_1", "lookup_documents")]]
    documents = {"lookup_documents": tool_script(default=document_rows("d1", "d2"))}

    def answer(*cited: str) -> dict[str, object]:
        return knowledge_answer("lookup_1", [answer_item("i1", "lookup_1", list(cited))])

    fixtures = [
        knowledge_fixture(
            f"pinned-document-{name}",
            steps=lookup,
            answer=answer(cited),
            repair=answer("d1"),
            reviews=[supported_turn()],
            tools=documents,
        )
        for name, cited in (("case", "D1"), ("position", "1"))
    ]
    fixtures.append(
        knowledge_fixture(
            "pinned-empty-answer",
            steps=lookup,
            answer=knowledge_answer("lookup_1", []),
            repair=answer("d2"),
            reviews=[supported_turn()],
            tools=documents,
        )
    )
    two = [[tool_call("lookup_1", "lookup_documents"), tool_call("lookup_2", "lookup_documents")]]
    fixtures.append(
        knowledge_fixture(
            "pinned-two-lookups",
            steps=two,
            answer=answer("d1"),
            repair=answer("d2"),
            tools=documents,
        )
    )
    return fixtures


def _repair_fixture() -> Fixture:
    """The repair answers with a draft and a tool call together; a decoy draft would pass."""
    first = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_9"])])
    valid = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    fixture = diagnosis_fixture(
        "pinned-repair-calls-a-tool",
        steps=[[tool_call("call_1", "search_logs")]],
        draft=first,
        tools={"search_logs": tool_script(rows("checkout 502"), default=rows("repair result"))},
    )
    repair_call = tool_call("call_2", "search_logs", call_arguments(query="in repair"))
    agent = fixture["agent"]
    assert isinstance(agent, list)  # noqa: S101 - diagnosis_fixture builds a list
    agent.append(draft_and_tool_calls_turn(valid, [repair_call]))
    fixture["decoy_agent_turns"] = [{"kind": "draft", "draft": valid}]
    return fixture


def _partial_unsupported_fixture() -> Fixture:
    """Two analyses; the SemanticGuard finds only ``a1`` unsupported."""
    draft = diagnosis_draft(
        [analysis("a1", "OBSERVATION", ["call_1"]), analysis("a2", "OBSERVATION", ["call_2"])],
        limitations=[],
    )
    return diagnosis_fixture(
        "pinned-partial-unsupported",
        steps=[[tool_call("call_1", "search_logs"), tool_call("call_2", "query_metrics")]],
        draft=draft,
        reviews=[unsupported_turn(["a1"])],
        tools={
            "search_logs": tool_script(rows("checkout 502")),
            "query_metrics": tool_script(rows("error rate 12%")),
        },
    )


def _limitation_on_error_fixture() -> Fixture:
    """A valid draft whose limitation cites an in-band error (the rules allow it)."""
    draft = diagnosis_draft(
        [analysis("a1", "OBSERVATION", ["call_1"])],
        limitations=[limitation("Alerts were rate limited.", ["call_2"])],
    )
    return diagnosis_fixture(
        "pinned-limitation-cites-error",
        steps=[[tool_call("call_1", "search_logs"), tool_call("call_2", "list_alerts")]],
        draft=draft,
        reviews=[supported_turn()],
        tools={
            "search_logs": tool_script(rows("checkout 502")),
            "list_alerts": tool_script(in_band_error("RATE_LIMITED")),
        },
    )


def evidence_pinned_fixtures() -> list[Fixture]:
    """Return the pinned evidence fixtures (see the module docstring), cheapest kinds first."""
    return [
        _ids_fixture(),
        _outcomes_fixture(),
        _partial_unsupported_fixture(),
        _limitation_on_error_fixture(),
        _scope_fixture(),
        *_binding_fixtures(),
        *_knowledge_fixtures(),
        _repair_fixture(),
    ]
