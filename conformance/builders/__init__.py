"""Scenario Fixture builders of the SRDH conformance kit.

Small composable functions that return JSON-ready ``ScenarioFixture`` parts
(``schemas/scenario-fixture.schema.json``): tool calls and backend results, drafts and answers,
scripted model turns, earlier Runs, and whole fixtures. The Gherkin Given steps use
:class:`FixtureBuilder`; property strategies call the pure functions directly.

The kit's own modules import the builders from here; :mod:`conformance.fixtures` (the committed
fixture files and their export, ``python -m conformance.fixtures``) re-exports the same names, so
``from conformance import fixtures as fx`` keeps working. The builders do not live there because
the export runs the suite, whose Given steps use the builders: the package holding the export
must not be the one the suite imports (no import cycle, ``pyproject.toml``).
"""

from conformance.builders._builder import FixtureBuilder, FixtureBuildError
from conformance.builders._compose import (
    DEFAULT_LIMITS,
    DEFAULT_SESSION,
    diagnosis_fixture,
    disconnect_during_agent_turn,
    knowledge_fixture,
    scenario_fixture,
)
from conformance.builders._cross_process import cross_process_fixtures
from conformance.builders._documents import (
    analysis,
    answer_item,
    diagnosis_draft,
    knowledge_answer,
    limitation,
)
from conformance.builders._runs import prior_run, prior_run_id
from conformance.builders._tools import (
    ABSENT,
    T0_MS,
    WINDOW_MS,
    Absent,
    call_arguments,
    document_rows,
    failure,
    in_band_error,
    no_rows,
    query_scope,
    rows,
    tool_call,
    tool_script,
)
from conformance.builders._turns import (
    blocks_until_cancelled,
    draft_and_tool_calls_turn,
    draft_turn,
    error_turn,
    ignores_cancellation,
    intent_turn,
    invalid_verdict_turn,
    knowledge_answer_turn,
    raw_turn,
    supported_turn,
    tool_calls_turn,
    unsupported_turn,
    verdict_turn,
)

__all__ = [
    "ABSENT",
    "DEFAULT_LIMITS",
    "DEFAULT_SESSION",
    "T0_MS",
    "WINDOW_MS",
    "Absent",
    "FixtureBuildError",
    "FixtureBuilder",
    "analysis",
    "answer_item",
    "blocks_until_cancelled",
    "call_arguments",
    "cross_process_fixtures",
    "diagnosis_draft",
    "diagnosis_fixture",
    "disconnect_during_agent_turn",
    "document_rows",
    "draft_and_tool_calls_turn",
    "draft_turn",
    "error_turn",
    "failure",
    "ignores_cancellation",
    "in_band_error",
    "intent_turn",
    "invalid_verdict_turn",
    "knowledge_answer",
    "knowledge_answer_turn",
    "knowledge_fixture",
    "limitation",
    "no_rows",
    "prior_run",
    "prior_run_id",
    "query_scope",
    "raw_turn",
    "rows",
    "scenario_fixture",
    "supported_turn",
    "tool_call",
    "tool_calls_turn",
    "tool_script",
    "unsupported_turn",
    "verdict_turn",
]
