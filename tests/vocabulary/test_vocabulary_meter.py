"""The vocabulary is read from the contracts; the meter and its verify step fail when an element
is never reached (issue 19 item 3)."""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter, RecordingAdapter
from conformance.anyfixture._property import judge_any_fixture, pinned_any_fixtures
from conformance.fixtures import tool_call
from conformance.suite import run_suite
from conformance.verify import VerifyContext
from conformance.verify._vocabulary_step import RUNS_KEY, vocabulary_coverage
from conformance.vocabulary import UNREACHABLE, VocabularyMeter, elements, id_classes_of
from contracts import bundle_schema


@pytest.fixture(scope="module")
def pin_runs():
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        runs = []
        for fixture in pinned_any_fixtures():
            observations, _ = judge_any_fixture(adapter, fixture, 1)
            runs.append((fixture, observations[0]))
        yield runs
    finally:
        adapter.close()


def test_vocabulary_lists_every_enum_value_of_the_schemas():
    """Each TraceEventType value is a fixture element and a disconnect point; turn kinds too."""
    names = {e.name for e in elements()}
    defs = bundle_schema("scenario-fixture")["$defs"]
    for event in defs["scenario-fixture.TraceEventType"]["enum"]:
        assert f"fixture:TraceEventType={event}" in names
        assert f"disconnect:{event}" in names
    for branch in defs["scenario-fixture.AgentTurn"]["oneOf"]:
        kind = defs[branch["$ref"].removeprefix("#/$defs/")]["properties"]["kind"]["const"]
        assert f"fixture:AgentTurn:{kind}" in names
        assert f"repair:{kind}" in names
    assert set(UNREACHABLE) <= names


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (" call_1 ", "padded"),
        ("call_\u212a", "case-fold-trap"),
        ("\uff43all_1", "unicode-look-alike"),
        ("_call", "leading-punctuation"),
        ("c" * 128, "grammar-longest"),
        ("c" * 129, "too-long"),
        (True, "boolean"),
        ("", "empty"),
    ],
)
def test_vocabulary_id_classes(value, expected):
    """A presented id is classified by what it is, not by a list of examples."""
    fixture = {"agent": [{"kind": "tool_calls", "tool_calls": [tool_call(value)]}]}
    assert expected in id_classes_of(fixture)


def test_vocabulary_equal_arguments_and_case_variants_are_seen():
    """Two ids equal but for case, and equal arguments under distinct ids, are classes."""
    calls = [tool_call("call_1"), tool_call("CALL_1"), tool_call("call_2")]
    found = id_classes_of({"agent": [{"kind": "tool_calls", "tool_calls": calls}]})
    assert {"case-variant", "equal-arguments"} <= found


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_vocabulary_the_default_run_reaches_every_element():
    """The default suite run on the reference (the any-fixture scenario's pins and drawn
    fixtures included) reaches every reachable element: the verify step passes."""
    adapter = RecordingAdapter(InProcessAdapter("reference_harness.iut:create"))
    try:
        run_suite(adapter)
    finally:
        adapter.close()
    ctx = VerifyContext(repo=None, kit_schemas=None)  # type: ignore[arg-type]
    ctx.shared[RUNS_KEY] = adapter.runs
    outcome = vocabulary_coverage(ctx)
    assert outcome.status.value == "PASSED", outcome.detail
    assert outcome.detail.startswith("100.0 %")


def test_vocabulary_step_fails_when_an_element_is_removed_from_the_run(pin_runs):
    """Without the Runs holding a raw agent turn, the step fails and names that element."""
    kept = [
        (fixture, observation)
        for fixture, observation in pin_runs
        if '"raw"' not in repr(fixture["agent"]).replace("'", '"')
    ]
    assert len(kept) < len(pin_runs)
    meter = VocabularyMeter()
    meter.add_all(pin_runs)
    assert "fixture:AgentTurn:raw" in meter.reached
    ctx = VerifyContext(repo=None, kit_schemas=None)  # type: ignore[arg-type]
    ctx.shared[RUNS_KEY] = kept
    outcome = vocabulary_coverage(ctx)
    assert outcome.status.value == "FAILED"
    assert "fixture:AgentTurn:raw" in outcome.detail
    ctx.shared[RUNS_KEY] = pin_runs
    assert "fixture:AgentTurn:raw" not in vocabulary_coverage(ctx).detail


def test_vocabulary_step_without_recorded_runs_fails():
    """No recorded Runs: the step fails saying why, never a silent pass."""
    outcome = vocabulary_coverage(VerifyContext(repo=None, kit_schemas=None))  # type: ignore[arg-type]
    assert outcome.status.value == "FAILED"
    assert "recorded no Runs" in outcome.detail
