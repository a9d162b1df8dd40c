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
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter, ObservationContractError
from conformance.checks import check_observation_contract, rule_ids_in
from contracts import ContractViolation
from reference_harness.mutants import MUTANTS
from reference_harness.mutants._catalogue import _REACH_SPECS
from tests.selftest.conftest import ScenarioRun, declare_runs

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


ON_MUTANT = {
    name: declare_runs(name, scenario_id, "in-process") for name, scenario_id in KILLER.items()
}
ON_REFERENCE = {s: declare_runs("reference", s, "in-process") for s in sorted(set(KILLER.values()))}
OVER_STDIO = {
    spec.name: declare_runs(spec.name, KILLER[spec.name], "stdio")
    for spec in _REACH_SPECS
    if spec.sends_broken_observation
}
"""The scenario runs these tests read (``scenario_run``, tests/selftest/conftest.py: each run
alone on a fresh adapter, every example)."""


def _named(scenario: ScenarioRun) -> set[str]:
    """The rule ids the messages of a failed scenario name (none when it passed)."""
    return (
        {rule for message in scenario.messages for rule in rule_ids_in(message)}
        if scenario.failed
        else set()
    )


def test_selftest_every_reach_mutant_has_its_scenario_and_rule():
    """Each reach mutant declares a rule and names the scenario that reaches its fault."""
    names = {spec.name for spec in _REACH_SPECS}
    assert names == set(KILLER)
    assert all(MUTANTS[name].rule_id for name in names)


def test_selftest_reference_passes_every_reach_scenario(scenario_run):
    """The reference Harness passes every scenario the reach mutants are killed by."""
    runs = {s: scenario_run(key) for s, key in ON_REFERENCE.items()}
    assert {s: run.messages for s, run in runs.items() if run.failed} == {}
    assert all(run.rows for run in runs.values())


@pytest.mark.parametrize("name", sorted(KILLER))
def test_selftest_reach_scenario_kills_mutant_by_its_rule(name, scenario_run):
    """The scenario built for the mutant's fault fails on it, naming the mutant's rule."""
    named = _named(scenario_run(ON_MUTANT[name]))
    assert MUTANTS[name].rule_id in named, f"{name}: {KILLER[name]} named {sorted(named)}"


@pytest.mark.parametrize("name", [s.name for s in _REACH_SPECS if s.sends_broken_observation])
def test_selftest_broken_observation_over_stdio_fails_by_rule(name, scenario_run):
    """Over stdio too, a Run whose observation breaks its contract fails naming the rule."""
    assert MUTANTS[name].rule_id in _named(scenario_run(OVER_STDIO[name]))


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
