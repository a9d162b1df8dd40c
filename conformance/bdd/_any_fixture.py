"""Steps of the any-fixture scenario: every valid Scenario Fixture, judged by every check.

The When step runs :func:`conformance.anyfixture.run_any_fixture` through the suite's adapter:
the pinned corpus and then :data:`DEFAULT_EXAMPLES` drawn ones
(``SRDH_ANY_FIXTURE_EXAMPLES`` sets how many, e.g. 2000 for a long hunt). The Then step fails with
the check's message (its rule ids) and the shrunk failing fixture as JSON, to replay with
``srdh run --fixture FILE`` or ``srdh demo FILE``. Issue 19 item 2.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

import pytest
from pytest_bdd import given, then, when

if TYPE_CHECKING:
    from conformance.bdd._context import ScenarioContext

__all__ = ["DEFAULT_EXAMPLES", "EXAMPLES_VARIABLE", "any_fixture_examples"]

DEFAULT_EXAMPLES: Final = 10
"""Drawn fixtures per run of the scenario, after the pinned ones."""

EXAMPLES_VARIABLE: Final = "SRDH_ANY_FIXTURE_EXAMPLES"
"""The environment variable that sets how many fixtures are drawn (a positive integer)."""


def any_fixture_examples() -> int:
    """Return the drawn fixtures per run: ``$SRDH_ANY_FIXTURE_EXAMPLES`` or the default.

    Raises:
        pytest.UsageError: the variable is set but is not a positive integer.
    """
    raw = os.environ.get(EXAMPLES_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_EXAMPLES
    if not raw.isdigit() or int(raw) < 1:
        message = f"{EXAMPLES_VARIABLE}={raw!r}: expected a positive integer"
        raise pytest.UsageError(message)
    return int(raw)


@given("any valid Scenario Fixture, starting with the pinned corpus")
def _any_fixture(srdh_context: ScenarioContext) -> None:
    srdh_context.where = "any-fixture property"


@when("each fixture is run twice through the IUT")
def _run_each(srdh_context: ScenarioContext) -> None:
    from conformance.anyfixture import property_settings, run_any_fixture  # noqa: PLC0415 - heavy

    iut = srdh_context.iut
    assert iut is not None  # noqa: S101 - the srdh_context fixture always sets it
    result = run_any_fixture(iut, config=property_settings(any_fixture_examples()))
    srdh_context.property_result = result
    if result.fixture is not None:
        srdh_context.fixture = result.fixture


@then(
    "every global invariant, the outcome and runtime oracles and every model-input rule hold "
    "on both Runs, and both give the same normalized trace"
)
def _every_check_holds(srdh_context: ScenarioContext) -> None:
    result = srdh_context.property_result
    assert result is not None, "the fixtures were not run"  # noqa: S101 - a When step precedes
    if result.outcome == "failed":
        message = f"after {result.examples} fixture(s): {result.message}"
        raise AssertionError(message)
