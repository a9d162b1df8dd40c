"""Each evidence mutant is killed through a failure that names its own rule, not by accident.

The kill must come from a check that names the broken rule (``[R…]`` in the failure message),
never only from a run error such as SCRIPT_EXHAUSTED (``R0.valid-observation``). Proved twice: by
the pinned evidence fixtures under the global invariants (fast), and by the Gherkin suite (slow).
"""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.checks import check_global_invariants
from conformance.strategies import pinned_fixtures
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._catalogue import _EVIDENCE_SPECS

EVIDENCE = [spec.name for spec in _EVIDENCE_SPECS]


def test_selftest_at_least_fifteen_evidence_mutants_each_with_a_rule():
    """The evidence catalogue holds one mutant per rule kind, at least fifteen in all."""
    assert len(EVIDENCE) >= 15
    assert all(MUTANTS[name].rule_id for name in EVIDENCE)


@pytest.mark.parametrize("name", EVIDENCE)
def test_selftest_pinned_fixtures_kill_evidence_mutant_by_its_rule(name):
    """Some pinned fixture's global invariants fail on the mutant, naming the mutant's rule."""
    spec = MUTANTS[name]
    adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
    named: set[str] = set()
    try:
        for fixture in pinned_fixtures():
            result = check_global_invariants(adapter.run(fixture), fixture)
            named.update(result.rules)
            if spec.rule_id in named:
                break
    finally:
        adapter.close()
    assert spec.rule_id in named, f"{name}: the pinned fixtures named {sorted(named)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", EVIDENCE)
def test_selftest_gherkin_suite_kills_evidence_mutant_by_its_rule(name, judged):
    """A Gherkin scenario fails on the mutant with a message naming the mutant's rule.

    Read from ``judged`` (tests/selftest/conftest.py, once per test run): the Gherkin scenarios
    that killed the mutant on the self-test's fast path, each run again alone with every example
    (the slow path's unit for that probe).
    """
    spec = MUTANTS[name]
    named = judged(name).scenario_rules()
    assert spec.rule_id in named, f"{name}: the failing scenarios named {sorted(named)}"


# The widened generators keep every scenario property true on the reference Harness:
# tests/properties/test_prop_spec_scenarios.py runs every property on it (100 examples under CI).
