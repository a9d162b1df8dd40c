"""Markdown summary, fit for ``$GITHUB_STEP_SUMMARY``.

Every piece of text that is not the kit's own wording goes through
:func:`~conformance._inert.markdown_text` or ``markdown_code``: no raw HTML, no broken
code span, no broken table, whatever an IUT names itself or writes in a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance._inert import markdown_code, markdown_text
from conformance.reports._failure_text import failure_fields
from conformance.reports._model import Status

if TYPE_CHECKING:
    from conformance.reports._model import Failure, Report

__all__ = ["render_markdown"]

_ICON = {
    Status.PASSED: "✅",
    Status.FAILED: "❌",
    Status.ERROR: "💥",
    Status.NOT_TESTED: "⚠️",
    Status.NOT_RUN: "⏹️",
}


def _cell(text: str) -> str:
    return markdown_text(text)


def _code(text: str) -> str:
    return markdown_code(text, in_table=True)


_CODE_FIELDS = {"example", "requirement", "scenario", "fixture", "reproduce"}


def _failure(failure: Failure) -> list[str]:
    """One failure as a heading and a list; each value a code span or escaped text."""
    lines = ["", f"#### {_ICON[failure.status]} {markdown_code(failure.example_id)}", ""]
    for label, values in failure_fields(failure):
        render = markdown_code if label in _CODE_FIELDS else markdown_text
        if len(values) == 1:
            lines.append(f"- **{label}**: {render(values[0])}")
        else:
            lines.append(f"- **{label}**:")
            lines += [f"  - {render(value)}" for value in values]
    return lines


def render_markdown(report: Report) -> str:
    """A Markdown summary: verdict, versions, compliance, failures in full, steps, requirements."""
    verdict = "PARTIAL" if report.partial else "PASSED" if report.passed else "FAILED"
    lines = [
        f"## {markdown_text(report.title)}: {verdict}",
        "",
        *(
            [
                f"**Partial run**: {markdown_text(report.partial)}; unrun scenarios: NOT\\_RUN.",
                "",
            ]
            if report.partial
            else []
        ),
        (
            f"Kit {markdown_code(f'{report.kit.name} {report.kit.version}')} · "
            f"IUT {markdown_code(f'{report.iut.name} {report.iut.version}')}"
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
    if report.failures:
        lines += ["", f"### Failures ({len(report.failures)})"]
        for failure in report.failures:
            lines += _failure(failure)
    if report.steps:
        lines += ["", "| step | status | detail | seconds |", "|---|---|---|---|"]
        lines += [
            f"| {_cell(s.name)} | {_ICON[s.status]} {s.status.value} | {_cell(s.detail)} | "
            f"{s.seconds:.2f} |"
            for s in report.steps
        ]
    if report.mutants:
        killed = sum(m.killed for m in report.mutants)
        lines += ["", f"Mutant self-test: {killed}/{len(report.mutants)} mutants killed."]
        lines += [f"- survived: {markdown_code(m.name)}" for m in report.mutants if not m.killed]
    if report.warnings:
        lines += ["", "Warnings:"]
        lines += [f"- {markdown_text(w)}" for w in report.warnings]
    if report.requirements:
        lines += [
            "",
            "| requirement | level | scenario | status | message |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {_code(r.requirement_id)} | {_cell(r.level)} | {_code(s.scenario_id)} | "
            f"{_ICON[s.status]} {s.status.value} | {_cell(s.message)} |"
            for r in report.requirements
            for s in r.scenarios
        ]
    return "\n".join(lines) + "\n"
