"""Sentence-level traceability: every normative sentence maps to the check rules quoting it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.checks import RULES, Rule
from conformance.cli import app
from conformance.traceability import build_matrix
from conformance.traceability._sentences import (
    normalize_fragment,
    sentence_level,
    split_sentences,
)

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "openspec/specs/single-react-diagnosis-harness/spec.md"
R5 = "knowledge-answers-shall-use-exact-rag-bindings"
R9 = "retry-attempts-shall-be-owned-by-harness"


@pytest.fixture(scope="module")
def matrix():
    """The matrix of the real repository."""
    return build_matrix(REPO)


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    """A copy of the repository's openspec/ and features/."""
    for folder in ("openspec", "features"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    return tmp_path


def _registry(*extra: Rule, drop: str = "") -> dict[str, Rule]:
    rules = {k: v for k, v in RULES.items() if k != drop}
    rules.update({r.id: r for r in extra})
    return rules


def test_every_body_and_then_sentence_is_a_normative_row(matrix) -> None:
    """Each requirement body sentence and each THEN bullet of the spec is a row; WHENs are
    conditions."""
    text = SPEC.read_text(encoding="utf-8")
    thens = text.count("- **THEN**")
    whens = text.count("- **WHEN**")
    requirements = text.count("### Requirement:")
    kinds = [row.sentence.kind for row in matrix.sentences]
    assert kinds.count("then") == thens
    assert kinds.count("condition") == whens
    assert kinds.count("body") == requirements  # each body of this spec is one sentence
    ids = [row.sentence.id for row in matrix.sentences]
    assert len(ids) == len(set(ids))


def test_ids_levels_and_locations_are_readable(matrix) -> None:
    """Ids read ``<req>#<n>`` and ``<req>/<scenario>#<n>``; lines point at the text."""
    rows = {row.sentence.id: row.sentence for row in matrix.sentences}
    body = rows[f"{R5}#1"]
    assert body.level == "MUST"
    assert body.keyword == "SHALL"
    lines = SPEC.read_text(encoding="utf-8").split("\n")
    line = int(body.location.rsplit(":", 1)[1])
    assert lines[line - 1].startswith("The KNOWLEDGE_QUERY contract SHALL")
    retry = rows[f"{R9}/semanticguard-returns-an-invalid-schema#1"]
    assert (retry.level, retry.keyword) == ("MAY", "may")
    assert lines[int(retry.location.rsplit(":", 1)[1]) - 1].startswith("- **THEN** Harness may")
    condition = rows[f"{R9}/semanticguard-returns-an-invalid-schema#when-1"]
    assert condition.kind == "condition"
    assert not condition.normative


def test_every_must_sentence_of_the_spec_is_tested(matrix) -> None:
    """Today every MUST sentence of the spec has a rule; each rule names its mutants."""
    untested = [r.sentence.id for r in matrix.sentences if r.sentence.normative and not r.tested]
    assert untested == []
    assert not [i for i in matrix.issues if i.code.startswith("TRACE_") and "FRAGMENT" in i.code]
    row = next(r for r in matrix.sentences if r.sentence.id.endswith("/latest-run-is-a-fallback#1"))
    assert row.rules == ("R7.previous-turn-selection",)
    assert "fallback_as_previous_turn" in row.mutants


def test_a_must_sentence_without_a_rule_fails(spec_copy: Path) -> None:
    """Dropping the only rule of a THEN sentence makes it TRACE_SENTENCE_UNTESTED at its line."""
    rules = _registry(drop="R3.no-evidence-invocation")
    matrix = build_matrix(spec_copy, rules=rules)
    (issue,) = [i for i in matrix.issues if i.code == "TRACE_SENTENCE_UNTESTED"]
    assert "successful-query-returns-no-evidence#1" in issue.message
    assert issue.scenario_id == "successful-query-returns-no-evidence"
    line = int(issue.location.rsplit(":", 1)[1])
    spec = spec_copy / "openspec/specs/single-react-diagnosis-harness/spec.md"
    assert "invocation status is READY" in spec.read_text(encoding="utf-8").split("\n")[line - 1]
    assert not matrix.complete


def test_a_may_sentence_without_a_rule_is_a_note_not_a_failure(spec_copy: Path) -> None:
    """The optional retry THEN without its rule is listed, and the matrix stays complete."""
    matrix = build_matrix(spec_copy, rules=_registry(drop="R9.semantic-retry-same-snapshot"))
    assert matrix.complete, "\n".join(map(str, matrix.issues))
    assert any(
        "semanticguard-returns-an-invalid-schema#1: a MAY sentence" in n for n in matrix.notes
    )


def test_a_new_body_sentence_without_a_rule_fails(spec_copy: Path) -> None:
    """A second MUST sentence appended to a requirement body is a new untested sentence #2."""
    spec = spec_copy / "openspec/specs/single-react-diagnosis-harness/spec.md"
    text = spec.read_text(encoding="utf-8")
    old = "from Diagnosis previous-turn selection."
    spec.write_text(text.replace(old, old + " Each Run MUST have one row.", 1), encoding="utf-8")
    matrix = build_matrix(spec_copy)
    codes = [(i.code, i.message.split(" ")[0]) for i in matrix.issues]
    assert codes == [
        (
            "TRACE_SENTENCE_UNTESTED",
            "previous-turn-shall-come-from-a-safe-durable-run-result#2",
        )
    ]


@pytest.mark.parametrize(
    ("fragment", "code"),
    [
        ("a sentence the spec never wrote", "TRACE_DANGLING_FRAGMENT"),
        ("The contract SHALL define", "TRACE_AMBIGUOUS_FRAGMENT"),
        ("returned document IDs", "TRACE_MISPLACED_FRAGMENT"),
    ],
)
def test_bad_fragments_are_errors_naming_the_rule(
    spec_copy: Path, fragment: str, code: str
) -> None:
    """A fragment in no sentence, in several, or in another requirement is an error of its rule."""
    bad = Rule("R3.bad-fragment", "demo", (fragment,))
    matrix = build_matrix(spec_copy, rules=_registry(bad))
    (issue,) = [i for i in matrix.issues if i.code == code]
    assert "rule R3.bad-fragment" in issue.message
    assert issue.location == "conformance/checks/_rules.py"


def test_matching_ignores_markdown_and_white_space(spec_copy: Path) -> None:
    """Bold, code marks and line breaks in the spec or the fragment do not break a match."""
    spec = spec_copy / "openspec/specs/single-react-diagnosis-harness/spec.md"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace(
            "the sole Tool invocation reference", "the **sole** Tool\ninvocation `reference`"
        ),
        encoding="utf-8",
    )
    rule = Rule("R2.md", "demo", ("the sole   Tool invocation reference",))
    matrix = build_matrix(spec_copy, rules=_registry(rule))
    row = next(r for r in matrix.sentences if r.sentence.id.endswith("framework-tool-call-id#1"))
    assert "R2.md" in row.rules


