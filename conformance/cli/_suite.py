"""Run the conformance suite (Gherkin scenarios and their properties).

``srdh run`` also runs every selected spec scenario's Hypothesis property
(``conformance.properties``) with ``--examples N`` generated examples (10 unless told otherwise;
0: none) through the same adapter; a scenario then passes only when both its Gherkin scenario and
its property pass.

Also here: the suite's result as a :class:`~conformance.reports.Report` (:func:`report_from_suite`)
and ``srdh run --fixture FILE`` (:func:`run_fixture`). The fixture runs twice. Both observations
must keep every global invariant and give the same normalized trace; when the fixture names a spec
scenario (``scenario_id``) whose Then check the kit knows (the scenario's property), the first
observation must also pass that check. Serves issue 13 item 2: re-run one failing example (e.g. a
property's saved, shrunk fixture) alone.
"""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import conformance
from conformance._examples import DEFAULT_PROPERTY_EXAMPLES
from conformance.adapters import ObservationContractError, RunInterrupted
from conformance.bdd import ScenarioContext, then_check
from conformance.checks import (
    CheckResult,
    check_global_invariants,
    check_model_inputs,
    check_observation_contract,
    check_same_normalized_trace,
)
from conformance.cli._errors import CliSetupError
from conformance.cli._failures import (
    ExampleFacts,
    failure_from_example,
    failures_from_properties,
    failures_from_suite,
    property_example_id,
    safe_run,
)
from conformance.cli._output import KIT_NAME, kit_version
from conformance.cli._trace import build_matrix_rows
from conformance.properties import (
    PROPERTIES,
    property_settings,
    property_test_id,
    run_property,
)
from conformance.reports import (
    MatrixRow,
    PartResult,
    Report,
    RequirementResult,
    ScenarioResult,
    Status,
    Versions,
    matrix_from_results,
)
from conformance.suite import load_catalogue, run_suite
from conformance.verify import requirements_from_suite
from contracts import ContractError, load_document

if TYPE_CHECKING:
    from collections.abc import Mapping

    from conformance.adapters import Adapter
    from conformance.cli._failures import FailureContext
    from conformance.properties import PropertyResult
    from conformance.reports import Failure
    from conformance.suite import SuiteResult

__all__ = [
    "DEFAULT_PROPERTY_EXAMPLES",
    "FixtureVerdict",
    "kit_matrix",
    "merge_properties",
    "read_fixture",
    "report_from_suite",
    "run_conformance",
    "run_fixture",
    "split_property_ids",
]


_PROPERTY_STATUS = {"passed": Status.PASSED, "failed": Status.FAILED}
_WORST = (Status.FAILED, Status.ERROR, Status.NOT_TESTED, Status.PASSED)


def _merge(scenario: ScenarioResult, prop: PropertyResult) -> ScenarioResult:
    status = _PROPERTY_STATUS.get(prop.outcome, Status.NOT_TESTED)
    worst = next(s for s in _WORST if s in {scenario.status, status})
    message = scenario.message
    if prop.message:
        message = " | ".join(m for m in (message, f"property: {prop.message}") if m)
    part = PartResult(
        property_example_id(scenario.scenario_id),
        "property",
        status,
        " ".join(prop.message.split()),
    )
    return dataclasses.replace(
        scenario,
        status=worst,
        message=message,
        seconds=scenario.seconds + prop.seconds,
        examples=scenario.examples + prop.examples,
        parts=(*scenario.parts, part),
    )


_INTERRUPTED = "the run was interrupted"
_PART_ORDER = (Status.PASSED, Status.FAILED, Status.ERROR, Status.NOT_TESTED, Status.NOT_RUN)


def _tally(parts: tuple[PartResult, ...]) -> str:
    """``Gherkin 2 PASSED, 1 NOT_RUN; property NOT_RUN``: the parts' statuses, by source."""
    said = []
    for source, label in (("scenario", "Gherkin"), ("property", "property")):
        mine = [p.status for p in parts if p.source == source]
        if len(mine) == 1:
            said.append(f"{label} {mine[0].value}")
        elif mine:
            counts = ", ".join(f"{mine.count(s)} {s.value}" for s in _PART_ORDER if s in mine)
            said.append(f"{label} {counts}")
    return "; ".join(said)


