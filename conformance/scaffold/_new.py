"""Scaffold a spec scenario: its Gherkin mirror, its When registry line, its phase-plan entries.

Given a scenario of the spec — in ``openspec/specs/`` or in an active change not archived yet
(:func:`conformance.openspec.preview_requirements`) — :func:`new_scenario` writes what is
mechanical and names what is not:

1. the Gherkin mirror in ``features/NN-<requirement-id>.feature``: tags, the name, a Given to
   complete, the spec's WHEN and THEN sentences verbatim, ``And every global invariant holds``;
2. each WHEN sentence no step binds yet, added to the kit's When registry
   (``SPEC_RUN_SENTENCES`` in ``conformance/bdd/_when.py``: the step runs the fixture once);
3. the scenario's name in the phase plan's ``gate_scenarios`` of the stage that implements it
   and of every stage from 6B on (``contracts/data/phase-plan.json``).

What needs judgement is returned as ``todo`` lines, each naming its file: the Then check and its
rule (``THEN_CHECKS``, ``conformance/checks``), the Given steps that build the fixture, the
fixture strategy and the property (``SCENARIO_STRATEGIES``, the property registry), then the
fixtures (``python -m conformance.fixtures``). ``srdh trace`` lists what is still unbound.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conformance.openspec import load_tree, preview_requirements
from contracts import loads_strict

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.openspec import Requirement, Scenario

__all__ = ["ScaffoldError", "ScaffoldResult", "new_scenario"]

_WHEN_FILE = "conformance/bdd/_when.py"
_WHEN_ANCHOR = ')\n"""The spec\'s WHEN sentences whose step runs the scenario\'s fixture once."""'
_PLAN_FILE = "contracts/data/phase-plan.json"
_CUTOVER = "6B"


class ScaffoldError(Exception):
    """The scenario cannot be scaffolded as asked; ``str()`` says why and what was expected."""


@dataclass
class ScaffoldResult:
    """What :func:`new_scenario` wrote (files, relative to the repository) and what is left."""

    written: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)


def _find(repo: Path, scenario_id: str) -> tuple[Requirement, Scenario]:
    for requirements in preview_requirements(load_tree(repo)).values():
        for requirement in requirements:
            for scenario in requirement.scenarios:
                if scenario.id == scenario_id:
                    return requirement, scenario
    msg = (
        f"no spec scenario {scenario_id!r} in {repo / 'openspec'} (main specs and active "
        "changes; `srdh spec show --preview` lists the ids)"
    )
    raise ScaffoldError(msg)


def _feature(repo: Path, requirement: Requirement) -> Path:
    matches = sorted((repo / "features").glob(f"[0-9][0-9]-{requirement.id}.feature"))
    if matches:
        return matches[0]
    number = len(list((repo / "features").glob("[0-9][0-9]-*.feature"))) + 1
    path = repo / "features" / f"{number:02d}-{requirement.id}.feature"
    path.write_text(f"Feature: {requirement.name}\n", encoding="utf-8")
    return path


def _groups(scenario: Scenario) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"GIVEN": [], "WHEN": [], "THEN": []}
    current = "GIVEN"
    for step in scenario.steps:
        if step.keyword != "AND":
            current = step.keyword
        groups[current].append(step.text)
    return groups


def _mirror(requirement: Requirement, scenario: Scenario, capability: str) -> str:
    groups = _groups(scenario)
    lines = [
        "",
        f"  @spec @requirement:{requirement.id} @scenario:{scenario.id} @capability:{capability}",
        f"  Scenario: {scenario.name}",
        '    Given a user asks "Why is checkout failing?"',
    ]
    lines += [f"    And {text}" for text in groups["GIVEN"]]
    lines += [f"    {'When' if i == 0 else 'And'} {t}" for i, t in enumerate(groups["WHEN"])]
    lines += [f"    {'Then' if i == 0 else 'And'} {t}" for i, t in enumerate(groups["THEN"])]
    lines.append("    And every global invariant holds")
    return "\n".join(lines) + "\n"


def _register_when(repo: Path, sentences: list[str]) -> bool:
    path = repo / _WHEN_FILE
    text = path.read_text(encoding="utf-8")
    missing = [s for s in sentences if json.dumps(s) not in text and repr(s) not in text]
    if not missing:
        return False
    if _WHEN_ANCHOR not in text:
        msg = f"{path}: the SPEC_RUN_SENTENCES tuple is not where expected; add {missing} by hand"
        raise ScaffoldError(msg)
    added = "".join(f"    {json.dumps(s, ensure_ascii=False)},\n" for s in missing)
    path.write_text(text.replace(_WHEN_ANCHOR, added + _WHEN_ANCHOR, 1), encoding="utf-8")
    return True


def _register_plan(repo: Path, name: str, stage: str) -> bool:
    path = repo / _PLAN_FILE
    plan = loads_strict(path.read_text(encoding="utf-8"), source=str(path))
    stages = [str(change["stage"]) for change in plan["changes"]]
    if stage not in stages:
        msg = f"unknown stage {stage!r}: expected one of {', '.join(stages)}"
        raise ScaffoldError(msg)
    cutover = stages.index(_CUTOVER)
    changed = False
    for index, change in enumerate(plan["changes"]):
        if (change["stage"] == stage or index >= cutover) and name not in change["gate_scenarios"]:
            change["gate_scenarios"].append(name)
            changed = True
    if changed:
        path.write_text(json.dumps(plan, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return changed


def new_scenario(
    repo: Path, scenario_id: str, *, stage: str, capability: str = "DIAGNOSIS"
) -> ScaffoldResult:
    """Scaffold spec scenario ``scenario_id`` in ``repo`` (see the module docstring).

    ``stage`` is the stage that implements it (its gate list gets the name); ``capability`` the
    IUT capability the scenario needs (the ``@capability:`` tag).

    Raises:
        ScaffoldError: no such scenario; it already has a mirror; an unknown stage; the When
            registry is not where expected.
        conformance.openspec.ParseError: a spec file cannot be read.
    """
    requirement, scenario = _find(repo, scenario_id)
    result = ScaffoldResult()
    feature = _feature(repo, requirement)
    text = feature.read_text(encoding="utf-8")
    if f"@scenario:{scenario.id}" in text:
        msg = f"{feature}: scenario {scenario.id!r} already has a mirror"
        raise ScaffoldError(msg)
    feature.write_text(
        text.rstrip("\n") + "\n" + _mirror(requirement, scenario, capability), "utf-8"
    )
    result.written.append(feature.relative_to(repo).as_posix())
    if _register_when(repo, _groups(scenario)["WHEN"]):
        result.written.append(_WHEN_FILE)
    if _register_plan(repo, scenario.name, stage):
        result.written.append(_PLAN_FILE)
    where = feature.relative_to(repo).as_posix()
    result.todo += [
        (
            f"{where}: complete the Given steps that build this scenario's fixture (reuse those of "
            "conformance/bdd/_given.py; a new one calls a FixtureBuilder method)"
        ),
        (
            "conformance/bdd/_then.py: add each THEN sentence to THEN_CHECKS, calling a check of "
            "conformance/checks/ whose rule (conformance/checks/_rules.py) quotes the sentence"
        ),
        (
            f"conformance/strategies/_registry.py: key a fixture strategy by {scenario.id!r} in "
            "SCENARIO_STRATEGIES; conformance/properties/_registry.py: register its property"
        ),
        "python -m conformance.fixtures (regenerates the fixtures), then srdh trace, srdh verify .",
    ]
    return result
