"""Read the suite's result (``conformance.suite.SuiteResult``) as report requirements.

Outcome mapping: ``passed`` → PASSED, ``failed`` → FAILED, ``skipped`` and ``not-run`` →
NOT_TESTED (a MUST scenario that did not run is a failure of the report, never a skip); in a run
stopped by a signal (``interrupted``), ``not-run`` → NOT_RUN. Examples count the items that ran.
Each item is also one of the scenario's ``parts`` (its example id, its own status and message),
so that a scenario an interruption cut short still shows what its examples found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from conformance.reports import PartResult, RequirementResult, ScenarioResult, Status

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["SuiteResultLike", "describe_error", "requirements_from_suite"]

_STATUS = {"passed": Status.PASSED, "failed": Status.FAILED}


class _ExampleLike(Protocol):
    @property
    def message(self) -> str: ...
    @property
    def duration_s(self) -> float: ...


class _ScenarioLike(Protocol):
    @property
    def scenario_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def messages(self) -> list[str]: ...
    @property
    def examples(self) -> Sequence[_ExampleLike]: ...


class _RequirementLike(Protocol):
    @property
    def requirement_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str | None: ...
    @property
    def scenarios(self) -> Mapping[str, _ScenarioLike]: ...


class SuiteResultLike(Protocol):
    """The shape of ``conformance.suite.SuiteResult`` this module reads."""

    @property
    def requirements(self) -> Mapping[str, _RequirementLike]: ...
    @property
    def implementation(self) -> Mapping[str, object]: ...


def _message(scenario: _ScenarioLike) -> str:
    """Every example's message on one line, in full (a terminal shortens it, not the report)."""
    notes = [f"optional, not implemented: {n}" for n in getattr(scenario, "optional", ())]
    return " | ".join(" ".join(m.split()) for m in [*scenario.messages, *notes])


def _parts(scenario: _ScenarioLike, statuses: Mapping[str, Status]) -> tuple[PartResult, ...]:
    """One part per executed or unreached item: its example id, status and message."""
    return tuple(
        PartResult(
            part_id=str(getattr(e, "example_id", "") or getattr(e, "nodeid", "")),
            source="scenario",
            status=statuses.get(str(getattr(e, "outcome", "")), Status.NOT_TESTED),
            message=" ".join(e.message.split()),
        )
        for e in scenario.examples
    )


def requirements_from_suite(result: SuiteResultLike) -> tuple[RequirementResult, ...]:
    """The suite's outcomes as report requirements, keyed (in order) by requirement id.

    Each scenario carries its items as ``parts`` (:class:`~conformance.reports.PartResult`,
    source ``scenario``): ``passed`` → PASSED, ``failed`` → FAILED, ``skipped`` → NOT_TESTED,
    ``not-run`` → NOT_RUN in an interrupted run (else NOT_TESTED).
    """
    statuses = dict(_STATUS)
    if getattr(result, "interrupted", ""):
        statuses["not-run"] = Status.NOT_RUN
    return tuple(
        RequirementResult(
            requirement_id=req.requirement_id,
            name=req.name,
            level=req.level or "MUST",
            scenarios=tuple(
                ScenarioResult(
                    scenario_id=sc.scenario_id,
                    name=sc.name,
                    status=statuses.get(sc.outcome, Status.NOT_TESTED),
                    seconds=sum(e.duration_s for e in sc.examples),
                    message=_message(sc),
                    examples=sum(getattr(e, "outcome", "") != "not-run" for e in sc.examples),
                    optional=tuple(getattr(sc, "optional", ())),
                    parts=_parts(sc, statuses),
                )
                for sc in req.scenarios.values()
            ),
        )
        for req in result.requirements.values()
    )


def describe_error(exc: BaseException) -> str:
    """The first line of an error's message (adapter errors append the IUT's stderr below it)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
