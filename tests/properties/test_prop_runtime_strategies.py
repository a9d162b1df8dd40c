"""The runtime generators reach every kind: RUNNING and foreign-session history, time inversions,
every model-call outcome per component, a disconnect anywhere, late tool answers."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st

from conformance.checks import check_global_invariants, fit_to_capabilities
from conformance.strategies import SCENARIO_STRATEGIES, session_histories, with_faults
from conformance.strategies._runtime_faults import RUNTIME_FAULTS, runtime_pinned_fixtures
from contracts import validate_document

SEARCH = settings(
    max_examples=2000,
    database=None,
    suppress_health_check=list(HealthCheck),
    deadline=None,
    # no shrink phase: the tests ask that some generated input reaches a case, and check the
    # first one found (a real draw, unshrunk); shrinking it was ~90 % of their time
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
)


def _history_kinds(runs):
    own = [r for r in runs if r["session_id"] == "session-1"]
    kinds = set()
    if any(r["state"] == "RUNNING" for r in own):
        kinds.add("running")
    if any(r["session_id"] != "session-1" for r in runs):
        kinds.add("other-session")
    by_seq = sorted(runs, key=lambda r: r["seq"])
    if any(a["created_at_ms"] > b["created_at_ms"] for a, b in itertools.pairwise(by_seq)):
        kinds.add("time-inversion")
    return kinds


@pytest.mark.parametrize("kind", ["running", "other-session", "time-inversion"])
def test_session_histories_reach(kind):
    """Some drawn history has a RUNNING Run, another session's Run, or times against seq."""
    found = find(session_histories(), lambda runs: kind in _history_kinds(runs), settings=SEARCH)
    assert kind in _history_kinds(found)


@pytest.mark.parametrize("fault", RUNTIME_FAULTS)
def test_every_runtime_fault_is_reached_and_valid(fault):
    """Each runtime fault applies to some generated fixture, which stays a valid fixture."""
    strategy = with_faults(st.one_of([make() for make in SCENARIO_STRATEGIES.values()]))
    found = find(strategy, lambda f: fault in f["description"], settings=SEARCH)
    assert validate_document(found, "scenario-fixture") == []


def test_pinned_runtime_fixtures_are_valid_and_hold_on_the_reference():
    """The pinned runtime fixtures are valid, and the reference keeps every invariant on them."""
    from conformance.adapters import InProcessAdapter  # noqa: PLC0415 - only this test runs one

    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        for fixture in runtime_pinned_fixtures():
            assert validate_document(fixture, "scenario-fixture") == []
            fitted = fit_to_capabilities(fixture, adapter.capabilities)
            observation = adapter.run(fitted)
            check_global_invariants(observation, fitted, adapter.capabilities).require()
    finally:
        adapter.close()
