"""Text from outside is inert in every format: generated hostile strings, parsed back.

Hostile strings (terminal escapes, rich markup, XML-forbidden characters, lone surrogates, raw
HTML, backticks, table pipes, line breaks) go into every field of a report that can hold IUT
text; each format is rendered and read back by a real parser of that format: ``json``,
``xml.etree`` for JUnit, ``markdown-it`` for Markdown, ``html.parser`` for HTML, and a rich
console forced to be a terminal.
"""

from __future__ import annotations

import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from rich.console import Console

from conformance._inert import (
    ECHO_CHARS,
    echo,
    markdown_code,
    markdown_text,
    scrub,
    terminal_text,
    xml_text,
)
from conformance.cli._output import Output
from conformance.reports import (
    render_html,
    render_json,
    render_junit,
    render_markdown,
)
from tests._profile import depth
from tests.hostile.hostile_reports import hostile_report, start_tags

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
PROPERTY = settings(
    max_examples=depth(ci=100, dev=25), derandomize=True, deadline=None, database=None
)
"""Settings of every property here (depth is the profile's: tests/_profile.py)."""

SNIPPETS = [
    "\x1b[31mERROR\x1b[0m",
    "\x1b]0;TITLE\x07",
    "\x1b[2J",
    "\x9b31m",
    "[/INST]",
    "[bold red]x[/]",
    "[link=http://e]",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!--",
    "]]>",
    "&amp;",
    "&#0;",
    "`",
    "``",
    "|",
    "\\",
    "*_~",
    "[a](javascript:alert(1))",
    "<http://evil.example>",
    "\ud800",
    "\udfff",
    "\x00",
    "\ufffe",
    "\u202e",
    "\r\n",
    "\n# heading\n",
    "    indented",
    "- item",
    "> quote",
]
HOSTILE = st.lists(
    st.one_of(
        st.sampled_from(SNIPPETS),
        st.text(max_size=8),
        st.text(
            alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
            max_size=8,
        ),
    ),
    max_size=6,
).map("".join)

_XML_ALLOWED = re.compile("[\x09\x0a\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*")
_TERMINAL_UNSAFE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_SUMMARY_TAGS = {
    "h2",
    "p",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "ul",
    "li",
    "strong",
}
_TEMPLATE_TAGS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "code", "span", "table",
    "tr", "th", "td", "ul", "li", "figure", "figcaption", "svg", "g", "defs", "marker", "path",
    "rect", "text", "line", "polyline", "polygon", "tspan", "circle", "ellipse", "a",
    "div", "h3", "dl", "dt", "dd", "section", "details", "summary", "colgroup", "col",
}  # fmt: skip


def _flat(text: str) -> str:
    """What inert Markdown shows for ``text``: one line, controls as visible escapes."""
    return re.sub("\r\n|[\r\n]", " ", terminal_text(text, keep_newlines=True).replace("\t", " "))


@PROPERTY
@given(HOSTILE)
def test_terminal_text_holds_no_control_character(text):
    """No control, bidi override or lone surrogate survives; the text encodes as UTF-8."""
    shown = terminal_text(text)
    assert _TERMINAL_UNSAFE.search(shown) is None
    shown.encode("utf-8")


@PROPERTY
@given(HOSTILE, st.integers(min_value=1, max_value=ECHO_CHARS))
def test_an_echo_is_one_inert_bounded_line(text, limit):
    """``echo``: no control character (a line feed included) survives, so it stays one line in
    any message; a longer value shows its first ``limit`` characters and its whole length."""
    shown = echo(text, limit=limit)
    assert _TERMINAL_UNSAFE.search(shown) is None
    if len(text) > limit:
        assert shown == f"{terminal_text(text[:limit])}… ({len(text)} characters)"
    else:
        assert shown == terminal_text(text)


