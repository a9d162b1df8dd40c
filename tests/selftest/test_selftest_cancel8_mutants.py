"""The eighth red team's cancellation survivor (S2) is killed by the rows added for its kind.

A Harness that, on a client disconnect, keeps waiting on the blocked model call's HTTP answer until
the call's own timeout and only then records the attempt CANCELLED passed the default
``srdh run``: its trace is the conforming one, only the time differs
(docs/decisions/red-team-8.md, "S2"). The row with a 20 s model-call timeout fails it naming
``R8.layered-cancellation`` (the kit's endpoint saw the request held half the timeout); the
reference, which abandons the interrupted call at once, passes the same row
(tests/conformance/test_conf_gherkin_inprocess.py runs every scenario on it). The same kind on
the tool path (the tool work waited for until ``tool_timeout_ms``) is killed by the long
tool-timeout row, naming ``R8.tool-work-cancelled`` (the Run's ``elapsed_ms``).
"""

from __future__ import annotations

from conformance.checks import RULES
from reference_harness.mutants import MUTANTS
from tests.selftest.conftest import declare_runs

_NAME = "cancel_waits_model_timeout"
_ROW = "the-client-disconnects-while-a-model-call-with-a-long-timeout-is-in-flight"

KILL = declare_runs(_NAME, _ROW, "in-process")
REFERENCE_ROW = declare_runs("reference", _ROW, "in-process")

_TOOL_NAME = "cancel_waits_tool_timeout"
_TOOL_ROW = "the-client-disconnects-while-tool-work-with-a-long-timeout-is-in-flight"
TOOL_KILL = declare_runs(_TOOL_NAME, _TOOL_ROW, "in-process")
REFERENCE_TOOL_ROW = declare_runs("reference", _TOOL_ROW, "in-process")


def test_cancel8_mutants_declare_a_registered_rule():
    """The mutants are in the catalogue and name a registered rule of their own requirement."""
    for name in (_NAME, _TOOL_NAME):
        spec = MUTANTS[name]
        assert RULES[spec.rule_id].requirement_id == spec.requirement_id


def test_waiting_out_the_timeout_is_killed_by_the_long_timeout_row(scenario_run):
    """The long-timeout disconnect row fails the mutant naming its rule."""
    scenario_run(KILL).assert_killed_by({0}, MUTANTS[_NAME].rule_id)


def test_the_reference_passes_the_long_timeout_row(scenario_run):
    """The reference (endpoint-less in process: scripted ports) passes the row."""
    scenario = scenario_run(REFERENCE_ROW)
    assert not scenario.failing_rows(), scenario.messages


def test_waiting_out_the_tool_timeout_is_killed_by_the_long_tool_timeout_row(scenario_run):
    """The same kind on the tool path: the long tool-timeout disconnect row fails the mutant
    naming ``R8.tool-work-cancelled`` (the Run lasted the tool timeout on the kit's clock)."""
    scenario_run(TOOL_KILL).assert_killed_by({0}, MUTANTS[_TOOL_NAME].rule_id)


def test_the_reference_passes_the_long_tool_timeout_row(scenario_run):
    """The reference, which cancels tool work at once, passes the row."""
    scenario = scenario_run(REFERENCE_TOOL_ROW)
    assert not scenario.failing_rows(), scenario.messages
