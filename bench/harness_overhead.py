"""Benchmark 1: Harness overhead per tool-call step, next to pydantic-ai's agent loop.

The same script drives both loops: ``steps + 1`` agent turns that each ask for one no-op
``query_metrics`` call (Tool Call IDs ``call_1`` ...), then a final answer, at 10, 50, 200 and
1,000 steps. The per-step cost is measured inside one Run: the time from the first tool call to
the last, divided by ``steps`` (Harness: when ``TOOL_CALL_ACCEPTED`` reaches the sink;
pydantic-ai: when its tool function runs). Per-Run fixed costs (the SQLite row, routing, guards,
review) fall outside that interval on both sides, and no second Run is subtracted, so their noise
does not enter either. The whole-Run times are reported next to it.

Per step, the reference Harness (``reference_harness.Harness``, public API, real SQLite file):
calls the scripted agent port on a daemon worker thread (reused between calls) bounded by the
model-call timeout, frames it with ``MODEL_CALL_STARTED``/``MODEL_CALL_FINISHED`` trace events
(each copied into the trace and again for the sink), validates the Tool Call ID against the
Run's accepted ids, validates the arguments (JSON Schema of the tool), emits
``TOOL_CALL_ACCEPTED``, writes the ``PROJECTING`` invocation and its
``INVOCATION_STATUS_CHANGED`` event, runs the no-op backend as an asyncio task bounded by the tool
timeout, builds the bounded projection, moves the invocation to ``READY``/``EVIDENCE_FOUND`` with
``INVOCATION_STATUS_CHANGED`` and ``EVIDENCE_CLASSIFIED``, and appends the tool message to the
conversation. At the end of the Run, EvidenceGuard validates the invocations the draft cites.
Neither scripted model reads the history it is handed: the comparison is of the loops' own
costs (a real model client would serialise the history on both sides alike).

Per step, pydantic-ai (``Agent`` with ``FunctionModel``): builds the model request from the whole
message history, calls the model function (``async``: inline; ``sync``: in a worker thread, like the
Harness's blocking model port), estimates token usage over the whole history, validates the
tool arguments with Pydantic, runs the ``async`` no-op tool and appends the messages. It keeps no
trace, no invocation records and no database row.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import itertools
import tempfile
import time
import tracemalloc
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel

from bench._result import BenchResult, Target
from bench._stats import Summary
from reference_harness import Harness, Limits, ScriptedAgent, ScriptedReviewer, ScriptedRouter
from reference_harness.ports import ToolRows
from reference_harness.store import RunStore

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models.function import AgentInfo

    from reference_harness.ports import (
        AcceptedToolCall,
        AgentAnswer,
        AgentRequest,
        CancelToken,
        ToolResult,
    )

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


class _ForgetfulAgent(ScriptedAgent):
    """The scripted agent, keeping no request once answered.

    ``ScriptedAgent`` keeps every request for inspection by tests; each request holds the
    history, so a 1,000-step Run would keep a million message references alive and the garbage
    collector would scan them all, over and over. pydantic-ai's ``FunctionModel`` keeps nothing
    either.
    """

    def step(self, request: AgentRequest, interrupt: threading.Event) -> AgentAnswer:
        """Answer the next turn and forget the request."""
        answer = super().step(request, interrupt)
        self.requests.clear()
        return answer


class TimeRange(BaseModel):
    """The ``time_range`` argument of the pydantic-ai tool (same shape as the Harness's)."""

    start_ms: int
    end_ms: int


_TOOL_MARKS: list[int] = []
"""``perf_counter_ns`` at each pydantic-ai tool call of the current Run."""


async def query_metrics(target: str, time_range: TimeRange, query: str) -> str:  # noqa: ARG001 - a no-op ignores its arguments
    """No-op metrics query: notes the time and answers ``ok``."""
    _TOOL_MARKS.append(time.perf_counter_ns())
    return "ok"


def _per_step_ns(marks: list[int]) -> float:
    """Mean ns between consecutive tool calls of one Run (first to last)."""
    if len(marks) < 2:
        msg = "a per-step time needs at least two tool calls in the Run"
        raise ValueError(msg)
    return (marks[-1] - marks[0]) / (len(marks) - 1)


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
    # pydantic-ai is imported where the benchmark runs it (importing bench costs no pydantic-ai)
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart  # noqa: PLC0415

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
        self.last_step_ns = 0.0

    def _harness(self, steps: int) -> Harness:
        return Harness(
            store=self._store,
            router=ScriptedRouter([{"kind": "intent", "intent": "DIAGNOSIS"}]),
            agent=_ForgetfulAgent(_agent_turns(steps)),
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
        marks: list[int] = []

        def sink(frame: dict[str, Any]) -> None:
            frames.append(frame)
            if frame["data"].get("type") == "TOOL_CALL_ACCEPTED":
                marks.append(time.perf_counter_ns())

        async def timed() -> tuple[int, Any]:
            gc.collect()  # outside the timed region: nobody pays for another Run's garbage
            start = time.perf_counter_ns()
            row = await harness.run(session, _MESSAGE, sink=sink)
            return time.perf_counter_ns() - start, row

        elapsed, row = self._loop.run_until_complete(timed())
        state = getattr(row.state, "value", row.state)
        invocations = sum(1 for f in frames if f["data"].get("type") == "TOOL_CALL_ACCEPTED")
        if state != "SUCCESS" or invocations != steps:
            msg = f"Harness Run ended {state} with {invocations} invocations, not SUCCESS/{steps}"
            raise AssertionError(msg)
        self.last_step_ns = _per_step_ns(marks) if steps > 1 else 0.0
        return elapsed


class _PydanticAISide:
    """Runs pydantic-ai's agent loop with a scripted ``FunctionModel``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, threaded: bool) -> None:
        self._loop = loop
        self._threaded = threaded
        self.last_step_ns = 0.0

    def _agent(self, steps: int) -> Agent[None, str]:
        from pydantic_ai import Agent, Tool  # noqa: PLC0415 - see _responses
        from pydantic_ai.models.function import FunctionModel  # noqa: PLC0415

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
        from pydantic_ai.messages import ToolReturnPart  # noqa: PLC0415 - see _responses
        from pydantic_ai.usage import UsageLimits  # noqa: PLC0415

        agent = self._agent(steps)
        limits = UsageLimits(request_limit=steps + 2)

        _TOOL_MARKS.clear()

        async def timed() -> tuple[int, Any]:
            gc.collect()  # outside the timed region: nobody pays for another Run's garbage
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
        self.last_step_ns = _per_step_ns(_TOOL_MARKS) if steps > 1 else 0.0
        return elapsed


def _peak_bytes(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


LENGTHS: Final = (10, 50, 200, 1000)
"""Run lengths (tool-call steps) at which the per-step cost is measured."""
FLAT_SPREAD: Final = 1.5
"""Target: the Harness's µs/step at every length within this factor of each other."""
_SLOW_SIDE_LIMIT: Final = 200
"""The threaded pydantic-ai variant is measured up to this length only (a 1,000-step pydantic-ai
Run takes about a minute here; its async variant stands for it at 1,000 steps)."""


STEPS_PER_ROUND: Final = 500
"""Per round, a length ``n`` runs ``ceil(500 / n)`` times per contender (about 500 steps)."""


def measure(
    *,
    lengths: tuple[int, ...] = LENGTHS,
    rounds: int = 3,
    warmup: int = 1,
    steps_per_round: int = STEPS_PER_ROUND,
) -> BenchResult:
    """Measure the per-step cost of both loops at each run length, interleaved, in this process.

    Args:
        lengths: tool-call steps whose cost is measured, each inside a Run of ``steps + 1``
            tool calls (first to last call).
        rounds: measured rounds; each round runs every length ``n``
            ``ceil(steps_per_round / n)`` times per contender, lengths and contenders in
            alternating order.
        warmup: discarded rounds (lengths up to 200 steps only).
        steps_per_round: see ``rounds``.

    Returns:
        A :class:`BenchResult` with µs per step for each contender and length, whole-Run times,
        tracemalloc peaks at the longest length, and the targets "Harness <= 0.5x pydantic-ai at
        every length" and "Harness µs/step flat within 1.5x across lengths".
    """
    loop = asyncio.new_event_loop()
    try:
        with tempfile.TemporaryDirectory(prefix="srdh-bench-") as folder:
            # a real SQLite file; no fsync (the Run rows are written per Run, not per step, and
            # an fsync under I/O load only adds noise to the whole-Run times)
            store = RunStore(Path(folder) / "runs.sqlite3", durable=False)
            try:
                return _measure(
                    loop,
                    store,
                    lengths=lengths,
                    rounds=rounds,
                    warmup=warmup,
                    budget=steps_per_round,
                )
            finally:
                store.close()
    finally:
        loop.close()


def _repeats(steps: int, budget: int) -> int:
    return max(1, -(-budget // max(steps, 1)))


def _measure(  # noqa: PLR0913 - the loop, the store and the sizes of the measurement
    loop: asyncio.AbstractEventLoop,
    store: RunStore,
    *,
    lengths: tuple[int, ...],
    rounds: int,
    warmup: int,
    budget: int,
) -> BenchResult:
    sides: dict[str, _HarnessSide | _PydanticAISide] = {
        HARNESS: _HarnessSide(loop, store),
        PAI_ASYNC: _PydanticAISide(loop, threaded=False),
        PAI_SYNC: _PydanticAISide(loop, threaded=True),
    }
    present = {
        steps: [n for n in sides if n != PAI_SYNC or steps <= _SLOW_SIDE_LIMIT] for steps in lengths
    }
    per_step: dict[int, dict[str, list[float]]] = {
        steps: {name: [] for name in names} for steps, names in present.items()
    }
    whole: dict[int, dict[str, list[float]]] = {
        steps: {name: [] for name in names} for steps, names in present.items()
    }
    # Every round runs every length and every contender, alternating the orders, so that a
    # drift of the machine's load reaches all lengths alike. Warm-up rounds skip the lengths
    # above _SLOW_SIDE_LIMIT (a minute each on the pydantic-ai side).
    for index in range(warmup + rounds):
        measured = index >= warmup
        order = list(lengths) if index % 2 == 0 else list(reversed(lengths))
        for steps in order:
            if not measured and steps > _SLOW_SIDE_LIMIT:
                continue
            for repeat in range(_repeats(steps, budget)):
                names = present[steps] if (index + repeat) % 2 == 0 else present[steps][::-1]
                for name in names:
                    side = sides[name]
                    elapsed = side.once(steps + 1)
                    if measured:
                        whole[steps][name].append(float(elapsed))
                        per_step[steps][name].append(side.last_step_ns / 1000)
    cells = {steps: {"per_step": per_step[steps], "whole": whole[steps]} for steps in lengths}
    longest = max(lengths)
    peaks = {
        name: _peak_bytes(functools.partial(side.once, longest + 1))
        for name, side in sides.items()
        if name == HARNESS or longest <= _SLOW_SIDE_LIMIT
    }
    return _report(cells, peaks)


def _report(cells: dict[int, dict[str, Any]], peaks: dict[str, int]) -> BenchResult:
    version = metadata.version("pydantic-ai-slim")
    lengths = sorted(cells)
    result = BenchResult(
        name=NAME,
        title=f"Harness overhead per tool-call step at {', '.join(map(str, lengths))} no-op "
        f"steps vs pydantic-ai {version}",
        columns=[
            "loop",
            "steps",
            "rounds",
            "us/step (first to last tool call)",
            "whole Run of steps + 1, ms",
            "Harness / this (medians)",
        ],
    )
    contenders: dict[str, dict[str, Any]] = {}
    harness_medians: dict[int, float] = {}
    for steps in lengths:
        per_step, whole = cells[steps]["per_step"], cells[steps]["whole"]
        harness_medians[steps] = Summary.of(per_step[HARNESS]).median
        for name, steps_us in per_step.items():
            step = Summary.of(steps_us)
            run = Summary.of(whole[name]).scaled(1e-6)
            ratio = harness_medians[steps] / step.median if step.median > 0 else None
            contenders.setdefault(name, {"peak_bytes": peaks.get(name), "lengths": {}})
            contenders[name]["lengths"][str(steps)] = {
                "us_per_step": step.as_dict(),
                "run_ms": run.as_dict(),
                "harness_over_this": ratio,
            }
            result.rows.append(
                [
                    name,
                    str(steps),
                    str(step.n),
                    step.text(),
                    run.text(2),
                    "-" if name == HARNESS else _ratio_text(ratio),
                ]
            )
            if name != HARNESS:
                met = ratio is not None and ratio <= TARGET_RATIO
                result.targets.append(
                    Target(
                        goal=f"Harness us/step <= {TARGET_RATIO}x {name} at {steps} steps",
                        measured=_ratio_text(ratio),
                        met=met,
                        margin=_margin(ratio, met),
                    )
                )
    positive = [v for v in harness_medians.values() if v > 0]
    spread = max(positive) / min(positive) if len(positive) == len(harness_medians) else None
    result.targets.append(
        Target(
            goal=f"Harness us/step within {FLAT_SPREAD}x across {', '.join(map(str, lengths))} "
            "steps",
            measured="n/a (noise)" if spread is None else f"{spread:.2f}x",
            met=spread is not None and spread <= FLAT_SPREAD,
            margin="-" if spread is None else f"max/min of the per-length medians = {spread:.2f}",
        )
    )
    result.data = {
        "lengths": lengths,
        "pydantic_ai_slim": version,
        "contenders": contenders,
        "harness_spread": spread,
    }
    result.notes.append(
        "us/step = (time of the last tool call - time of the first) / steps, inside one Run of "
        "steps + 1 tool calls (Harness: when TOOL_CALL_ACCEPTED reaches the sink; pydantic-ai: "
        "when its tool function runs), median over rounds; the ratio column divides the "
        "medians. Per-Run fixed costs (SQLite rows, routing, EvidenceGuard, SemanticGuard "
        "review on the Harness side) fall outside the measured interval on both sides, and no "
        "other Run is subtracted, so their noise does not enter. A full gc.collect() runs "
        "before every timed Run. Peak memory (tracemalloc) at the longest length: "
        + ", ".join(f"{n} {b / 1024:,.0f} KiB" for n, b in peaks.items())
        + "."
    )
    if max(lengths) > _SLOW_SIDE_LIMIT:
        result.notes.append(
            f"{PAI_SYNC} is measured up to {_SLOW_SIDE_LIMIT} steps; beyond, only the async "
            "variant (the cheaper of the two) is the baseline."
        )
    return result


def _margin(ratio: float | None, met: bool) -> str:  # noqa: FBT001 - a verdict and its number
    if ratio is None:
        return "not measurable: noise exceeded the per-step cost"
    if met:
        return f"met with {TARGET_RATIO / ratio:.1f}x headroom"
    return f"missed: {ratio / TARGET_RATIO:.1f}x over the target"


def _ratio_text(ratio: float | None) -> str:
    return "n/a (noise)" if ratio is None else f"{ratio:.2f}x"


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark at every length (``quick``: fewer rounds, up to 200 steps)."""
    if quick:
        return measure(lengths=(10, 50, 200), rounds=2, warmup=1)
    return measure(rounds=3, warmup=1)
