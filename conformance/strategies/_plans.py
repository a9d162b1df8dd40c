"""Tool plans: agent steps of tool calls, their backend results, and the accepted evidence.

A :class:`ToolPlan` is the part of a DIAGNOSIS Scenario Fixture before the agent submits: one
list of ScriptedToolCalls per agent step, the tool scripts, and (computed with the kit's oracle,
:func:`conformance.checks.expected_identity`) the accepted invocations with the evidence status
their backend result gives. Drafts are then written against that evidence.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from hypothesis import strategies as st

from conformance.builders import (
    T0_MS,
    call_arguments,
    document_rows,
    failure,
    in_band_error,
    no_rows,
    rows,
    tool_call,
    tool_script,
)
from conformance.checks import expected_identity

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "DIAGNOSIS_TOOLS",
    "Evidence",
    "ToolPlan",
    "arguments",
    "plan_from_steps",
    "tool_call_ids",
    "tool_plans",
]

DIAGNOSIS_TOOLS: Final = ("query_metrics", "search_logs", "list_alerts")
"""The tools a DIAGNOSIS Run calls (``lookup_documents`` is the knowledge lookup)."""

_TARGETS: Final = ("checkout", "payment", "cart", "db-primary")
_QUERIES: Final = ("level:error", "status:5xx", "latency_p99", "")
_MINUTE_MS: Final = 60_000
_KINDS: Final = ("found", "empty", "in_band", "raise", "long")
STATUS_OF: Final = {
    "found": "EVIDENCE_FOUND",
    "empty": "NO_EVIDENCE",
    "in_band": "ERROR",
    "raise": "ERROR",
    "long": "EVIDENCE_FOUND",
}
"""Backend outcome kind -> the evidence status it gives: rows, zero rows, an in-band error, a
raised error (invocation ERROR), rows over the projection limits (cut, still evidence)."""
_LONG_ROWS: Final = 25
"""Rows of a ``long`` result: more than the default ``max_items`` (20)."""
_LONG_TEXT: Final = 2500
"""Characters of the first row of a ``long`` result: more than the default ``max_item_chars``."""
_ASTRAL: Final = "\N{FIRE}"
"""U+1F525, outside the Basic Multilingual Plane (a surrogate pair in UTF-16)."""


def tool_call_ids() -> st.SearchStrategy[str]:
    """Conforming Tool Call IDs.

    Framework-shaped ones, case variants, digits only, 128 characters, and the grammar.
    """
    framework = st.sampled_from(
        [
            "call_1",
            "call_abc123",
            "toolu_01A09q90qw",
            "functions.get_weather:0",
            "pyd_ai_7f3",
            "CALL_1",
            "Call_1",
            "0",
            "42",
            "c" * 128,
        ]
    )
    grammar = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,23}", fullmatch=True)
    return st.one_of(framework, grammar)


@st.composite
def arguments(draw: st.DrawFn) -> dict[str, object]:
    """Tool ``arguments``: a target, a 1-minute to 1-day window after ``T0_MS``, a query."""
    start = T0_MS + draw(st.integers(0, 120)) * _MINUTE_MS
    length = draw(st.sampled_from([1, 5, 15, 60, 24 * 60])) * _MINUTE_MS
    return call_arguments(
        target=draw(st.sampled_from(_TARGETS)),
        start_ms=start,
        end_ms=start + length,
        query=draw(st.sampled_from(_QUERIES)),
    )


@dataclass(frozen=True, slots=True)
class Evidence:
    """An accepted invocation of the plan and the evidence status its backend result gives."""

    call_id: str
    tool: str
    arguments: dict[str, object]
    status: str
    document_ids: tuple[str, ...] = ()

    @property
    def scope(self) -> dict[str, object]:
        """The invocation's QueryScope (``tool`` + its arguments)."""
        return {"tool": self.tool, **self.arguments}


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """Agent steps, tool scripts and the accepted evidence, in acceptance order."""

    steps: tuple[tuple[dict[str, object], ...], ...]
    tools: dict[str, dict[str, object]]
    evidence: tuple[Evidence, ...]

    def with_status(self, *statuses: str) -> list[Evidence]:
        """Return the accepted evidence whose status is one of ``statuses``."""
        return [e for e in self.evidence if e.status in statuses]


