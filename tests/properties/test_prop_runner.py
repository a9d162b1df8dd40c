"""How a property run reports a failure, a skip and a contract verdict."""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.properties import PROPERTIES, property_settings, run_invariants, run_property


class _DiagnosisOnly:
    """An adapter whose IUT declares only DIAGNOSIS and must never be asked to run."""

    capabilities = frozenset({"DIAGNOSIS"})

    def run(self, fixture):
        message = f"run() called for {fixture['fixture_id']}"
        raise AssertionError(message)


@pytest.fixture
def fallback_mutant():
    adapter = InProcessAdapter("reference_harness.mutants:fallback_as_previous_turn")
    yield adapter
    adapter.close()


def test_prop_failure_names_the_check_and_the_fixture(fallback_mutant):
    """A failing property carries the Then check's message and the fixture that broke it."""
    result = run_property(
        PROPERTIES["latest-run-is-a-fallback"],
        fallback_mutant,
        config=property_settings(3, shrink=False),
    )
    assert result.outcome == "failed"
    assert "previous turn selection" in result.message
    assert result.fixture is not None
    latest = max(result.fixture["prior_runs"], key=lambda r: r["seq"])
    assert latest["state"] == "FALLBACK"


def test_prop_is_skipped_when_the_iut_lacks_a_capability():
    """A property needing CANCELLATION is skipped, naming it, for an IUT that lacks it."""
    result = run_property(
        PROPERTIES["client-disconnects-during-a-model-call"],
        _DiagnosisOnly(),
        config=property_settings(3),
    )
    assert result.outcome == "skipped"
    assert "CANCELLATION" in result.message
    assert result.examples == 0


def test_prop_run_property_needs_an_adapter():
    """A run property without an adapter is a caller mistake, reported as such."""
    with pytest.raises(ValueError, match="needs an adapter"):
        run_property(PROPERTIES["latest-run-is-a-fallback"], None)


def test_prop_contract_property_needs_no_iut():
    """Contract properties check data variants only: no adapter is asked to run anything."""
    for scenario_id in (
        "contract-ownership-is-inspected",
        "stage-4-completes-internal-agent-tests",
    ):
        result = run_property(PROPERTIES[scenario_id], None, config=property_settings(20))
        assert result.outcome == "passed", result.message
        assert result.examples >= 20


def test_prop_invariants_catch_a_harness_that_rewrites_drafts():
    """The invariants fail a Harness that releases a draft the agent did not write."""
    adapter = InProcessAdapter("reference_harness.mutants:harness_rewrites_draft")
    try:
        result = run_invariants(adapter, config=property_settings(2, shrink=False))
    finally:
        adapter.close()
    assert result.outcome == "failed"
    assert "canonical-JSON-identical" in result.message
