"""Steps of the any-fixture scenario: every valid Scenario Fixture, judged by every check.

The When step runs :func:`conformance.anyfixture.run_any_fixture` through the suite's adapter:
the pinned corpus and then as many drawn ones as the run's
generated examples per property (:func:`any_fixture_examples`: ``srdh run --examples N``, 10 by
default, :data:`conformance._examples.DEFAULT_EXAMPLES`; 0 runs the pinned fixtures only;
``SRDH_ANY_FIXTURE_EXAMPLES`` overrides it, e.g. 2000 for a long hunt). The Then step fails with
the check's message (its rule ids) and the shrunk failing fixture as JSON, to replay with
``srdh run --fixture FILE`` or ``srdh demo FILE``. Issue 19 item 2; one count for every property
of a run: ``docs/decisions/default-examples.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

import pytest
from pytest_bdd import given, then, when

from conformance._examples import DEFAULT_EXAMPLES

if TYPE_CHECKING:
    from conformance.bdd._context import ScenarioContext

__all__ = ["DEFAULT_EXAMPLES", "EXAMPLES_KEY", "EXAMPLES_VARIABLE", "any_fixture_examples"]

EXAMPLES_KEY = pytest.StashKey[int]()
"""Where a caller (``run_suite``) stashes the run's generated examples per property, for the
property scenarios of the suite; absent: :data:`DEFAULT_EXAMPLES` (re-exported by the plugin)."""

EXAMPLES_VARIABLE: Final = "SRDH_ANY_FIXTURE_EXAMPLES"
"""The environment variable that sets how many fixtures are drawn (an integer >= 0)."""


def any_fixture_examples(config: pytest.Config | None = None) -> int:
    """Return the drawn fixtures per run of the scenario (after the pinned ones).

    ``$SRDH_ANY_FIXTURE_EXAMPLES`` when set; else the run's examples per property stashed in
    ``config`` by ``run_suite`` (``srdh run --examples N``); else :data:`DEFAULT_EXAMPLES`.

    Raises:
        pytest.UsageError: the variable is set but is not an integer >= 0.
    """
    raw = os.environ.get(EXAMPLES_VARIABLE, "").strip()
    if not raw:
        stashed = None if config is None else config.stash.get(EXAMPLES_KEY, None)
        return DEFAULT_EXAMPLES if stashed is None else stashed
    if not raw.isdigit():
        message = f"{EXAMPLES_VARIABLE}={raw!r}: expected an integer >= 0"
        raise pytest.UsageError(message)
    return int(raw)


@given("any valid Scenario Fixture, starting with the pinned corpus")
def _any_fixture(srdh_context: ScenarioContext) -> None:
    srdh_context.where = "any-fixture property"


@when("each fixture is run twice through the IUT")
def _run_each(request: pytest.FixtureRequest, srdh_context: ScenarioContext) -> None:
    from hypothesis import Phase, settings  # noqa: PLC0415 - heavy

    from conformance.anyfixture import property_settings, run_any_fixture  # noqa: PLC0415 - heavy

    iut = srdh_context.iut
    assert iut is not None  # noqa: S101 - the srdh_context fixture always sets it
    drawn = any_fixture_examples(request.config)
    config = property_settings(max(drawn, 1))
    if drawn == 0:  # the pinned fixtures only
        config = settings(config, phases=[Phase.explicit])
    result = run_any_fixture(iut, config=config)
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
