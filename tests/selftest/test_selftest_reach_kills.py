"""Each reach mutant is killed by the one scenario built to reach its fault, naming its rule.

The kinds an independent attacker's harnesses showed passing because no suite fixture put the
fault in front of them: astral text, a backend total larger than the rows, zero rows of some
matches, a reversed time range, a target in another case, extra draft members, an INFERENCE on an
in-band error, a second reference fabricated, a SCHEMA_INVALID first draft, an older RUNNING Run
without intent, padded texts, a cited NO_EVIDENCE projection, a KNOWLEDGE_QUERY Run selecting a
previous turn. Two of them report a Run whose observation breaks its contract: they fail by
rule (``R3.invocation-outcome``), in process and over stdio, not by an adapter error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter, ObservationContractError, StdioAdapter
from conformance.checks import check_observation_contract, rule_ids_in
from conformance.suite import run_suite
from contracts import ContractViolation
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._catalogue import _REACH_SPECS

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"

KILLER = {
    "item_text_cut_in_utf16_units": (
        "a-backend-result-larger-than-the-projection-limits-is-cut-and-marked-truncated-example-5"
    ),
    "total_matched_ignores_backend": (
        "a-backend-reports-more-matches-than-the-rows-it-returns-example-1"
    ),
    "no_evidence_when_no_items": (
        "a-backend-reports-more-matches-than-the-rows-it-returns-example-2"
    ),
    "reversed_time_range_executed": (
        "a-call-whose-time-range-ends-before-it-starts-is-never-executed"
    ),
    "negative_scope_target_case_folded": "a-negative-observation-is-wider-than-its-query-example-7",
    "unknown_draft_members_ignored": (
        "a-draft-carries-a-member-its-contract-does-not-define-example-2"
    ),
    "inference_on_in_band_error_accepted": "an-inference-cites-an-in-band-error",
    "only_first_reference_checked": "an-answer-item-cites-a-returned-document-and-a-fabricated-one",
    "schema_invalid_draft_not_repaired": (
        "a-draft-carries-a-member-its-contract-does-not-define-example-1"
    ),
    "set_intent_on_every_running_run": "a-newer-run-is-still-running",
    "released_strings_stripped": "a-released-diagnosis-draft-keeps-the-whitespace-the-agent-wrote",
    "snapshot_leaves_out_no_evidence": "successful-query-returns-no-evidence",
    "knowledge_run_selects_previous_turn": "a-knowledge-question-follows-failed-and-fallback-runs",
}
"""The scenario (or outline example) built to reach each reach mutant's fault."""


def _named(adapter: InProcessAdapter | StdioAdapter, scenario_id: str) -> set[str]:
    result = run_suite(adapter, scenario_ids=[scenario_id])
    return {
        rule
        for scenario in result.scenarios
        if scenario.outcome == "failed"
        for message in scenario.messages
        for rule in rule_ids_in(message)
    }


def test_selftest_every_reach_mutant_has_its_scenario_and_rule():
    """Each reach mutant declares a rule and names the scenario that reaches its fault."""
    names = {spec.name for spec in _REACH_SPECS}
    assert names == set(KILLER)
    assert all(MUTANTS[name].rule_id for name in names)


def test_selftest_reference_passes_every_reach_scenario():
    """The reference Harness passes every scenario the reach mutants are killed by."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        named = {s: _named(adapter, s) for s in sorted(set(KILLER.values()))}
    finally:
        adapter.close()
    assert {s: rules for s, rules in named.items() if rules} == {}


@pytest.mark.parametrize("name", sorted(KILLER))
def test_selftest_reach_scenario_kills_mutant_by_its_rule(name):
    """The scenario built for the mutant's fault fails on it, naming the mutant's rule."""
    adapter = InProcessAdapter(f"reference_harness.mutants:{name}")
    try:
        named = _named(adapter, KILLER[name])
    finally:
        adapter.close()
    assert MUTANTS[name].rule_id in named, f"{name}: {KILLER[name]} named {sorted(named)}"


@pytest.mark.parametrize("name", [s.name for s in _REACH_SPECS if s.sends_broken_observation])
def test_selftest_broken_observation_over_stdio_fails_by_rule(name):
    """Over stdio too, a Run whose observation breaks its contract fails naming the rule."""
    adapter = StdioAdapter([sys.executable, "-m", "reference_harness.stdio", "--mutant", name])
    try:
        named = _named(adapter, KILLER[name])
    finally:
        adapter.close()
    assert MUTANTS[name].rule_id in named


def test_conf_observation_contract_lines_name_the_invocation_rule_or_r0():
    """A violation inside an invocation names R3.invocation-outcome; any other R0."""
    result = check_observation_contract(
        [
            ContractViolation("/invocations/0/evidence_status", "no-evidence-iff-empty", "x"),
            ContractViolation("/trace/3/data", "schema:required", "y"),
        ]
    )
    assert not result.passed
    assert result.rules == ("R3.invocation-outcome", "R0.valid-observation")
    assert "/invocations/0/evidence_status (no-evidence-iff-empty)" in result.message
    assert check_observation_contract([]).passed


def test_conf_in_process_adapter_raises_observation_contract_error():
    """The adapter refuses a broken observation with the violations, as its own error type."""
    adapter = InProcessAdapter("reference_harness.mutants:no_evidence_when_no_items")
    stored = FIXTURES / f"{KILLER['no_evidence_when_no_items']}.json"
    fixture = json.loads(stored.read_text(encoding="utf-8"))
    try:
        with pytest.raises(ObservationContractError) as caught:
            adapter.run(fixture)
    finally:
        adapter.close()
    assert [v.pointer for v in caught.value.violations] == ["/invocations/0/evidence_status"]
