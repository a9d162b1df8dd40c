"""Structured failures: from a failing example to everything needed to act on it.

Each failing example (a Gherkin scenario or outline row, a property's shrunk counterexample, a
fixture file run with ``srdh run --fixture``) becomes one :class:`~conformance.reports.Failure`:
its requirement, scenario and example id, the rules it broke with their spec sentences located
at ``file:line``, expected against observed, the fixture (saved in the report folder), a command
that re-runs it alone, and its trace beside the reference harness's trace of the same fixture.
Serves issue 13 item 4 (structured failures) and item 2 (re-run one thing).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import conformance
from conformance._examples import DEFAULT_EXAMPLES, DEFAULT_PROPERTY_EXAMPLES
from conformance.adapters import AdapterError
from conformance.anyfixture import ANY_FIXTURE_SCENARIO
from conformance.checks import RULES, normalize_trace, rule_ids_in
from conformance.cli._output import event_summary
from conformance.reports import FailedRule, Failure, SpecSentence, Status, fixture_file_name

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from conformance.adapters import Adapter
    from conformance.properties import PropertyResult
    from conformance.suite import SuiteResult

__all__ = [
    "ExampleFacts",
    "FailureContext",
    "SpecIndex",
    "failure_from_example",
    "failures_from_properties",
    "failures_from_suite",
    "property_example_id",
    "safe_run",
    "trace_lines",
]

_FINDING = re.compile(r"^\s*-\s*\[(R\d+\.[a-z0-9-]+)\]\s?(.*)$")
_PROPERTY_SUFFIX = "-property"


def property_example_id(scenario_id: str) -> str:
    """The example id of a scenario's property (``<scenario id>-property``)."""
    return f"{scenario_id}{_PROPERTY_SUFFIX}"


class SpecIndex:
    """Finds spec sentences in ``openspec/specs/*/spec.md`` and returns their ``file:line``.

    Whitespace (line wraps included) is matched loosely. Without a spec beside the kit (an
    installed wheel) every lookup returns the text with no location.
    """

    def __init__(self, root: Path | None) -> None:
        """Read every spec file under ``root/openspec/specs`` (none when ``root`` is ``None``)."""
        self._files: list[tuple[str, str]] = []
        specs = root / "openspec" / "specs" if root is not None else None
        if specs is not None and specs.is_dir():
            for path in sorted(specs.glob("*/spec.md")):
                rel = path.relative_to(root).as_posix() if root is not None else str(path)
                self._files.append((rel, path.read_text(encoding="utf-8")))
        self._cache: dict[str, SpecSentence] = {}

    @classmethod
    def of_kit(cls) -> SpecIndex:
        """The index of the spec beside the kit's package (empty for an installed wheel)."""
        return cls(Path(conformance.__file__).resolve().parents[1])

    def find(self, text: str) -> SpecSentence:
        """Where ``text`` (a sentence or fragment) first occurs; no location when nowhere."""
        if text not in self._cache:
            pattern = re.compile(r"\s+".join(re.escape(w) for w in text.split()))
            found = SpecSentence(text)
            for rel, body in self._files:
                match = pattern.search(body)
                if match is not None:
                    found = SpecSentence(text, rel, body.count("\n", 0, match.start()) + 1)
                    break
            self._cache[text] = found
        return self._cache[text]

    def scenario(self, name: str) -> SpecSentence:
        """The ``#### Scenario: <name>`` header's location (no location when not in the spec)."""
        located = self.find(f"#### Scenario: {name}")
        return SpecSentence(f"Scenario: {name}", located.file, located.line)

    def requirement(self, name: str) -> SpecSentence:
        """The ``### Requirement: <name>`` header's location (none when not in the spec)."""
        located = self.find(f"### Requirement: {name}")
        return SpecSentence(f"Requirement: {name}", located.file, located.line)


def _gherkin_locations() -> dict[str, tuple[str, SpecSentence, SpecSentence]]:
    """Scenario id -> (scenario name, its requirement name, its Gherkin ``file:line``)."""
    from conformance.suite import CatalogueError, load_catalogue  # noqa: PLC0415 - on failure

    try:
        catalogue = load_catalogue()
    except CatalogueError:
        return {}
    root = Path(conformance.__file__).resolve().parents[1]
    found = {}
    for entry in catalogue:
        path = entry.path.resolve()
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        found[entry.scenario_id] = (
            entry.name,
            SpecSentence(entry.requirement),
            SpecSentence(f"Gherkin Scenario: {entry.name}", rel, entry.line),
        )
    return found


