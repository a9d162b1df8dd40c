"""The any-fixture property: any valid Scenario Fixture, judged with every check (issue 19).

:func:`run_any_fixture` runs the pinned corpus (:data:`PINS_FILE`, one fixture per pin of
:data:`CORPUS`; :func:`generate_pins` redraws it, ``python -m conformance.anyfixture.pins``
rewrites it) and then fixtures drawn by :func:`conformance.hypothesis.scenario_fixtures` through
an IUT adapter; :func:`judge_any_fixture` judges one. The engine (:func:`drive`,
:func:`observe`, :class:`PropertyResult`, :func:`property_settings`) is shared with
:mod:`conformance.properties`.
"""

from conformance.anyfixture._engine import (
    PropertyResult,
    capable,
    drive,
    observe,
    property_settings,
)
from conformance.anyfixture._property import (
    ANY_FIXTURE,
    ANY_FIXTURE_SCENARIO,
    CORPUS,
    PINS,
    PINS_FILE,
    generate_pins,
    judge_any_fixture,
    pinned_any_fixtures,
    run_any_fixture,
)

__all__ = [
    "ANY_FIXTURE",
    "ANY_FIXTURE_SCENARIO",
    "CORPUS",
    "PINS",
    "PINS_FILE",
    "PropertyResult",
    "capable",
    "drive",
    "generate_pins",
    "judge_any_fixture",
    "observe",
    "pinned_any_fixtures",
    "property_settings",
    "run_any_fixture",
]
