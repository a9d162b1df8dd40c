"""On generated specs and changes, the linter's official verdicts equal the official CLI's."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.openspec import lint_items
from tests._profile import depth

# Every fragment list starts with its canonical form; a "broken" block draws from the whole list.
NAMES = ["Alpha SHALL work", "Beta", "Gamma works", "Delta", "Epsilon", "Alpha SHALL work ##"]
REQUIREMENT_HEADERS = [
    "### Requirement: {n}",
    "### {n}",
    "#### Requirement: {n}",
    "###Requirement: {n}",
]
BODIES = [
    "The system SHALL do {n}.",
    "",
    "The system does {n}.",
    "**ID**: {n}",
    "It MUST act.\n\n```\n#### Scenario: fenced\n- **WHEN** x\n```",
    "The system\nSHALL wrap.",
    "The system shall do {n}.",
]
SCENARIO_HEADERS = ["#### Scenario: {s}", "### Scenario: {s}", "##### Scenario: {s}", "#### {s}"]
SCENARIO_BODIES = [
    "- **WHEN** a thing happens\n- **THEN** it is handled",
    "",
    "- WHEN a\n- THEN b",
    "```\n- **WHEN** fenced\n```",
]
PURPOSES = [
    "A purpose that is long enough to satisfy the strict validator.",
    None,
    "",
    "Too short.",
    "p" * 49,
    "p" * 50,
    "TBD: x",
]
DELTA_TITLES = [
    "## ADDED Requirements",
    "## MODIFIED Requirements",
    "## Added Requirements",
    "## ADDED",
    "## REMOVED Requirements",
    "## Notes",
]
TASKS = ["## 1. Work\n\n- [ ] 1.1 Do it\n", None, "- do it\n", "## 1. Work\n\n- [x] 2.1 Do it\n"]


def _pick(draw: st.DrawFn, options: list[str], *, broken: bool) -> str:
    return draw(st.sampled_from(options)) if broken else options[0]


@st.composite
def requirement(draw: st.DrawFn) -> str:
    """One requirement block: canonical, or (one time in three) built from any fragment."""
    broken = draw(st.integers(0, 2)) == 0
    name = draw(st.sampled_from(NAMES))
    parts = [
        _pick(draw, REQUIREMENT_HEADERS, broken=broken).format(n=name),
        _pick(draw, BODIES, broken=broken).format(n=name),
    ]
    for k in range(draw(st.integers(0 if broken else 1, 2))):
        parts += [
            _pick(draw, SCENARIO_HEADERS, broken=broken).format(s=f"Case {k}"),
            _pick(draw, SCENARIO_BODIES, broken=broken),
        ]
    return "\n\n".join(parts) + "\n"


@st.composite
def main_spec(draw: st.DrawFn) -> str:
    """A main spec with an optional Purpose and Requirements section."""
    broken = draw(st.integers(0, 3)) == 0
    text = "# cap Specification\n\n"
    purpose = draw(st.sampled_from(PURPOSES)) if broken else PURPOSES[0]
    if purpose is not None:
        text += f"## Purpose\n\n{purpose}\n\n"
    if not broken or draw(st.booleans()):
        text += "## Requirements\n\n"
    return text + "\n".join(draw(st.lists(requirement(), min_size=1, max_size=3)))


@st.composite
def delta_spec(draw: st.DrawFn) -> str:
    """A delta spec: one or two sections, each with requirement blocks."""
    broken = draw(st.integers(0, 3)) == 0
    text = ""
    for _ in range(draw(st.integers(0 if broken else 1, 2))):
        text += _pick(draw, DELTA_TITLES, broken=broken) + "\n\n"
        text += "\n".join(draw(st.lists(requirement(), min_size=int(not broken), max_size=2)))
    return text


@st.composite
def project(draw: st.DrawFn) -> dict[str, str]:
    """Files of a project: six main specs and four active changes (some MODIFY a main spec)."""
    files = {f"openspec/specs/cap{i}/spec.md": draw(main_spec()) for i in range(6)}
    for i in range(4):
        base = f"openspec/changes/change-{i}"
        files[f"{base}/proposal.md"] = "## Why\n\nA reason that is long enough.\n"
        files[f"{base}/specs/cap{draw(st.integers(0, 7))}/spec.md"] = draw(delta_spec())
        tasks = draw(st.sampled_from(TASKS))
        if tasks is not None:
            files[f"{base}/tasks.md"] = tasks
    return files


@settings(
    max_examples=depth(ci=6, dev=3),  # depth is the profile's: tests/_profile.py
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(files=project())
def test_generated_projects_agree_with_cli(files: dict[str, str], openspec_cli) -> None:
    """For every generated spec and change, valid/invalid matches ``openspec validate --strict``."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        report = openspec_cli(root)
        cli = {(item["type"], item["id"]): item["valid"] for item in report["items"]}
        ours = {(r.kind, r.id): r.valid for r in lint_items(root, strict=True, kit_rules=False)}
        assert ours == cli
