"""``build_matrix``: requirement -> spec scenario -> mirror -> step definitions -> property.

The spec is read with :mod:`conformance.openspec`, the Gherkin mirror with pytest-bdd's parser,
steps are bound with pytest-bdd's own matching, property tests come from the registry of
:mod:`conformance.properties`, results from a :class:`~conformance.suite.SuiteResult`.

RFC 2119 (DESIGN section 9): a MUST or SHALL scenario that cannot be tested fails
(``TRACE_MUST_NOT_TESTED``); a skip is allowed only when the scenario needs a capability the IUT
declares it lacks, and is then reported as a note.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Final

from conformance.openspec import Requirement, Scenario, load_tree, preview_requirements
from conformance.traceability._features import FeatureScenario, read_features
from conformance.traceability._issues import TraceIssue
from conformance.traceability._model import Matrix, MirrorRef, StepBinding, TraceRow
from conformance.traceability._sentences import (
    SentenceRow,
    map_sentences,
    mutants_by_rule,
    spec_sentences,
)
from conformance.traceability._snippets import step_hint
from conformance.traceability._steps import (
    StepDefinition,
    bind_step,
    default_step_modules,
    step_definitions,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from types import ModuleType

    from conformance.checks import Rule
    from conformance.suite import SuiteResult

__all__ = ["build_matrix", "normalized_level"]

_MUST = frozenset({"MUST", "SHALL", "REQUIRED"})
_SHOULD = frozenset({"SHOULD", "RECOMMENDED"})


def normalized_level(level: str | None) -> str:
    """Map an RFC 2119 keyword to MUST, SHOULD or MAY (``None``, no keyword, counts as MUST)."""
    word = (level or "MUST").upper()
    if word in _MUST:
        return "MUST"
    return "SHOULD" if word in _SHOULD else "MAY"


def _relative(path: Path, repo: Path) -> str:
    try:
        return path.resolve().relative_to(repo).as_posix()
    except ValueError:
        return path.as_posix()


RENAME_SIMILARITY: Final = 0.8
"""Least similarity (difflib ratio) of When/Then texts for an orphan mirror to count as renamed."""


class _Builder:
    def __init__(
        self, repo: Path, definitions: Sequence[StepDefinition], properties: Mapping[str, str]
    ) -> None:
        self.repo = repo
        self.definitions = definitions
        self.properties = properties
        self.issues: list[TraceIssue] = []
        self.notes: list[str] = []
        self.spec_ids: frozenset[str] = frozenset()
        self.spec_names: frozenset[str] = frozenset()
        self.claimed: set[tuple[str, int]] = set()

    def issue(self, code: str, message: str, location: str, scenario_id: str = "") -> None:
        self.issues.append(TraceIssue(code, message, location, scenario_id))

    # -- mirrors -----------------------------------------------------------------------------------

    def find_mirror(
        self, requirement: Requirement, scenario: Scenario, features: Sequence[FeatureScenario]
    ) -> FeatureScenario | None:
        by_tag = [f for f in features if scenario.id in f.tag_values("scenario")]
        by_name = [f for f in features if f.name == scenario.name and f not in by_tag]
        candidates = by_tag + by_name
        if not candidates:
            renamed = self.find_renamed(scenario, features)
            if renamed is not None:
                return renamed
            self.issue(
                "TRACE_NO_MIRROR",
                f"spec Scenario {scenario.name!r} ({scenario.id}) has no feature scenario tagged "
                f"@scenario:{scenario.id} or named the same",
                self.spec_location(scenario),
                scenario.id,
            )
            return None
        if len(candidates) > 1:
            where = ", ".join(c.location for c in candidates)
            self.issue(
                "TRACE_DUPLICATE_MIRROR",
                f"spec Scenario {scenario.id} is mirrored more than once: {where}",
                candidates[1].location,
                scenario.id,
            )
        mirror = candidates[0]
        self.check_mirror(requirement, scenario, mirror)
        return mirror

    def find_renamed(
        self, scenario: Scenario, features: Sequence[FeatureScenario]
    ) -> FeatureScenario | None:
        """An orphan mirror whose When/Then steps are the spec Scenario's: it was renamed.

        An orphan is a feature scenario whose ``@scenario`` tag names no spec Scenario (or that
        has none, and whose name is no spec Scenario's name), not yet taken by another. The
        steps must be the same or at least :data:`RENAME_SIMILARITY` alike. Reports
        ``TRACE_RENAMED_SCENARIO`` saying what to change and returns the mirror, else ``None``.
        """
        spec = _spec_groups(scenario)
        wanted = "\n".join(spec["when"] + spec["then"])
        best: tuple[float, FeatureScenario] | None = None
        for feature in features:
            tags = feature.tag_values("scenario")
            orphan = (not tags and feature.name not in self.spec_names) or (
                bool(tags) and not set(tags) & self.spec_ids
            )
            if not orphan or (feature.path, feature.line) in self.claimed:
                continue
            when = [s.text for s in feature.steps if s.type == "when"]
            then = [s.text for s in feature.steps if s.type == "then"][: len(spec["then"])]
            ratio = SequenceMatcher(None, wanted, "\n".join(when + then)).ratio()
            if ratio >= RENAME_SIMILARITY and (best is None or ratio > best[0]):
                best = (ratio, feature)
        if best is None:
            return None
        ratio, mirror = best
        self.claimed.add((mirror.path, mirror.line))
        old = ",".join(mirror.tag_values("scenario")) or "(none)"
        steps = "the same When/Then steps" if ratio == 1 else f"When/Then steps {ratio:.0%} alike"
        todo = [
            f"rename it `Scenario: {scenario.name}`",
            f"retag it @scenario:{scenario.id}",
        ]
        todo += [
            f"rename the key {key!r} of PROPERTY_TESTS (conformance/properties) to {scenario.id!r}"
            for key in mirror.tag_values("scenario")
            if key in self.properties
        ]
        todo.append("regenerate the fixtures (python -m conformance.fixtures)")
        self.issue(
            "TRACE_RENAMED_SCENARIO",
            f"spec Scenario {scenario.name!r} ({scenario.id}) looks renamed from the mirror "
            f"{mirror.name!r} (@scenario:{old}), which has {steps}; to follow the rename: "
            + "; ".join(todo),
            mirror.location,
            scenario.id,
        )
        return mirror

    def spec_location(self, scenario: Scenario) -> str:
        return f"{_relative(scenario.location.path, self.repo)}:{scenario.location.line}"

    def check_mirror(
        self, requirement: Requirement, scenario: Scenario, mirror: FeatureScenario
    ) -> None:
        where = mirror.location
        if mirror.name != scenario.name:
            self.issue(
                "TRACE_RENAMED_MIRROR",
                f"mirror is named {mirror.name!r}, the spec Scenario {scenario.name!r}",
                where,
                scenario.id,
            )
        if "spec" not in mirror.tags:
            self.issue(
                "TRACE_MISSING_SPEC_TAG",
                f"mirror of {scenario.id} lacks the @spec tag",
                where,
                scenario.id,
            )
        scenario_tags = mirror.tag_values("scenario")
        requirement_tags = mirror.tag_values("requirement")
        if scenario_tags != (scenario.id,) or requirement_tags != (requirement.id,):
            self.issue(
                "TRACE_WRONG_IDS",
                f"mirror is tagged @requirement:{','.join(requirement_tags) or '(none)'} "
                f"@scenario:{','.join(scenario_tags) or '(none)'}; expected "
                f"@requirement:{requirement.id} @scenario:{scenario.id}",
                where,
                scenario.id,
            )
        self.check_wording(scenario, mirror)

    def check_wording(self, scenario: Scenario, mirror: FeatureScenario) -> None:
        expected = _spec_groups(scenario)
        observed = {
            kind: [s for s in mirror.steps if s.type == kind] for kind in ("given", "when", "then")
        }
        for kind in ("when", "then"):
            want = expected[kind]
            have = observed[kind]
            # When: exactly the spec's WHEN sentences. Then: the spec's THEN sentences first;
            # the mirror may add further Then steps (e.g. the global invariants).
            same = (
                [s.text for s in have] == want
                if kind == "when"
                else ([s.text for s in have[: len(want)]] == want)
            )
            if not same:
                line = have[0].line if have else mirror.line
                self.issue(
                    "TRACE_REWORDED_MIRROR",
                    f"mirror's {kind.capitalize()} steps {[s.text for s in have]} do not carry "
                    f"the spec's {kind.upper()} text {want}",
                    f"{mirror.path}:{line}",
                    scenario.id,
                )

    # -- steps -------------------------------------------------------------------------------------

    def bind(self, scenario: FeatureScenario, scenario_id: str) -> tuple[StepBinding, ...]:
        bindings: dict[tuple[int, str], StepBinding] = {}
        for variant in scenario.variants:
            for step in variant:
                key = (step.line, step.text)
                if key not in bindings:
                    bindings[key] = bind_step(step, self.definitions)
        written = {step.line: step.text for step in scenario.steps}
        for binding in bindings.values():
            where = f"{scenario.path}:{binding.line}"
            if not binding.definitions:
                text = written.get(binding.line, binding.text)
                self.issue(
                    "TRACE_UNIMPLEMENTED_STEP",
                    f"no step definition matches {binding.keyword.capitalize()} "
                    f"{binding.text!r} (scenario {scenario.name!r}); "
                    + step_hint(binding.keyword, text),
                    where,
                    scenario_id,
                )
            elif len(binding.definitions) > 1:
                self.issue(
                    "TRACE_AMBIGUOUS_STEP",
                    f"{binding.keyword.capitalize()} {binding.text!r} matches "
                    f"{len(binding.definitions)} step definitions: {list(binding.definitions)}",
                    where,
                    scenario_id,
                )
        return tuple(bindings.values())


def _spec_groups(scenario: Scenario) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"given": [], "when": [], "then": []}
    current = "given"
    for step in scenario.steps:
        if step.keyword != "AND":
            current = step.keyword.lower()
        groups[current].append(step.text)
    return groups


def _result_of(results: SuiteResult | None, scenario_id: str) -> tuple[str | None, str]:
    if results is None:
        return None, ""
    try:
        found = results.scenario(scenario_id)
    except KeyError:
        return "not-run", ""
    return found.outcome, "; ".join(found.messages)


def _check_level(
    builder: _Builder, row: TraceRow, results: SuiteResult | None, capabilities: set[str] | None
) -> None:
    if row.level != "MUST":
        return
    where = row.mirror.location if row.mirror is not None else row.spec_location
    if not row.implemented and row.property_test is None:
        builder.issue(
            "TRACE_MUST_NOT_TESTED",
            f"{row.scenario_id} is a MUST scenario with no runnable mirror and no property test",
            where,
            row.scenario_id,
        )
        return
    if results is None or row.result in {"passed", "failed"}:
        return
    lacking = sorted(set(row.mirror.capabilities if row.mirror else ()) - (capabilities or set()))
    if row.result == "skipped" and lacking:
        builder.notes.append(
            f"{row.scenario_id}: skipped, the IUT declares it lacks {', '.join(lacking)}"
        )
        return
    builder.issue(
        "TRACE_MUST_NOT_TESTED",
        f"{row.scenario_id} is a MUST scenario and the last suite run did not test it "
        f"(outcome {row.result}{': ' + row.skip_reason if row.skip_reason else ''})",
        where,
        row.scenario_id,
    )


def build_matrix(  # noqa: PLR0913 - keyword-only inputs, each defaulting to the kit's own
    repo: Path | str,
    *,
    results: SuiteResult | None = None,
    properties: Mapping[str, str] | None = None,
    step_modules: Sequence[ModuleType] | None = None,
    features: str = "features",
    rules: Mapping[str, Rule] | None = None,
    mutants: Mapping[str, tuple[str, ...]] | None = None,
    preview: bool = False,
) -> Matrix:
    """Build the traceability matrix of ``repo`` (a folder with ``openspec/`` and ``features/``).

    Args:
        repo: the repository root.
        results: the last :func:`~conformance.suite.run_suite` result; fills each row's result
            and applies the RFC 2119 rule to skips (capabilities from ``results.capabilities``).
        properties: spec scenario id -> property test node id; defaults to
            :data:`conformance.properties.PROPERTY_TESTS`.
        step_modules: modules holding the pytest-bdd step definitions; defaults to the suite
            plugin :mod:`conformance.bdd.plugin` and the step modules it imports.
        features: the Gherkin mirror folder, relative to ``repo`` (or absolute, e.g. the kit's
            packaged :func:`conformance.suite.features_dir`).
        rules: the check rule registry whose fragments map spec sentences to checks; defaults
            to :data:`conformance.checks.RULES` (see :mod:`conformance.traceability._sentences`).
        mutants: rule id -> mutant names; defaults to the mutant catalogue.
        preview: read the spec as it will be once the active changes are archived
            (:func:`conformance.openspec.preview_requirements`), so that a scenario still in a
            change is traced too.

    Returns:
        One row per spec Scenario and every issue found (codes in
        :data:`~conformance.traceability.ISSUE_CODES`); ``matrix.complete`` when there is none.

    Raises:
        conformance.openspec.ParseError: a spec file cannot be read.
    """
    root = Path(repo).resolve()
    if properties is None:
        from conformance.properties import PROPERTY_TESTS  # noqa: PLC0415 - avoids an import cycle

        properties = PROPERTY_TESTS
    modules = default_step_modules() if step_modules is None else tuple(step_modules)
    builder = _Builder(root, step_definitions(modules), properties)
    tree = load_tree(root)
    requirements = (
        [r for reqs in preview_requirements(tree).values() for r in reqs]
        if preview
        else [r for spec in tree.specs.values() for r in spec.requirements]
    )
    builder.spec_ids = frozenset(s.id for r in requirements for s in r.scenarios)
    builder.spec_names = frozenset(s.name for r in requirements for s in r.scenarios)
    if not requirements:
        builder.issue(
            "TRACE_SPEC_MISSING", "no requirement found under openspec/specs", "openspec/specs"
        )
    scenarios, unreadable = read_features(root / features, root)
    builder.issues.extend(unreadable)
    capabilities = set(results.capabilities) if results is not None else None
    rows: list[TraceRow] = []
    mirrored: set[tuple[str, int]] = set()
    for requirement in requirements:
        for scenario in requirement.scenarios:
            mirror = builder.find_mirror(requirement, scenario, scenarios)
            steps: tuple[StepBinding, ...] = ()
            if mirror is not None:
                mirrored.add((mirror.path, mirror.line))
                steps = builder.bind(mirror, scenario.id)
            prop = properties.get(scenario.id)
            if prop is None:
                builder.issue(
                    "TRACE_NO_PROPERTY",
                    f"spec Scenario {scenario.id} has no property test in the registry",
                    builder.spec_location(scenario),
                    scenario.id,
                )
            result, reason = _result_of(results, scenario.id)
            row = TraceRow(
                requirement_id=requirement.id,
                requirement_name=requirement.name,
                level=normalized_level(requirement.level),
                scenario_id=scenario.id,
                scenario_name=scenario.name,
                spec_location=builder.spec_location(scenario),
                mirror=None
                if mirror is None
                else MirrorRef(mirror.path, mirror.line, mirror.name, mirror.tags),
                steps=steps,
                property_test=prop,
                result=result,
                skip_reason=reason,
            )
            _check_level(builder, row, results, capabilities)
            rows.append(row)
    for extra in scenarios:
        if (extra.path, extra.line) not in mirrored:
            builder.bind(extra, "")
            if "spec" in extra.tags:
                builder.issue(
                    "TRACE_WRONG_IDS",
                    f"scenario {extra.name!r} is tagged @spec but mirrors no spec Scenario "
                    f"(tags {list(extra.tags)})",
                    extra.location,
                )
    sentence_rows = _sentence_rows(root, builder, requirements, rules, mutants)
    return Matrix(
        rows=tuple(rows),
        issues=tuple(builder.issues),
        notes=tuple(builder.notes),
        sentences=tuple(sentence_rows),
    )


def _sentence_rows(
    root: Path,
    builder: _Builder,
    requirements: Sequence[Requirement],
    rules: Mapping[str, Rule] | None,
    mutants: Mapping[str, tuple[str, ...]] | None,
) -> list[SentenceRow]:
    if rules is None:
        from conformance.checks import RULES  # noqa: PLC0415 - only when tracing sentences

        rules = RULES
    if mutants is None:
        mutants = mutants_by_rule()
    levels = {r.id: normalized_level(r.level) for r in requirements}
    sentences = spec_sentences(requirements, root, levels)
    rows, issues, notes = map_sentences(sentences, rules, mutants)
    builder.issues.extend(issues)
    builder.notes.extend(notes)
    return rows
