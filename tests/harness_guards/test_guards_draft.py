"""EvidenceGuard on Diagnosis Drafts: one test (or more) per rule of DESIGN section 4."""

from __future__ import annotations

import pytest

from contracts import DiagnosisDraft
from contracts import Violation as TraceViolation
from reference_harness.guards import (
    MAX_VIOLATIONS,
    Violation,
    canonical_release,
    check_draft,
)

RUN = "run-1"


def codes(verdict):
    return [(v.code, v.pointer) for v in verdict.violations]


def test_a_bound_draft_is_valid_and_released_byte_identical(build):
    """A draft whose analyses cite READY evidence of the right kind passes with its model."""
    invocations = build.by_id(
        build.invocation("call_1", sequence=1),
        build.invocation("call_2", sequence=2, evidence="NO_EVIDENCE"),
    )
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"),
        build.analysis("a2", "NEGATIVE_OBSERVATION", "call_2", the_scope=build.scope()),
        build.analysis("a3", "INFERENCE", "call_1"),
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert verdict.valid
    assert verdict.violations == ()
    assert isinstance(verdict.document, DiagnosisDraft)
    assert canonical_release(verdict.document) == canonical_release(submitted)


def test_a_duplicate_analysis_id_points_at_the_second_occurrence(build):
    """The second analysis reusing an id is DUPLICATE_ANALYSIS_ID at its analysis_id."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"),
        build.analysis("a1", "INFERENCE", "call_1"),
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert not verdict.valid
    assert codes(verdict) == [("DUPLICATE_ANALYSIS_ID", "/analyses/1/analysis_id")]
    assert verdict.document is None


@pytest.mark.parametrize("shape", ["empty list", "key absent"])
def test_an_analysis_without_tool_call_ids_is_missing_tool_call_ids(build, shape):
    """An analysis with no Tool Call IDs (empty or absent) is MISSING_TOOL_CALL_IDS there."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"), build.analysis("a2", "INFERENCE")
    )
    if shape == "key absent":
        del submitted["analyses"][1]["tool_call_ids"]
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("MISSING_TOOL_CALL_IDS", "/analyses/1/tool_call_ids")]


@pytest.mark.parametrize(
    "cited",
    [
        pytest.param("call_9", id="never-accepted"),
        pytest.param("call_other_run", id="another-runs-invocation"),
    ],
)
def test_an_id_that_is_no_invocation_of_this_run_is_unknown(build, cited):
    """Citing an id that this Run never accepted (or another Run's) is UNKNOWN_TOOL_CALL_ID."""
    invocations = build.by_id(
        build.invocation("call_1"),
        build.invocation("call_other_run", run_id="run-2", sequence=2),
    )
    submitted = build.draft(build.analysis("a1", "INFERENCE", "call_1", cited))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("UNKNOWN_TOOL_CALL_ID", "/analyses/0/tool_call_ids/1")]


def test_an_entry_filed_under_another_id_is_unknown(build):
    """An invocation whose own Tool Call ID differs from its mapping key is not citable by key."""
    invocations = {"call_1": build.invocation("call_1"), "call_2": build.invocation("call_3")}
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_1", "call_2"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("UNKNOWN_TOOL_CALL_ID", "/analyses/0/tool_call_ids/1")]


def test_an_inverted_scope_is_schema_invalid_not_too_wide(build):
    """A scope ending before it starts breaks the QueryScope invariant: SCHEMA_INVALID there."""
    invocations = build.by_id(build.invocation("call_1", evidence="NO_EVIDENCE"))
    inverted = build.scope(start_ms=build.END_MS, end_ms=build.END_MS - 1)
    submitted = build.draft(
        build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", the_scope=inverted)
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("SCHEMA_INVALID", "/analyses/0/scope/time_range/end_ms")]


