"""Benchmark 5: the run store at 10k, 100k and 1M Runs in one session (real SQLite files).

One SQLite file per size, created by ``RunStore(path)`` (its own table, index and WAL mode), then
bulk-loaded through a second SQLAlchemy engine with Core ``insert`` executemany (the table is
reflected from the file, so the store's own schema is used as it is). Every row is one of the
terminal ``diagnosis-run`` examples of ``schemas/examples/diagnosis-run/valid/`` (SUCCESS with a
draft or a knowledge answer, FALLBACK of each type, FAILED of each code, CANCELLED) with its own
``run_id``, ``seq`` and times; the last 150 Runs are never eligible, so every selection skips 150
Runs (100 listed, 50 counted) before it finds the previous turn.

Measured, interleaved across the sizes (all stores open in this process):

* ``RunStore.select_previous_turn(session, newest seq + 1)`` latency;
* ``create_run`` + ``finish_run`` (CANCELLED) pairs per second: each pair is two ``BEGIN
  IMMEDIATE`` write transactions, each validating the row against the contract first.
"""

from __future__ import annotations

import functools
import itertools
import json
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import MetaData, create_engine, event, insert

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios, timed_ns
from contracts import canonical_json, schema_dir
from reference_harness.store import RunStore

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator, Sequence

__all__ = ["NAME", "SESSION", "build_store", "measure", "run"]

NAME: Final = "store"
SESSION: Final = "bench-session"
INELIGIBLE_TAIL: Final = 150
BATCH: Final = 20_000
FLATNESS: Final = 2.0
"""Target: from the smallest to the largest table, cost grows by at most this factor."""
T0_MS: Final = 1_700_000_000_000


def _templates() -> list[dict[str, Any]]:
    folder = schema_dir() / "examples" / "diagnosis-run" / "valid"
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]
    return [run for run in runs if run["state"] != "RUNNING"]


def _eligible(run: dict[str, Any]) -> bool:
    return bool(run["state"] == "SUCCESS" and run["intent"] == "DIAGNOSIS")


def _rows(count: int) -> Iterator[dict[str, Any]]:
    templates = _templates()
    ineligible = [run for run in templates if not _eligible(run)]
    texts = [
        None
        if run["published_result"] is None
        else canonical_json(run["published_result"]).decode()
        for run in templates
    ]
    ineligible_texts = [texts[templates.index(run)] for run in ineligible]
    anchor = next(index for index, run in enumerate(templates) if _eligible(run))
    for seq in range(1, count + 1):
        if seq == count - INELIGIBLE_TAIL:  # the previous turn every selection finds
            run, text = templates[anchor], texts[anchor]
        elif seq > count - INELIGIBLE_TAIL:
            index = seq % len(ineligible)
            run, text = ineligible[index], ineligible_texts[index]
        else:
            index = seq % len(templates)
            run, text = templates[index], texts[index]
        created = T0_MS + seq * 1000
        yield {
            "run_id": f"run-{seq}",
            "session_id": SESSION,
            "seq": seq,
            "user_message": run["user_message"],
            "intent": run["intent"],
            "state": run["state"],
            "published_result": text,
            "fallback_type": run["fallback_type"],
            "error_code": run["error_code"],
            "created_at_ms": created,
            "finished_at_ms": created + 500,
        }


