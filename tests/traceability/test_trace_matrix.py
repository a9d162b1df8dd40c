"""The traceability matrix of the real repository, and of mutated copies of it."""

from __future__ import annotations

import re
import shutil
import types
from pathlib import Path

import pytest

from conformance.openspec import load_tree
from conformance.properties import PROPERTIES, PROPERTY_TESTS
from conformance.suite import ExampleResult, RequirementResult, ScenarioResult, SuiteResult
from conformance.traceability import ISSUE_CODES, build_matrix, report_rows
from conformance.traceability._steps import default_step_modules
from contracts import Capability

REPO = Path(__file__).resolve().parents[2]
DUPLICATE_FEATURE = "02-tool-invocation-identity-shall-use-the-framework-tool-call-id.feature"
RETRY_FEATURE = "09-retry-attempts-shall-be-owned-by-harness.feature"
SPEC_WHEN = "When two Tool actions in one Run present the same framework Tool Call ID"


def _spec_scenarios():
    tree = load_tree(REPO)
    return [(r, s) for spec in tree.specs.values() for r in spec.requirements for s in r.scenarios]


@pytest.fixture
def repo_copy(tmp_path):
    """A copy of the repository's openspec/ and features/ folders."""
    for folder in ("openspec", "features"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    return tmp_path


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _spec_block(text: str, scenario_id: str) -> str:
    start = text.index(f"@scenario:{scenario_id}")
    start = text.rindex("\n", 0, start) + 1
    end = text.find("\n  @", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_trace_real_repository_is_complete():
    """Every spec Scenario of the repository is mirrored, bound step by step and has a property."""
    matrix = build_matrix(REPO)
    assert matrix.issues == (), "\n".join(map(str, matrix.issues))
    expected = [s.id for _, s in _spec_scenarios()]
    assert [row.scenario_id for row in matrix.rows] == expected
    for row in matrix.rows:
        assert row.mirror is not None
        assert row.mirror.path.startswith("features/")
        assert row.mirror.line > 0
        assert row.steps
        assert all(step.bound for step in row.steps)
        assert row.property_test == PROPERTY_TESTS[row.scenario_id]
        assert row.level == "MUST"  # every requirement of the frozen spec says SHALL


def test_trace_rows_locate_the_mirror_and_its_step_definitions():
    """A row names the mirror's file:line and, for each step, the definition pytest-bdd uses."""
    row = build_matrix(REPO).row("duplicate-tool-call-id-is-proposed")
    text = (REPO / row.mirror.path).read_text(encoding="utf-8").splitlines()
    assert text[row.mirror.line - 1].strip() == "Scenario: Duplicate Tool Call ID is proposed"
    when = [s for s in row.steps if s.keyword == "when"]
    assert [s.text for s in when] == [SPEC_WHEN.removeprefix("When ")]
    assert text[when[0].line - 1].strip() == SPEC_WHEN
    assert when[0].definitions[0].startswith("conformance.bdd._when:")


def test_trace_report_rows_have_every_column():
    """The matrix becomes one report row per spec Scenario with every report column filled."""
    rows = report_rows(build_matrix(REPO))
    assert len(rows) == len(_spec_scenarios())
    for row in rows:
        assert row.cells["gherkin"].startswith("features/")
        assert row.cells["property"].startswith("tests/properties/test_prop_")
        assert row.cells["issues"] == ""


def test_trace_property_registry_carries_the_spec_then():
    """Each registered property checks the exact THEN sentence of its spec Scenario."""
    for requirement, scenario in _spec_scenarios():
        prop = PROPERTIES[scenario.id]
        assert prop.requirement_id == requirement.id
        assert [s.text for s in scenario.steps if s.keyword == "THEN"] == [prop.then]


def _no_mirror(root: Path) -> None:
    feature = root / "features" / RETRY_FEATURE
    text = feature.read_text(encoding="utf-8")
    feature.write_text(
        text.replace(_spec_block(text, "semanticguard-returns-an-invalid-schema"), ""),
        encoding="utf-8",
    )


def _reworded(root: Path) -> None:
    _edit(root / "features" / DUPLICATE_FEATURE, SPEC_WHEN, SPEC_WHEN.replace("two", "2"))


def _renamed(root: Path) -> None:
    _edit(
        root / "features" / DUPLICATE_FEATURE,
        "Scenario: Duplicate Tool Call ID is proposed",
        "Scenario: A Tool Call ID is proposed twice",
    )


def _untagged(root: Path) -> None:
    _edit(
        root / "features" / DUPLICATE_FEATURE,
        "@spec @requirement",
        "@requirement",
    )


def _wrong_ids(root: Path) -> None:
    _edit(
        root / "features" / DUPLICATE_FEATURE,
        "@spec @requirement:tool-invocation-identity-shall-use-the-framework-tool-call-id",
        "@spec @requirement:tool-invocation-identity",
    )


def _duplicated(root: Path) -> None:
    text = (root / "features" / DUPLICATE_FEATURE).read_text(encoding="utf-8")
    block = _spec_block(text, "duplicate-tool-call-id-is-proposed")
    extra = root / "features" / "99-copy.feature"
    extra.write_text(f"Feature: A copy\n\n{block}\n", encoding="utf-8")


def _unimplemented(root: Path) -> None:
    _edit(
        root / "features" / DUPLICATE_FEATURE,
        "    And the SemanticGuard supports the draft\n    When two",
        "    And the SemanticGuard supports the draft\n    And the moon is full\n    When two",
    )


def _unreadable(root: Path) -> None:
    (root / "features" / "98-broken.feature").write_text(
        "Feature: Broken\n  Scenario: x\n    Given a\n  this line is not Gherkin\n",
        encoding="utf-8",
    )


def _spec_missing(root: Path) -> None:
    shutil.rmtree(root / "openspec" / "specs")


def _duplicate_name(root: Path) -> None:
    """Field fault F12: a second scenario with an existing name appended to a feature."""
    appended = Path(__file__).parent / "inputs" / "appended-scenario.feature.txt"
    feature = root / "features" / DUPLICATE_FEATURE
    feature.write_text(
        feature.read_text(encoding="utf-8") + appended.read_text(encoding="utf-8"),
        encoding="utf-8",
    )


MUTATIONS = {
    "TRACE_NO_MIRROR": _no_mirror,
    "TRACE_REWORDED_MIRROR": _reworded,
    "TRACE_RENAMED_MIRROR": _renamed,
    "TRACE_MISSING_SPEC_TAG": _untagged,
    "TRACE_WRONG_IDS": _wrong_ids,
    "TRACE_DUPLICATE_MIRROR": _duplicated,
    "TRACE_UNIMPLEMENTED_STEP": _unimplemented,
    "TRACE_FEATURE_UNREADABLE": _unreadable,
    "TRACE_SPEC_MISSING": _spec_missing,
    "TRACE_DUPLICATE_SCENARIO_NAME": _duplicate_name,
}


@pytest.mark.parametrize("code", list(MUTATIONS))
def test_trace_mutated_copy_reports_its_code(code, repo_copy):
    """A copy of the repository broken one way reports exactly that issue code (and its place)."""
    MUTATIONS[code](repo_copy)
    matrix = build_matrix(repo_copy)
    assert code in matrix.codes(), "\n".join(map(str, matrix.issues))
    assert not matrix.complete
    located = [i for i in matrix.issues if i.code == code]
    assert all(re.match(r"^(features|openspec)/", i.location) for i in located)


def test_trace_missing_mirror_of_a_must_scenario_is_not_tested(repo_copy):
    """Without a mirror and without a property, a SHALL scenario cannot be tested: that fails."""
    _no_mirror(repo_copy)
    properties = {
        k: v for k, v in PROPERTY_TESTS.items() if k != "semanticguard-returns-an-invalid-schema"
    }
    matrix = build_matrix(repo_copy, properties=properties)
    codes = [
        i.code for i in matrix.issues if i.scenario_id == "semanticguard-returns-an-invalid-schema"
    ]
    assert {"TRACE_NO_MIRROR", "TRACE_NO_PROPERTY", "TRACE_MUST_NOT_TESTED"} <= set(codes)


def test_trace_scenario_without_property_is_reported():
    """A spec Scenario missing from the property registry is TRACE_NO_PROPERTY."""
    properties = {k: v for k, v in PROPERTY_TESTS.items() if k != "latest-run-is-a-fallback"}
    matrix = build_matrix(REPO, properties=properties)
    assert [(i.code, i.scenario_id) for i in matrix.issues] == [
        ("TRACE_NO_PROPERTY", "latest-run-is-a-fallback")
    ]
    assert matrix.row("latest-run-is-a-fallback").property_test is None


def test_trace_ambiguous_step_is_reported():
    """A step two definitions match is TRACE_AMBIGUOUS_STEP (pytest-bdd would pick one silently)."""
    extra = types.ModuleType("srdh_trace_extra_steps")
    exec(  # noqa: S102 - defines step functions in a throw-away module namespace
        "from pytest_bdd import given, parsers\n"
        "@given(parsers.re(r'a user asks (?P<question>.+)'))\n"
        "def _also_asks(question):\n"
        "    pass\n",
        extra.__dict__,
    )
    matrix = build_matrix(REPO, step_modules=[*default_step_modules(), extra])
    ambiguous = [i for i in matrix.issues if i.code == "TRACE_AMBIGUOUS_STEP"]
    assert ambiguous
    assert all("a user asks" in i.message for i in ambiguous)


def _suite_result(outcome: str, message: str, capabilities: list[str]) -> SuiteResult:
    result = SuiteResult(capabilities=capabilities)
    for requirement, scenario in _spec_scenarios():
        holder = result.requirements.setdefault(
            requirement.id, RequirementResult(requirement.id, requirement.name, "SHALL")
        )
        entry = ScenarioResult(scenario.id, scenario.name, "spec", requirement.id, "SHALL")
        if scenario.id == "client-disconnects-during-a-model-call":
            entry.examples.append(ExampleResult("x::cancel", outcome, message, 0.0))
        else:
            entry.examples.append(ExampleResult(f"x::{scenario.id}", "passed", "", 0.0))
        holder.scenarios[scenario.id] = entry
    return result


def test_trace_results_fill_the_result_column():
    """The last suite run's outcome is each row's result."""
    matrix = build_matrix(REPO, results=_suite_result("failed", "boom", ["DIAGNOSIS"]))
    assert matrix.row("client-disconnects-during-a-model-call").result == "failed"
    assert matrix.row("latest-run-is-a-fallback").result == "passed"


def test_trace_skipped_must_scenario_fails_unless_capability_is_lacking():
    """A skipped SHALL scenario fails, except when the IUT declares it lacks its capability."""
    everything = [capability.value for capability in Capability]
    skipped = _suite_result("skipped", "skipped by the user", everything)
    matrix = build_matrix(REPO, results=skipped)
    assert [i.code for i in matrix.issues] == ["TRACE_MUST_NOT_TESTED"]
    lacking = _suite_result(
        "skipped",
        "IUT lacks capability CANCELLATION",
        [c for c in everything if c != "CANCELLATION"],
    )
    matrix = build_matrix(REPO, results=lacking)
    assert matrix.issues == ()
    assert matrix.notes == (
        "client-disconnects-during-a-model-call: skipped, the IUT declares it lacks CANCELLATION",
    )


def test_trace_every_issue_code_has_a_test():
    """Each issue code of the matrix is produced by some test of this module."""
    produced = set(MUTATIONS) | {
        "TRACE_NO_PROPERTY",
        "TRACE_AMBIGUOUS_STEP",
        "TRACE_MUST_NOT_TESTED",
        # produced by test_trace_rename_and_snippets.py
        "TRACE_RENAMED_SCENARIO",
        # produced by test_trace_sentences.py
        "TRACE_SENTENCE_UNTESTED",
        "TRACE_DANGLING_FRAGMENT",
        "TRACE_AMBIGUOUS_FRAGMENT",
        "TRACE_MISPLACED_FRAGMENT",
    }
    assert produced == set(ISSUE_CODES)


def test_trace_duplicate_scenario_name_names_both_lines(repo_copy):
    """F12: the second scenario of one name is an error at its line naming the first line."""
    feature = repo_copy / "features" / DUPLICATE_FEATURE
    name = "Scenario: Two calls in one step share a Tool Call ID"
    before = [n for n, ln in enumerate(feature.read_text().splitlines(), 1) if ln.strip() == name]
    _duplicate_name(repo_copy)
    lines = [n for n, ln in enumerate(feature.read_text().splitlines(), 1) if ln.strip() == name]
    assert len(before) == 1
    assert len(lines) == 2
    matrix = build_matrix(repo_copy)
    (issue,) = [i for i in matrix.issues if i.code == "TRACE_DUPLICATE_SCENARIO_NAME"]
    assert issue.location == f"features/{DUPLICATE_FEATURE}:{lines[1]}"
    assert f"line {lines[0]}" in issue.message


def test_trace_matrix_as_json_names_every_issue(repo_copy):
    """The JSON form of a broken copy's matrix lists each issue with code, location and scenario."""
    _renamed(repo_copy)
    document = build_matrix(repo_copy).to_dict()
    assert document["complete"] is False
    (issue,) = document["issues"]
    assert issue["code"] == "TRACE_RENAMED_MIRROR"
    assert issue["scenario_id"] == "duplicate-tool-call-id-is-proposed"
    assert issue["location"].startswith(f"features/{DUPLICATE_FEATURE}:")
    assert len(document["rows"]) == len(_spec_scenarios())


def test_trace_features_outside_the_repository(tmp_path):
    """A mirror folder outside the repository (the kit's packaged features) is reported by path."""
    shutil.copytree(REPO / "openspec", tmp_path / "openspec")
    matrix = build_matrix(tmp_path, features=str(REPO / "features"))
    assert matrix.complete, "\n".join(map(str, matrix.issues))
    assert matrix.rows[0].mirror.path.startswith(str(REPO / "features"))


def test_trace_features_are_parsed_once_per_content(repo_copy):
    """An unchanged feature file is not parsed again in a process; an edited one is, even when
    the edit keeps its size and lands within the same clock tick (the cache keys on content)."""
    from conformance.traceability._features import read_features  # noqa: PLC0415

    features = repo_copy / "features"
    first, _ = read_features(features, repo_copy)
    again, _ = read_features(features, repo_copy)
    assert all(a is b for a, b in zip(first, again, strict=True))  # the parse was reused
    path = features / DUPLICATE_FEATURE
    old = first[[s.path for s in first].index(f"features/{DUPLICATE_FEATURE}")].name
    new = old[::-1]  # the same length: the same size
    _edit(path, f"Scenario: {old}\n", f"Scenario: {new}\n")
    edited, _ = read_features(features, repo_copy)
    names = {s.name for s in edited}
    assert new in names
    assert old not in names


RULE_FEATURE = "10-phase-gates-shall-remain-serial.feature"
RULE_INPUT = REPO / "tests" / "field_inputs" / "round3" / "gherkin-rule-tag-inheritance"


def _official_pickle_tags(path: Path) -> dict[str, list[str]]:
    """Scenario name -> tags, from gherkin-official's own pickle compiler."""
    from gherkin.parser import Parser  # noqa: PLC0415 - the referee, only here
    from gherkin.pickles.compiler import Compiler  # noqa: PLC0415

    document = Parser().parse(path.read_text(encoding="utf-8"))
    document["uri"] = path.name
    return {p["name"]: sorted(t["name"] for t in p["tags"]) for p in Compiler().compile(document)}


def test_g11_tags_on_a_rule_are_inherited_as_the_pickle_compiler_does(repo_copy):
    """G11: @spec and @requirement on a Rule above the scenario: no drift, same as on it."""
    feature = repo_copy / "features" / RULE_FEATURE
    shutil.copyfile(RULE_INPUT / RULE_FEATURE, feature)
    official = _official_pickle_tags(feature)
    assert "@spec" in official["Stage 4 completes internal Agent tests"]
    matrix = build_matrix(repo_copy)
    assert matrix.issues == (), "\n".join(map(str, matrix.issues))
    (row,) = [r for r in matrix.rows if r.scenario_id == "stage-4-completes-internal-agent-tests"]
    assert row.mirror is not None
    assert sorted(f"@{t}" for t in row.mirror.tags) == official[row.mirror.name]


def test_g11_feature_rule_and_examples_tags_are_inherited(repo_copy):
    """The kind: Feature tags, Rule tags and an outline's Examples tags all reach the scenario."""
    feature = repo_copy / "features" / RULE_FEATURE
    feature.write_text(
        "@spec\n"
        "Feature: Phase gates SHALL remain serial\n"
        "\n"
        "  @requirement:phase-gates-shall-remain-serial\n"
        "  Rule: Stages run in plan order\n"
        "\n"
        "    Scenario Outline: Stage 4 completes internal Agent tests\n"
        "      Given the stage-zero contracts\n"
        "      When stage 4 passes its focused tests but stage 5 Guards are not implemented\n"
        "      Then the public Chat entry remains on the old path and stage 6B cutover is "
        "prohibited\n"
        "\n"
        "      @scenario:stage-4-completes-internal-agent-tests\n"
        "      Examples:\n"
        "        | n |\n"
        "        | 1 |\n",
        encoding="utf-8",
    )
    official = _official_pickle_tags(feature)
    matrix = build_matrix(repo_copy)
    assert matrix.issues == (), "\n".join(map(str, matrix.issues))
    (row,) = [r for r in matrix.rows if r.scenario_id == "stage-4-completes-internal-agent-tests"]
    assert row.mirror is not None
    assert sorted(f"@{t}" for t in row.mirror.tags) == official[row.mirror.name]


def test_g11_a_rule_without_the_tags_still_drifts(repo_copy):
    """Inheritance is not a free pass: tags on another Rule do not reach the scenario."""
    feature = repo_copy / "features" / RULE_FEATURE
    text = (RULE_INPUT / RULE_FEATURE).read_text(encoding="utf-8")
    other_rule = (
        "  @spec @requirement:phase-gates-shall-remain-serial\n"
        "  Rule: Another rule\n\n"
        "    Scenario: Something else\n"
        "      Given the stage-zero contracts\n\n"
    )
    moved = text.replace("  @spec @requirement:phase-gates-shall-remain-serial\n", "")
    feature.write_text(
        moved.replace("  Rule: Stages run in plan order", other_rule + "  Rule: Stages"),
        encoding="utf-8",
    )
    codes = {i.code for i in build_matrix(repo_copy).issues}
    assert "TRACE_MISSING_SPEC_TAG" in codes or "TRACE_WRONG_IDS" in codes


def test_trace_and_catalogue_parse_each_feature_text_once(repo_copy, monkeypatch):
    """The suite's catalogue and the matrix share one Gherkin parse per text in a process (a
    fresh ``srdh run`` reads the mirror in both): each file is parsed once, not four times."""
    import gherkin.parser  # noqa: PLC0415

    from conformance.suite import load_catalogue  # noqa: PLC0415
    from conformance.traceability._features import read_features  # noqa: PLC0415

    features = repo_copy / "features"
    files = sorted(features.glob("*.feature"))
    for path in files:  # a text no earlier test of this process has parsed
        path.write_text(f"{path.read_text(encoding='utf-8')}# {repo_copy}\n", encoding="utf-8")
    parsed: list[str] = []
    parse = gherkin.parser.Parser.parse

    def counted(self, token_scanner_or_str, *args, **kwargs):
        parsed.append(token_scanner_or_str)
        return parse(self, token_scanner_or_str, *args, **kwargs)

    monkeypatch.setattr(gherkin.parser.Parser, "parse", counted)
    catalogue = load_catalogue(features)
    scenarios, issues = read_features(features, repo_copy)
    assert len(parsed) == len(files)
    assert sorted(parsed) == sorted(p.read_text(encoding="utf-8") for p in files)
    assert {e.name for e in catalogue} == {s.name for s in scenarios}
    assert issues == []