def test_a_projecting_invocation_is_not_ready(build):
    """An analysis citing an invocation still PROJECTING is INVOCATION_NOT_READY."""
    invocations = build.by_id(
        build.invocation("call_1"),
        build.invocation("call_2", sequence=2, status="PROJECTING", evidence=None),
    )
    submitted = build.draft(build.analysis("a1", "INFERENCE", "call_1", "call_2"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("INVOCATION_NOT_READY", "/analyses/0/tool_call_ids/1")]


@pytest.mark.parametrize(
    "status", [pytest.param("READY", id="in-band-error"), pytest.param("ERROR", id="tool-failed")]
)
def test_an_analysis_citing_error_evidence_is_rejected(build, status):
    """An analysis citing evidence status ERROR is ERROR_EVIDENCE_CITED, READY or not."""
    invocations = build.by_id(
        build.invocation("call_1"),
        build.invocation("call_2", sequence=2, status=status, evidence="ERROR"),
    )
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_1", "call_2"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("ERROR_EVIDENCE_CITED", "/analyses/0/tool_call_ids/1")]


@pytest.mark.parametrize("status", ["READY", "ERROR"])
def test_a_limitation_may_cite_error_evidence(build, status):
    """A limitation citing a failed invocation is allowed: the draft stays valid."""
    invocations = build.by_id(
        build.invocation("call_1"),
        build.invocation("call_2", sequence=2, status=status, evidence="ERROR"),
    )
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"),
        limitations=[{"text": "metrics backend failed", "tool_call_ids": ["call_2"]}],
    )
    assert check_draft(submitted, run_id=RUN, invocations=invocations).valid


def test_a_limitation_citing_an_unknown_id_is_rejected(build):
    """A limitation naming an id that is no invocation of this Run is UNKNOWN_TOOL_CALL_ID."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(
        build.analysis("a1", "OBSERVATION", "call_1"),
        limitations=[{"text": "x", "tool_call_ids": ["call_1", "call_7"]}],
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("UNKNOWN_TOOL_CALL_ID", "/limitations/0/tool_call_ids/1")]


@pytest.mark.parametrize("kind", ["INFERENCE", "OBSERVATION"])
def test_no_evidence_cited_by_a_non_negative_kind_is_rejected(build, kind):
    """A NO_EVIDENCE result cited by OBSERVATION or INFERENCE is NO_EVIDENCE_NOT_NEGATIVE."""
    invocations = build.by_id(
        build.invocation("call_1"),
        build.invocation("call_2", sequence=2, evidence="NO_EVIDENCE"),
    )
    submitted = build.draft(build.analysis("a1", kind, "call_1", "call_2"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("NO_EVIDENCE_NOT_NEGATIVE", "/analyses/0/tool_call_ids/1")]


def test_a_negative_observation_citing_found_evidence_is_rejected(build):
    """NEGATIVE_OBSERVATION citing an EVIDENCE_FOUND result is NEGATIVE_WITHOUT_NO_EVIDENCE."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(
        build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", the_scope=build.scope())
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("NEGATIVE_WITHOUT_NO_EVIDENCE", "/analyses/0/tool_call_ids/0")]


def test_an_observation_needs_found_evidence(build):
    """An OBSERVATION whose only citation is unusable also lacks EVIDENCE_FOUND."""
    invocations = build.by_id(build.invocation("call_1", evidence="NO_EVIDENCE"))
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_1"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [
        ("NO_EVIDENCE_NOT_NEGATIVE", "/analyses/0/tool_call_ids/0"),
        ("OBSERVATION_WITHOUT_EVIDENCE", "/analyses/0/tool_call_ids"),
    ]


