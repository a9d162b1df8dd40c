"""The eighth red team's cancellation survivor (S2) is killed by the row added for its kind.

A Harness that, on a client disconnect, keeps waiting on the blocked model call's HTTP answer until
the call's own timeout and only then records the attempt CANCELLED passed the default
``srdh run``: its trace is the conforming one, only the time differs
(docs/decisions/red-team-8.md, "S2"). The row with a 20 s model-call timeout fails it naming
``R8.layered-cancellation`` (the kit's endpoint saw the request held half the timeout); the
reference, which abandons the interrupted call at once, passes the same row
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it).
"""

from __future__ import annotations

from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

_NAME = "cancel_waits_model_timeout"
_ROW = "the-client-disconnects-while-a-model-call-with-a-long-timeout-is-in-flight"

KILL = declare_runs(_NAME, _ROW, "in-process")
REFERENCE_ROW = declare_runs("reference", _ROW, "in-process")


def test_cancel8_mutant_declares_a_registered_rule():
    """The mutant is in the catalogue and names a registered rule of its own requirement."""
    spec = MUTANTS[_NAME]
    assert RULES[spec.rule_id].requirement_id == spec.requirement_id


def test_waiting_out_the_timeout_is_killed_by_the_long_timeout_row(scenario_run):
    """The long-timeout disconnect row fails the mutant naming its rule."""
    scenario_run(KILL).assert_killed_by({0}, MUTANTS[_NAME].rule_id)


def test_the_reference_passes_the_long_timeout_row(scenario_run):
    """The reference (endpoint-less in process: scripted ports) passes the row."""
    scenario = scenario_run(REFERENCE_ROW)
    assert not scenario.failing_rows(), scenario.messages