def _not_run(
    requirements: tuple[RequirementResult, ...], properties_not_run: set[str]
) -> tuple[RequirementResult, ...]:
    """Judge each scenario of an interrupted run by the parts that ran (docs/cli.md).

    A property the run did not reach is a NOT_RUN part. Then, per scenario: a part that FAILED
    (or an ERROR) fails it, whatever did not run; every part ran and passed: PASSED (a scenario
    without a property is judged by its Gherkin alone); some parts ran, none failed, some did
    not: NOT_RUN. A scenario partly run says what ran first in its message (``partly run (the
    run was interrupted): Gherkin PASSED; property NOT_RUN``, before a failure's text); nothing
    ran: NOT_RUN, ``not run: the run was interrupted``. Every part keeps its status in ``parts``.
    """

    def marked(scenario: ScenarioResult) -> ScenarioResult:
        parts = scenario.parts
        if scenario.scenario_id in properties_not_run:
            missing = PartResult(
                property_example_id(scenario.scenario_id), "property", Status.NOT_RUN
            )
            parts = (*parts, missing)
        judged = dataclasses.replace(scenario, parts=parts)
        ran = [p for p in parts if p.status is not Status.NOT_RUN]
        if len(ran) == len(parts) and scenario.status is not Status.NOT_RUN:
            return judged  # every part ran (or none exists): the verdict stands
        said = f"partly run ({_INTERRUPTED}): {_tally(parts)}"
        status = scenario.status  # a failure (FAILED, ERROR) stands, with what ran
        if status not in {Status.FAILED, Status.ERROR}:
            status = Status.NOT_RUN
            said = said if ran else f"not run: {_INTERRUPTED}"
        # what ran comes first: a terminal shortens a long failure message, never this
        message = " | ".join(m for m in (said, scenario.message) if m)
        return dataclasses.replace(judged, status=status, message=message)

    return tuple(
        dataclasses.replace(req, scenarios=tuple(marked(s) for s in req.scenarios))
        for req in requirements
    )


def merge_properties(
    requirements: tuple[RequirementResult, ...], properties: Mapping[str, PropertyResult]
) -> tuple[RequirementResult, ...]:
    """Fold property results (by scenario id) into the scenarios' results (worst status wins)."""
    return tuple(
        dataclasses.replace(
            req,
            scenarios=tuple(
                _merge(sc, properties[sc.scenario_id]) if sc.scenario_id in properties else sc
                for sc in req.scenarios
            ),
        )
        for req in requirements
    )


def split_property_ids(ids: tuple[str, ...]) -> tuple[tuple[str, ...], set[str]]:
    """Replace property ids by their scenario ids.

    A property id is ``<scenario id>-property`` (as failures name it) or the property test's
    pytest node id (as the traceability matrix shows it).

    Returns the ids to run in the suite and the scenario ids whose property was asked for.
    """
    wanted: set[str] = set()
    suite_ids: list[str] = []
    for asked in ids:
        owner = next(
            (s for s in PROPERTIES if asked in {property_example_id(s), property_test_id(s)}), None
        )
        if owner is None:
            suite_ids.append(asked)
        else:
            wanted.add(owner)
            suite_ids.append(owner)
    return tuple(dict.fromkeys(suite_ids)), wanted


