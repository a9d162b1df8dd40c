"""The mutation run: copy, enumerate (Cosmic Ray), sample, mutate, kill with the suite, report.

Steps (:func:`run`):

1. copy ``reference_harness/`` to a temporary directory (the working tree is never mutated) and
   check that an IUT started with that ``PYTHONPATH`` imports the copy;
2. baseline: the whole suite over stdio against the unmutated copy; scenarios that fail there are
   left out of every later run (and reported), so a kill always comes from a scenario the
   reference passes;
3. ``cosmic_ray.commands.init`` enumerates every mutation of the target modules; mutations outside
   a target's rule functions, inside annotations (never evaluated: PEP 563) or on an
   ``if TYPE_CHECKING:`` line are dropped and counted;
4. a seeded random sample (or all) is applied one at a time with
   ``cosmic_ray.mutating.use_mutation`` (which restores the file) and judged by
   :mod:`bench.mutation._kill` through
   ``cosmic_ray.testing.run_tests`` (a timeout counts as killed, as in Cosmic Ray); the scenarios
   that killed earlier mutants run first;
5. the scenarios that killed something are re-run on the unmutated copy (a kill by a scenario that
   is flaky there is reported as such, not as a kill);
6. with ``survivors_of`` (a recorded ``results.json``), steps 3-4 judge only that run's
   survivors, found again by :mod:`bench.mutation._rerun`, and the summary merges the recorded
   kills with the new verdicts;
7. results: ``<out>/results.json`` (every mutant: module, line, operator, diff, verdict, killing
   scenario and rule ids), ``<out>/survivors.md``, and Cosmic Ray's session database
   ``<out>/session.sqlite`` (``cr-report`` reads it).
"""

from __future__ import annotations

import ast
import json
import os
import queue
import random
import shlex
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cosmic_ray.commands.init import init as cr_init
from cosmic_ray.mutating import _make_diff, use_mutation
from cosmic_ray.plugins import get_operator
from cosmic_ray.testing import run_tests
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult

from bench.mutation._config import PACKAGE, TARGETS, Target, package_root
from bench.mutation._kill import iut_command, iut_env, kill
from bench.mutation._order import ORDER_ENV
from bench.mutation._rerun import Match, carried_records, load_survivors, match_survivors
from contracts import load_json_file

__all__ = ["Options", "run", "select_targets"]

_Span = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Options:
    """What to run.

    Attributes:
        modules: target paths (relative to ``reference_harness``) to mutate; empty: all targets.
        sample: how many mutants to try (``None``: all of them).
        seed: the seed of the random sample.
        out: the directory for results (created).
        mutant_timeout_s: the bound on one killer run (seconds); over it the mutant is killed.
        message_timeout_s: the adapter's bound on each IUT message (seconds).
        workers: mutants judged at the same time (each on its own copy of the package).
        survivors_of: a recorded ``results.json``: judge only its survivors (``sample``, ``seed``
            and ``modules`` are then ignored).
        exclude: recorded ``results.json`` files whose mutants (by module, operator, occurrence)
            are left out of the sample after it is drawn: ``--sample 300 --seed S --exclude
            <the --sample 150 --seed S results>`` runs the 150 mutants that extend the first
            sample to the seeded 300 (``random.sample`` draws a prefix-stable sequence).
    """

    modules: tuple[str, ...] = ()
    sample: int | None = None
    seed: int = 0
    out: Path = Path("bench/out/mutation")
    mutant_timeout_s: float = 240.0
    message_timeout_s: float = 20.0
    workers: int = 1
    survivors_of: Path | None = None
    exclude: tuple[Path, ...] = ()


@dataclass(slots=True)
class _Plan:
    items: list[WorkItem] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)


def select_targets(modules: tuple[str, ...]) -> tuple[Target, ...]:
    """Return the targets named by ``modules`` (all when empty).

    Raises:
        ValueError: a name is not a configured target (the message lists the known ones).
    """
    if not modules:
        return TARGETS
    known = {t.path: t for t in TARGETS}
    unknown = [m for m in modules if m not in known]
    if unknown:
        message = f"unknown module(s) {', '.join(unknown)}; known: {', '.join(known)}"
        raise ValueError(message)
    return tuple(known[m] for m in modules)


