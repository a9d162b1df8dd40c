"""``srdh run --fixture FILE``: one Scenario Fixture against the IUT, with every check that applies.

The fixture runs twice. Both observations must keep every global invariant and give the same
normalized trace; when the fixture names a spec scenario (``scenario_id``) whose Then check the
kit knows (the scenario's property), the first observation must also pass that check. Serves
issue 13 item 2: re-run one failing example (e.g. a property's saved, shrunk fixture) alone.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from conformance.adapters import ObservationContractError
from conformance.bdd import THEN_CHECKS, ScenarioContext
from conformance.checks import (
    CheckResult,
    check_global_invariants,
    check_observation_contract,
    check_same_normalized_trace,
)
from conformance.cli._failures import ExampleFacts, failure_from_example
from conformance.properties import PROPERTIES
from conformance.reports import RequirementResult, ScenarioResult, Status
from conformance.suite import load_catalogue
from contracts import load_document

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.adapters import Adapter
    from conformance.cli._failures import FailureContext
    from conformance.reports import Failure

__all__ = ["FixtureVerdict", "read_fixture", "run_fixture"]

_INVARIANTS = "every global invariant holds"
_SAME_TRACE = "both Runs have the same normalized trace"


def read_fixture(path: Path) -> dict[str, Any]:
    """Read and validate a Scenario Fixture file (strict JSON, its schema and invariants).

    Raises:
        ContractError: unreadable or malformed file, or not a valid scenario-fixture (the
            message names the file, line or JSON pointer and what was expected).
    """
    model = load_document(path, "scenario-fixture")
    fixture: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return fixture


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
    notes = [f"checks: global invariants on both Runs, same normalized trace ({path})"]
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
            (_SAME_TRACE, check_same_normalized_trace(first, second)),
        ]
    if prop is not None and prop.kind == "run" and first is not None:
        context = ScenarioContext(iut=adapter, fixture=fixture, observations=[first])
        labelled.append((prop.then, THEN_CHECKS[prop.then](context)))
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
            command = f"srdh run {ctx.iut_args} --fixture {shlex.quote(str(path))}"
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
