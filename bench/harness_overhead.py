"""Benchmark 1: Harness overhead per tool-call step, next to pydantic-ai's agent loop.

The same script drives both loops: ``steps`` agent turns that each ask for one no-op
``query_metrics`` call (Tool Call IDs ``call_1`` ... ``call_<steps>``), then a final answer. Each
side runs a 1-step script and a ``steps + 1``-step script; the cost of ``steps`` tool-call steps is
the difference, so that per-Run fixed costs (the SQLite row, routing, guards, review) are *not*
folded into the per-step number. The whole-Run times are reported next to it: nothing is
subtracted silently.

Per step, the reference Harness (``reference_harness.Harness``, public API, real SQLite file):
calls the scripted agent port in a fresh worker thread bounded by the model-call timeout, frames
it with ``MODEL_CALL_STARTED``/``MODEL_CALL_FINISHED`` trace events (each deep-copied into the
trace and delivered to the sink), validates the Tool Call ID against the Run's accepted ids,
validates the arguments, emits ``TOOL_CALL_ACCEPTED``, writes the ``PROJECTING`` invocation and its
``INVOCATION_STATUS_CHANGED`` event, runs the no-op backend as an asyncio task bounded by the tool
timeout, builds the bounded projection, moves the invocation to ``READY``/``EVIDENCE_FOUND`` with
``INVOCATION_STATUS_CHANGED`` and ``EVIDENCE_CLASSIFIED``, and appends the tool message to the
conversation. At the end of the Run, EvidenceGuard sees every invocation (linear in their number).

Per step, pydantic-ai (``Agent`` with ``FunctionModel``): builds the model request from the whole
message history, calls the model function (``async``: inline; ``sync``: in a worker thread, like the
Harness's blocking model port), estimates token usage over the whole history, validates the
tool arguments with Pydantic, runs the ``async`` no-op tool and appends the messages. It keeps no
trace, no invocation records and no database row.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import tempfile
import time
import tracemalloc
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel
from pydantic_ai import Agent, Tool
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import UsageLimits

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave
from reference_harness import Harness, Limits, ScriptedAgent, ScriptedReviewer, ScriptedRouter
from reference_harness.ports import ToolRows
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic_ai.messages import ModelMessage

    from reference_harness.ports import AcceptedToolCall, CancelToken, ToolResult

__all__ = ["NAME", "measure", "run"]

NAME: Final = "harness"
TARGET_RATIO: Final = 0.5
"""Target: Harness per-step cost <= 0.5x pydantic-ai's."""

T0_MS: Final = 1_764_400_000_000
ARGUMENTS: Final = {
    "target": "checkout",
    "time_range": {"start_ms": T0_MS, "end_ms": T0_MS + 900_000},
    "query": "level:error",
}
_ROWS: Final = ({"text": "ok"},)
_MESSAGE: Final = "Why is checkout failing?"
_DRAFT: Final = {
    "conclusion": {"summary": "Checkout is slow.", "confidence": "LOW", "analysis_ids": ["a1"]},
    "analyses": [
        {
            "analysis_id": "a1",
            "kind": "OBSERVATION",
            "statement": "The metrics answered.",
            "tool_call_ids": ["call_1"],
        }
    ],
    "action_plan": [],
    "recommendations": [],
    "limitations": [],
}
_SUPPORTED: Final = {
    "kind": "verdict",
    "verdict": {"verdict": "SUPPORTED", "unsupported_analysis_ids": []},
}

HARNESS: Final = "reference Harness"
PAI_ASYNC: Final = "pydantic-ai, async model function"
PAI_SYNC: Final = "pydantic-ai, sync model function (worker thread)"


class NoOpTools:
    """A tool backend that answers every call at once with one row (``EVIDENCE_FOUND``)."""

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:  # noqa: ARG002 - a no-op ignores its call
        """Return the constant one-row answer."""
        return ToolRows(rows=_ROWS, total_matched=1)


class TimeRange(BaseModel):
    """The ``time_range`` argument of the pydantic-ai tool (same shape as the Harness's)."""

    start_ms: int
    end_ms: int


async def query_metrics(target: str, time_range: TimeRange, query: str) -> str:  # noqa: ARG001 - a no-op ignores its arguments
    """No-op metrics query: always answers ``ok``."""
    return "ok"