def _response(kind: str, tool: str, nth: int, documents: Sequence[str]) -> dict[str, object]:
    if tool == "lookup_documents" and kind == "found":
        return document_rows(*documents)
    if kind == "found":
        # every other backend reports more matches than the rows it returns (total_matched wins)
        found = [f"{tool} line {nth}.{k}" for k in range(1 + nth % 2)]
        return rows(*found, total_matched=len(found) + 2 * (nth % 2))
    if kind == "empty":
        return no_rows()
    if kind == "raise":
        return failure(f"{tool} backend exploded at 10.0.0.{nth}: token sk-live-{nth:04d}")
    if kind == "long":
        # the long row is padded with an astral character (two UTF-16 code units): a projection
        # cut to max_item_chars counts code points
        texts = [
            f"{tool} long row {nth}.{k} ".ljust(
                _LONG_TEXT if k == 0 else 40, _ASTRAL if k == 0 else "x"
            )
            for k in range(_LONG_ROWS)
        ]
        return rows(*texts, total_matched=_LONG_ROWS + nth)
    return in_band_error("RATE_LIMITED" if nth % 2 else "QUOTA_EXCEEDED")


def plan_from_steps(
    steps: Sequence[Sequence[dict[str, object]]],
    kinds: dict[int, str],
    documents: Sequence[str] = (),
) -> ToolPlan:
    """Build a plan from presented calls and the result kind of each accepted call.

    Args:
        steps: ScriptedToolCalls per agent step, as the agent presents them.
        kinds: result kind (``found``, ``empty``, ``in_band``) by acceptance index; missing
            indexes are ``found``.
        documents: the document ids a ``found`` lookup returns.

    Every tool also gets a ``default`` result with a distinct text, so an implementation that
    executes a rejected call gets a result the accepted call never had.
    """
    probe = {"agent": [{"kind": "tool_calls", "tool_calls": list(s)} for s in steps]}
    accepted, _ = expected_identity(probe)
    scripts: dict[str, list[dict[str, object]]] = {}
    evidence: list[Evidence] = []
    for index, call in enumerate(accepted):
        kind = kinds.get(index, "found")
        nth = len(scripts.setdefault(call.tool, []))
        scripts[call.tool].append(_response(kind, call.tool, nth, documents))
        returned = tuple(documents) if call.tool == "lookup_documents" and kind == "found" else ()
        evidence.append(
            Evidence(str(call.value), call.tool, dict(call.arguments), STATUS_OF[kind], returned)
        )
    tools = {
        name: tool_script(*responses, default=rows(f"{name} executed again: not the first result"))
        for name, responses in scripts.items()
    }
    return ToolPlan(tuple(tuple(s) for s in steps), tools, tuple(evidence))


@st.composite
def tool_plans(  # noqa: PLR0913 - one keyword per varied aspect
    draw: st.DrawFn,
    *,
    min_calls: int = 1,
    max_calls: int = 4,
    kinds: Sequence[str] = _KINDS,
    tools: Sequence[str] = DIAGNOSIS_TOOLS,
    must_include: str | None = None,
) -> ToolPlan:
    """Draw 1-3 agent steps holding ``min_calls..max_calls`` calls with distinct conforming ids.

    Each accepted call's backend result is drawn from ``kinds``; ``must_include`` (a kind) is
    given to at least one call, at a drawn position.
    """
    ids = draw(st.lists(tool_call_ids(), min_size=min_calls, max_size=max_calls, unique=True))
    variant = ids[0].swapcase()
    if len(ids) < max_calls and variant not in ids and draw(st.booleans()):
        ids.insert(draw(st.integers(1, len(ids))), variant)  # same id but for case: another call
    step_count = draw(st.integers(1, min(3, len(ids))))
    cuts = (
        sorted(draw(st.sets(st.integers(1, len(ids) - 1), max_size=step_count - 1)))
        if len(ids) > 1
        else []
    )
    bounds = [0, *cuts, len(ids)]
    steps = [
        [
            tool_call(call_id, draw(st.sampled_from(tools)), draw(arguments()))
            for call_id in ids[a:b]
        ]
        for a, b in itertools.pairwise(bounds)
    ]
    chosen = {i: draw(st.sampled_from(list(kinds))) for i in range(len(ids))}
    if must_include is not None and must_include not in chosen.values():
        chosen[draw(st.integers(0, len(ids) - 1))] = must_include
    return plan_from_steps(steps, chosen)