def run_conformance(  # noqa: PLR0913 - the options of `srdh run`
    adapter: Adapter,
    *,
    scenario_ids: tuple[str, ...],
    level: str | None,
    examples: int | None,
    title: str = "srdh run",
    failures: FailureContext | None = None,
) -> Report:
    """Run the suite through ``adapter`` (all scenarios when ``scenario_ids`` is empty).

    ``scenario_ids`` may name scenarios, outline examples (``<scenario>-example-<n>``) and
    properties (``<scenario>-property``: that scenario and its property, with ``examples`` or,
    when ``examples`` is 0 or ``None``, :data:`DEFAULT_PROPERTY_EXAMPLES` examples). With
    ``examples`` > 0 (``srdh run`` passes :data:`conformance._examples.DEFAULT_EXAMPLES` unless
    told otherwise), each selected spec scenario's property runs with that many examples. With
    ``failures``, the report carries a structured :class:`~conformance.reports.Failure` for every
    failing example.

    A run stopped by a signal (inside :func:`~conformance.adapters.supervise_signals`) gives a
    partial report (``Report.partial``, the title ending ``(partial)``): what ran keeps its
    verdict, the rest is NOT_RUN, and no property starts after the interruption. The Gherkin
    items all run before the properties, so an interruption often leaves a scenario half run:
    each scenario is judged by its parts (:func:`_not_run`), every part keeping its status.

    Raises:
        SuiteSetupError: an unknown scenario id or level, or pytest failed before the scenarios.
        AdapterError: the IUT broke the protocol.
    """
    suite_ids, asked_properties = split_property_ids(scenario_ids)
    result = run_suite(
        adapter, scenario_ids=suite_ids or None, level=level, property_examples=examples
    )
    requirements = requirements_from_suite(result)
    selected = {s.scenario_id for s in result.scenarios}
    # the spec scenarios whose property runs (most of the suite's scenarios have none)
    to_run = (set(selected) if examples else asked_properties) & selected & PROPERTIES.keys()
    properties: dict[str, PropertyResult] = {}
    partial = f"interrupted by {result.interrupted}" if result.interrupted else ""
    if to_run and not partial:
        config = property_settings(examples or DEFAULT_PROPERTY_EXAMPLES)
        try:
            for sid, prop in PROPERTIES.items():
                if sid in to_run:
                    properties[sid] = run_property(prop, adapter, config=config)
        except RunInterrupted as stopped:
            partial = f"interrupted by {stopped.name}"
        requirements = merge_properties(requirements, properties)
    if partial:
        requirements = _not_run(requirements, to_run - set(properties))
    report = report_from_suite(result, title, requirements)
    if partial:
        report = dataclasses.replace(report, title=f"{title} (partial)", partial=partial)
    if failures is None:
        return report
    found = failures_from_suite(result, failures)
    found += failures_from_properties(
        (
            (PROPERTIES[sid].requirement_id, sid, PROPERTIES[sid].then, prop)
            for sid, prop in properties.items()
        ),
        failures,
        rerun=safe_run(adapter),
    )
    return dataclasses.replace(report, failures=tuple(found))


def kit_matrix(
    result: SuiteResult, requirements: tuple[RequirementResult, ...]
) -> tuple[tuple[MatrixRow, ...], tuple[str, ...]]:
    """The traceability matrix of the kit's own spec and Gherkin mirror, with ``result``.

    In a source checkout (the kit's ``openspec/`` and ``features/`` beside the package) this is
    the full matrix; otherwise (an installed wheel ships no spec) a results-only matrix.
    """
    root = Path(conformance.__file__).resolve().parents[1]
    if (root / "openspec").is_dir() and (root / "features").is_dir():
        try:
            view = build_matrix_rows(root, result)
        except CliSetupError:
            pass
        else:
            return view.rows, view.columns
    return matrix_from_results(requirements)


def report_from_suite(
    result: SuiteResult,
    title: str,
    requirements: tuple[RequirementResult, ...] | None = None,
) -> Report:
    """A report of one suite run: kit and IUT versions, results per requirement and scenario.

    ``requirements`` overrides the results read from ``result`` (e.g. merged with properties).
    """
    impl = result.implementation
    requirements = requirements if requirements is not None else requirements_from_suite(result)
    rows, columns = kit_matrix(result, requirements)
    return Report(
        title=title,
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions(str(impl.get("name", "unknown")), str(impl.get("version", "unknown"))),
        requirements=requirements,
        matrix=rows,
        matrix_columns=columns,
    )


_INVARIANTS = "every global invariant holds"
_SAME_TRACE = "both Runs have the same normalized trace"
_MODEL_INPUTS = "every model call receives what its contract allows"


def read_fixture(path: Path) -> dict[str, Any]:
    """Read and validate a Scenario Fixture file (strict JSON, its schema and invariants).

    Raises:
        ContractError: unreadable or malformed file, or not a valid scenario-fixture (the
            message names the file, line or JSON pointer and what was expected).
    """
    try:
        model = load_document(path, "scenario-fixture")
    except ContractError as error:
        raise at_its_line(error, path) from None
    fixture: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return fixture


def at_its_line(error: ContractError, path: Path) -> ContractError:
    """``error`` with the line of its JSON pointer in ``path`` (as ``srdh validate`` names it).

    A schema violation or broken invariant of a fixture file is named at the line where the
    offending value starts in the (pretty-printed) file; an error that already has a line (a
    JSON syntax error), a file that cannot be read again, or a pointer not found: unchanged.
    """
    from contracts import line_of_pointer  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    if error.line is not None or error.path is None:
        return error
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return error
    line = line_of_pointer(text, error.pointer)
    if line is None:
        return error
    return ContractError(
        error.message,
        path=error.path,
        line=line,
        pointer=error.pointer,
        expected=error.expected,
        rule=error.rule,
    )