def _spans(tree: ast.AST, names: tuple[str, ...]) -> tuple[list[_Span], list[_Span], set[int]]:
    """Spans of the named functions, spans of annotations, lines of ``if TYPE_CHECKING:``."""
    functions: list[_Span] = []
    annotations: list[_Span] = []
    typing_lines: set[int] = set()

    def span(node: ast.AST) -> _Span:
        end_line = node.end_lineno if node.end_lineno is not None else node.lineno  # type: ignore[attr-defined]
        end_col = node.end_col_offset if node.end_col_offset is not None else 0  # type: ignore[attr-defined]
        return (node.lineno, node.col_offset), (end_line, end_col)  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name in names:
                functions.append(span(node))
            if node.returns is not None:
                annotations.append(span(node.returns))
        elif isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            annotations.append(span(node.annotation))
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_lines.add(node.test.lineno)
    return functions, annotations, typing_lines


def _bare_star(lines: list[str], start: tuple[int, int]) -> bool:
    """Whether ``start`` is a keyword-only marker ``*`` (then ``,`` or ``)``), not ``a * b``."""
    line_no, col = start
    if not 1 <= line_no <= len(lines):
        return False
    line = lines[line_no - 1]
    return line[col : col + 1] == "*" and line[col + 1 :].lstrip()[:1] in {",", ")"}


def _inside(start: tuple[int, int], end: tuple[int, int], spans: list[_Span]) -> bool:
    return any(lo <= start and end <= hi for lo, hi in spans)


def _plan(db: WorkDB, targets: tuple[Target, ...], copy_root: Path) -> _Plan:
    plan = _Plan()
    by_path = {str(copy_root / PACKAGE / t.path): t for t in targets}
    sources = {path: Path(path).read_text(encoding="utf-8") for path in by_path}
    spans = {
        path: _spans(ast.parse(sources[path]), target.functions) for path, target in by_path.items()
    }
    lines = {path: source.splitlines() for path, source in sources.items()}
    for item in db.work_items:
        (mutation,) = item.mutations
        target = by_path[str(mutation.module_path)]
        functions, annotations, typing_lines = spans[str(mutation.module_path)]
        reason = None
        if target.functions and not _inside(mutation.start_pos, mutation.end_pos, functions):
            reason = "outside the rule functions"
        elif _inside(mutation.start_pos, mutation.end_pos, annotations):
            reason = "inside an annotation (not evaluated, PEP 563)"
        elif mutation.start_pos[0] in typing_lines:
            reason = "on an `if TYPE_CHECKING:` line"
        elif _bare_star(lines[str(mutation.module_path)], mutation.start_pos):
            reason = "the bare `*` of a signature (Cosmic Ray takes it for an operator)"
        if reason is None:
            plan.items.append(item)
        else:
            plan.dropped[reason] = plan.dropped.get(reason, 0) + 1
            db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    plan.items.sort(
        key=lambda i: (
            str(i.mutations[0].module_path),
            i.mutations[0].operator_name,
            i.mutations[0].occurrence,
        )
    )
    return plan