@dataclass
class FailureContext:
    """What every failure of one run shares.

    Attributes:
        iut_args: the ``srdh run`` options naming the IUT (``--iut 'CMD'``), shell-quoted.
        limit_args: the run's other options that change a verdict, ``--timeout S`` and
            ``--max-message-bytes N`` when not the defaults (with a leading space), or ``""``.
        report_dir: the report folder (where fixtures are saved), ``None`` without ``--report``.
        spec: the spec index that locates sentences.
        reference: returns the reference harness's observation of a fixture (``None`` when the
            reference is not available); called only for failing examples.
        scenario_names: scenario id -> its name (to locate its header in the spec).
        examples: the ``--examples`` count of the run (``None``: the default); a reproduce
            command carries it when it is not the default (a property's always does).
    """

    iut_args: str
    report_dir: Path | None
    spec: SpecIndex
    reference: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
    scenario_names: dict[str, str] = field(default_factory=dict)
    examples: int | None = None
    limit_args: str = ""
    _gherkin: dict[str, tuple[str, SpecSentence, SpecSentence]] | None = None

    def locations(self, scenario_id: str) -> tuple[SpecSentence, ...]:
        """The requirement and scenario headers in the spec, and the Gherkin scenario's line."""
        if self._gherkin is None:
            self._gherkin = _gherkin_locations()
        known = self._gherkin.get(scenario_id)
        name = self.scenario_names.get(scenario_id) or (known[0] if known else "")
        found = []
        if known is not None:
            found.append(self.spec.requirement(known[1].text))
        located = self.spec.scenario(name) if name else None
        if located is not None and (located.location or known is None):
            found.append(located)
        if known is not None:
            found.append(known[2])
        return tuple(found)

    def command(self) -> str:
        """``srdh run`` with the IUT and every option of the run that changes a verdict."""
        return f"srdh run {self.iut_args}{self.limit_args}"

    def reproduce(self, example_id: str, *, fixture_path: str, by_fixture: bool) -> str:
        """The command that re-runs one example against the same IUT, with the same limits.

        ``--timeout`` and ``--max-message-bytes`` as the run had them (:attr:`limit_args`);
        ``--examples`` for a property (the count it ran) and for a scenario when the run's was
        not the default (the scenario's property runs beside it, or not, as in the run).
        """
        base = self.command()
        if by_fixture and fixture_path and self.report_dir is not None:
            return f"{base} --fixture {shlex.quote(str(self.report_dir / fixture_path))}"
        if example_id.endswith(_PROPERTY_SUFFIX):
            count = self.examples or DEFAULT_PROPERTY_EXAMPLES  # what run_conformance ran
            examples = f" --examples {count}"
        elif self.examples is not None and self.examples != DEFAULT_EXAMPLES:
            examples = f" --examples {self.examples}"
        else:
            examples = ""
        return f"{base} --scenario {shlex.quote(example_id)}{examples}"


def trace_lines(observation: dict[str, Any] | None) -> tuple[str, ...]:
    """An observation's normalized trace, one ``TYPE key=value …`` line per event.

    Run ids and digests are replaced by placeholders, so the IUT's lines compare equal to the
    reference's where the behaviour is the same. An observation that broke its contract (kept so
    that its trace is shown) may hold a trace the normalizer cannot read: one line says so.
    """
    if not observation:
        return ()
    try:
        return tuple(
            f"{event.get('type', '?')} {event_summary(event.get('data'))}".rstrip()
            for event in normalize_trace(observation)
        )
    except (AttributeError, KeyError, TypeError, ValueError):
        return ("(the trace breaks its contract and cannot be normalized)",)


def _findings(message: str) -> list[tuple[str, str]]:
    """``(rule id, finding)`` for every ``- [R…] finding`` line of a check message."""
    found = []
    for line in message.splitlines():
        match = _FINDING.match(line)
        if match is not None:
            found.append((match[1], match[2]))
    return found


