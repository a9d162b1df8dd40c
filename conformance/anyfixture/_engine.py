"""The property engine: run a body over a strategy against an IUT, collect a result.

:func:`drive` never raises for a failing IUT: it returns a :class:`PropertyResult` with the
check's message and the (shrunk) failing fixture as JSON. :func:`observe` runs a fixture through
an adapter, turning a contract-breaking observation into a failure naming its rule. Shared by
:mod:`conformance.properties` and the any-fixture property (:mod:`conformance.anyfixture`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from hypothesis import HealthCheck, Phase, example, given, settings

from conformance._kitfault import KitFault, is_kit_fault
from conformance.adapters import AdapterError, ObservationContractError
from conformance.anyfixture._stable import stable_draws
from conformance.checks import check_observation_contract, expected_outcome

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from hypothesis import strategies as st

    from conformance.adapters import Adapter

__all__ = ["PropertyResult", "capable", "drive", "observe", "property_settings"]

Outcome = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class PropertyResult:
    """The outcome of one property run.

    Attributes:
        name: the spec scenario id, or :data:`INVARIANTS`.
        outcome: ``passed``, ``failed`` or ``skipped`` (the IUT lacks a needed capability).
        examples: how many generated examples were run (shrinking replays included).
        message: the failing check's message, then the failing fixture as one line of JSON (the
            shrunk one unless shrinking is off: replay it with ``srdh demo``), the skip reason, or
            ``""``.
        fixture: the failing Scenario Fixture (or contract document), ``None`` otherwise.
        seconds: wall time of the run, in seconds.
    """

    name: str
    outcome: Outcome
    examples: int
    message: str = ""
    fixture: dict[str, Any] | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the property held (a skip is not a pass)."""
        return self.outcome == "passed"


def property_settings(max_examples: int = 100, *, shrink: bool = True) -> settings:
    """Return derandomized settings without deadline or example database.

    ``shrink=False`` stops at the first failing example (what the mutant self-test wants).
    """
    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else [])]
    return settings(
        max_examples=max_examples,
        derandomize=True,
        deadline=None,
        database=None,
        phases=phases,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


_SUB_ERRORS: Final = 3
"""How many sub-exceptions of an exception group (Hypothesis's ``FlakyFailure``) a message shows."""


class _Recorder:
    def __init__(self) -> None:
        self.examples = 0
        self.failing: dict[str, Any] | None = None


class _Explicit:
    """An explicit example handed to Hypothesis in place of its value.

    Hypothesis pretty-prints every explicit example before running it (``print_test_case``),
    a whole Scenario Fixture about a millisecond each, for a text :func:`drive` never shows (its
    message names the failing value itself); this stand-in prints as its position. The body gets
    the value (:func:`_resolving`); ``document`` is what a failure records, as for the value.
    """

    __slots__ = ("index", "value")

    def __init__(self, index: int, value: Any) -> None:  # noqa: ANN401 - any explicit value
        self.index = index
        self.value = value

    @property
    def document(self) -> Any:  # noqa: ANN401 - the value's document, or the value
        """The value's ``document`` (a contract variant's), or the value itself."""
        return getattr(self.value, "document", self.value)

    def __repr__(self) -> str:
        return f"explicit example {self.index + 1}"


def _resolving(body: Callable[[Any], None]) -> Callable[[Any], None]:
    """``body``, given the value of an explicit example's stand-in."""

    def resolved(value: Any) -> None:  # noqa: ANN401 - a drawn value or an explicit stand-in
        body(value.value if isinstance(value, _Explicit) else value)

    return resolved


def drive(
    name: str,
    strategy: st.SearchStrategy[Any],
    body: Callable[[Any], None],
    config: settings,
    explicit: Sequence[Any] = (),
) -> PropertyResult:
    """Run ``body`` on every value of ``strategy`` (after the ``explicit`` ones) under ``config``.

    Never raises for a failing value: the result says ``failed`` with the exception's message
    and the failing fixture (shrunk unless ``config`` has no shrink phase) as one line of JSON.

    Raises:
        KitFault: the kit's own code failed (an exception that is neither a check's nor the
            IUT's, :func:`~conformance._kitfault.is_kit_fault`): no verdict on the IUT.
    """
    recorder = _Recorder()
    # Hypothesis derives a derandomized run's seed from the source of ``test``: any edit to it
    # changes every drawn example. Explicit values are resolved in ``body`` instead.
    body = _resolving(body)

    def test(value: Any) -> None:  # noqa: ANN401 - a drawn fixture or contract variant
        recorder.examples += 1
        try:
            body(value)
        except Exception:
            document = getattr(value, "document", value)
            recorder.failing = document if isinstance(document, dict) else None
            raise

    wrapped = given(strategy)(test)
    for index, value in enumerate(explicit):
        wrapped = example(_Explicit(index, value))(wrapped)
    started = time.perf_counter()
    try:
        with stable_draws():
            config(wrapped)()
    except Exception as error:  # a failure of the IUT or its check is a result; the kit's: raised
        if is_kit_fault(error):  # the kit's own code failed: no verdict on the IUT
            if isinstance(error, KitFault):
                raise
            raise KitFault(error, f"property {name}") from error
        plain = isinstance(error, AssertionError | AdapterError) and str(error)
        message = str(error) if plain else f"{type(error).__name__}: {error}"
        if isinstance(error, BaseExceptionGroup):  # e.g. FlakyFailure: say what failed first
            message += "".join(
                f"\n  {type(sub).__name__}: {sub}" for sub in error.exceptions[:_SUB_ERRORS]
            )
        if recorder.failing is not None:
            replay = json.dumps(recorder.failing, ensure_ascii=True, sort_keys=True)
            message += (
                "\nfailing fixture (JSON; save it and replay with `srdh run --fixture FILE` or "
                f"`srdh demo FILE`):\n{replay}"
            )
        return PropertyResult(
            name,
            "failed",
            recorder.examples,
            message,
            recorder.failing,
            time.perf_counter() - started,
        )
    return PropertyResult(name, "passed", recorder.examples, seconds=time.perf_counter() - started)


def observe(adapter: Adapter, fixture: dict[str, Any], times: int) -> list[dict[str, Any]]:
    """Run ``fixture`` ``times`` times; an observation breaking its contract fails by rule.

    Raises:
        AssertionError: an observation broke its RunObservation contract (its lines name rules).
        AdapterError: any other protocol failure of the IUT.
    """
    try:
        return [adapter.run(fixture) for _ in range(times)]
    except ObservationContractError as error:
        check_observation_contract(error.violations).require()
        raise


def capable(fixture: dict[str, Any], capabilities: frozenset[str]) -> bool:
    """Whether an IUT with ``capabilities`` can run ``fixture`` (optional retries aside)."""
    needed = {"DIAGNOSIS"}
    if fixture["client"]:
        needed.add("CANCELLATION")
    # An optional retry the IUT does not declare is not needed: the fixture is fitted to it.
    if any(t.get("intent") == "KNOWLEDGE_QUERY" for t in fixture["router"]):
        needed.add("KNOWLEDGE_QUERY")
    if fixture["prior_runs"]:
        needed.add("PREVIOUS_TURN")
    if expected_outcome(fixture).repair_requested:
        needed.add("STRUCTURAL_REPAIR")
    return needed <= capabilities
