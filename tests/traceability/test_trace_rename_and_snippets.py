"""`srdh trace` recognises a renamed spec Scenario and prints a definition for an unbound step."""

from __future__ import annotations

import shutil
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.openspec import load_tree
from conformance.properties import PROPERTY_TESTS
from conformance.strategies import StrategyNotRegisteredError, strategy_for
from conformance.traceability import build_matrix
from conformance.traceability._snippets import step_snippet
from conformance.traceability._steps import default_step_modules

REPO = Path(__file__).resolve().parents[2]
SPEC = Path("openspec/specs/single-react-diagnosis-harness/spec.md")
FEATURE = Path("features/02-tool-invocation-identity-shall-use-the-framework-tool-call-id.feature")
OLD_NAME, OLD_ID = "Duplicate Tool Call ID is proposed", "duplicate-tool-call-id-is-proposed"
NEW_NAME = "The same Tool Call ID is proposed twice"


@pytest.fixture
def repo_copy(tmp_path):
    """A copy of the repository's openspec/ and features/ folders."""
    for folder in ("openspec", "features"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _rename_in_spec(root: Path) -> str:
    _edit(root / SPEC, f"#### Scenario: {OLD_NAME}", f"#### Scenario: {NEW_NAME}")
    ids = {s.name: s.id for spec in load_tree(root).specs.values() for r in spec.requirements
           for s in r.scenarios}  # fmt: skip
    return ids[NEW_NAME]


def test_trace_recognises_a_renamed_scenario_and_says_what_to_change(repo_copy):
    """The spec Scenario renamed, its mirror unchanged: one TRACE_RENAMED_SCENARIO with the fix."""
    new_id = _rename_in_spec(repo_copy)
    matrix = build_matrix(repo_copy)
    renamed = [i for i in matrix.issues if i.code == "TRACE_RENAMED_SCENARIO"]
    assert len(renamed) == 1, "\n".join(map(str, matrix.issues))
    issue = renamed[0]
    assert issue.scenario_id == new_id
    assert issue.location.startswith(f"{FEATURE.as_posix()}:")
    assert "the same When/Then steps" in issue.message
    assert f"rename it `Scenario: {NEW_NAME}`" in issue.message
    assert f"retag it @scenario:{new_id}" in issue.message
    assert f"rename the key {OLD_ID!r} of PROPERTY_TESTS" in issue.message
    assert not [i for i in matrix.issues if i.code == "TRACE_NO_MIRROR"]
    row = matrix.row(new_id)
    assert row.mirror is not None
    assert row.mirror.location == issue.location


def test_trace_following_the_advice_clears_the_rename(repo_copy):
    """Renaming and retagging the mirror and the property key as told leaves no rename issue."""
    new_id = _rename_in_spec(repo_copy)
    _edit(repo_copy / FEATURE, f"Scenario: {OLD_NAME}", f"Scenario: {NEW_NAME}")
    _edit(repo_copy / FEATURE, f"@scenario:{OLD_ID}", f"@scenario:{new_id}")
    properties = {(new_id if k == OLD_ID else k): v for k, v in PROPERTY_TESTS.items()}
    codes = build_matrix(repo_copy, properties=properties).codes()
    assert not codes & {"TRACE_RENAMED_SCENARIO", "TRACE_NO_MIRROR", "TRACE_NO_PROPERTY"}


def test_trace_a_renamed_and_lightly_reworded_scenario_is_still_recognised(repo_copy):
    """Steps alike above the threshold count, with their similarity named."""
    _rename_in_spec(repo_copy)
    _edit(repo_copy / SPEC, "the same framework Tool Call ID", "the same framework Tool Call IDs")
    issue = next(i for i in build_matrix(repo_copy).issues if i.code == "TRACE_RENAMED_SCENARIO")
    assert "% alike" in issue.message


def test_trace_an_unrelated_orphan_is_no_rename(repo_copy):
    """A renamed spec Scenario whose orphan mirror has other steps is a missing mirror."""
    _rename_in_spec(repo_copy)
    feature = repo_copy / FEATURE
    text = feature.read_text(encoding="utf-8")
    start = text.index(f"Scenario: {OLD_NAME}")
    when = text.index("    When ", start)
    end = text.index("\n\n", when) if "\n\n" in text[when:] else len(text)
    feature.write_text(
        text[:when] + "    When the moon is full\n    Then nothing happens" + text[end:],
        encoding="utf-8",
    )
    codes = build_matrix(repo_copy).codes()
    assert "TRACE_NO_MIRROR" in codes
    assert "TRACE_RENAMED_SCENARIO" not in codes


def test_cli_trace_prints_the_rename_advice(repo_copy):
    """`srdh trace` shows the issue line (exit 1: it is drift)."""
    _rename_in_spec(repo_copy)
    result = CliRunner().invoke(app, ["trace", str(repo_copy)])
    assert result.exit_code == 1
    assert "TRACE_RENAMED_SCENARIO" in result.stdout
    assert "looks renamed from the mirror" in result.stdout


def _module_from(snippet: str) -> types.ModuleType:
    module = types.ModuleType("pasted_steps")
    exec(  # noqa: S102 - the snippet under test, as a user would paste it
        "from pytest_bdd import given, when, then, parsers\n" + snippet, module.__dict__
    )
    return module


@pytest.mark.parametrize(
    "step",
    ["the moon is full", 'the moon is "full" tonight', 'a {brace} and "two" "values"'],
)
def test_trace_unbound_step_prints_a_definition_that_binds_it(repo_copy, step):
    """The message carries a pytest-bdd definition; pasted in, the step is bound."""
    _edit(
        repo_copy / FEATURE,
        "    And the SemanticGuard supports the draft\n    When two",
        f"    And the SemanticGuard supports the draft\n    And {step}\n    When two",
    )
    matrix = build_matrix(repo_copy)
    unbound = [i for i in matrix.issues if i.code == "TRACE_UNIMPLEMENTED_STEP"]
    assert len(unbound) == 1
    snippet = unbound[0].message.split("\n", 1)[1]
    assert snippet.startswith("@given(")
    assert "raise NotImplementedError" in snippet
    pasted = build_matrix(repo_copy, step_modules=[*default_step_modules(), _module_from(snippet)])
    assert "TRACE_UNIMPLEMENTED_STEP" not in pasted.codes()


def test_trace_outline_placeholders_become_parse_fields():
    """An outline's <placeholder> is one field, so the definition serves every example row."""
    snippet = step_snippet("then", "the invocation is <status> after <wait ms> ms")
    assert "parsers.parse('the invocation is {status} after {wait_ms} ms')" in snippet
    assert "def _(status: str, wait_ms: str) -> None:" in snippet


@pytest.mark.parametrize(
    ("keyword", "registry", "binds"),
    [
        ("When", "SPEC_RUN_SENTENCES in conformance/bdd/_when.py", "SPEC_RUN_SENTENCES"),
        ("Then", "THEN_CHECKS in conformance/bdd/_then.py", "THEN_CHECKS"),
    ],
)
def test_trace_unbound_when_and_then_point_at_the_kits_registries(
    repo_copy, keyword, registry, binds
):
    """A new When/Then sentence is one registry entry, not a step definition that raises."""
    sentence = "the moon is full"
    anchor = "    Then the contract classifies" if keyword == "Then" else "    When two"
    _edit(repo_copy / FEATURE, anchor, f"    {keyword} {sentence}\n{anchor.replace('When', 'And')}")
    matrix = build_matrix(repo_copy)
    (unbound,) = [i for i in matrix.issues if i.code == "TRACE_UNIMPLEMENTED_STEP"]
    assert registry in unbound.message
    assert repr(sentence) in unbound.message
    assert "NotImplementedError" not in unbound.message
    assert binds in unbound.message


def test_a_scenario_without_a_strategy_is_a_clear_error_naming_the_files():
    """An unregistered strategy: one message naming the scenario, the registry and the module."""
    with pytest.raises(StrategyNotRegisteredError) as raised:
        strategy_for("client-disconnects-during-a-tool-call")
    message = str(raised.value)
    assert "'client-disconnects-during-a-tool-call'" in message
    assert "SCENARIO_STRATEGIES (conformance/strategies/_registry.py)" in message
    assert "conformance/strategies/_scenarios.py" in message
    assert callable(strategy_for("duplicate-tool-call-id-is-proposed"))
