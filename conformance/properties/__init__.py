"""Property bodies of the SRDH conformance kit, reusable against any IUT adapter.

Every spec Scenario has a property (:data:`PROPERTIES`): Hypothesis generates many Scenario
Fixtures satisfying its WHEN (:mod:`conformance.strategies`) and checks its THEN with the same
function the Gherkin Then step runs. :func:`run_invariants` checks the global invariants over a mix
of every generator plus random faults, each fixture run twice; :func:`run_any_fixture` judges any
valid Scenario Fixture (:mod:`conformance.hypothesis`) with every check. DESIGN section 9,
"Properties".
"""

from conformance.anyfixture import (
    ANY_FIXTURE,
    judge_any_fixture,
    pinned_any_fixtures,
    run_any_fixture,
)
from conformance.properties._check import (
    DEFAULT_EXAMPLES,
    INVARIANTS,
    PropertyResult,
    property_settings,
    run_invariants,
    run_property,
)
from conformance.properties._registry import (
    PROPERTIES,
    PROPERTY_TESTS,
    ScenarioProperty,
    property_test_id,
)

__all__ = [
    "ANY_FIXTURE",
    "DEFAULT_EXAMPLES",
    "INVARIANTS",
    "PROPERTIES",
    "PROPERTY_TESTS",
    "PropertyResult",
    "ScenarioProperty",
    "judge_any_fixture",
    "pinned_any_fixtures",
    "property_settings",
    "property_test_id",
    "run_any_fixture",
    "run_invariants",
    "run_property",
]