class FixtureVerdict:
    """The outcome of one fixture file: its requirement result, failure and notes.

    Attributes:
        requirement: a one-scenario :class:`RequirementResult` for the report.
        failure: the structured failure, ``None`` when every check held.
        notes: what the reader should know (which checks applied), one line each.
    """

    def __init__(
        self, requirement: RequirementResult, failure: Failure | None, notes: tuple[str, ...]
    ) -> None:
        """Hold the parts."""
        self.requirement = requirement
        self.failure = failure
        self.notes = notes


def _combine(labelled: list[tuple[str, CheckResult]]) -> tuple[CheckResult, str]:
    failed = [(label, r) for label, r in labelled if not r.passed]
    if not failed:
        return CheckResult(passed=True, message="; ".join(r.message for _, r in labelled)), ""
    rules = tuple(dict.fromkeys(rule for _, r in failed for rule in r.rules))
    message = "\n".join(r.message for _, r in failed)
    check = " and ".join(dict.fromkeys(f"Then {label}" for label, _ in failed))
    return CheckResult(passed=False, message=message, rules=rules), check


def run_fixture(adapter: Adapter, path: Path, ctx: FailureContext) -> FixtureVerdict:
    """Run the fixture of ``path`` twice through ``adapter`` and judge it.

    Raises:
        ContractError: the file is not a valid scenario-fixture.
        AdapterError: the IUT broke the protocol.
    """
    fixture = read_fixture(path)
    scenario_id = fixture.get("scenario_id")
    notes = [
        f"checks: global invariants and model inputs on both Runs, same normalized trace ({path})"
    ]
    prop = PROPERTIES.get(scenario_id) if isinstance(scenario_id, str) else None
    first: dict[str, Any] | None = None
    try:
        first, second = adapter.run(fixture), adapter.run(fixture)
    except ObservationContractError as error:  # a Run no conforming Harness reports
        labelled = [(_INVARIANTS, check_observation_contract(error.violations))]
        prop = None
    else:
        labelled = [
            (_INVARIANTS, check_global_invariants(first, fixture)),
            (_INVARIANTS, check_global_invariants(second, fixture)),
            # what the any-fixture property judges too: a failing example replays as it failed
            (_MODEL_INPUTS, check_model_inputs(first, fixture)),
            (_MODEL_INPUTS, check_model_inputs(second, fixture)),
            (_SAME_TRACE, check_same_normalized_trace(first, second)),
        ]
    if prop is not None and prop.kind == "run" and first is not None:
        context = ScenarioContext(iut=adapter, fixture=fixture, observations=[first])
        labelled.append((prop.then, then_check(prop.then)(context)))
        notes.append(f"and the Then check of scenario {scenario_id}: {prop.then}")
    elif scenario_id:
        notes.append(
            f"scenario {scenario_id} has no Then check outside the suite; run it with "
            f"--scenario {scenario_id}"
        )
    verdict, check = _combine(labelled)
    fixture_id = str(fixture.get("fixture_id", path.stem))
    entry = next(
        (e for e in load_catalogue() if scenario_id and e.scenario_id == scenario_id), None
    )
    requirement_id = str(fixture.get("requirement_id") or (entry and entry.requirement_id) or "")
    requirement_id = requirement_id or "fixture"
    shown_id = str(scenario_id or fixture_id)
    if entry is not None:
        ctx.scenario_names.setdefault(entry.scenario_id, entry.name)
    failure = None
    if not verdict.passed:
        failure = failure_from_example(
            ExampleFacts(
                requirement_id=requirement_id,
                scenario_id=shown_id,
                example_id=fixture_id,
                source="fixture",
                check=check,
                message=verdict.message,
                fixture=fixture,
                observation=first,
            ),
            ctx,
        )
        if ctx.report_dir is None:
            command = f"{ctx.command()} --fixture {shlex.quote(str(path))}"
            failure = _with_reproduce(failure, command)
    scenario = ScenarioResult(
        scenario_id=shown_id,
        name=entry.name if entry is not None else str(fixture.get("description") or fixture_id),
        status=Status.PASSED if verdict.passed else Status.FAILED,
        message="" if verdict.passed else " ".join(verdict.message.split()),
        examples=1,
    )
    requirement = RequirementResult(
        requirement_id=requirement_id,
        name=entry.requirement if entry is not None else requirement_id,
        level=(entry.level if entry is not None else None) or "MUST",
        scenarios=(scenario,),
    )
    return FixtureVerdict(requirement, failure, tuple(notes))


def _with_reproduce(failure: Failure, command: str) -> Failure:
    import dataclasses  # noqa: PLC0415 - only on this path

    return dataclasses.replace(failure, reproduce=command)
