"""The Gherkin suite's table of contents: every scenario with its requirement, id and level.

Read with ``gherkin-official`` from ``<repo>/features`` (a source checkout) or
``conformance/_features`` (an installed wheel). RFC 2119 levels come from the OpenSpec spec when
``<repo>/openspec`` exists, else from the keyword in the Feature name (= the Requirement name).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance._gherkin import parse_gherkin

__all__ = [
    "LEVEL_STRENGTH",
    "CatalogueError",
    "ScenarioEntry",
    "duplicate_scenarios",
    "features_dir",
    "load_catalogue",
]

_PACKAGE = Path(__file__).resolve().parents[1]
_KEYWORDS = re.compile(r"\b(MUST|SHALL|SHOULD|MAY)\b")
LEVEL_STRENGTH = {"MUST": 3, "SHALL": 3, "SHOULD": 2, "MAY": 1}
"""Strength of each RFC 2119 level (MUST and SHALL are equally binding)."""


class CatalogueError(ValueError):
    """The features cannot be found or parsed; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class ScenarioEntry:
    """One Gherkin scenario of the suite.

    Attributes:
        requirement_id: the ``@requirement:`` tag (kebab slug of the Requirement name).
        scenario_id: the ``@scenario:`` tag, or the kebab slug of the scenario name (extensions).
        name: the scenario's name; ``kind``: ``"spec"`` or ``"extension"``.
        requirement: the Feature name; ``level``: its RFC 2119 level, or ``None``.
        path: the ``.feature`` file; ``line``: the scenario's line in it.
    """

    requirement_id: str
    scenario_id: str
    name: str
    kind: str
    requirement: str
    level: str | None
    path: Path
    line: int


def features_dir() -> Path:
    """Return the folder of the suite's ``.feature`` files.

    Raises:
        CatalogueError: neither ``<repo>/features`` nor ``conformance/_features`` exists.
    """
    for candidate in (_PACKAGE / "_features", _PACKAGE.parent / "features"):
        if candidate.is_dir() and any(candidate.glob("*.feature")):
            return candidate
    message = f"no .feature files in {_PACKAGE / '_features'} or {_PACKAGE.parent / 'features'}"
    raise CatalogueError(message)


def _spec_levels(root: Path) -> dict[str, str | None]:
    if not (root / "openspec").is_dir():
        return {}
    from conformance.openspec import ParseError, load_tree  # noqa: PLC0415 - optional source

    try:
        tree = load_tree(root)
    except ParseError:
        return {}
    return {r.id: r.level for spec in tree.specs.values() for r in spec.requirements}


def _name_level(name: str) -> str | None:
    found = _KEYWORDS.findall(name)
    return max(found, key=lambda k: LEVEL_STRENGTH[k]) if found else None


def _tag_values(tags: list[dict[str, Any]]) -> dict[str, str]:
    values: dict[str, str] = {}
    for tag in tags:
        name, _, value = str(tag["name"]).lstrip("@").partition(":")
        values[name] = value
    return values


def _all_scenarios(node: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for child in node.get("children", []):
        if child.get("scenario") is not None:
            found.append(child["scenario"])
        elif child.get("rule") is not None:
            found.extend(_all_scenarios(child["rule"]))
    return found


def duplicate_scenarios(feature: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Return ``(name, first line, line)`` for each scenario whose name an earlier one has.

    ``feature`` is the ``feature`` of a gherkin-official document (scenarios under ``Rule:``
    included). pytest-bdd keys a feature's scenarios by name, so it would run only the last of
    two scenarios sharing one: the suite and ``srdh trace`` refuse such a feature instead.
    """
    seen: dict[str, int] = {}
    repeated: list[tuple[str, int, int]] = []
    for scenario in _all_scenarios(feature):
        name = str(scenario.get("name", ""))
        line = int(scenario["location"]["line"])
        if name in seen:
            repeated.append((name, seen[name], line))
        else:
            seen[name] = line
    return repeated


@functools.lru_cache(maxsize=64)
def _parsed(path: Path, mtime_ns: int, size: int) -> Any:  # noqa: ANN401 - a Gherkin document
    """The gherkin-official document of ``path``, read once per version of the file.

    ``mtime_ns`` and ``size`` key the cache, so an edited file is read again; the text is parsed
    by :func:`conformance._gherkin.parse_gherkin`, which the traceability matrix shares (one
    parse per text in a process). Callers only read the document.
    """
    del mtime_ns, size  # the cache key only
    return parse_gherkin(path.read_text(encoding="utf-8"))


def load_catalogue(directory: Path | None = None) -> list[ScenarioEntry]:
    """Return every scenario of the ``.feature`` files in ``directory`` (default: the suite's).

    Raises:
        CatalogueError: a feature file cannot be read or parsed, two of its scenarios share a
            name (both lines named: pytest-bdd would silently run one), or a scenario has no
            ``@requirement:`` tag.
    """
    from conformance.openspec import slugify  # noqa: PLC0415 - keeps the import light

    folder = directory or features_dir()
    levels = _spec_levels(folder.parent)
    entries: list[ScenarioEntry] = []
    for path in sorted(folder.glob("*.feature")):
        try:
            status = path.stat()
            document: Any = _parsed(path, status.st_mtime_ns, status.st_size)
        except Exception as error:
            message = f"{path}: cannot parse the feature file: {error}"
            raise CatalogueError(message) from error
        feature: dict[str, Any] = document.get("feature") or {}
        for name, first, line in duplicate_scenarios(feature):
            message = (
                f"{path}:{line}: scenario {name!r} repeats the name of the scenario on line "
                f"{first}; pytest-bdd would run only one of them: rename one"
            )
            raise CatalogueError(message)
        requirement = str(feature.get("name", ""))
        for child in feature.get("children", []):
            scenario: dict[str, Any] | None = child.get("scenario")
            if scenario is None:
                continue
            tags = _tag_values(scenario.get("tags", []))
            line = int(scenario["location"]["line"])
            if not tags.get("requirement"):
                message = f"{path}:{line}: scenario {scenario['name']!r} has no @requirement: tag"
                raise CatalogueError(message)
            requirement_id = tags["requirement"]
            entries.append(
                ScenarioEntry(
                    requirement_id=requirement_id,
                    scenario_id=tags.get("scenario") or slugify(scenario["name"]),
                    name=scenario["name"],
                    kind="spec" if "spec" in tags else "extension",
                    requirement=requirement,
                    level=levels.get(requirement_id, _name_level(requirement)),
                    path=path,
                    line=line,
                )
            )
    return entries
