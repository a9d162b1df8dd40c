"""The self-contained HTML report (one file, no external assets), rendered with Jinja2."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from conformance._inert import terminal_text
from conformance.reports._diagrams import build_diagrams
from conformance.reports._enums import SchemaEnumError
from conformance.reports._svg import render_svg

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.reports._model import Report

__all__ = ["render_html"]


@dataclass(frozen=True)
class _Figure:
    title: str
    svg: Markup


def render_html(report: Report, schemas_dir: Path) -> str:
    """One self-contained HTML page for ``report``.

    Failures come first (each with its fields in full), then compliance, verify steps, results
    (a failing scenario links to its drill-down: the IUT's trace against the reference's), the
    traceability matrix, and an inline SVG per
    state diagram (invocation lifecycle, Run states, release pipeline) built from the enums of
    the schemas in ``schemas_dir``.

    A schema the diagrams need that is missing shows as one error line in the page (the rest of
    the report still renders).
    """
    env = Environment(
        loader=PackageLoader("conformance.reports", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        keep_trailing_newline=True,
    )
    figures: list[_Figure] = []
    error = ""
    try:
        # render_svg escapes every label itself; the SVG is markup we generated.
        figures = [
            _Figure(d.title, Markup(render_svg(d)))  # noqa: S704 - escaped in render_svg
            for d in build_diagrams(schemas_dir)
        ]
    except SchemaEnumError as exc:
        error = str(exc)
    template = env.get_template("report.html.j2")
    # Jinja autoescapes every value; terminal_text then shows every control and bidi character
    # of the page as a visible escape (\x1b, \u202e) and keeps lone surrogates from breaking
    # UTF-8 (the template itself holds none but tabs and newlines, which are kept).
    # scenario id -> the number of its first failure's drill-down section
    drill: dict[str, int] = {}
    for number, failure in enumerate(report.failures, start=1):
        drill.setdefault(failure.scenario_id, number)
    page = template.render(report=report, diagrams=figures, diagram_error=error, drill=drill)
    return terminal_text(page, keep_newlines=True)