def _rules(message: str, spec: SpecIndex) -> tuple[FailedRule, ...]:
    findings = _findings(message)
    result = []
    for rule_id in rule_ids_in(message):
        known = RULES.get(rule_id)
        observed = tuple(text for rid, text in findings if rid == rule_id)
        result.append(
            FailedRule(
                rule_id=rule_id,
                summary=known.summary if known is not None else "(unknown rule id)",
                sentences=tuple(spec.find(s) for s in known.sentences) if known else (),
                observed=observed or (message,),
            )
        )
    return tuple(result)


@dataclass(frozen=True)
class ExampleFacts:
    """The facts of one failing example (see :class:`~conformance.reports.Failure`)."""

    requirement_id: str
    scenario_id: str
    example_id: str
    source: str
    check: str
    message: str
    fixture: dict[str, Any] | None
    observation: dict[str, Any] | None
    status: Status = Status.FAILED


def failure_from_example(example: ExampleFacts, ctx: FailureContext) -> Failure:
    """One :class:`Failure` from a failing example's facts."""
    rules = _rules(example.message, ctx.spec)
    spec = ctx.locations(example.scenario_id)
    spec += tuple(s for r in rules for s in r.sentences if s not in spec)
    if rules:
        expected = "\n".join(f"[{r.rule_id}] {r.summary}" for r in rules)
        observed = "\n".join(f"[{r.rule_id}] {o}" for r in rules for o in r.observed)
    else:
        expected = example.check or "the example runs to its end and its checks hold"
        observed = example.message
    fixture_path = fixture_file_name(example.example_id) if example.fixture is not None else ""
    reference = None
    if ctx.reference is not None and example.fixture is not None:
        reference = ctx.reference(example.fixture)
    return Failure(
        requirement_id=example.requirement_id,
        scenario_id=example.scenario_id,
        example_id=example.example_id,
        source=example.source,
        status=example.status,
        check=example.check,
        rules=rules,
        spec=spec,
        expected=expected,
        observed=observed,
        message=example.message,
        fixture=example.fixture,
        fixture_path=fixture_path,
        reproduce=ctx.reproduce(
            example.example_id,
            fixture_path=fixture_path,
            # the any-fixture scenario's failing fixture is judged by every check: --fixture
            by_fixture=example.source in {"property", "fixture"}
            or example.scenario_id == ANY_FIXTURE_SCENARIO,
        ),
        observed_trace=trace_lines(example.observation),
        reference_trace=trace_lines(reference),
    )


def failures_from_suite(result: SuiteResult, ctx: FailureContext) -> list[Failure]:
    """A failure for every failed example of the Gherkin suite, in suite order."""
    failures = []
    for requirement in result.requirements.values():
        for scenario in requirement.scenarios.values():
            ctx.scenario_names.setdefault(scenario.scenario_id, scenario.name)
            for example in scenario.examples:
                if example.outcome != "failed":
                    continue
                failures.append(
                    failure_from_example(
                        ExampleFacts(
                            requirement_id=requirement.requirement_id,
                            scenario_id=scenario.scenario_id,
                            example_id=example.example_id or scenario.scenario_id,
                            source="scenario",
                            check=example.step,
                            message=example.message,
                            fixture=example.fixture,
                            observation=example.observations[0] if example.observations else None,
                        ),
                        ctx,
                    )
                )
    return failures


def failures_from_properties(
    properties: Iterable[tuple[str, str, str, PropertyResult]],
    ctx: FailureContext,
    rerun: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
) -> list[Failure]:
    """A failure for every failed property: ``(requirement id, scenario id, Then, result)``.

    The shrunk fixture is kept (and saved by the report writer); ``rerun`` replays it on the
    IUT once to show the trace of the shrunk example.
    """
    failures = []
    for requirement_id, scenario_id, then, prop in properties:
        if prop.outcome != "failed":
            continue
        observation = rerun(prop.fixture) if rerun is not None and prop.fixture else None
        failures.append(
            failure_from_example(
                ExampleFacts(
                    requirement_id=requirement_id,
                    scenario_id=scenario_id,
                    example_id=property_example_id(scenario_id),
                    source="property",
                    check=f"Then {then}" if then else prop.name,
                    message=prop.message,
                    fixture=prop.fixture,
                    observation=observation,
                ),
                ctx,
            )
        )
    return failures


def safe_run(adapter: Adapter) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """``adapter.run`` that returns ``None`` instead of raising when the IUT fails."""

    def run(fixture: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return adapter.run(fixture)
        except AdapterError:
            return None

    return run