def _agent_turns(steps: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [
        {
            "kind": "tool_calls",
            "tool_calls": [{"id": f"call_{i}", "name": "query_metrics", "arguments": ARGUMENTS}],
        }
        for i in range(1, steps + 1)
    ]
    turns.append({"kind": "draft", "draft": _DRAFT})
    return turns


def _responses(steps: int) -> list[ModelResponse]:
    responses = [
        ModelResponse(
            parts=[ToolCallPart("query_metrics", dict(ARGUMENTS), tool_call_id=f"call_{i}")]
        )
        for i in range(1, steps + 1)
    ]
    responses.append(ModelResponse(parts=[TextPart("done")]))
    return responses


class _HarnessSide:
    """Runs the reference Harness on one event loop, one SQLite file, a fresh session per Run."""

    def __init__(self, loop: asyncio.AbstractEventLoop, store: RunStore) -> None:
        self._loop = loop
        self._store = store
        self._sessions = itertools.count(1)
        self._ids = itertools.count(1)

    def _harness(self, steps: int) -> Harness:
        return Harness(
            store=self._store,
            router=ScriptedRouter([{"kind": "intent", "intent": "DIAGNOSIS"}]),
            agent=ScriptedAgent(_agent_turns(steps)),
            reviewer=ScriptedReviewer([_SUPPORTED]),
            tools=NoOpTools(),
            limits=Limits(max_steps=steps + 1),
            run_ids=lambda: f"bench-run-{next(self._ids)}",
        )

    def once(self, steps: int) -> int:
        """Run one ``steps``-step Run; return its wall time in ns (only ``Harness.run`` timed)."""
        harness = self._harness(steps)
        session = f"bench-session-{next(self._sessions)}"
        frames: list[dict[str, Any]] = []

        async def timed() -> tuple[int, Any]:
            start = time.perf_counter_ns()
            row = await harness.run(session, _MESSAGE, sink=frames.append)
            return time.perf_counter_ns() - start, row

        elapsed, row = self._loop.run_until_complete(timed())
        state = getattr(row.state, "value", row.state)
        invocations = sum(1 for f in frames if f["data"].get("type") == "TOOL_CALL_ACCEPTED")
        if state != "SUCCESS" or invocations != steps:
            msg = f"Harness Run ended {state} with {invocations} invocations, not SUCCESS/{steps}"
            raise AssertionError(msg)
        return elapsed


class _PydanticAISide:
    """Runs pydantic-ai's agent loop with a scripted ``FunctionModel``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, threaded: bool) -> None:
        self._loop = loop
        self._threaded = threaded

    def _agent(self, steps: int) -> Agent[None, str]:
        script = iter(_responses(steps))
        model: FunctionModel
        if self._threaded:

            def answer_sync(_messages: list[ModelMessage], _info: AgentInfo) -> ModelResponse:
                return next(script)

            model = FunctionModel(answer_sync)
        else:

            async def answer(_messages: list[ModelMessage], _info: AgentInfo) -> ModelResponse:
                return next(script)

            model = FunctionModel(answer)
        return Agent(model, tools=[Tool(query_metrics)], output_type=str)

    def once(self, steps: int) -> int:
        """Run one ``steps``-step agent run; return its wall time in ns (only ``run`` timed)."""
        agent = self._agent(steps)
        limits = UsageLimits(request_limit=steps + 2)

        async def timed() -> tuple[int, Any]:
            start = time.perf_counter_ns()
            result = await agent.run(_MESSAGE, usage_limits=limits)
            return time.perf_counter_ns() - start, result

        elapsed, result = self._loop.run_until_complete(timed())
        returns = sum(
            isinstance(part, ToolReturnPart)
            for message in result.all_messages()
            for part in message.parts
        )
        if result.output != "done" or returns != steps:
            msg = f"pydantic-ai run gave {result.output!r} after {returns} tool returns"
            raise AssertionError(msg)
        return elapsed


def _peak_bytes(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(*, steps: int = 50, rounds: int = 20, warmup: int = 2) -> BenchResult:
    """Measure the per-step cost of both loops, interleaved, in this process.

    Args:
        steps: tool-call steps whose cost is measured (the difference between a ``steps + 1``
            and a 1-step Run).
        rounds: measured rounds; each round runs every contender's short and long script.
        warmup: discarded rounds.

    Returns:
        A :class:`BenchResult` with microseconds per step for each contender, whole-Run times,
        tracemalloc peaks, and the target "Harness <= 0.5x pydantic-ai".
    """
    loop = asyncio.new_event_loop()
    try:
        with tempfile.TemporaryDirectory(prefix="srdh-bench-") as folder:
            store = RunStore(Path(folder) / "runs.sqlite3")
            try:
                return _measure(loop, store, steps=steps, rounds=rounds, warmup=warmup)
            finally:
                store.close()
    finally:
        loop.close()


def _measure(
    loop: asyncio.AbstractEventLoop, store: RunStore, *, steps: int, rounds: int, warmup: int
) -> BenchResult:
    sides: dict[str, _HarnessSide | _PydanticAISide] = {
        HARNESS: _HarnessSide(loop, store),
        PAI_ASYNC: _PydanticAISide(loop, threaded=False),
        PAI_SYNC: _PydanticAISide(loop, threaded=True),
    }
    contenders: dict[str, Callable[[], float]] = {}
    for name, side in sides.items():
        contenders[f"{name}|short"] = functools.partial(side.once, 1)
        contenders[f"{name}|long"] = functools.partial(side.once, steps + 1)
    values = interleave(contenders, rounds=rounds, warmup=warmup)
    per_step: dict[str, list[float]] = {}
    for name in sides:
        short, long = values[f"{name}|short"], values[f"{name}|long"]
        per_step[name] = [(b - a) / steps / 1000 for a, b in zip(short, long, strict=True)]
    peaks = {
        name: _peak_bytes(functools.partial(side.once, steps + 1)) for name, side in sides.items()
    }
    return _report(steps, values, per_step, peaks)


def _report(
    steps: int,
    values: dict[str, list[float]],
    per_step: dict[str, list[float]],
    peaks: dict[str, int],
) -> BenchResult:
    version = metadata.version("pydantic-ai-slim")
    result = BenchResult(
        name=NAME,
        title=f"Harness overhead per tool-call step ({steps} no-op steps) vs pydantic-ai {version}",
        columns=[
            "loop",
            "us/step (marginal)",
            "us/step (whole Run / steps)",
            "Run of 1 step, ms",
            f"Run of {steps + 1} steps, ms",
            f"peak KiB ({steps + 1} steps)",
            "Harness / this (medians)",
        ],
    )
    summaries: dict[str, dict[str, Any]] = {}
    harness_median = Summary.of(per_step[HARNESS]).median
    for name, steps_us in per_step.items():
        step = Summary.of(steps_us)
        short = Summary.of(values[f"{name}|short"]).scaled(1e-6)
        long = Summary.of(values[f"{name}|long"]).scaled(1e-6)
        amortized = Summary.of([v / (steps + 1) / 1000 for v in values[f"{name}|long"]])
        ratio = harness_median / step.median if step.median > 0 else None
        summaries[name] = {
            "us_per_step": step.as_dict(),
            "us_per_step_amortized": amortized.as_dict(),
            "run_short_ms": short.as_dict(),
            "run_long_ms": long.as_dict(),
            "peak_bytes": peaks[name],
            "harness_over_this": ratio,
        }
        result.rows.append(
            [
                name,
                step.text(),
                amortized.text(),
                short.text(2),
                long.text(2),
                f"{peaks[name] / 1024:,.0f}",
                "-" if name == HARNESS else _ratio_text(ratio),
            ]
        )
    result.data = {"steps": steps, "pydantic_ai_slim": version, "contenders": summaries}
    for name in (PAI_ASYNC, PAI_SYNC):
        ratio = summaries[name]["harness_over_this"]
        met = ratio is not None and ratio <= TARGET_RATIO
        if ratio is None:
            margin = "not measurable: noise exceeded the per-step cost"
        elif met:
            margin = f"met with {TARGET_RATIO / ratio:.1f}x headroom"
        else:
            margin = f"missed: {ratio / TARGET_RATIO:.1f}x over the target"
        result.targets.append(
            Target(
                goal=f"Harness us/step <= {TARGET_RATIO}x {name}",
                measured=_ratio_text(ratio),
                met=met,
                margin=margin,
            )
        )
    result.notes.append(
        "us/step (marginal) = (Run of "
        f"{steps + 1} steps - Run of 1 step) / {steps}, paired per round (the ratio column "
        "divides the medians); the whole-Run columns "
        "include every fixed cost (SQLite row writes, routing, EvidenceGuard, SemanticGuard "
        "review for the Harness; none of these exist on the pydantic-ai side)."
    )
    return result


def _ratio_text(ratio: float | None) -> str:
    return "n/a (noise)" if ratio is None else f"{ratio:.2f}x"


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark at its full size (``quick``: fewer rounds)."""
    return measure(steps=50, rounds=8 if quick else 30, warmup=2)
