"""The Gherkin mirror: one feature per Requirement, every spec Scenario once, sentences verbatim."""

import re
from pathlib import Path

import pytest
from gherkin.parser import Parser

from conformance.bdd import THEN_CHECKS
from conformance.openspec import load_tree, slugify

REPO = Path(__file__).resolve().parents[2]
FEATURES = REPO / "features"
SPEC = load_tree(REPO).specs["single-react-diagnosis-harness"]
REQUIREMENTS = list(SPEC.requirements)


def _feature(number: int, requirement) -> dict:
    path = FEATURES / f"{number:02d}-{requirement.id}.feature"
    assert path.is_file(), f"missing {path.name}"
    return Parser().parse(path.read_text(encoding="utf-8"))["feature"]


def _scenarios(feature: dict) -> list[dict]:
    return [c["scenario"] for c in feature["children"] if "scenario" in c]


def _tags(scenario: dict) -> set[str]:
    return {t["name"] for t in scenario["tags"]}


def _sentence(step_text: str) -> str:
    return step_text.strip()


@pytest.mark.parametrize(
    ("number", "requirement"),
    list(enumerate(REQUIREMENTS, start=1)),
    ids=[r.id for r in REQUIREMENTS],
)
def test_feature_mirrors_requirement(number, requirement):
    """The feature is named after the Requirement and holds each spec Scenario once, verbatim."""
    feature = _feature(number, requirement)
    assert feature["name"] == requirement.name
    assert requirement.id == slugify(requirement.name)
    scenarios = _scenarios(feature)
    for spec_scenario in requirement.scenarios:
        matches = [s for s in scenarios if s["name"] == spec_scenario.name]
        assert len(matches) == 1, f"{spec_scenario.name!r} appears {len(matches)} times"
        scenario = matches[0]
        assert {
            "@spec",
            f"@requirement:{requirement.id}",
            f"@scenario:{spec_scenario.id}",
        } <= _tags(scenario)
        by_keyword = {s.keyword.upper(): s.text for s in spec_scenario.steps}
        gherkin_steps = [(s["keywordType"], s["text"]) for s in scenario["steps"]]
        assert ("Action", by_keyword["WHEN"]) in gherkin_steps
        outcomes = [text for kind, text in gherkin_steps if kind == "Outcome"]
        assert outcomes[0] == by_keyword["THEN"]


def test_every_scenario_is_spec_or_extension_of_its_requirement():
    """Each scenario is tagged @spec or @extension and names its own requirement."""
    for number, requirement in enumerate(REQUIREMENTS, start=1):
        for scenario in _scenarios(_feature(number, requirement)):
            tags = _tags(scenario)
            assert ("@spec" in tags) != ("@extension" in tags), scenario["name"]
            assert f"@requirement:{requirement.id}" in tags, scenario["name"]


def test_required_extensions_exist():
    """The extension scenarios the issue asks for are all present."""
    names = {
        s["name"]
        for n, r in enumerate(REQUIREMENTS, start=1)
        for s in _scenarios(_feature(n, r))
        if "@extension" in _tags(s)
    }
    wanted = [
        r"missing or invalid Tool Call ID",
        r"cites ERROR evidence",
        r"in-band error",
        r"second SemanticGuard attempt also fails",
        r"SemanticGuard is unavailable",
        r"zero items",
        r"wider than its query",
        r"Every earlier Run is ineligible",
        r"Two calls in one step share",
        r"reused on a later step",
        r"both present an empty Tool Call ID",
        r"still cites a fabricated document",
        r"always omits Tool Call IDs",
        r"swallows the first cancellation",
    ]
    for pattern in wanted:
        assert any(re.search(pattern, name) for name in names), pattern


def test_outline_covers_field_case_three():
    """The missing/invalid id outline has the six field-case ids with their reasons."""
    feature = _feature(2, REQUIREMENTS[1])
    outline = next(s for s in _scenarios(feature) if s["keyword"] == "Scenario Outline")
    rows = [[c["value"] for c in row["cells"]] for row in outline["examples"][0]["tableBody"]]
    assert rows[:6] == [
        ['""', "MISSING_ID"],
        ["absent", "MISSING_ID"],
        ["null", "MISSING_ID"],
        ['"   "', "INVALID_ID"],
        ['"call\\u0000x"', "INVALID_ID"],
        ["a 300-character ID", "INVALID_ID"],
    ]


def test_outline_covers_normalised_id_variants():
    """The outline also rejects ids a framework might normalise (padded, look-alike, numeric) and
    one over the grammar's 128-character bound."""
    feature = _feature(2, REQUIREMENTS[1])
    outline = next(s for s in _scenarios(feature) if s["keyword"] == "Scenario Outline")
    rows = [[c["value"] for c in row["cells"]] for row in outline["examples"][0]["tableBody"]]
    assert rows[6:] == [
        ['" call_1 "', "INVALID_ID"],
        ['"\\uff43\\uff41\\uff4c\\uff4c_1"', "INVALID_ID"],
        ["42", "INVALID_ID"],
        ["a 129-character ID", "INVALID_ID"],
    ]


def test_every_spec_then_sentence_has_a_check():
    """Each spec THEN sentence is bound to a check of conformance.checks."""
    for requirement in REQUIREMENTS:
        for scenario in requirement.scenarios:
            then = next(s.text for s in scenario.steps if s.keyword.upper() == "THEN")
            assert then in THEN_CHECKS, then
