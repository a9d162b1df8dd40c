"""The faulted mix stays valid; contract variants change what they say.

That each scenario strategy draws valid Scenario Fixtures satisfying its scenario's WHEN is checked
on the very fixtures its property judges (``tests/properties/test_prop_spec_scenarios.py``).
"""

from __future__ import annotations

from hypothesis import given

from conformance.strategies import (
    SCENARIO_STRATEGIES,
    any_fixtures,
    phase_plan_variants,
    registry_variants,
)
from contracts import validate_document


def test_prop_faulted_mix_is_valid(property_config):
    """Fixtures with random extra faults stay valid ScenarioFixtures and name their faults."""

    @property_config
    @given(any_fixtures(list(SCENARIO_STRATEGIES.values())))
    def check(fixture):
        assert validate_document(fixture, "scenario-fixture") == []
        assert fixture["description"].startswith("faults: ")

    check()


def test_prop_contract_variants_change_what_they_say(property_config):
    """A variant that keeps the rule changes only the order; a breaking one changes content."""

    @property_config
    @given(registry_variants(), phase_plan_variants())
    def check(registry, plan):
        for variant in (registry, plan):
            assert (variant.change in {"none", "components reordered"}) == variant.keeps_rule

    check()
