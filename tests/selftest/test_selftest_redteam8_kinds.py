"""Red team 8's kinds are drawn by the any-fixture generator, and its property alone kills them.

Three faulty harnesses passed the default ``srdh run`` because no fixture reached their input
(docs/decisions/red-team-8.md): a backend reporting fewer matches than the rows it returns
(``miscount``), an earlier Run named as a Harness deriving ids from the sequence names the new
one (``run_id_scheme``), a client gone after the last failing call of a Run heading for a
public error (``gone_before_release``). Each kind is a choice of
:func:`conformance.hypothesis.scenario_fixtures` with a pin in the committed corpus, and its
catalogue mutant fails:

* by the committed pin of its kind (``conformance/anyfixture/pins.json``, what every default
  ``srdh run`` presents), judged alone by the any-fixture property's checks;
* by fixtures drawn with the kind's choices forced (other shapes than the pin's).

The reference passes the same pins and drawn fixtures, and each pin reaches its vocabulary
element.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from conformance.adapters import AdapterError
from conformance.anyfixture._property import PINS, judge_any_fixture
from conformance.checks import RULES
from conformance.hypothesis import ALL_CAPABILITIES
from reference_harness.mutants import MUTANTS
from tests._profile import depth
from tests.selftest.conftest import judge_forced_draws, judge_pin, pinned_fixture

PINNED: dict[str, tuple[str, ...]] = {
    "total_matched_trusts_backend": ("count:under-reported",),
    "run_id_from_seq": ("history:next-seq-run-id",),
    "public_error_skips_release_gate": ("gate:ROUTER_UNAVAILABLE", "gate:AGENT_UNAVAILABLE"),
}
"""Mutant -> the pins of its kind; each pin's name is the vocabulary element its Run reaches."""

_ROUTED: dict[str, Any] = {"intent": "DIAGNOSIS", "router": ["intent"], "mixed_step": False}

DRAWN: dict[str, list[dict[str, Any]]] = {
    "total_matched_trusts_backend": [{**_ROUTED, "calls": 2, "miscount": "under"}],
    "run_id_from_seq": [{**_ROUTED, "history": "drawn", "run_id_scheme": "run-N"}],
    "public_error_skips_release_gate": [
        {
            "router": ["error", "error"],
            "disconnect": None,
            "held": None,
            "gone_before_release": True,
        },
        {
            **_ROUTED,
            "submission": "error",
            "disconnect": None,
            "held": None,
            "gone_before_release": True,
        },
    ],
}
"""Mutant -> the forced choices of its kind (each recipe drawn ``_EXAMPLES`` times)."""

_EXAMPLES = depth(ci=6, dev=3)
"""Fixtures drawn per recipe (derandomized; the first failing one stops the run), and the same
fixtures on the reference. Depth: ``run_id_from_seq`` is killed by its recipe's second draw, the
others by their first (the draws are the same prefix at any count); ``dev`` keeps one draw beyond
the latest kill."""