@pytest.mark.parametrize(
    ("body", "sentences"),
    [
        ("A MUST x. B SHALL y.", ["A MUST x.", "B SHALL y."]),
        ("Use e.g. a cache. Then stop.", ["Use e.g. a cache.", "Then stop."]),
        ("Intro:\n- one MUST\n- two MAY", ["Intro:", "one MUST", "two MAY"]),
        ("Wrapped\nline MUST hold.", ["Wrapped line MUST hold."]),
        ("告警必须去重。静默可以到期。", ["告警必须去重。", "静默可以到期。"]),
    ],
)
def test_split_sentences(body: str, sentences: list[str]) -> None:
    """Bodies split after sentence ends (not abbreviations) and at list items."""
    assert split_sentences(body) == sentences


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("It SHALL do x and MAY do y", ("MUST", "SHALL")),
        ("It SHOULD do x", ("SHOULD", "SHOULD")),
        ("Harness may retry", ("MAY", "may")),
        ("the status is READY", ("MUST", "")),
        ("It is OPTIONAL", ("MAY", "OPTIONAL")),
    ],
)
def test_sentence_level(text: str, level: tuple[str, str]) -> None:
    """The strongest upper-case keyword wins; a lower-case may is optional; else inherited."""
    assert sentence_level(text, "MUST") == level


def test_normalize_fragment_keeps_identifiers() -> None:
    """Underscores inside words survive; emphasis and code marks do not."""
    assert normalize_fragment("the `tool_call_id` is **sole**") == "the tool_call_id is sole"
    assert normalize_fragment("*a* _b_ [link](http://x)") == "a b link"


def test_srdh_trace_prints_and_exports_the_sentence_matrix(spec_copy: Path) -> None:
    """``srdh trace`` shows sentence -> rules -> mutants; ``--json`` carries the same rows."""
    runner = CliRunner()
    result = runner.invoke(app, ["trace", str(spec_copy)])
    assert result.exit_code == 0, result.output
    assert "sentence matrix (sentence -> check rules -> mutants)" in result.stdout
    assert f"{R5}#1" in result.stdout
    assert "0 untested, 0 drift problem(s)" in result.stdout
    exported = runner.invoke(app, ["trace", str(spec_copy), "--json"])
    assert exported.exit_code == 0, exported.output
    document = json.loads(exported.stdout)
    row = next(s for s in document["sentences"] if s["id"] == f"{R5}#1")
    assert "R5.fabricated-citation-rejected" in row["rules"]
    assert {RULES[r].requirement_id for r in row["rules"]} == {R5}
    assert row["level"] == "MUST"
    assert row["tested"] is True


def test_srdh_trace_fails_on_an_untested_must_sentence(spec_copy: Path) -> None:
    """A new MUST body sentence nobody tests makes ``srdh trace`` exit 1 naming it."""
    spec = spec_copy / "openspec/specs/single-react-diagnosis-harness/spec.md"
    text = spec.read_text(encoding="utf-8")
    old = "returned document IDs."
    spec.write_text(text.replace(old, old + " Answers MUST be short.", 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["trace", str(spec_copy), "--json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [i["code"] for i in document["issues"]] == ["TRACE_SENTENCE_UNTESTED"]
    assert f"{R5}#2" in document["issues"][0]["message"]


def test_srdh_trace_prints_spec_text_as_data(spec_copy: Path) -> None:
    """A terminal escape inside a spec sentence is printed escaped, never raw."""
    spec = spec_copy / "openspec/specs/single-react-diagnosis-harness/spec.md"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace("returned document IDs.", "returned document IDs \x1b[31mred.", 1),
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["trace", str(spec_copy)])
    assert "\x1b" not in result.stdout
    assert "\\x1b[31mred." in result.stdout