@PROPERTY
@given(HOSTILE)
def test_the_terminal_table_prints_markup_as_text(text):
    """A rich table on a forced terminal prints IUT text, never markup or escape sequences."""
    output = Output()
    buffer = io.StringIO()
    output.out = Console(file=buffer, force_terminal=True, color_system=None, width=500)
    output.table(f"srdh run: {text}", ["scenario", "message"], [["s", text]])
    output.line(text)
    printed = buffer.getvalue()
    assert "\x1b" not in printed
    assert "\x07" not in printed
    if text.strip() and "\n" not in text and len(text) < 40:
        assert terminal_text(text).strip() in printed


@PROPERTY
@given(HOSTILE)
def test_junit_is_well_formed_and_keeps_the_text(text):
    """junit.xml parses with xml.etree; the failure text is the message with forbidden
    characters shown as escapes."""
    root = ET.fromstring(render_junit(hostile_report(text)))  # noqa: S314 - the kit's own output
    (failure,) = [f for f in root.iter("failure") if f.get("type") == "FAILED"][:1]
    assert (failure.text or "") == (xml_text(text) or "FAILED")
    assert _XML_ALLOWED.fullmatch(xml_text(text))


@PROPERTY
@given(HOSTILE)
def test_json_round_trips_every_string(text):
    """report.json parses; strings come back equal, with lone surrogates replaced."""
    document = json.loads(render_json(hostile_report(text)))
    assert document["iut"]["name"] == scrub(text)
    assert document["warnings"] == [scrub(text)]
    (requirement,) = document["requirements"].values()
    (scenario,) = requirement["scenarios"].values()
    assert scenario["message"] == scrub(text)
    render_json(hostile_report(text)).encode("utf-8")


@PROPERTY
@given(HOSTILE)
def test_markdown_text_renders_as_exactly_the_text(text):
    """Inert Markdown renders to no tag at all and shows the (flattened) text verbatim."""
    rendered = MarkdownIt("commonmark").renderInline(markdown_text(text))
    assert start_tags(rendered) == []
    assert html.unescape(rendered) == _flat(text)


@PROPERTY
@given(HOSTILE)
def test_markdown_code_is_one_unbroken_code_span(text):
    """A code span of any text renders as exactly one ``<code>`` holding the whole text."""
    flat = _flat(text)
    rendered = MarkdownIt("commonmark").renderInline(markdown_code(text))
    if not flat:
        assert rendered == ""
        return
    assert start_tags(rendered) == ["code"]
    inner = rendered.removeprefix("<code>").removesuffix("</code>")
    shown = html.unescape(inner)
    assert shown in {flat, flat[1:-1] if len(flat) > 1 else flat}  # CommonMark strips one pad
    assert shown.strip(" ") == flat.strip(" ")


@PROPERTY
@given(HOSTILE)
def test_the_markdown_summary_has_no_raw_html_and_intact_tables(text):
    """summary.md renders with only the summary's own tags; every table row keeps its cells."""
    markdown = render_markdown(hostile_report(text))
    parser = MarkdownIt("commonmark").enable("table")
    rendered = parser.render(markdown)
    assert set(start_tags(rendered)) <= _SUMMARY_TAGS
    rows = [t for t in parser.parse(markdown) if t.type == "tr_open"]
    cells = [t for t in parser.parse(markdown) if t.type in {"td_open", "th_open"}]
    # compliance: 6 columns x (header + 3 levels); steps: 4 x 2; requirements: 5 x 2
    assert len(cells) == 6 * 4 + 4 * 2 + 5 * 2
    assert len(rows) == 4 + 2 + 2


@settings(PROPERTY, max_examples=depth(ci=30, dev=10))
@given(HOSTILE)
def test_the_html_report_has_only_its_ownstart_tags(text):
    """report.html parses with html.parser; IUT text adds no element (script, img, …)."""
    page = render_html(hostile_report(text), SCHEMAS)
    page.encode("utf-8")
    assert set(start_tags(page)) <= _TEMPLATE_TAGS
    assert "<script" not in page
