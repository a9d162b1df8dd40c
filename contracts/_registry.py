"""The contract registry: every contract of the sheet with its schema, model and checks."""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

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
        model_name: the Pydantic model class's name (its sheet name, e.g. ``DiagnosisDraft``),
            in ``contracts._generated.<stem>_schema``; :attr:`model` imports it on first use.
        direction: READ, EMIT or BOTH.
        invariants: ``check(doc, pointer_prefix) -> Iterator[ContractViolation]``.
    """

    name: str
    model_name: str
    direction: Direction
    invariants: Callable[[Any, str], Iterator[ContractViolation]]

    @cached_property
    def model(self) -> type[BaseModel]:
        """The Pydantic model class (imported on first use: validation needs only the schema)."""
        module = importlib.import_module(
            f"contracts._generated.{self.name.replace('-', '_')}_schema"
        )
        model: type[BaseModel] = getattr(module, self.model_name)
        return model

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
_ENTRIES: tuple[tuple[str, str, Direction], ...] = (
    ("tool-call-id", "ToolCallId", _B),
    ("query-scope", "QueryScope", _E),
    ("bounded-projection", "BoundedProjection", _E),
    ("tool-invocation", "ToolInvocation", _E),
    ("diagnosis-draft", "DiagnosisDraft", _B),
    ("knowledge-answer", "KnowledgeAnswer", _B),
    ("safe-fallback", "SafeFallback", _E),
    ("public-error", "PublicError", _E),
    ("published-result", "PublishedResult", _E),
    ("verified-snapshot", "VerifiedSnapshot", _E),
    ("semantic-verdict", "SemanticVerdict", _B),
    ("attempt-record", "AttemptRecord", _E),
    ("diagnosis-run", "DiagnosisRun", _B),
    ("run-trace-event", "RunTraceEvent", _E),
    ("component-registry", "ComponentRegistry", _R),
    ("phase-plan", "PhasePlan", _R),
    ("scenario-fixture", "ScenarioFixture", _R),
    ("run-observation", "RunObservation", _E),
    ("adapter-message", "AdapterMessage", _B),
)

CONTRACTS: Mapping[str, ContractInfo] = {
    name: ContractInfo(name, model_name, direction, INVARIANTS[name])
    for name, model_name, direction in _ENTRIES
}
"""Contract name (sheet stem) -> :class:`ContractInfo`, in sheet order."""
