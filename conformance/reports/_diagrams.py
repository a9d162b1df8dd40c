"""State diagrams drawn from the contract enums: invocation lifecycle, Run states, release pipeline.

The *states* and *labels* are read from the schemas (so a renamed or added enum value shows up in
the report); the *shape* (which state leads to which) is the contract sheet's rule, stated once
here: the first value of a lifecycle enum is the initial state and every other value is a terminal
state reached from it (``PROJECTING → READY | ERROR``; ``RUNNING → SUCCESS | FALLBACK | FAILED |
CANCELLED``). Release pipeline: DESIGN §5, with guard outcomes and fallback types from the enums.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.reports._enums import property_enum

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Diagram", "Edge", "build_diagrams"]

_RETRIED = ("INVALID_SCHEMA", "UNAVAILABLE")
"""Attempt outcomes on which the Harness retries SemanticGuard (DESIGN §6)."""


@dataclass(frozen=True)
class Edge:
    """A transition ``source → target`` with an optional label."""

    source: str
    target: str
    label: str = ""


@dataclass(frozen=True)
class Diagram:
    """A named directed graph: ``nodes`` in display order, acyclic ``edges``."""

    name: str
    title: str
    nodes: tuple[str, ...]
    edges: tuple[Edge, ...]


def _lifecycle(name: str, title: str, states: list[str], labels: dict[str, str]) -> Diagram:
    initial, terminals = states[0], states[1:]
    edges = tuple(Edge(initial, t, labels.get(t, "")) for t in terminals)
    return Diagram(name, title, tuple(states), edges)


def _invocation(schemas: Path) -> Diagram:
    status = property_enum(schemas, "tool-invocation", "status")
    evidence = property_enum(schemas, "tool-invocation", "evidence_status")
    # Allowed (status, evidence status) pairs of the contract sheet: a terminal READY carries any
    # evidence status (ERROR = in-band backend error); a terminal ERROR carries evidence ERROR.
    error_evidence = [e for e in evidence if e == "ERROR"]
    labels = {"READY": " | ".join(evidence), "ERROR": " | ".join(error_evidence)}
    return _lifecycle(
        "invocation-lifecycle", "Invocation lifecycle (invocation status)", status, labels
    )


def _run_states(schemas: Path) -> Diagram:
    states = property_enum(schemas, "diagnosis-run", "state")
    labels = {
        "SUCCESS": "result released",
        "FALLBACK": " | ".join(property_enum(schemas, "safe-fallback", "fallback_type")),
        "FAILED": " | ".join(property_enum(schemas, "public-error", "error_code")),
        "CANCELLED": " | ".join(property_enum(schemas, "run-trace-event", "cause")),
    }
    return _lifecycle("run-states", "Run states (diagnosis_run.state)", states, labels)


def _release(schemas: Path) -> Diagram:
    verdicts = property_enum(schemas, "semantic-verdict", "verdict")
    outcomes = property_enum(schemas, "attempt-record", "outcome")
    fallbacks = property_enum(schemas, "safe-fallback", "fallback_type")
    supported, unsupported = verdicts[0], verdicts[-1]
    # DESIGN §6: SemanticGuard gets a second attempt on these outcomes (same snapshot); any other
    # failed outcome ends the review (CANCELLED ends the Run instead, not drawn here).
    retried = [o for o in outcomes if o in _RETRIED]
    final = [o for o in outcomes if o not in {*_RETRIED, "VALID", "CANCELLED"}]
    # DESIGN §5: which guard outcome ends in which fallback type (by position in the enum).
    trigger = dict(zip(("evidence", "unsupported", "unavailable"), fallbacks, strict=False))
    release = "release (SUCCESS)"
    edges = [
        Edge("agent draft", "EvidenceGuard (1)"),
        Edge("EvidenceGuard (1)", "structural repair", "violations"),
        Edge("structural repair", "EvidenceGuard (2)"),
        Edge("EvidenceGuard (1)", "SemanticGuard (1)", "valid"),
        Edge("EvidenceGuard (2)", "SemanticGuard (1)", "valid"),
        Edge("SemanticGuard (1)", release, supported),
        Edge("SemanticGuard (1)", "SemanticGuard (2)", " | ".join(retried) + " (same snapshot)"),
        Edge("SemanticGuard (2)", release, supported),
    ]
    if "evidence" in trigger:
        edges.append(Edge("EvidenceGuard (2)", trigger["evidence"], "violations"))
    if "unsupported" in trigger:
        edges.extend(
            Edge(guard, trigger["unsupported"], unsupported)
            for guard in ("SemanticGuard (1)", "SemanticGuard (2)")
        )
    if "unavailable" in trigger:
        if final:
            edges.append(Edge("SemanticGuard (1)", trigger["unavailable"], " | ".join(final)))
        edges.append(
            Edge("SemanticGuard (2)", trigger["unavailable"], " | ".join([*retried, *final]))
        )
    nodes: list[str] = []
    for edge in edges:
        nodes += [n for n in (edge.source, edge.target) if n not in nodes]
    nodes += [f for f in fallbacks if f not in nodes]
    return Diagram("release-pipeline", "Release pipeline", tuple(nodes), tuple(edges))


def build_diagrams(schemas_dir: Path) -> list[Diagram]:
    """The three diagrams, built from the schemas in ``schemas_dir``.

    Raises:
        SchemaEnumError: a schema the diagrams need is missing or lacks the enum.
    """
    return [_invocation(schemas_dir), _run_states(schemas_dir), _release(schemas_dir)]
