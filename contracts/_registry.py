"""The contract registry: every contract of the sheet with its schema, model and checks."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from contracts._generated import (
    adapter_message_schema,
    attempt_record_schema,
    bounded_projection_schema,
    component_registry_schema,
    diagnosis_draft_schema,
    diagnosis_run_schema,
    knowledge_answer_schema,
    phase_plan_schema,
    public_error_schema,
    published_result_schema,
    query_scope_schema,
    run_observation_schema,
    run_trace_event_schema,
    safe_fallback_schema,
    scenario_fixture_schema,
    semantic_verdict_schema,
    tool_call_id_schema,
    tool_invocation_schema,
    verified_snapshot_schema,
)
from contracts._invariants import INVARIANTS
from contracts._paths import schema_path
from contracts._strict_json import load_json_file

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from pathlib import Path

    from pydantic import BaseModel

    from contracts._errors import ContractViolation

__all__ = ["CONTRACTS", "ContractInfo", "Direction"]


class Direction(enum.StrEnum):
    """Which way a document flows at a Harness boundary."""

    READ = "READ"
    """The Harness (the IUT) reads it, e.g. a scenario-fixture."""
    EMIT = "EMIT"
    """The Harness emits it, e.g. a run-trace-event."""
    BOTH = "BOTH"
    """Both, e.g. a diagnosis-run (seeded as a prior run, emitted as a row) or adapter messages."""


@dataclass(frozen=True)
class ContractInfo:
    """One registry entry.

    Attributes:
        name: the contract's file stem on the sheet (e.g. ``"diagnosis-draft"``).
        model: the Pydantic model class (its sheet name, e.g. ``DiagnosisDraft``).
        direction: READ, EMIT or BOTH.
        invariants: ``check(doc, pointer_prefix) -> Iterator[ContractViolation]``.
    """

    name: str
    model: type[BaseModel]
    direction: Direction
    invariants: Callable[[Any, str], Iterator[ContractViolation]]

    @property
    def schema_path(self) -> Path:
        """The schema file (``contracts/_schemas`` when installed, else ``<repo>/schemas``)."""
        return schema_path(self.name)

    @cached_property
    def schema(self) -> dict[str, Any]:
        """The parsed JSON Schema."""
        loaded: dict[str, Any] = load_json_file(self.schema_path)
        return loaded

    @property
    def schema_id(self) -> str:
        """The schema's ``$id`` (``https://srdh.dev/schemas/v1/<name>.schema.json``)."""
        return str(self.schema["$id"])


_R, _E, _B = Direction.READ, Direction.EMIT, Direction.BOTH
_ENTRIES: tuple[tuple[str, type[BaseModel], Direction], ...] = (
    ("tool-call-id", tool_call_id_schema.ToolCallId, _B),
    ("query-scope", query_scope_schema.QueryScope, _E),
    ("bounded-projection", bounded_projection_schema.BoundedProjection, _E),
    ("tool-invocation", tool_invocation_schema.ToolInvocation, _E),
    ("diagnosis-draft", diagnosis_draft_schema.DiagnosisDraft, _B),
    ("knowledge-answer", knowledge_answer_schema.KnowledgeAnswer, _B),
    ("safe-fallback", safe_fallback_schema.SafeFallback, _E),
    ("public-error", public_error_schema.PublicError, _E),
    ("published-result", published_result_schema.PublishedResult, _E),
    ("verified-snapshot", verified_snapshot_schema.VerifiedSnapshot, _E),
    ("semantic-verdict", semantic_verdict_schema.SemanticVerdict, _B),
    ("attempt-record", attempt_record_schema.AttemptRecord, _E),
    ("diagnosis-run", diagnosis_run_schema.DiagnosisRun, _B),
    ("run-trace-event", run_trace_event_schema.RunTraceEvent, _E),
    ("component-registry", component_registry_schema.ComponentRegistry, _R),
    ("phase-plan", phase_plan_schema.PhasePlan, _R),
    ("scenario-fixture", scenario_fixture_schema.ScenarioFixture, _R),
    ("run-observation", run_observation_schema.RunObservation, _E),
    ("adapter-message", adapter_message_schema.AdapterMessage, _B),
)

CONTRACTS: Mapping[str, ContractInfo] = {
    name: ContractInfo(name=name, model=model, direction=direction, invariants=INVARIANTS[name])
    for name, model, direction in _ENTRIES
}
"""Contract name (sheet stem) -> :class:`ContractInfo`, in sheet order."""