def build_store(path: Path, count: int) -> RunStore:
    """Create the store file at ``path`` and bulk-load ``count`` Runs of one session into it."""
    store = RunStore(path)
    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _fast(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute(
            "PRAGMA synchronous = OFF"
        )  # bulk load only; the store keeps its own

    try:
        metadata = MetaData()
        metadata.reflect(engine, only=["diagnosis_run"])
        table = metadata.tables["diagnosis_run"]
        rows = _rows(count)
        with engine.begin() as connection:
            while batch := list(itertools.islice(rows, BATCH)):
                connection.execute(insert(table), batch)
    finally:
        engine.dispose()
    return store


class _Sized:
    """One store of one size: selection and insert measurements."""

    def __init__(self, store: RunStore, count: int) -> None:
        self.store = store
        self.count = count
        self._next_seq = count + 1
        self._ids = itertools.count(1)

    def select(self, repeats: int) -> float:
        def action() -> None:
            for _ in range(repeats):
                selection = self.store.select_previous_turn(SESSION, self.count + 1)
                if (
                    selection.selected is None
                    or len(selection.skipped) != RunStore.SKIPPED_LIMIT
                    or selection.skipped_omitted != INELIGIBLE_TAIL - RunStore.SKIPPED_LIMIT
                ):
                    found = None if selection.selected is None else selection.selected.run_id
                    msg = (
                        f"unexpected selection at {self.count:,} Runs: selected {found}, "
                        f"{len(selection.skipped)} skipped, {selection.skipped_omitted} omitted"
                    )
                    raise AssertionError(msg)

        return timed_ns(action) / repeats

    def insert(self, pairs: int) -> float:
        def action() -> None:
            for _ in range(pairs):
                run_id = f"bench-insert-{next(self._ids)}"
                now = int(time.time() * 1000)
                row = self.store.create_run(
                    run_id=run_id, session_id=SESSION, user_message="bench", now_ms=now
                )
                if row.seq != self._next_seq:
                    msg = f"create_run gave seq {row.seq}, expected {self._next_seq}"
                    raise AssertionError(msg)
                self._next_seq += 1
                self.store.finish_run(
                    run_id,
                    state="CANCELLED",
                    published_result=None,
                    fallback_type=None,
                    error_code=None,
                    now_ms=now + 1,
                )

        return timed_ns(action) / pairs


def measure(
    sizes: Sequence[int] = (10_000, 100_000, 1_000_000),
    *,
    rounds: int = 10,
    selections: int = 20,
    pairs: int = 20,
) -> BenchResult:
    """Build one store per size, then measure selection and inserts interleaved across sizes.

    Returns:
        A :class:`BenchResult` with build seconds, file size, selection latency and insert
        pairs per second per size, and the "within 2x" targets from the smallest to the largest.
    """
    with tempfile.TemporaryDirectory(prefix="srdh-bench-store-") as folder:
        stores: dict[int, _Sized] = {}
        built: dict[int, dict[str, float]] = {}
        try:
            for count in sizes:
                path = Path(folder) / f"runs-{count}.sqlite3"
                start = time.perf_counter_ns()
                stores[count] = _Sized(build_store(path, count), count)
                built[count] = {
                    "build_s": (time.perf_counter_ns() - start) / 1e9,
                    "file_mb": path.stat().st_size / 1e6,
                }
            select_values = interleave(
                {str(c): functools.partial(s.select, selections) for c, s in stores.items()},
                rounds=rounds,
            )
            insert_values = interleave(
                {str(c): functools.partial(s.insert, pairs) for c, s in stores.items()},
                rounds=rounds,
            )
        finally:
            for sized in stores.values():
                sized.store.close()
    return _report(sizes, built, select_values, insert_values)


def _report(
    sizes: Sequence[int],
    built: dict[int, dict[str, float]],
    select_values: dict[str, list[float]],
    insert_values: dict[str, list[float]],
) -> BenchResult:
    result = BenchResult(
        name=NAME,
        title="Run store: previous-turn selection and create_run+finish_run, Runs in one session",
        columns=[
            "Runs in session",
            "bulk load s",
            "file MB",
            "select_previous_turn us",
            "x smallest",
            "create+finish pairs/s",
            "pair ms",
            "x smallest (time)",
        ],
    )
    smallest, largest = str(min(sizes)), str(max(sizes))
    data: dict[str, Any] = {}
    for count in sizes:
        key = str(count)
        select = Summary.of(select_values[key]).scaled(1e-3)
        pair = Summary.of(insert_values[key]).scaled(1e-6)
        per_second = Summary.of([1e9 / value for value in insert_values[key]])
        select_ratio = Summary.of(paired_ratios(select_values[key], select_values[smallest]))
        insert_ratio = Summary.of(paired_ratios(insert_values[key], insert_values[smallest]))
        result.rows.append(
            [
                f"{count:,}",
                f"{built[count]['build_s']:.1f}",
                f"{built[count]['file_mb']:,.0f}",
                select.text(),
                f"{select_ratio.median:.2f}x",
                per_second.text(1),
                pair.text(2),
                f"{insert_ratio.median:.2f}x",
            ]
        )
        data[key] = {
            **built[count],
            "select_us": select.as_dict(),
            "select_vs_smallest": select_ratio.as_dict(),
            "pairs_per_s": per_second.as_dict(),
            "pair_ms": pair.as_dict(),
            "pair_vs_smallest": insert_ratio.as_dict(),
        }
    result.data = data
    for label, field in (
        ("previous-turn selection latency", "select_vs_smallest"),
        ("create_run+finish_run time per pair", "pair_vs_smallest"),
    ):
        growth = data[largest][field]["median"]
        met = growth <= FLATNESS
        result.targets.append(
            Target(
                goal=(
                    f"{label} within {FLATNESS:g}x from {int(smallest):,} to {int(largest):,} Runs"
                ),
                measured=f"{growth:.2f}x",
                met=met,
                margin=(
                    f"met ({FLATNESS / growth:.1f}x headroom)"
                    if met
                    else f"missed by {growth / FLATNESS:.1f}x"
                ),
            )
        )
    return result


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: 10k and 100k Runs, fewer rounds)."""
    if quick:
        return measure((10_000, 100_000), rounds=5)
    return measure((10_000, 100_000, 1_000_000), rounds=10)
