"""Benchmark 2: EvidenceGuard scaling with the size of the draft and of the Run.

A grid of valid Diagnosis Drafts (``analyses`` analyses, each an OBSERVATION citing one
``EVIDENCE_FOUND`` invocation, the conclusion, one action and one recommendation naming every
analysis) checked by ``reference_harness.guards.check_draft`` against ``invocations`` canonical
``ToolInvocation`` models of the Run. Next to it, interleaved per cell, python-jsonschema
(``contracts.validator_for("diagnosis-draft").iter_errors``, exhausted) validates the same draft:
the part of the guard's work every validator must do.

``check_draft`` does, in order: a walk proving the document is encodable JSON, the JSON Schema
(python-jsonschema, every error), the contract invariants, the binding rules over a view of
*every* invocation of the Run (``model_dump`` of each one), and finally builds the
``DiagnosisDraft`` model.

A third contender, interleaved with the two, calls ``check_draft`` with only the cited invocations
(the same verdict, since an uncited invocation cannot change it): the cost the guard would have if
it built views for cited Tool Call IDs only.
"""

from __future__ import annotations

import functools
import math
import tracemalloc
from typing import TYPE_CHECKING, Any, Final

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios, timed_ns
from conformance.builders import analysis, call_arguments, diagnosis_draft, query_scope
from contracts import ToolInvocation, validator_for
from reference_harness.guards import check_draft

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

__all__ = ["NAME", "invocations_of_run", "measure", "run", "sized_draft"]

NAME: Final = "guard"
RUN_ID: Final = "run-bench"
FLATNESS: Final = 2.0
"""Target: time per analysis varies by at most this factor from 10 to 1,000 analyses."""
MIN_SAMPLE_NS: Final = 2_000_000
"""Each measurement repeats the check until it lasts at least this long (2 ms)."""


@functools.lru_cache(maxsize=4)
def invocations_of_run(count: int) -> Mapping[str, ToolInvocation]:
    """Return ``count`` READY/EVIDENCE_FOUND invocations ``call_1`` ... of Run ``run-bench``."""
    arguments = call_arguments()
    invocations: dict[str, ToolInvocation] = {}
    for number in range(1, count + 1):
        tool_call_id = f"call_{number}"
        invocations[tool_call_id] = ToolInvocation.model_validate(
            {
                "tool_call_id": tool_call_id,
                "run_id": RUN_ID,
                "sequence": number,
                "step": number,
                "tool_name": "search_logs",
                "arguments": arguments,
                "status": "READY",
                "evidence_status": "EVIDENCE_FOUND",
                "projection": {
                    "query_scope": query_scope("search_logs", arguments),
                    "items": [{"text": f"checkout 503 upstream timeout #{number}"}],
                    "total_matched": 1,
                    "truncated": False,
                    "document_ids": [],
                },
                "error": None,
            }
        )
    return invocations


def sized_draft(analyses: int, invocations: int) -> dict[str, Any]:
    """Return a valid draft of ``analyses`` OBSERVATIONs citing ``call_1`` ... round robin."""
    items = [
        analysis(f"a{index}", "OBSERVATION", [f"call_{index % invocations + 1}"])
        for index in range(analyses)
    ]
    return diagnosis_draft(items)


def _repeated(action: Callable[[], object], repeats: int) -> Callable[[], float]:
    def measure_once() -> float:
        def loop() -> None:
            for _ in range(repeats):
                action()

        return timed_ns(loop) / repeats

    return measure_once


def _repeats_for(action: Callable[[], object]) -> int:
    once = max(timed_ns(action), 1)
    return max(1, math.ceil(MIN_SAMPLE_NS / once))


def measure(
    *,
    analyses: Sequence[int] = (10, 100, 1000),
    invocations: Sequence[int] = (100, 1000, 10_000),
    rounds: int = 10,
    warmup: int = 1,
) -> BenchResult:
    """Time ``check_draft`` and python-jsonschema on every (analyses, invocations) cell.

    Returns:
        A :class:`BenchResult`: us per draft and per analysis for both, their ratio, and the
        flatness target (per-analysis time from the smallest to the largest draft) per Run size.

    Raises:
        AssertionError: the guard rejected a valid draft or the schema reported an error.
    """
    schema = validator_for("diagnosis-draft")
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for count in invocations:
        known = invocations_of_run(count)
        for size in analyses:
            draft = sized_draft(size, count)

            def guard(draft: Any = draft, known: Mapping[str, ToolInvocation] = known) -> None:  # noqa: ANN401 - a JSON document
                verdict = check_draft(draft, run_id=RUN_ID, invocations=known)
                if not verdict.valid:
                    msg = f"EvidenceGuard rejected a valid draft: {verdict.violations[:3]}"
                    raise AssertionError(msg)

            def jsonschema_only(draft: Any = draft) -> None:  # noqa: ANN401 - a JSON document
                errors = list(schema.iter_errors(draft))
                if errors:
                    msg = f"the draft breaks its schema: {errors[0].message}"
                    raise AssertionError(msg)

            cited = {
                tool_call_id: known[tool_call_id]
                for item in draft["analyses"]
                for tool_call_id in item["tool_call_ids"]
            }
            cited_only = functools.partial(guard, draft, cited)
            values = interleave(
                {
                    "guard": _repeated(guard, _repeats_for(guard)),
                    "guard_cited": _repeated(cited_only, _repeats_for(cited_only)),
                    "jsonschema": _repeated(jsonschema_only, _repeats_for(jsonschema_only)),
                },
                rounds=rounds,
                warmup=warmup,
            )
            tracemalloc.start()
            guard()
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            cells[size, count] = {
                "guard_ns": values["guard"],
                "guard_cited_ns": values["guard_cited"],
                "jsonschema_ns": values["jsonschema"],
                "peak_bytes": peak,
            }
    return _report(analyses, invocations, cells)