@pytest.mark.parametrize("name", list(PINNED))
def test_redteam8_mutant_declares_a_registered_rule(name):
    """Each mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


@pytest.mark.parametrize(
    ("name", "pin"), [(name, pin) for name, pins in PINNED.items() for pin in pins]
)
def test_the_pin_of_the_kind_kills_its_mutant_naming_its_rule(name, pin):
    """The committed pin of the mutant's kind, judged alone by the any-fixture property, fails
    the mutant naming its catalogue rule; on the reference it passes and reaches its element."""
    # a broken observation, or a Run the IUT could not run, is a kill too
    reached, named = judge_pin(name, pin, broken_run_kills=True)
    assert pin in reached
    assert MUTANTS[name].rule_id in named, named


@pytest.mark.parametrize(
    ("name", "number"), [(name, n) for name, recipes in DRAWN.items() for n in range(len(recipes))]
)
def test_drawn_fixtures_of_the_kind_kill_its_mutant_and_pass_the_reference(name, number):
    """Fixtures drawn with the kind's choices forced fail the mutant naming the rule; the same
    fixtures pass the reference (every check: the outcome comes from the kit's oracle)."""
    recipe = DRAWN[name][number]
    outcome, named, message = judge_forced_draws(
        f"reference_harness.mutants:{name}", recipe, _EXAMPLES
    )
    assert outcome == "failed", f"{name} survived {_EXAMPLES} drawn fixtures of its kind"
    assert MUTANTS[name].rule_id in named, message
    outcome, _, message = judge_forced_draws("reference_harness.iut:create", recipe, _EXAMPLES)
    assert outcome == "passed", message


@pytest.mark.parametrize("scheme", ["run_N", "N", "uuid"])
def test_earlier_runs_in_other_id_schemes_leave_a_sequence_named_run_alone(scheme):
    """The kind draws other schemes too: named ``run_<seq>``, ``<seq>`` or uuid-like, the
    earlier Runs never take ``run-<next seq>``, so the mutant runs them (the draw fails only a
    Harness whose Run id collides), and the reference passes them."""
    recipe = {**_ROUTED, "history": "drawn", "run_id_scheme": scheme}
    for iut in ("reference_harness.mutants:run_id_from_seq", "reference_harness.iut:create"):
        outcome, _, message = judge_forced_draws(iut, recipe, 3)
        assert outcome == "passed", message


def test_every_pin_of_the_kinds_is_in_the_corpus():
    """Each pin of PINNED is in the committed corpus (a test keeps it the strategy's)."""
    for pins in PINNED.values():
        for pin in pins:
            assert pinned_fixture(pin)["fixture_id"].startswith("any-fixture-pin-")
            assert pin in PINS()


class _Stub:
    """An IUT that cannot run a fixture whose earlier Runs hold ``poison`` (any, if ``None``)."""

    def __init__(self, poison: str | None) -> None:
        self.capabilities = ALL_CAPABILITIES
        self.poison = poison
        self.runs: list[list[str]] = []

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        ids = [run["run_id"] for run in fixture["prior_runs"]]
        self.runs.append(ids)
        if self.poison is None or self.poison in ids:
            message = "IUT reported error 'INTERNAL': run is terminal"
            raise AdapterError(message)
        return {}


def _history_fixture() -> dict[str, Any]:
    return copy.deepcopy(pinned_fixture("history:next-seq-run-id"))


def test_a_failure_only_with_the_earlier_runs_ids_names_the_durable_row_rule():
    """The IUT fails the fixture, and runs it once the earlier Runs are renamed: the failure
    names R7.durable-run-outcome and says which ids were renamed."""
    fixture = _history_fixture()
    poison = next(r["run_id"] for r in fixture["prior_runs"] if r["run_id"].startswith("run-"))
    stub = _Stub(poison)
    with pytest.raises(AssertionError, match=r"\[R7\.durable-run-outcome\].*run is terminal"):
        judge_any_fixture(stub, fixture, 1)  # type: ignore[arg-type]
    assert poison in stub.runs[0]
    assert all(i.startswith("kit-earlier-run-") or "session-2" in i for i in stub.runs[1])


def test_a_failure_either_way_keeps_the_iut_error():
    """An IUT that fails with the earlier Runs renamed too keeps its own error (no rule is
    blamed on the ids); without earlier Runs of the session nothing is run again."""
    stub = _Stub(None)
    with pytest.raises(AdapterError, match="run is terminal"):
        judge_any_fixture(stub, _history_fixture(), 1)  # type: ignore[arg-type]
    assert len(stub.runs) == 2
    fixture = _history_fixture()
    fixture["prior_runs"] = []
    stub = _Stub(None)
    with pytest.raises(AdapterError):
        judge_any_fixture(stub, fixture, 1)  # type: ignore[arg-type]
    assert len(stub.runs) == 1
