"""The report model: results keyed by requirement and scenario id, with RFC 2119 compliance.

One :class:`Report` feeds every renderer (JSON, JUnit XML, Markdown, HTML). It is built from a
suite result (``srdh run``) or from the steps of ``srdh verify``; both may carry a traceability
matrix. Serves DESIGN §9 "Levels and reports": a MUST that cannot be tested is a failure.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = [
    "LEVELS",
    "FailedRule",
    "Failure",
    "LevelCompliance",
    "MatrixRow",
    "MutantRow",
    "PartResult",
    "Report",
    "RequirementResult",
    "ScenarioResult",
    "SpecSentence",
    "Status",
    "StepResult",
    "Versions",
    "matrix_from_results",
    "normalize_level",
]

LEVELS = ("MUST", "SHOULD", "MAY")
"""RFC 2119 levels, strongest first (SHALL and REQUIRED count as MUST)."""


def normalize_level(level: str | None) -> str:
    """Map an RFC 2119 keyword to ``MUST``/``SHOULD``/``MAY``; ``None`` counts as ``MUST``."""
    word = (level or "MUST").upper()
    if word in {"MUST", "SHALL", "REQUIRED", "MUST NOT", "SHALL NOT"}:
        return "MUST"
    if word in {"SHOULD", "RECOMMENDED", "SHOULD NOT"}:
        return "SHOULD"
    return "MAY"


class Status(enum.Enum):
    """Outcome of one scenario or step."""

    PASSED = "PASSED"
    FAILED = "FAILED"
    ERROR = "ERROR"
    """The check could not run (IUT error, setup fault); counts as a failure."""
    NOT_TESTED = "NOT_TESTED"
    """No check exists or ran; a failure for MUST requirements."""
    NOT_RUN = "NOT_RUN"
    """The run was interrupted (SIGINT, SIGTERM) before this scenario ran (a partial report)."""


@dataclass(frozen=True)
class Versions:
    """Name and version of the kit or of the implementation under test (IUT)."""

    name: str
    version: str


@dataclass(frozen=True)
class PartResult:
    """One part of a scenario's verdict: a Gherkin scenario, one outline example, or its property.

    A scenario's status is judged over its parts (``srdh run``: the Gherkin items first, then
    the properties); a run cut short by a signal keeps the verdict of every part that ran and
    says NOT_RUN for the others (docs/cli.md, "Interrupted runs").

    Attributes:
        part_id: the id ``srdh run --scenario`` takes for this part alone: the scenario id (a
            Gherkin scenario), ``<scenario>-example-<n>`` (row ``n`` of a Scenario Outline) or
            ``<scenario>-property`` (the spec scenario's Hypothesis property).
        source: ``scenario`` (Gherkin) or ``property``, as in :attr:`Failure.source`.
        status: PASSED, FAILED, NOT_TESTED (skipped, ``message`` says why) or NOT_RUN (an
            interrupted run never reached it or stopped inside it).
        message: the failure message or skip reason, ``""`` when it passed or did not run.
    """

    part_id: str
    source: str
    status: Status
    message: str = ""


@dataclass(frozen=True)
class ScenarioResult:
    """One spec scenario's outcome.

    Attributes:
        scenario_id: kebab slug of the scenario name (the key in every report).
        name: the scenario name as written in the spec.
        status: the outcome.
        seconds: wall time spent on it (seconds, ≥ 0).
        message: one line saying why it failed ("" when passed).
        examples: how many fixtures or generated examples ran.
        optional: optional (RFC 2119 MAY) behaviours the IUT declares it does not implement;
            reported as "optional, not implemented", never a failure (MUST/SHALL stay binding).
        parts: the verdict of each part it was judged on, in the order they ran (empty when
            the scenario is not judged by parts, e.g. ``srdh run --fixture``).
    """

    scenario_id: str
    name: str
    status: Status
    seconds: float = 0.0
    message: str = ""
    examples: int = 0
    optional: tuple[str, ...] = ()
    parts: tuple[PartResult, ...] = ()


@dataclass(frozen=True)
class RequirementResult:
    """One requirement, its RFC 2119 level and its scenarios' outcomes."""

    requirement_id: str
    name: str
    level: str
    scenarios: tuple[ScenarioResult, ...]

    @property
    def status(self) -> Status:
        """FAILED/ERROR if any scenario is, else NOT_TESTED, else NOT_RUN if any is.

        No scenario at all is NOT_TESTED.
        """
        states = {s.status for s in self.scenarios}
        for status in (Status.FAILED, Status.ERROR, Status.NOT_TESTED, Status.NOT_RUN):
            if status in states:
                return status
        return Status.PASSED if states else Status.NOT_TESTED


@dataclass(frozen=True)
class StepResult:
    """One step of ``srdh verify``: ``status`` PASSED or FAILED, a one-line ``detail``."""

    name: str
    status: Status
    detail: str
    seconds: float


@dataclass(frozen=True)
class MatrixRow:
    """One row of the traceability matrix: a spec scenario and where it is mirrored and tested.

    ``cells`` maps a column name (``gherkin``, ``property``, ``mutant``, ``status`` …) to text.
    """

    requirement_id: str
    scenario_id: str
    scenario_name: str
    cells: dict[str, str]


@dataclass(frozen=True)
class SentenceTrace:
    """One sentence of the spec, traced: the rules that test it and the mutants that break them.

    Attributes:
        sentence_id: ``<requirement-id>#<n>`` (body), ``…/<scenario-id>#<n>`` (THEN) or
            ``…#when-<n>`` (a condition); see ``docs/traceability.md``.
        requirement_id: the requirement it belongs to.
        scenario_id: its scenario (``""`` for a body sentence).
        kind: ``body``, ``then`` or ``condition``.
        level: its RFC 2119 level (``MUST``, ``SHOULD``, ``MAY``; ``""`` for a condition).
        text: the sentence, verbatim.
        location: ``file:line`` in the spec.
        rules: the check rules that quote it.
        mutants: the mutants that break those rules (the self-test's proof the rules can fail).
    """

    sentence_id: str
    requirement_id: str
    scenario_id: str
    kind: str
    level: str
    text: str
    location: str
    rules: tuple[str, ...] = ()
    mutants: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """Whether the sentence is covered: tested, untested, note or condition.

        ``tested``: a rule quotes it; ``untested``: a MUST no rule quotes (a failure); ``note``:
        a SHOULD/MAY no rule quotes; ``condition``: a WHEN/GIVEN (no check due).
        """
        if self.kind == "condition":
            return "condition"
        if self.rules:
            return "tested"
        return "untested" if self.level == "MUST" else "note"


@dataclass(frozen=True)
class MutantRow:
    """One mutant of the self-test: whether the suite killed it, and with which checks."""

    name: str
    kind: str
    requirement_id: str
    killed: bool
    killed_by: tuple[str, ...]


@dataclass(frozen=True)
class LevelCompliance:
    """Compliance at one RFC 2119 level: counts of requirements and the verdict."""

    level: str
    requirements: int
    passed: int
    failed: int
    not_tested: int

    @property
    def compliant(self) -> bool:
        """True when every requirement of this level passed (vacuously true for none)."""
        return self.passed == self.requirements


@dataclass(frozen=True)
class SpecSentence:
    """Where a spec sentence is written.

    Attributes:
        text: the sentence (or the fragment of it a rule quotes), verbatim.
        file: the spec file, relative to the repository root (``openspec/specs/…/spec.md``);
            ``""`` when the spec is not beside the kit (an installed wheel).
        line: its 1-based line in ``file``; 0 when not found.
    """

    text: str
    file: str = ""
    line: int = 0

    @property
    def location(self) -> str:
        """``file:line``, or ``""`` when unknown."""
        return f"{self.file}:{self.line}" if self.file and self.line else ""


@dataclass(frozen=True)
class FailedRule:
    """One rule (check id) a failing example broke.

    Attributes:
        rule_id: the stable rule id ``R<n>.<slug>`` (:mod:`conformance.checks._rules`).
        summary: what the rule requires (the expected behaviour).
        sentences: the spec sentences the rule tests, with their location.
        observed: the check's finding lines for this rule, in full (what the IUT did).
    """

    rule_id: str
    summary: str
    sentences: tuple[SpecSentence, ...]
    observed: tuple[str, ...]


@dataclass(frozen=True)
class Failure:
    """Everything needed to act on one failing example, untruncated.

    Attributes:
        requirement_id: the requirement's id; ``scenario_id``: the scenario's id.
        example_id: the failing example: the fixture id (``<scenario>-example-<n>`` for an
            outline row), ``<scenario>-property`` for a property, or the fixture file's id.
        source: ``scenario`` (Gherkin), ``property`` (Hypothesis, shrunk), ``fixture``
            (``srdh run --fixture``) or ``protocol`` (the IUT broke the stdio protocol).
        status: FAILED, or ERROR when the check could not run.
        check: what judged it: the failing Gherkin step, or the property's Then sentence.
        rules: the rules broken, each with its spec sentences and findings.
        spec: the spec scenario's location, then every rule sentence's.
        expected: what the spec requires here (one line per rule or the failing step).
        observed: what the IUT did (the check's findings, or the error), in full.
        message: the full failure message.
        fixture: the Scenario Fixture that was run (``None`` when none was: a contract check).
        fixture_path: where the report folder holds ``fixture`` (relative, ``fixtures/<id>.json``),
            ``""`` when there is no fixture.
        reproduce: a shell command that re-runs this one example against the same IUT.
        observed_trace: the IUT's trace as timeline lines (``seq TYPE details``).
        reference_trace: the reference harness's trace of the same fixture, same form.
    """

    requirement_id: str
    scenario_id: str
    example_id: str
    source: str
    status: Status
    check: str
    rules: tuple[FailedRule, ...]
    spec: tuple[SpecSentence, ...]
    expected: str
    observed: str
    message: str
    fixture: dict[str, object] | None = None
    fixture_path: str = ""
    reproduce: str = ""
    observed_trace: tuple[str, ...] = ()
    reference_trace: tuple[str, ...] = ()

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The broken rule ids, in order."""
        return tuple(r.rule_id for r in self.rules)

    @property
    def first_difference(self) -> int | None:
        """Index of the first line where the observed and reference traces differ.

        ``None`` when they are equal or there is no reference trace.
        """
        if not self.reference_trace:
            return None
        for index, (seen, ref) in enumerate(
            zip(self.observed_trace, self.reference_trace, strict=False)
        ):
            if seen != ref:
                return index
        if len(self.observed_trace) != len(self.reference_trace):
            return min(len(self.observed_trace), len(self.reference_trace))
        return None


@dataclass(frozen=True)
class Report:
    """Everything a report says.

    Attributes:
        title: a heading (``srdh run`` or ``srdh verify``).
        kit: the kit's name and version.
        iut: the implementation under test's name and version.
        requirements: outcomes keyed (in order) by requirement id.
        steps: verify steps (empty for ``srdh run``).
        matrix: traceability rows (may be empty).
        matrix_columns: column names of ``matrix`` rows, in display order.
        mutants: the mutant self-test's verdicts (``srdh verify``; empty otherwise).
        sentences: every spec sentence traced to its rules and mutants (may be empty).
        warnings: things worth knowing that did not change a result (e.g. the IUT did not
            exit after ``bye``), one line each.
        failures: one entry per failing example, in full (:class:`Failure`).
        partial: why the run is incomplete (``"interrupted by SIGTERM"``): its unrun scenarios
            are NOT_RUN; ``""`` for a complete run. A partial run never passes.
    """

    title: str
    kit: Versions
    iut: Versions
    requirements: tuple[RequirementResult, ...]
    steps: tuple[StepResult, ...] = ()
    matrix: tuple[MatrixRow, ...] = ()
    matrix_columns: tuple[str, ...] = field(default=())
    mutants: tuple[MutantRow, ...] = ()
    sentences: tuple[SentenceTrace, ...] = ()
    warnings: tuple[str, ...] = ()
    failures: tuple[Failure, ...] = ()
    partial: str = ""

    def compliance(self) -> dict[str, LevelCompliance]:
        """Per level (MUST, SHOULD, MAY): how many requirements passed, failed, were not tested."""
        result: dict[str, LevelCompliance] = {}
        for level in LEVELS:
            reqs = [r for r in self.requirements if normalize_level(r.level) == level]
            states = [r.status for r in reqs]
            result[level] = LevelCompliance(
                level=level,
                requirements=len(reqs),
                passed=states.count(Status.PASSED),
                failed=states.count(Status.FAILED) + states.count(Status.ERROR),
                not_tested=states.count(Status.NOT_TESTED) + states.count(Status.NOT_RUN),
            )
        return result

    @property
    def passed(self) -> bool:
        """True when every MUST requirement passed and every verify step passed.

        SHOULD and MAY failures are reported but do not fail the run (RFC 2119).
        """
        steps_ok = all(s.status is Status.PASSED for s in self.steps)
        return not self.partial and steps_ok and self.compliance()["MUST"].compliant


MATRIX_RESULT_COLUMNS = ("level", "result", "examples")
"""Columns of :func:`matrix_from_results`."""


def matrix_from_results(
    requirements: tuple[RequirementResult, ...],
) -> tuple[tuple[MatrixRow, ...], tuple[str, ...]]:
    """A traceability matrix of the results alone (requirement → scenario → outcome).

    Used when no richer matrix (spec ↔ Gherkin ↔ tests) is available.
    """
    rows = tuple(
        MatrixRow(
            req.requirement_id,
            sc.scenario_id,
            sc.name,
            {"level": req.level, "result": sc.status.value, "examples": str(sc.examples)},
        )
        for req in requirements
        for sc in req.scenarios
    )
    return rows, MATRIX_RESULT_COLUMNS