def _report(
    analyses: Sequence[int],
    invocations: Sequence[int],
    cells: dict[tuple[int, int], dict[str, Any]],
) -> BenchResult:
    result = BenchResult(
        name=NAME,
        title="EvidenceGuard (check_draft) scaling vs python-jsonschema on the same draft",
        columns=[
            "invocations",
            "analyses",
            "guard us/draft",
            "guard us/analysis",
            "guard, cited invocations only: us/analysis",
            "jsonschema us/draft",
            "jsonschema us/analysis",
            "guard / jsonschema",
            "guard peak KiB",
        ],
    )
    data: list[dict[str, Any]] = []
    per_analysis: dict[int, dict[int, float]] = {}
    cited_per_analysis: dict[int, dict[int, float]] = {}
    for count in invocations:
        for size in analyses:
            cell = cells[size, count]
            guard = Summary.of(cell["guard_ns"]).scaled(1e-3)
            cited = Summary.of(cell["guard_cited_ns"]).scaled(1e-3)
            schema = Summary.of(cell["jsonschema_ns"]).scaled(1e-3)
            ratio = Summary.of(paired_ratios(cell["guard_ns"], cell["jsonschema_ns"]))
            per_analysis.setdefault(count, {})[size] = guard.median / size
            cited_per_analysis.setdefault(count, {})[size] = cited.median / size
            result.rows.append(
                [
                    f"{count:,}",
                    f"{size:,}",
                    guard.text(),
                    f"{guard.median / size:,.2f}",
                    f"{cited.median / size:,.2f}",
                    schema.text(),
                    f"{schema.median / size:,.2f}",
                    f"{ratio.median:.2f}x",
                    f"{cell['peak_bytes'] / 1024:,.0f}",
                ]
            )
            data.append(
                {
                    "invocations": count,
                    "analyses": size,
                    "guard_us_per_draft": guard.as_dict(),
                    "guard_cited_only_us_per_draft": cited.as_dict(),
                    "jsonschema_us_per_draft": schema.as_dict(),
                    "guard_over_jsonschema": ratio.as_dict(),
                    "guard_peak_bytes": cell["peak_bytes"],
                }
            )
    result.data = {"cells": data}
    smallest, largest = min(analyses), max(analyses)
    for count in invocations:
        values = per_analysis[count]
        spread = max(values.values()) / min(values.values())
        growth = values[largest] / values[smallest]
        cited_values = cited_per_analysis[count]
        cited_spread = max(cited_values.values()) / min(cited_values.values())
        met = spread <= FLATNESS
        result.targets.append(
            Target(
                goal=(
                    f"guard us/analysis flat within {FLATNESS:g}x from {smallest:,} to "
                    f"{largest:,} analyses ({count:,} invocations)"
                ),
                measured=(
                    f"{spread:.1f}x spread (us/analysis at {largest:,} / at {smallest:,}: "
                    f"{growth:.2f}x; cited invocations only: {cited_spread:.1f}x spread)"
                ),
                met=met,
                margin=(
                    f"met ({FLATNESS / spread:.1f}x headroom)"
                    if met
                    else f"missed by {spread / FLATNESS:.1f}x"
                ),
            )
        )
    if len(invocations) > 1:
        low, high = min(invocations), max(invocations)
        slope = (
            (per_analysis[high][smallest] - per_analysis[low][smallest]) * smallest / (high - low)
        )
        result.data["guard_us_per_extra_invocation"] = slope
        result.notes.append(
            f"At {smallest:,} analyses each further invocation of the Run (cited or not) adds "
            f"~{slope:.2f} us to a draft check; check_draft builds views only for the Tool Call "
            "IDs the draft cites, so this should stay near zero."
        )
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: Runs of 100 and 1,000 invocations, fewer rounds)."""
    if quick:
        return measure(invocations=(100, 1000), rounds=5)
    return measure(rounds=10)