def _check_copy_is_imported(copy_root: Path) -> None:
    import subprocess  # noqa: PLC0415 - only here

    argv = [*iut_command()[:2], "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"]
    found = subprocess.run(  # noqa: S603 - our own interpreter, fixed arguments
        argv, env=iut_env(copy_root), capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(copy_root.resolve()):
        message = f"the IUT would import {found}, not the copy under {copy_root}"
        raise RuntimeError(message)


def _killer_command(copy_root: Path, result: Path, scenarios: list[str], timeout_s: float) -> str:
    argv = [
        sys.executable,
        "-m",
        "bench.mutation._kill",
        "--source",
        str(copy_root),
        "--result",
        str(result),
        "--timeout-s",
        str(timeout_s),
    ]
    for scenario in scenarios:
        argv += ["--scenario", scenario]
    return shlex.join(argv)


def _log(text: str) -> None:
    print(text, flush=True)


def _targets(
    options: Options,
) -> tuple[tuple[Target, ...], tuple[list[dict[str, Any]], dict[str, Any]] | None]:
    """The targets to enumerate, and the recorded (survivors, summary) of a re-run."""
    if options.survivors_of is None:
        return select_targets(options.modules), None
    recorded = load_survivors(options.survivors_of)
    if not recorded[0]:
        message = f"{options.survivors_of}: the recorded run has no survivors to re-run"
        raise ValueError(message)
    modules = {str(r["module"]) for r in recorded[0]}
    return tuple(t for t in TARGETS if t.path in modules), recorded


def run(options: Options) -> dict[str, Any]:  # noqa: C901, PLR0915 - one linear procedure
    """Run the mutation test and write its results under ``options.out``; return the summary.

    Raises:
        ValueError: an unknown module name, or an unreadable ``survivors_of`` file.
        RuntimeError: the copy is not what the IUT imports, or the baseline cannot run.
    """
    targets, recorded = _targets(options)
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="srdh-mutation-") as tmp:
        copy_root = Path(tmp) / "src"
        shutil.copytree(
            package_root(), copy_root / PACKAGE, ignore=shutil.ignore_patterns("__pycache__")
        )
        _check_copy_is_imported(copy_root)
        from conformance.suite import load_catalogue  # noqa: PLC0415 - heavy, only when running

        every = [entry.scenario_id for entry in load_catalogue()]
        _log(f"baseline: the whole suite over stdio against the unmutated copy ({len(every)} ids)")
        t0 = time.monotonic()
        baseline = kill(copy_root, timeout_s=options.message_timeout_s, fail_fast=False)
        baseline_s = time.monotonic() - t0
        red = sorted(set(baseline["failed"]))
        if "hello" in red:
            message = f"the unmutated reference does not start over stdio: {baseline['message']}"
            raise RuntimeError(message)
        scenarios = [s for s in dict.fromkeys(every) if s not in red]
        _log(f"baseline: {baseline_s:.1f} s, {len(red)} scenario(s) red on the reference: {red}")
        session = out / "session.sqlite"
        session.unlink(missing_ok=True)
        order_file = Path(tmp) / "order.json"
        order_file.write_text("[]", encoding="utf-8")
        os.environ[ORDER_ENV] = str(order_file)
        killers: dict[str, int] = {}
        records: list[dict[str, Any]] = []
        with use_db(str(session), WorkDB.Mode.create) as db:
            paths = [copy_root / PACKAGE / t.path for t in targets]
            cr_init(paths, db, {})
            total_enumerated = db.num_work_items
            plan = _plan(db, targets, copy_root)
            chosen = list(plan.items)
            matches: dict[str, Match] = {}
            gone: list[Match] = []
            if recorded is not None:
                found = match_survivors(recorded[0], plan.items, copy_root / PACKAGE)
                matches = {m.item.job_id: m for m in found if m.item is not None}
                gone = [m for m in found if m.item is None]
                chosen = [m.item for m in found if m.item is not None]
                _log(
                    f"survivors of {options.survivors_of}: {len(found)} recorded, "
                    f"{len(chosen)} found ({sum(m.how == 'moved' for m in found)} moved), "
                    f"{len(gone)} gone"
                )
            elif options.sample is not None and options.sample < len(chosen):
                draw = random.Random(options.seed)  # noqa: S311 - a reproducible sample, no secret
                chosen = draw.sample(chosen, options.sample)
            if options.exclude:
                done = _judged(options.exclude)
                chosen = [i for i in chosen if _key(i, copy_root) not in done]
            _log(
                f"mutants: {total_enumerated} enumerated, {sum(plan.dropped.values())} dropped "
                f"{plan.dropped}, {len(plan.items)} eligible, {len(chosen)} to run"
            )
            copies = [copy_root]
            for index in range(1, options.workers):
                extra = Path(tmp) / f"src{index}"
                shutil.copytree(copy_root, extra)
                copies.append(extra)
            lock = threading.Lock()

            def one(item: WorkItem, worker_root: Path) -> dict[str, Any] | None:
                (mutation,) = item.mutations
                relative = Path(mutation.module_path).relative_to(copy_root / PACKAGE).as_posix()
                module_path = worker_root / PACKAGE / relative
                operator = get_operator(mutation.operator_name)(**mutation.operator_args)
                result_file = worker_root / "verdict.json"
                result_file.unlink(missing_ok=True)
                t0 = time.monotonic()
                with use_mutation(module_path, operator, mutation.occurrence) as (
                    original,
                    mutated,
                ):
                    if mutated is None:
                        return None
                    diff = "\n".join(_make_diff(original, mutated, relative))
                    try:
                        compile(mutated, str(module_path), "exec")
                    except SyntaxError as error:
                        outcome, output = TestOutcome.INCOMPETENT, f"SyntaxError: {error}"
                    else:
                        command = _killer_command(
                            worker_root, result_file, scenarios, options.message_timeout_s
                        )
                        outcome, output = run_tests(command, options.mutant_timeout_s)
                verdict: dict[str, Any] = {}
                if result_file.exists():
                    verdict = load_json_file(result_file)
                return {
                    "job_id": item.job_id,
                    "module": relative,
                    "line": mutation.start_pos[0],
                    "column": mutation.start_pos[1],
                    "operator": mutation.operator_name,
                    "occurrence": mutation.occurrence,
                    "definition": mutation.definition_name,
                    "status": _status(outcome, output, verdict),
                    "scenario": verdict.get("scenario"),
                    "nodeid": verdict.get("nodeid"),
                    "rules": verdict.get("rules", []),
                    "message": verdict.get("message", "") or (output or "")[-600:],
                    "seconds": round(time.monotonic() - t0, 1),
                    "diff": diff,
                    "output": json.dumps(verdict),
                }

            free: queue.SimpleQueue[Path] = queue.SimpleQueue()
            for path in copies:
                free.put(path)

            def task(item: WorkItem) -> tuple[WorkItem, dict[str, Any] | None]:
                worker_root = free.get()
                try:
                    return item, one(item, worker_root)
                finally:
                    free.put(worker_root)

            def record_result(item: WorkItem, record: dict[str, Any] | None) -> None:
                if record is None:
                    db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.NO_TEST))
                    return
                output = record.pop("output")
                records.append(record)
                test_outcome = {
                    "survived": TestOutcome.SURVIVED,
                    "error": TestOutcome.INCOMPETENT,
                    "incompetent": TestOutcome.INCOMPETENT,
                }
                db.set_result(
                    item.job_id,
                    WorkResult(
                        worker_outcome=WorkerOutcome.NORMAL,
                        test_outcome=test_outcome.get(record["status"], TestOutcome.KILLED),
                        output=output,
                        diff=record["diff"],
                    ),
                )
                if item.job_id in matches:
                    match = matches[item.job_id]
                    record["rerun"] = {
                        "match": match.how,
                        "recorded_line": match.recorded.get("line"),
                        "recorded_occurrence": match.recorded.get("occurrence"),
                    }
                if record["nodeid"] and record["nodeid"] != "hello":
                    killers[record["nodeid"]] = killers.get(record["nodeid"], 0) + 1
                    ranked = sorted(killers, key=lambda k: -killers[k])
                    order_file.write_text(json.dumps(ranked), encoding="utf-8")
                _log(
                    f"[{len(records)}/{len(chosen)}] {record['status']:8} "
                    f"{record['module']}:{record['line']} {record['operator']} "
                    f"#{record['occurrence']} {record['seconds']}s "
                    f"{record['scenario'] or ''} {record['rules']}"
                )
                _write(out, {"partial": True, "mutants": records})

            with ThreadPoolExecutor(max_workers=options.workers) as pool:
                futures = [pool.submit(task, item) for item in chosen]
                for future in as_completed(futures):
                    item, record = future.result()
                    with lock:
                        record_result(item, record)
        killing = sorted(
            {
                r["scenario"]
                for r in records
                if r["status"] == "killed" and r["scenario"] not in (None, "hello")
            }
        )
        flaky: list[str] = []
        if killing:
            confirm = kill(
                copy_root,
                scenario_ids=killing,
                timeout_s=options.message_timeout_s,
                fail_fast=False,
            )
            flaky = sorted(set(confirm["failed"]))
            for record in records:
                if record["status"] == "killed" and record["scenario"] in flaky:
                    record["status"] = "flaky-kill"
    records.extend(_gone_record(m) for m in gone)
    rerun_counts = _counts(records)
    if options.survivors_of is not None:
        records.extend(carried_records(options.survivors_of))
    records.sort(key=lambda r: (r["module"], r["line"], r["operator"], r["occurrence"]))
    summary = _summary(records, options, targets, plan, total_enumerated, red, flaky, baseline_s)
    if recorded is not None:
        summary.update(_rerun_summary(rerun_counts, recorded[1], options))
    summary["started_utc"] = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(started))
    summary["wall_s"] = round(time.time() - started, 1)
    summary["load_average_start"] = [round(x, 2) for x in load_start]
    summary["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    _write(out, {"summary": summary, "mutants": records})
    (out / "survivors.md").write_text(_survivors_markdown(records), encoding="utf-8")
    return summary


def _key(item: WorkItem, copy_root: Path) -> tuple[str, str, int]:
    (mutation,) = item.mutations
    relative = Path(mutation.module_path).relative_to(copy_root / PACKAGE).as_posix()
    return relative, mutation.operator_name, mutation.occurrence


def _judged(paths: tuple[Path, ...]) -> set[tuple[str, str, int]]:
    """(module, operator, occurrence) of every mutant recorded in ``paths`` (``results.json``).

    Raises:
        ValueError: a file is unreadable or holds no ``mutants`` list.
    """
    found: set[tuple[str, str, int]] = set()
    for path in paths:
        try:
            document = load_json_file(path)
        except (OSError, ValueError) as error:
            message = f"{path}: cannot read the recorded results: {error}"
            raise ValueError(message) from None
        mutants = document.get("mutants") if isinstance(document, dict) else None
        if not isinstance(mutants, list):
            message = f"{path}: expected an object with a 'mutants' list (a results.json)"
            raise ValueError(message)  # noqa: TRY004 - a user's file; the CLI reports ValueError
        found |= {(str(m["module"]), str(m["operator"]), int(m["occurrence"])) for m in mutants}
    return found


def _gone_record(match: Match) -> dict[str, Any]:
    """A recorded survivor whose change no longer exists in its module (not judged)."""
    recorded = match.recorded
    return {
        **{k: recorded.get(k) for k in ("module", "line", "operator", "occurrence", "diff")},
        "definition": recorded.get("definition"),
        "status": "gone",
        "scenario": None,
        "nodeid": None,
        "rules": [],
        "message": "the mutated code no longer exists in the current module",
        "seconds": 0.0,
        "rerun": {"match": "gone"},
    }


def _counts(records: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    return counts


def _rerun_summary(
    rerun: dict[str, int], recorded: dict[str, Any], options: Options
) -> dict[str, Any]:
    """What a re-run adds to the summary: the recorded run, and the verdicts of this re-run.

    The summary's own counts and ``raw_score`` then describe the whole sample: the recorded
    kills (carried) plus this re-run's verdicts on the recorded survivors.
    """
    return {
        "rerun_of": str(options.survivors_of),
        "sample": recorded.get("sample"),
        "seed": recorded.get("seed"),
        "recorded": {
            k: recorded.get(k)
            for k in ("started_utc", "tried", "killed", "survived", "raw_score", "counts")
        },
        "rerun": rerun,
    }


def _write(out: Path, document: dict[str, Any]) -> None:
    """Write ``results.json`` (after every mutant too, so an interrupted run keeps its results)."""
    (out / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _status(outcome: TestOutcome, output: str | None, verdict: dict[str, Any]) -> str:
    if outcome == TestOutcome.INCOMPETENT:
        return "incompetent"  # the mutated module does not compile: not a test of the suite
    if outcome == TestOutcome.KILLED and output == "timeout":
        return "timeout"
    if not verdict:
        return "error"  # the killer did not finish (setup error, crash of the killer itself)
    return "killed" if verdict["killed"] else "survived"


def _summary(  # noqa: PLR0913, PLR0917 - the parts of one report
    records: list[dict[str, Any]],
    options: Options,
    targets: tuple[Target, ...],
    plan: _Plan,
    enumerated: int,
    red: list[str],
    flaky: list[str],
    baseline_s: float,
) -> dict[str, Any]:
    counts = _counts(records)
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    judged = killed + counts.get("survived", 0)
    return {
        "targets": [
            t.path + (f"::{','.join(t.functions)}" if t.functions else "") for t in targets
        ],
        "enumerated": enumerated,
        "dropped": plan.dropped,
        "eligible": len(plan.items),
        "sample": options.sample,
        "seed": options.seed,
        "tried": len(records),
        "counts": counts,
        "killed": killed,
        "survived": counts.get("survived", 0),
        "raw_score": round(killed / judged, 4) if judged else None,
        "baseline_red_scenarios": red,
        "flaky_killers": flaky,
        "baseline_s": round(baseline_s, 1),
        "python": sys.version.split()[0],
        "workers": options.workers,
    }


def _survivors_markdown(records: list[dict[str, Any]]) -> str:
    lines = ["# Surviving mutants", ""]
    for record in records:
        if record["status"] != "survived":
            continue
        lines += [
            f"## {record['module']}:{record['line']} {record['operator']} #{record['occurrence']}",
            "",
            f"In `{record['definition']}`.",
            "",
            "```diff",
            record["diff"],
            "```",
            "",
        ]
    return "\n".join(lines) + "\n"
