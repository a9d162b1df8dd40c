"""Every spec Scenario under Hypothesis, against the reference Harness in process."""

import pytest

from conformance.properties import PROPERTIES, run_property


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("scenario_id", list(PROPERTIES))
def test_prop_spec_scenario(scenario_id, reference_iut, property_config):
    """The scenario's THEN holds on every generated fixture satisfying its WHEN."""
    result = run_property(PROPERTIES[scenario_id], reference_iut, config=property_config)
    assert result.outcome == "passed", f"{result.message}\nfixture: {result.fixture}"
    assert result.examples >= property_config.max_examples
