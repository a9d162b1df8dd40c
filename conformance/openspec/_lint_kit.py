"""The kit's own OpenSpec rules, beyond the official CLI (codes start with ``KIT_``).

- every bullet of a scenario is a ``- **WHEN|THEN|AND|GIVEN** text`` step;
- every scenario has at least one WHEN and at least one THEN step, and no THEN step comes
  before the scenario's first WHEN (``KIT_THEN_BEFORE_WHEN``, at the THEN's file:line);
- requirement ids and, within a requirement, scenario ids are non-empty (a name needs a letter
  or digit, in any script) and unique (the Gherkin mirror keys);
- every change has a ``proposal.md``; an archive folder is named ``YYYY-MM-DD-<change-id>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.openspec._model import (
    ChangeDocument,
    LintIssue,
    Location,
    Requirement,
    Scenario,
)
from conformance.openspec._tree import ARCHIVE_NAME

if TYPE_CHECKING:
    from collections.abc import Iterable


def lint_requirements(requirements: Iterable[Requirement]) -> list[LintIssue]:
    """Apply the kit's scenario and id rules to ``requirements`` (ERROR level)."""
    issues: list[LintIssue] = []
    seen_ids: dict[str, Requirement] = {}
    for req in requirements:
        if not req.id:
            issues.append(_empty_id("requirement", req.name, req.location))
        other = seen_ids.get(req.id) if req.id else None
        if other is not None:
            issues.append(
                LintIssue(
                    "ERROR",
                    "KIT_DUPLICATE_REQUIREMENT_ID",
                    f'"{req.name}" has the id "{req.id}" of line {other.location.line}',
                    req.location,
                )
            )
        seen_ids.setdefault(req.id, req)
        scenario_ids: dict[str, int] = {}
        for sc in req.scenarios:
            if not sc.id:
                issues.append(_empty_id("scenario", sc.name, sc.location))
            elif sc.id in scenario_ids:
                issues.append(
                    LintIssue(
                        "ERROR",
                        "KIT_DUPLICATE_SCENARIO_ID",
                        f'scenario "{sc.name}" repeats the id of line {scenario_ids[sc.id]}',
                        sc.location,
                    )
                )
            scenario_ids.setdefault(sc.id, sc.location.line)
            for text, where in sc.unparsed_bullets:
                issues.append(
                    LintIssue(
                        "ERROR",
                        "KIT_STEP_UNPARSED",
                        f'bullet "{text[:60]}" is not "- **WHEN|THEN|AND|GIVEN** text"',
                        where,
                    )
                )
            keywords = {step.keyword for step in sc.steps}
            issues.extend(
                LintIssue(
                    "ERROR",
                    f"KIT_SCENARIO_NO_{needed}",
                    f'scenario "{sc.name}" has no "- **{needed}** …" step',
                    sc.location,
                )
                for needed in ("WHEN", "THEN")
                if needed not in keywords
            )
            issues.extend(_then_before_when(sc))
    return issues


def _empty_id(kind: str, name: str, where: Location) -> LintIssue:
    return LintIssue(
        "ERROR",
        "KIT_EMPTY_ID",
        f"{kind} name {name!r} gives an empty id: a name needs at least one letter or digit "
        "(any script)",
        where,
    )


def _then_before_when(scenario: Scenario) -> list[LintIssue]:
    """A THEN (or an AND continuing it) before the scenario's first WHEN, at the THEN's line."""
    if not any(step.keyword == "WHEN" for step in scenario.steps):
        return []  # KIT_SCENARIO_NO_WHEN already says what is wrong
    issues: list[LintIssue] = []
    for step in scenario.steps:
        if step.keyword == "WHEN":
            break
        if step.keyword == "THEN":
            issues.append(
                LintIssue(
                    "ERROR",
                    "KIT_THEN_BEFORE_WHEN",
                    f'scenario "{scenario.name}": THEN "{step.text[:60]}" comes before its '
                    "first WHEN (write the condition first)",
                    step.location,
                )
            )
    return issues


def lint_change_files(change: ChangeDocument) -> list[LintIssue]:
    """Apply the kit's folder rules to one change: proposal.md present, archive folder name."""
    issues: list[LintIssue] = []
    if change.proposal is None:
        issues.append(
            LintIssue(
                "ERROR",
                "KIT_NO_PROPOSAL",
                f'change "{change.id}" has no proposal.md',
                Location(change.path / "proposal.md", 0),
            )
        )
    if change.archived and ARCHIVE_NAME.match(change.path.name) is None:
        issues.append(
            LintIssue(
                "ERROR",
                "KIT_ARCHIVE_NAME",
                "an archived change folder must be named YYYY-MM-DD-<change-id>",
                Location(change.path, 0),
            )
        )
    return issues
