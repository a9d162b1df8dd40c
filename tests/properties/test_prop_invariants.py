"""The global invariants over a mix of every generator plus random faults."""

import pytest

from conformance.properties import run_invariants


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_prop_global_invariants(reference_iut, property_config):
    """No fixture makes the reference Harness break a global invariant or its determinism."""
    result = run_invariants(reference_iut, config=property_config)
    assert result.outcome == "passed", f"{result.message}\nfixture: {result.fixture}"
    assert result.examples >= property_config.max_examples
