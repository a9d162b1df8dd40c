"""Is an archived change merged into the main spec? (an archive counts only when complete).

``openspec archive ID`` moves ``openspec/changes/ID/`` to ``openspec/changes/archive/<date>-ID/``
*and* merges its delta specs into ``openspec/specs/``. A commit holding only the moved folder is
half an archive. For each requirement an archived delta touches, the *last* archived change (in
plan order) that touches it decides what the main spec must say: an ADDED or MODIFIED
requirement is there with the delta's words (body and scenarios), a REMOVED one is gone, a
RENAMED one is there under its new name and gone under the old one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance.openspec import ParseError, parse_delta, parse_spec

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from conformance.openspec import Requirement

__all__ = ["unmerged"]


def _words(requirement: Requirement) -> tuple[object, ...]:
    scenarios = tuple(
        (s.name, tuple((st.keyword, st.text) for st in s.steps)) for s in requirement.scenarios
    )
    return (requirement.text, scenarios)


def _delta_files(folder: Path) -> list[Path]:
    specs = folder / "specs"
    return sorted(specs.glob("*/spec.md")) if specs.is_dir() else []


_Expected = dict[tuple[str, str], tuple[str, "tuple[object, ...] | None"]]


def _expectations(
    archives: Sequence[tuple[str, Path]], problems: dict[str, list[str]]
) -> _Expected:
    """(capability, requirement) -> (the last change touching it, its words; None = removed)."""
    expected: _Expected = {}
    for change_id, folder in archives:
        for delta_path in _delta_files(folder):
            capability = delta_path.parent.name
            try:
                delta = parse_delta(delta_path)
            except ParseError as error:
                problems.setdefault(change_id, []).append(str(error))
                continue
            for section in delta.sections:
                for requirement in section.requirements:
                    expected[(capability, requirement.name)] = (change_id, _words(requirement))
                for name in section.removed:
                    expected[(capability, name)] = (change_id, None)
                for rename in section.renames:
                    old = expected.get((capability, rename.from_name), (change_id, ()))[1]
                    expected[(capability, rename.from_name)] = (change_id, None)
                    expected.setdefault((capability, rename.to_name), (change_id, old or ()))
    return expected


def _main_words(root: Path, capability: str) -> dict[str, tuple[object, ...]] | None:
    path = root / "openspec" / "specs" / capability / "spec.md"
    try:
        spec = parse_spec(path) if path.is_file() else None
    except ParseError:
        spec = None
    return {r.name: _words(r) for r in spec.requirements} if spec is not None else None


def _problem(
    where: str, name: str, words: tuple[object, ...] | None, main: dict[str, Any] | None
) -> str | None:
    if main is None:
        return f"{where} is missing (the archive merges its delta there)"
    if words is None:
        return (
            f"{where} still has requirement {name!r}, which the delta removes"
            if name in main
            else None
        )
    if name not in main:
        return f"{where} lacks requirement {name!r} of the delta"
    if words and main[name] != words:
        return f"{where}: requirement {name!r} lacks the delta's words"
    return None


def unmerged(root: Path, archives: Sequence[tuple[str, Path]]) -> dict[str, list[str]]:
    """What each archived change's deltas say that ``root/openspec/specs`` does not.

    ``archives`` lists ``(change id, archive folder)`` in plan order. Returns change id -> one
    line per missing merge (``openspec/specs/cap/spec.md: requirement "X" lacks the delta's
    words``); a change merged completely has no entry. A file that cannot be parsed is one line.
    """
    problems: dict[str, list[str]] = {}
    expected = _expectations(archives, problems)
    mains: dict[str, dict[str, Any] | None] = {}
    for (capability, name), (change_id, words) in sorted(expected.items()):
        if capability not in mains:
            mains[capability] = _main_words(root, capability)
        line = _problem(f"openspec/specs/{capability}/spec.md", name, words, mains[capability])
        if line is not None and line not in problems.get(change_id, []):
            problems.setdefault(change_id, []).append(line)
    return problems
