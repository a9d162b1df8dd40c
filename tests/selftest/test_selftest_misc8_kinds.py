"""Red team 8's fixture-space survivors (misc8) are reached by the default run and killed.

docs/decisions/red-team-8.md, S14 (integer width of ``seq``): the any-fixture generator draws a
session whose greatest earlier ``seq`` crosses an integer width (choice ``greatest_seq``), and
the committed pin ``history:greatest-seq`` (what every default ``srdh run`` presents) puts it at
the I-JSON bound less one. The catalogue mutant of the kind fails the pin and drawn fixtures
naming its rule; the reference passes them (the composites and the Java example pass the pins in
their whole-suite runs: tests/selftest/test_selftest_variants.py,
tests/examples/test_java_example.py).

S10 (a late model result dropped without its record): the catalogue mutant is killed by the
spec row that presents a late answer the kit knows arrived (a scripted turn answering after the
cancellation, with a model-call timeout the answer surely beats), naming
``R8.late-result-discarded``.

S15 (a Safe Fallback source's query scope rebuilt from the call's arguments as presented): the
row where the draft cites a call whose arguments carry an extra member and the Run falls back
fails the mutant (which, like the Java example, executes such a call: latitude) naming
``R6.fallback-fixed-schema``; the reference, which refuses the call and is repaired, passes it.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters import InProcessAdapter
from conformance.anyfixture._property import PINS, judge_any_fixture
from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests._profile import depth
from tests.selftest.conftest import RULE_ID, declare_runs, judge_forced_draws, pinned_fixture

PINNED: dict[str, str] = {"seq_from_low_word": "history:greatest-seq"}
"""Mutant -> the pin of its kind."""

DRAWN: dict[str, dict[str, Any]] = {
    "seq_from_low_word": {"history": "drawn", "greatest_seq": 2**53 - 2, "calls": 2},
}
"""Mutant -> the forced choices of its kind (other shapes than the pin's)."""

_EXAMPLES = depth(ci=4, dev=2)
"""Fixtures drawn (derandomized; the first failing one stops the run), and the same fixtures on
the reference. Depth: the mutant is killed by the first draw; ``dev`` keeps one more."""

_LATE = "late_result_never_discarded"
_LATE_ROW = "client-disconnects-during-a-model-call"
LATE_KILL = declare_runs(_LATE, _LATE_ROW, "in-process")

_SCOPE = "sources_scope_from_arguments"
_SCOPE_ROW = (
    "a-semantic-fallback-lists-a-call-whose-arguments-carry-an-extra-member-with-the-call-s-own-"
    "query-scope"
)
SCOPE_KILL = declare_runs(_SCOPE, _SCOPE_ROW, "in-process")
SCOPE_REFERENCE = declare_runs("reference", _SCOPE_ROW, "in-process")


def _rules(adapter: InProcessAdapter, fixture: dict[str, Any]) -> tuple[bool, set[str], list]:
    _, results = judge_any_fixture(adapter, fixture, 1)
    failed = [str(r) for r in results if not r.passed]
    return not failed, {rule for text in failed for rule in RULE_ID.findall(text)}, failed


@pytest.mark.parametrize("name", [*PINNED, _LATE, _SCOPE])
def test_the_mutant_names_a_rule_of_its_requirement(name):
    """Each mutant is catalogued and names a registered rule of its own requirement."""
    spec = MUTANTS[name]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


@pytest.mark.parametrize("name", list(PINNED))
def test_the_pin_of_the_kind_kills_its_mutant_and_passes_the_reference(name):
    """The committed pin fails the mutant naming its rule; the reference passes it."""
    fixture = pinned_fixture(PINNED[name])
    reference = InProcessAdapter("reference_harness.iut:create")
    mutant = InProcessAdapter(f"reference_harness.mutants:{name}")
    try:
        passed, _, failed = _rules(reference, fixture)
        assert passed, failed
        passed, named, failed = _rules(mutant, fixture)
    finally:
        reference.close()
        mutant.close()
    assert not passed
    assert MUTANTS[name].rule_id in named, failed


@pytest.mark.parametrize("name", list(DRAWN))
def test_drawn_fixtures_of_the_kind_kill_its_mutant_and_pass_the_reference(name):
    """Fixtures drawn with the kind's choices forced fail the mutant naming its rule and pass
    the reference."""
    recipe = DRAWN[name]

    def judged(iut: str) -> tuple[str, str]:
        outcome, _, message = judge_forced_draws(iut, recipe, _EXAMPLES)
        return outcome, message

    outcome, message = judged(f"reference_harness.mutants:{name}")
    assert outcome == "failed", f"{name} survived {_EXAMPLES} drawn fixtures of its kind"
    assert MUTANTS[name].rule_id in RULE_ID.findall(message), message
    outcome, message = judged("reference_harness.iut:create")
    assert outcome == "passed", message


def test_the_greatest_seq_choice_reaches_the_bound():
    """The pin's session reaches the I-JSON bound: its new Run's seq is 2**53 - 1."""
    fixture = pinned_fixture(PINNED["seq_from_low_word"])
    mine = [r["seq"] for r in fixture["prior_runs"] if r["session_id"] == fixture["session_id"]]
    assert max(mine) + 1 == 2**53 - 1
    assert PINS()["history:greatest-seq"]["greatest_seq"] == 2**53 - 2


def test_a_silently_dropped_late_result_is_killed_by_the_late_answer_row(scenario_run):
    """The spec row with a late answer fails the mutant naming its rule."""
    scenario_run(LATE_KILL).assert_killed_by({0}, MUTANTS[_LATE].rule_id)


def test_extra_members_leaking_into_a_fallback_source_are_killed_by_the_row(scenario_run):
    """Both examples of the extra-member fallback row fail the mutant naming its rule."""
    scenario_run(SCOPE_KILL).assert_killed_by({1, 2}, MUTANTS[_SCOPE].rule_id)


def test_the_reference_refusing_the_extra_member_passes_the_row(scenario_run):
    """The reference refuses the call, is repaired by the decoy answer, and passes."""
    scenario = scenario_run(SCOPE_REFERENCE)
    assert not scenario.failing_rows(), scenario.messages
