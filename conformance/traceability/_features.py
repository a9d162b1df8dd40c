"""Read the Gherkin mirror with pytest-bdd's own parser (``features/*.feature``).

Each scenario becomes a :class:`FeatureScenario`: where it is, its tags, and its steps with the
type pytest-bdd resolves (``And``/``But`` inherit the previous type). A Scenario Outline yields one
rendered step list per example row, exactly as pytest-bdd renders it before matching.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gherkin.errors import CompositeParserException
from gherkin.pickles.compiler import Compiler as PickleCompiler
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import GherkinDocument, get_gherkin_document
from pytest_bdd.parser import FeatureParser, ScenarioTemplate

from conformance._gherkin import parse_gherkin
from conformance.traceability._issues import TraceIssue

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["FeatureScenario", "GherkinStep", "read_features"]


@dataclass(frozen=True, slots=True)
class GherkinStep:
    """One step: resolved ``type`` (given/when/then), its text and 1-based line."""

    type: str
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class FeatureScenario:
    """A scenario of a feature file.

    Attributes:
        path: the feature file, relative to the repository (POSIX separators).
        line: the line of its ``Scenario:`` keyword.
        name: the scenario name.
        feature_name: the name of its Feature.
        tags: its tags without ``@``, sorted: its own and those it inherits from its Feature,
            its Rule and (an outline) its Examples blocks, as the official pickle compiler
            (``gherkin-official``) gives them.
        steps: its steps as written (an outline's ``<placeholders>`` kept).
        variants: the steps pytest-bdd runs: one rendered list per example (one list when the
            scenario is not an outline).
    """

    path: str
    line: int
    name: str
    feature_name: str
    tags: tuple[str, ...]
    steps: tuple[GherkinStep, ...]
    variants: tuple[tuple[GherkinStep, ...], ...]

    @property
    def location(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"

    def tag_value(self, name: str) -> str | None:
        """Return the value of the first ``@name:<value>`` tag, or ``None``."""
        values = self.tag_values(name)
        return values[0] if values else None

    def tag_values(self, name: str) -> tuple[str, ...]:
        """Return the values of every ``@name:<value>`` tag, sorted."""
        prefix = f"{name}:"
        return tuple(t[len(prefix) :] for t in self.tags if t.startswith(prefix))


class _ParsedFeature(FeatureParser):
    """pytest-bdd's :class:`~pytest_bdd.parser.FeatureParser` over a document already parsed.

    pytest-bdd builds its ``Feature`` (scenarios, the step types it resolves, outline examples)
    from the document ``_parse_feature_file`` returns; this one returns ``document`` instead of
    reading and parsing the file again. Should a pytest-bdd release stop calling that method,
    the parser reads the file itself: the same ``Feature``, one parse more.
    """

    def __init__(self, file: Path, document: GherkinDocument) -> None:
        """Parse ``document``, the Gherkin document of ``file``."""
        super().__init__(str(file.parent), file.name, "utf-8")
        self._document = document

    def _parse_feature_file(self) -> GherkinDocument:
        return self._document


def _steps(template: ScenarioTemplate) -> tuple[GherkinStep, ...]:
    return tuple(GherkinStep(s.type, s.name, s.line_number) for s in template.steps)


def _variants(template: ScenarioTemplate) -> tuple[tuple[GherkinStep, ...], ...]:
    contexts = [c for examples in template.examples for c in examples.as_contexts()]
    if not template.templated or not contexts:
        return (_steps(template),)
    rendered = []
    for context in contexts:
        scenario = template.render(context)
        rendered.append(tuple(GherkinStep(s.type, s.name, s.line_number) for s in scenario.steps))
    return tuple(rendered)


def _duplicates(document: GherkinDocument, relative: str) -> list[TraceIssue]:
    """Scenarios sharing a name in one feature: pytest-bdd keeps only the last of them."""
    seen: dict[str, int] = {}
    issues: list[TraceIssue] = []
    children = list(document.feature.children)
    while children:
        child = children.pop(0)
        if child.rule is not None:
            children[:0] = child.rule.children
            continue
        if child.scenario is None:
            continue
        name, line = child.scenario.name, child.scenario.location.line
        if name in seen:
            issues.append(
                TraceIssue(
                    "TRACE_DUPLICATE_SCENARIO_NAME",
                    f"scenario {name!r} on line {line} repeats the name of the scenario on "
                    f"line {seen[name]} ({relative}:{seen[name]}); pytest-bdd would run only "
                    "one of them: rename one",
                    f"{relative}:{line}",
                )
            )
        else:
            seen[name] = line
    return issues


def _inherited_tags(name: str, parsed: Any) -> dict[int, frozenset[str]]:  # noqa: ANN401
    """Tags per scenario line as the official pickle compiler gives them (without ``@``).

    ``parsed`` is the ``gherkin-official`` document (plain dicts, shared: read only) of the file
    called ``name``. ``gherkin-official``'s compiler gives each pickle the tags of its Feature,
    its Rule, the scenario itself and (for an outline row) its Examples block; a scenario's tags
    are the union over its pickles. An outline without rows has no pickle; its tags are then
    read from the tree (Feature, Rule, scenario) the same way.
    """
    document: Any = {**parsed, "uri": name}  # the compiler's input; the shared dict unchanged
    lines: dict[str, int] = {}
    tree_tags: dict[int, frozenset[str]] = {}
    feature = document.get("feature") or {}
    feature_tags = [t["name"] for t in feature.get("tags", [])]
    for child in feature.get("children", []):
        rule = child.get("rule")
        blocks = rule.get("children", []) if rule else [child]
        rule_tags = [t["name"] for t in rule.get("tags", [])] if rule else []
        for block in blocks:
            scenario = block.get("scenario")
            if scenario is None:
                continue
            line = scenario["location"]["line"]
            lines[scenario["id"]] = line
            own = [t["name"] for t in scenario.get("tags", [])]
            tree_tags[line] = frozenset(t.lstrip("@") for t in (*feature_tags, *rule_tags, *own))
    compiled: dict[int, set[str]] = {}
    for pickle in PickleCompiler().compile(document):
        line = lines.get(pickle["astNodeIds"][0])
        if line is not None:
            compiled.setdefault(line, set()).update(t["name"].lstrip("@") for t in pickle["tags"])
    return {line: frozenset(compiled.get(line, tags)) for line, tags in tree_tags.items()}


def read_features(features_dir: Path, repo: Path) -> tuple[list[FeatureScenario], list[TraceIssue]]:
    """Parse every ``*.feature`` under ``features_dir`` (sorted by path).

    Paths are reported relative to ``repo`` (absolute when the folder lies outside it). Each
    file is parsed once per content (its path and the SHA-256 of its bytes) in a process: a
    process that builds the matrix again (every ``srdh run`` report, ``srdh verify``) reuses the
    parse of an unchanged file (about 0.1 CPU s for the kit's features); an edited one is
    parsed again.

    Returns:
        The scenarios in file order, a ``TRACE_FEATURE_UNREADABLE`` issue per file that
        pytest-bdd cannot parse (naming the file and line), and a
        ``TRACE_DUPLICATE_SCENARIO_NAME`` issue per scenario whose name an earlier scenario of
        its feature has (naming both lines: pytest-bdd would silently drop one).
    """
    scenarios: list[FeatureScenario] = []
    issues: list[TraceIssue] = []
    for file in sorted(features_dir.rglob("*.feature")):
        relative = (
            file.relative_to(repo).as_posix() if file.is_relative_to(repo) else file.as_posix()
        )
        try:
            digest = hashlib.sha256(file.read_bytes()).hexdigest()
            found, problems = _read_feature(file, relative, digest)
        except (GherkinParseError, UnicodeDecodeError, OSError) as error:
            line = getattr(error, "line", 0) or 0
            issues.append(
                TraceIssue(
                    "TRACE_FEATURE_UNREADABLE",
                    f"cannot parse as Gherkin: {error}",
                    f"{relative}:{line}" if line else relative,
                )
            )
            continue
        scenarios.extend(found)
        issues.extend(problems)
    return scenarios, issues


@functools.lru_cache(maxsize=256)
def _read_feature(
    file: Path, relative: str, digest: str
) -> tuple[tuple[FeatureScenario, ...], tuple[TraceIssue, ...]]:
    """The scenarios and issues of one feature file, parsed once per content of the file.

    ``digest`` (SHA-256 of the file's bytes) keys the cache with the paths, so an edited file is
    parsed again however fast it was edited; the values are frozen dataclasses in tuples, so no
    caller can change what another reads. A file that
    cannot be read or parsed raises (pytest-bdd's ``GherkinParseError``, ``UnicodeDecodeError``,
    ``OSError``), and a raise is never cached: the next call tries again.
    """
    del digest  # the cache key only
    text = file.read_text(encoding="utf-8")
    try:
        parsed = parse_gherkin(text)  # shared with the suite's catalogue: one parse per text
    except CompositeParserException:
        get_gherkin_document(str(file), "utf-8")  # raises pytest-bdd's error (file, line)
        raise
    document = GherkinDocument.from_dict(parsed)
    feature = _ParsedFeature(file, document).parse()
    issues = tuple(_duplicates(document, relative))
    inherited = _inherited_tags(file.name, parsed)
    scenarios = tuple(
        FeatureScenario(
            path=relative,
            line=template.line_number,
            name=template.name,
            feature_name=feature.name,
            tags=tuple(sorted(inherited.get(template.line_number, template.tags))),
            steps=_steps(template),
            variants=_variants(template),
        )
        for template in feature.scenarios.values()
    )
    return scenarios, issues
