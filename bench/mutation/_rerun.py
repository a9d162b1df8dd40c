"""Re-run the survivors of a recorded mutation run against the current checkout.

``python -m bench.mutation --survivors-of bench/out/mutation/results.json`` judges again, with the
current suite and the current ``reference_harness``, exactly the mutants a previous run recorded
as ``survived``: after merging branches that add checks, the score is refreshed without
re-running the mutants that were already killed (a kill stays a kill: checks are only added).

A recorded mutant is found again in the current enumeration by its module, its Cosmic Ray
operator and *the change it makes* (the ``-``/``+`` lines of its diff, whitespace-trimmed), not by
line number: code merged above it moves lines and may renumber occurrences. The same occurrence
is preferred; otherwise the candidate nearest to the recorded line is taken (``moved``). A
mutant whose change no longer exists in the module (the code it mutated was rewritten) is
reported ``gone`` and not judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cosmic_ray.mutating import _make_diff, mutate_code
from cosmic_ray.plugins import get_operator

from contracts import load_json_file

if TYPE_CHECKING:
    from collections.abc import Iterable

    from cosmic_ray.work_item import WorkItem

__all__ = ["Match", "carried_records", "change_lines", "load_survivors", "match_survivors"]


@dataclass(frozen=True, slots=True)
class Match:
    """A recorded survivor found again (``item``) or not (``item is None``: ``gone``).

    Attributes:
        recorded: the survivor's record from the earlier ``results.json``.
        item: the Cosmic Ray work item of the same mutation in the current enumeration.
        how: ``same`` (same occurrence, same change), ``moved`` (same change at another
            occurrence) or ``gone``.
    """

    recorded: dict[str, Any]
    item: WorkItem | None
    how: str


def load_survivors(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return (the ``survived`` records, the recorded summary) of a ``results.json``.

    Raises:
        ValueError: the file is missing, not strict JSON, or not a finished run's results (no
            ``summary``/``mutants``, or a record without ``module``/``operator``/``occurrence``/
            ``diff``); the message names the file.
    """
    try:
        document = load_json_file(path)
    except (OSError, ValueError) as error:
        message = f"{path}: cannot read the recorded results: {error}"
        raise ValueError(message) from None
    if not isinstance(document, dict) or not isinstance(document.get("mutants"), list):
        message = f"{path}: expected an object with a 'mutants' list (a results.json)"
        raise ValueError(message)  # noqa: TRY004 - a user's file; the CLI reports ValueError
    summary = document.get("summary")
    if not isinstance(summary, dict):
        message = f"{path}: no 'summary': the recorded run did not finish (partial results)"
        raise ValueError(message)  # noqa: TRY004 - a user's file; the CLI reports ValueError
    survivors = []
    for index, record in enumerate(document["mutants"]):
        if not isinstance(record, dict) or record.get("status") != "survived":
            continue
        missing = [k for k in ("module", "operator", "occurrence", "diff") if k not in record]
        if missing:
            message = f"{path}: /mutants/{index} lacks {', '.join(missing)}"
            raise ValueError(message)
        survivors.append(record)
    return survivors, summary


def carried_records(path: Path) -> list[dict[str, Any]]:
    """The recorded mutants that are not re-run (killed, timed out …), marked ``carried``.

    A re-run's ``results.json`` holds them too, so that it describes the whole sample and can
    itself be re-run later (``--survivors-of`` on a re-run's results).

    Raises:
        ValueError: as :func:`load_survivors`.
    """
    load_survivors(path)  # the same checks
    document = load_json_file(path)
    return [
        {**record, "carried": True}
        for record in document["mutants"]
        if isinstance(record, dict) and record.get("status") != "survived"
    ]


def change_lines(diff: str) -> tuple[str, ...]:
    """The removed and added lines of a unified diff, whitespace-trimmed (headers excluded)."""
    return tuple(
        line[0] + line[1:].strip()
        for line in diff.splitlines()
        if line[:1] in {"-", "+"} and not line.startswith(("---", "+++"))
    )


def _diff(item: WorkItem, source: str, relative: str) -> str | None:
    (mutation,) = item.mutations
    operator = get_operator(mutation.operator_name)(**mutation.operator_args)
    mutated = mutate_code(source, operator, mutation.occurrence)
    return None if mutated is None else "\n".join(_make_diff(source, mutated, relative))


def match_survivors(
    survivors: Iterable[dict[str, Any]], items: Iterable[WorkItem], package_dir: Path
) -> list[Match]:
    """Find each recorded survivor among ``items`` (the current eligible mutants).

    ``package_dir`` is the ``reference_harness`` directory the items' module paths lie in;
    a record's ``module`` is relative to it. Each current item matches at most one survivor.
    """
    by_key: dict[tuple[str, str], list[WorkItem]] = {}
    for item in items:
        (mutation,) = item.mutations
        relative = Path(mutation.module_path).relative_to(package_dir).as_posix()
        by_key.setdefault((relative, mutation.operator_name), []).append(item)
    sources: dict[str, str] = {}
    changes: dict[str, tuple[str, ...] | None] = {}
    taken: set[str] = set()
    found: list[Match] = []
    for record in survivors:
        module, operator = str(record["module"]), str(record["operator"])
        wanted = change_lines(str(record["diff"]))
        if module not in sources and (package_dir / module).is_file():
            sources[module] = (package_dir / module).read_text(encoding="utf-8")
        candidates = []
        for item in by_key.get((module, operator), []):
            if item.job_id in taken:
                continue
            if item.job_id not in changes:
                diff = _diff(item, sources[module], module)
                changes[item.job_id] = None if diff is None else change_lines(diff)
            if changes[item.job_id] == wanted:
                candidates.append(item)
        if not candidates:
            found.append(Match(record, None, "gone"))
            continue
        occurrence, line = int(record["occurrence"]), int(record.get("line", 0))
        candidates.sort(
            key=lambda i: (
                i.mutations[0].occurrence != occurrence,
                abs(i.mutations[0].start_pos[0] - line),
            )
        )
        best = candidates[0]
        taken.add(best.job_id)
        same = best.mutations[0].occurrence == occurrence
        found.append(Match(record, best, "same" if same else "moved"))
    return found
