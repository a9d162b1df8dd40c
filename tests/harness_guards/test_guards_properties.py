"""Properties of EvidenceGuard over generated inputs: it never raises, and it stays linear."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts import Violation as TraceViolation
from contracts import check_invariants, validate_document
from reference_harness.guards import (
    ViolationCode,
    build_snapshot,
    canonical_release,
    check_draft,
    check_knowledge_answer,
)
from tests._profile import depth

RUN = "run-1"
EXAMPLES = depth(ci=300, dev=50)
"""Examples per property (depth is the profile's: tests/_profile.py)."""
CODES = {code.value for code in ViolationCode}

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)
good_ids = st.sampled_from(["call_1", "call_2", "call_3", "call_x"])
ids = st.one_of(good_ids, good_ids, good_ids, st.sampled_from(["", "call 1", "a1"]))
good_kinds = st.sampled_from(["OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE"])
kinds = st.one_of(good_kinds, good_kinds, good_kinds, st.just("GUESS"))


def scope_of(target: str, start_ms: int, end_ms: int) -> dict[str, object]:
    """A log-search QueryScope (end before start is possible: an invariant violation)."""
    return {
        "tool": "search_logs",
        "target": target,
        "time_range": {"start_ms": start_ms, "end_ms": end_ms},
        "query": "q",
    }


scopes = st.builds(
    scope_of,
    st.sampled_from(["checkout", "*"]),
    st.integers(0, 1_200),
    st.integers(0, 1_200),
)
analyses = st.fixed_dictionaries(
    {
        "analysis_id": st.sampled_from(["a1", "a2", "a3"]),
        "kind": kinds,
        "statement": st.text(min_size=1, max_size=5),
        "tool_call_ids": st.lists(ids, min_size=1, max_size=3) | st.just([]),
    },
    optional={"scope": scopes},
)
draft_like = st.fixed_dictionaries(
    {
        "conclusion": st.fixed_dictionaries(
            {
                "summary": st.just("s"),
                "confidence": st.sampled_from(["LOW", "HIGH"]),
                "analysis_ids": st.lists(
                    st.sampled_from(["a1", "a1", "a9"]), min_size=1, max_size=2
                ),
            }
        ),
        "analyses": st.lists(analyses, min_size=1, max_size=3),
        "action_plan": st.just([]),
        "recommendations": st.just([]),
        "limitations": st.lists(
            st.fixed_dictionaries(
                {"text": st.just("t"), "tool_call_ids": st.lists(ids, max_size=2)}
            ),
            max_size=2,
        ),
    }
)


def some_invocations(build, evidence: list[str]):
    """call_1..call_n with the given evidence statuses, call_3 (if any) of another Run."""
    made = []
    for n, status in enumerate(evidence, start=1):
        lifecycle = "ERROR" if status == "FAILED" else "READY"
        made.append(
            build.invocation(
                f"call_{n}",
                sequence=n,
                status=lifecycle,
                evidence="ERROR" if status == "FAILED" else status,
                run_id="run-2" if n == 3 else RUN,
                query_scope=scope_of("checkout", 0, 1_000),
            )
        )
    return build.by_id(*made)


evidence_lists = st.lists(
    st.sampled_from(["EVIDENCE_FOUND", "NO_EVIDENCE", "ERROR", "FAILED"]), min_size=2, max_size=3
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(document=json_values)
def test_check_draft_never_raises_on_any_json_value(document):
    """Any JSON value gets a verdict, never an exception; invalid verdicts carry known codes."""
    verdict = check_draft(document, run_id=RUN, invocations={})
    assert verdict.valid == (not verdict.violations)
    assert {v.code for v in verdict.violations} <= CODES
    for violation in verdict.violations:
        TraceViolation.model_validate({"code": violation.code, "pointer": violation.pointer})
    answer = check_knowledge_answer(document, run_id=RUN, invocations={})
    assert not answer.valid or answer.document is not None


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=draft_like, evidence=evidence_lists)
def test_draft_shaped_values_get_a_verdict_and_valid_ones_a_sound_snapshot(
    build, document, evidence
):
    """Draft-shaped values never raise; an accepted one is released byte-identical and snapshots
    to a contract-valid snapshot whose citations obey the evidence rules."""
    invocations = some_invocations(build, evidence)
    verdict = check_draft(document, run_id=RUN, invocations=invocations)
    assert {v.code for v in verdict.violations} <= CODES
    if verdict.valid:
        assert canonical_release(verdict.document) == canonical_release(document)
        snapshot = build_snapshot(run_id=RUN, document=verdict.document, invocations=invocations)
        as_json = snapshot.model_dump(mode="json", exclude_none=True)
        assert check_invariants("verified-snapshot", as_json) == []
        for analysis in document["analyses"]:
            for cited in analysis["tool_call_ids"]:
                evidence = invocations[cited].evidence_status.value
                assert evidence != "ERROR"
                assert (evidence == "NO_EVIDENCE") == (analysis["kind"] == "NEGATIVE_OBSERVATION")


STRUCTURAL = {
    "SCHEMA_INVALID",
    "MISSING_TOOL_CALL_IDS",
    "DUPLICATE_ANALYSIS_ID",
}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=draft_like)
def test_structural_verdict_agrees_with_the_contracts_validation(document):
    """The guard finds a structural fault iff `contracts.validate_document` finds one."""
    verdict = check_draft(document, run_id=RUN, invocations={})
    guard_says_malformed = any(v.code in STRUCTURAL for v in verdict.violations)
    contracts_say_malformed = bool(validate_document(document, "diagnosis-draft"))
    assert guard_says_malformed == contracts_say_malformed


class CountingMapping(Mapping):
    """A read-only mapping that counts every element access."""

    def __init__(self, data):
        self._data = data
        self.reads = 0

    def __getitem__(self, key):
        self.reads += 1
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        for key in self._data:
            self.reads += 1
            yield key

    def __len__(self):
        return len(self._data)


def test_invocations_are_read_a_constant_number_of_times_per_entry(build):
    """The guard reads each invocation a bounded number of times, however many analyses cite it."""
    many = 400
    invocations = CountingMapping(
        build.by_id(*(build.invocation(f"call_{n}", sequence=n) for n in range(1, many + 1)))
    )
    analyses_json = [
        build.analysis(f"a{n}", "OBSERVATION", *(f"call_{m}" for m in range(1, many + 1, 7)))
        for n in range(many)
    ]
    verdict = check_draft(build.draft(*analyses_json), run_id=RUN, invocations=invocations)
    assert verdict.valid
    assert invocations.reads <= 2 * many