@pytest.mark.parametrize(
    ("section", "pointer"),
    [
        ("conclusion", "/conclusion/analysis_ids/1"),
        ("action_plan", "/action_plan/0/analysis_ids/1"),
        ("recommendations", "/recommendations/0/analysis_ids/1"),
    ],
)
def test_naming_an_unknown_analysis_id_is_rejected(build, section, pointer):
    """Conclusion, action plan and recommendations may name only analyses of the draft."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_1"))
    holder = submitted[section] if section == "conclusion" else submitted[section][0]
    holder["analysis_ids"] = ["a1", "a9"]
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("UNKNOWN_ANALYSIS_ID", pointer)]


def test_schema_errors_stop_the_binding_checks(build):
    """A schema-invalid draft reports only SCHEMA_INVALID, even if it also cites unknown ids."""
    submitted = build.draft(build.analysis("a1", "OBSERVATION", "call_9"))
    submitted["analyses"][0]["kind"] = "GUESS"
    submitted["thoughts"] = "let me think"
    verdict = check_draft(submitted, run_id=RUN, invocations={})
    assert set(codes(verdict)) == {("SCHEMA_INVALID", "/analyses/0/kind"), ("SCHEMA_INVALID", "")}


def test_a_negative_observation_needs_a_scope(build):
    """A NEGATIVE_OBSERVATION without scope is schema invalid at that analysis."""
    invocations = build.by_id(build.invocation("call_1", evidence="NO_EVIDENCE"))
    submitted = build.draft(build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1"))
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("SCHEMA_INVALID", "/analyses/0")]


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param("x" * 10_000_000, id="10MB-string"),
        pytest.param({"conclusion\u0000": "\u0000", "analyses": ["\u0000"]}, id="NUL-bytes"),
        pytest.param([[[[{"a": [None, 1.5, {"b": []}]}]]]], id="nested-garbage"),
        pytest.param(None, id="null"),
        pytest.param(42, id="number"),
        pytest.param('{"conclusion": 1}', id="json-text"),
    ],
)
def test_garbage_is_schema_invalid_without_raising(garbage):
    """Any non-draft value gives SCHEMA_INVALID violations and no exception."""
    verdict = check_draft(garbage, run_id=RUN, invocations={})
    assert not verdict.valid
    assert verdict.violations
    assert {v.code for v in verdict.violations} == {"SCHEMA_INVALID"}


def test_nesting_deeper_than_any_contract_is_rejected_without_recursion():
    """A value nested 100 000 levels deep is SCHEMA_INVALID, not a RecursionError."""
    deep: object = "bottom"
    for _ in range(100_000):
        deep = [deep]
    verdict = check_draft({"analyses": deep}, run_id=RUN, invocations={})
    assert [v.code for v in verdict.violations] == ["SCHEMA_INVALID"]
    assert verdict.violations[0].pointer.startswith("/analyses/0/0/0")


def test_a_pointer_is_cut_to_an_ancestor_that_fits_the_trace_schema():
    """A path longer than 1024 characters is reported at its deepest ancestor that fits."""
    long_key = "k" * 600
    document = {long_key: {long_key: float("inf")}}
    verdict = check_draft(document, run_id=RUN, invocations={})
    assert codes(verdict) == [("SCHEMA_INVALID", "/" + long_key)]
    for violation in verdict.violations:
        TraceViolation.model_validate({"code": violation.code, "pointer": violation.pointer})


@pytest.mark.parametrize(
    ("where", "value"),
    [
        pytest.param("start_ms", 2**64, id="integer-beyond-I-JSON"),
        pytest.param("statement", "bad \ud800 surrogate", id="lone-surrogate"),
    ],
)
def test_a_value_rfc8785_cannot_encode_is_schema_invalid(build, where, value):
    """A draft holding a value that cannot be canonicalised is rejected at that value."""
    invocations = build.by_id(build.invocation("call_1", evidence="NO_EVIDENCE"))
    submitted = build.draft(
        build.analysis("a1", "NEGATIVE_OBSERVATION", "call_1", the_scope=build.scope())
    )
    if where == "start_ms":
        submitted["analyses"][0]["scope"]["time_range"]["start_ms"] = value
        expected = "/analyses/0/scope/time_range/start_ms"
    else:
        submitted["analyses"][0]["statement"] = value
        expected = "/analyses/0/statement"
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert codes(verdict) == [("SCHEMA_INVALID", expected)]


def test_pointers_escape_tilde_and_slash():
    """A property name with `~` and `/` is escaped per RFC 6901 in the pointer."""
    verdict = check_draft({"a/b~c": [float("nan")]}, run_id=RUN, invocations={})
    assert codes(verdict) == [("SCHEMA_INVALID", "/a~1b~0c/0")]


def test_violations_are_bounded(build):
    """A draft with thousands of broken citations reports at most MAX_VIOLATIONS of them."""
    invocations = build.by_id(build.invocation("call_1"))
    submitted = build.draft(
        *(build.analysis(f"a{i}", "INFERENCE", "call_x") for i in range(MAX_VIOLATIONS + 10))
    )
    verdict = check_draft(submitted, run_id=RUN, invocations=invocations)
    assert len(verdict.violations) == MAX_VIOLATIONS
    assert verdict.violations[0] == Violation("UNKNOWN_TOOL_CALL_ID", "/analyses/0/tool_call_ids/0")
