"""Run the SRDH Gherkin suite programmatically against one IUT adapter.

:func:`run_suite` starts a nested pytest session over the packaged features and steps and
returns a :class:`SuiteResult` keyed by requirement id and scenario id. The CLI's ``srdh run``
wraps it.
"""

from conformance.suite._catalogue import (
    LEVEL_STRENGTH,
    CatalogueError,
    ScenarioEntry,
    features_dir,
    load_catalogue,
)
from conformance.suite._export import FixtureRecorder, export_fixtures, fixture_json
from conformance.suite._results import (
    ExampleResult,
    RequirementResult,
    ScenarioResult,
    SuiteResult,
)
from conformance.suite._run import SuiteSetupError, run_suite, split_example_ids

__all__ = [
    "LEVEL_STRENGTH",
    "CatalogueError",
    "ExampleResult",
    "FixtureRecorder",
    "RequirementResult",
    "ScenarioEntry",
    "ScenarioResult",
    "SuiteResult",
    "SuiteSetupError",
    "export_fixtures",
    "features_dir",
    "fixture_json",
    "load_catalogue",
    "run_suite",
    "split_example_ids",
]
