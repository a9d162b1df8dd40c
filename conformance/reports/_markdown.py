"""Markdown summary, fit for ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.reports._model import Status

if TYPE_CHECKING:
    from conformance.reports._model import Report

__all__ = ["render_markdown"]

_ICON = {
    Status.PASSED: "✅",
    Status.FAILED: "❌",
    Status.ERROR: "💥",
    Status.NOT_TESTED: "⚠️",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    """A Markdown summary: verdict, versions, compliance per level, steps, requirements."""
    verdict = "PASSED" if report.passed else "FAILED"
    lines = [
        f"## {report.title}: {verdict}",
        "",
        (
            f"Kit `{report.kit.name} {report.kit.version}` · "
            f"IUT `{report.iut.name} {report.iut.version}`"
        ),
        "",
        "| level | requirements | passed | failed | not tested | compliant |",
        "|---|---|---|---|---|---|",
    ]
    for level, c in report.compliance().items():
        mark = "yes" if c.compliant else "**no**"
        lines.append(
            f"| {level} | {c.requirements} | {c.passed} | {c.failed} | {c.not_tested} | {mark} |"
        )
    if report.steps:
        lines += ["", "| step | status | detail | seconds |", "|---|---|---|---|"]
        lines += [
            f"| {s.name} | {_ICON[s.status]} {s.status.value} | {_cell(s.detail)} | "
            f"{s.seconds:.2f} |"
            for s in report.steps
        ]
    if report.mutants:
        killed = sum(m.killed for m in report.mutants)
        lines += ["", f"Mutant self-test: {killed}/{len(report.mutants)} mutants killed."]
        lines += [f"- survived: `{m.name}`" for m in report.mutants if not m.killed]
    if report.requirements:
        lines += [
            "",
            "| requirement | level | scenario | status | message |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{r.requirement_id}` | {r.level} | `{s.scenario_id}` | "
            f"{_ICON[s.status]} {s.status.value} | {_cell(s.message)} |"
            for r in report.requirements
            for s in r.scenarios
        ]
    return "\n".join(lines) + "\n"
