"""Each citation mutant is killed by the pinned citation fixtures, by a failure naming its rule.

The kinds: the Verified Snapshot's evidence, a semantic fallback's verified sources, how lookups
are counted, unknown analyses in the plan, the NO_EVIDENCE kind and scope rules, the bounded
lookup result, oversize payloads, the previous-turn scan and its skip report, and what a
KNOWLEDGE_QUERY Run's agent may receive. A kill through SCRIPT_EXHAUSTED alone
(``R0.valid-observation``) does not count.
"""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.checks import check_global_invariants, check_model_inputs
from conformance.strategies._citation_pins import citation_pinned_fixtures
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._catalogue import _CITATION_SPECS

CITATION = [spec.name for spec in _CITATION_SPECS]


def _rules(adapter: InProcessAdapter, fixture: dict[str, object]) -> set[str]:
    observation = adapter.run(fixture)
    found = check_global_invariants(observation, fixture, adapter.capabilities)
    inputs = check_model_inputs(observation, fixture)
    return {*found.rules, *inputs.rules}


def test_selftest_citation_mutants_each_declare_a_registered_rule():
    """Every citation mutant names the rule a kill must come from, and no name is reused."""
    assert len(CITATION) == len(set(CITATION)) >= 19
    assert all(MUTANTS[name].rule_id for name in CITATION)


def test_selftest_reference_passes_every_citation_pin():
    """The reference Harness keeps every rule on every pinned citation fixture."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        broken = {
            str(fixture["fixture_id"]): rules
            for fixture in citation_pinned_fixtures()
            if (rules := _rules(adapter, fixture))
        }
    finally:
        adapter.close()
    assert broken == {}


@pytest.mark.parametrize("name", CITATION)
def test_selftest_citation_pins_kill_mutant_by_its_rule(name):
    """Some pinned citation fixture fails on the mutant with a finding naming its rule."""
    spec = MUTANTS[name]
    adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
    named: set[str] = set()
    try:
        for fixture in citation_pinned_fixtures():
            named |= _rules(adapter, fixture)
            if spec.rule_id in named:
                break
    finally:
        adapter.close()
    assert spec.rule_id in named, f"{name}: the pinned fixtures named {sorted(named)}"
