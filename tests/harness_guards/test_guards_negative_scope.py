"""Field case 6: a NO_EVIDENCE log search bounds what a NEGATIVE_OBSERVATION may claim."""

from __future__ import annotations

import pytest

from reference_harness.guards import check_draft

RUN = "run-1"
END_MS = 1_764_460_800_000
FIFTEEN_MINUTES_MS = 15 * 60 * 1000
DAY_MS = 24 * 60 * 60 * 1000
START_MS = END_MS - FIFTEEN_MINUTES_MS


@pytest.fixture
def zero_hits(build):
    """The log search of field case 6: service checkout, last 15 minutes, HTTP 200, zero hits."""
    searched = build.scope(target="checkout", start_ms=START_MS, end_ms=END_MS)
    return build.by_id(build.invocation("call_1", evidence="NO_EVIDENCE", query_scope=searched))


@pytest.mark.parametrize(
    "claimed",
    [
        pytest.param({}, id="exactly-the-searched-scope"),
        pytest.param({"start_ms": START_MS + 60_000}, id="the-last-14-minutes"),
        pytest.param({"start_ms": START_MS + 1, "end_ms": END_MS - 1}, id="a-strict-sub-range"),
    ],
)
def test_a_claim_within_the_searched_scope_is_valid(build, zero_hits, claimed):
    """A NEGATIVE_OBSERVATION whose scope lies within the searched scope passes."""
    claim = build.scope(**{"start_ms": START_MS, "end_ms": END_MS, **claimed})
    submitted = build.draft(build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", the_scope=claim))
    assert check_draft(submitted, run_id=RUN, invocations=zero_hits).valid


@pytest.mark.parametrize(
    "claimed",
    [
        pytest.param({"target": "*"}, id="all-services"),
        pytest.param({"target": "payments"}, id="another-service"),
        pytest.param({"start_ms": END_MS - DAY_MS}, id="a-day"),
        pytest.param({"end_ms": END_MS + 1}, id="one-ms-past-the-end"),
        pytest.param({"start_ms": START_MS - 1}, id="one-ms-before-the-start"),
        pytest.param({"query": "level:warn"}, id="another-query"),
        pytest.param({"query": ""}, id="an-empty-query"),
        pytest.param({"tool": "query_metrics"}, id="another-tool"),
    ],
)
def test_a_claim_wider_than_the_searched_scope_is_rejected(build, zero_hits, claimed):
    """A NEGATIVE_OBSERVATION claiming beyond the searched scope is NEGATIVE_SCOPE_TOO_WIDE."""
    claim = build.scope(**{"start_ms": START_MS, "end_ms": END_MS, **claimed})
    submitted = build.draft(build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", the_scope=claim))
    verdict = check_draft(submitted, run_id=RUN, invocations=zero_hits)
    assert [(v.code, v.pointer) for v in verdict.violations] == [
        ("NEGATIVE_SCOPE_TOO_WIDE", "/analyses/0/scope")
    ]


def test_every_cited_search_must_cover_the_claim(build):
    """Citing two empty searches, the claim must lie within each of them."""
    narrow = build.scope(start_ms=END_MS - 60_000)
    invocations = build.by_id(
        build.invocation("call_1", evidence="NO_EVIDENCE", query_scope=build.scope()),
        build.invocation("call_2", sequence=2, evidence="NO_EVIDENCE", query_scope=narrow),
    )
    wide = build.draft(
        build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", "call_2", the_scope=build.scope())
    )
    inside_both = build.draft(
        build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", "call_2", the_scope=narrow)
    )
    assert [v.code for v in check_draft(wide, run_id=RUN, invocations=invocations).violations] == [
        "NEGATIVE_SCOPE_TOO_WIDE"
    ]
    assert check_draft(inside_both, run_id=RUN, invocations=invocations).valid
