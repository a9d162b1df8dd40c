"""Structured failures stay inert in every format, whatever text an IUT put in them.

A :class:`~conformance.reports.Failure` whose every text field holds a hostile string (raw HTML,
backticks, escapes, forbidden XML characters, lone surrogates) is rendered to JSON, JUnit XML,
Markdown and HTML and read back by a real parser of each format.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from markdown_it import MarkdownIt

from conformance._inert import scrub, xml_text
from conformance.reports import (
    FailedRule,
    Failure,
    Report,
    RequirementResult,
    ScenarioResult,
    SpecSentence,
    Status,
    Versions,
    render_html,
    render_json,
    render_junit,
    render_markdown,
)
from tests._profile import depth
from tests.hostile.hostile_reports import start_tags
from tests.hostile.test_hostile_text import (
    _SUMMARY_TAGS,
    _TEMPLATE_TAGS,
    HOSTILE,
    PROPERTY,
    SCHEMAS,
)


def _failing(text: str) -> Report:
    sentence = SpecSentence(text, text, 3)
    failure = Failure(
        requirement_id="r",
        scenario_id="s",
        example_id=text or "e",
        source="scenario",
        status=Status.FAILED,
        check=text,
        rules=(FailedRule("R2.tool-call-identity", text, (sentence,), (text,)),),
        spec=(sentence,),
        expected=text,
        observed=text,
        message=text,
        fixture={"fixture_id": text},
        fixture_path="fixtures/e.json",
        reproduce=f"srdh run --iut {text}",
        observed_trace=(text, "A"),
        reference_trace=("B", text),
    )
    scenario = ScenarioResult("s", text, Status.FAILED, 0.1, text, 1)
    return Report(
        title="srdh run",
        kit=Versions("srdh-conformance-kit", "0"),
        iut=Versions(text, text),
        requirements=(RequirementResult("r", text, "MUST", (scenario,)),),
        failures=(failure,),
    )


@PROPERTY
@given(HOSTILE)
def test_failure_json_round_trips_every_field(text):
    """report.json's failure holds each hostile string in full (lone surrogates replaced)."""
    (failure,) = json.loads(render_json(_failing(text)))["failures"]
    assert failure["observed"] == scrub(text)
    assert failure["expected"] == scrub(text)
    assert failure["rules"][0]["observed"] == [scrub(text)]
    assert failure["spec"][0]["location"] == (f"{scrub(text)}:3" if text else "")
    assert failure["observed_trace"] == [scrub(text), "A"]


@PROPERTY
@given(HOSTILE)
def test_failure_junit_is_well_formed_and_carries_every_field(text):
    """junit.xml parses; the failure text holds observed and reproduce, escaped for XML."""
    root = ET.fromstring(render_junit(_failing(text)))  # noqa: S314 - the kit's own output
    (failure,) = root.iter("failure")
    body = failure.text or ""
    assert f"reproduce: srdh run --iut {xml_text(text)}" in body
    assert "rules: R2.tool-call-identity" in body


@settings(PROPERTY, max_examples=depth(ci=40, dev=10))
@given(HOSTILE)
def test_failure_markdown_and_html_add_no_markup(text):
    """summary.md and report.html render the failure with only the kit's own tags."""
    rendered = MarkdownIt("commonmark").enable("table").render(render_markdown(_failing(text)))
    assert set(start_tags(rendered)) <= _SUMMARY_TAGS | {"h3", "h4"}
    page = render_html(_failing(text), SCHEMAS)
    assert set(start_tags(page)) <= _TEMPLATE_TAGS
    assert "<script" not in page
