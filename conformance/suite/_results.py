"""What :func:`run_suite` returns: outcomes keyed by requirement id and scenario id."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ExampleResult", "RequirementResult", "ScenarioResult", "SuiteResult"]

_WORST = {"failed": 4, "not-run": 3, "skipped": 2, "passed": 1}


@dataclass(frozen=True, slots=True)
class ExampleResult:
    """One executed test item (a scenario, or one row of a Scenario Outline).

    Attributes:
        nodeid: the pytest node id; ``outcome``: ``passed``, ``failed`` or ``skipped``.
        message: the failure message (the check's text) or the skip reason; ``""`` when passed.
        duration_s: wall time of setup + call + teardown, in seconds.
        optional: optional (RFC 2119 MAY) behaviours the IUT declares it does not implement,
            which the scenario judged by the declared policy instead (never a failure).
        example_id: the example's fixture id (``<scenario>-example-<n>`` for an outline row).
        step: the Gherkin step that failed (``Then …``), ``""`` when none did.
        rules: the rule ids the failure message names, in order.
        fixture: the Scenario Fixture a failed example ran (``None`` when it passed or made no Run).
        observations: the RunObservations a failed example got, in order.
    """

    nodeid: str
    outcome: str
    message: str
    duration_s: float
    optional: tuple[str, ...] = ()
    example_id: str = ""
    step: str = ""
    rules: tuple[str, ...] = ()
    fixture: dict[str, Any] | None = None
    observations: tuple[dict[str, Any], ...] = ()


@dataclass(slots=True)
class ScenarioResult:
    """The outcome of one Gherkin scenario (all its examples).

    ``outcome`` is the worst of its examples (failed > skipped > passed), or ``not-run`` when
    none executed.
    """

    scenario_id: str
    name: str
    kind: str
    requirement_id: str
    level: str | None
    examples: list[ExampleResult] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """``passed``, ``failed``, ``skipped`` or ``not-run``.

        ``not-run``: no example ran, or one did not and none failed (a stopped run).
        """
        if not self.examples:
            return "not-run"
        return max((e.outcome for e in self.examples), key=lambda o: _WORST.get(o, 0))

    @property
    def messages(self) -> list[str]:
        """The failure messages and skip reasons of the examples, in order."""
        return [e.message for e in self.examples if e.message]

    @property
    def optional(self) -> tuple[str, ...]:
        """Optional behaviours not implemented (as declared), over all examples, first-seen."""
        return tuple(dict.fromkeys(note for e in self.examples for note in e.optional))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "scenario_id": self.scenario_id,
            "name": self.name,
            "kind": self.kind,
            "requirement_id": self.requirement_id,
            "level": self.level,
            "outcome": self.outcome,
            "messages": self.messages,
            "optional": list(self.optional),
            "examples": [
                {
                    "nodeid": e.nodeid,
                    "example_id": e.example_id,
                    "outcome": e.outcome,
                    "message": e.message,
                    "duration_s": round(e.duration_s, 3),
                    "step": e.step,
                    "rules": list(e.rules),
                }
                for e in self.examples
            ],
        }


@dataclass(slots=True)
class RequirementResult:
    """The scenarios of one requirement; ``outcome`` is the worst of them."""

    requirement_id: str
    name: str
    level: str | None
    scenarios: dict[str, ScenarioResult] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        """``passed``, ``failed``, ``skipped`` or ``not-run``."""
        outcomes = [s.outcome for s in self.scenarios.values() if s.outcome != "not-run"]
        if not outcomes:
            return "not-run"
        return max(outcomes, key=lambda o: _WORST.get(o, 0))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "requirement_id": self.requirement_id,
            "name": self.name,
            "level": self.level,
            "outcome": self.outcome,
            "scenarios": {k: v.to_dict() for k, v in self.scenarios.items()},
        }


@dataclass(slots=True)
class SuiteResult:
    """Everything one suite run found.

    Attributes:
        requirements: by requirement id, each with its scenarios by scenario id.
        implementation: the IUT's ``hello`` implementation (name, version); ``capabilities``.
        exit_code: pytest's exit code; ``output``: its captured terminal output.
        interrupted: the signal that stopped the run (``SIGTERM``; its scenarios not reached
            are ``not-run``), or ``""`` when it ran to its end.
    """

    requirements: dict[str, RequirementResult] = field(default_factory=dict)
    implementation: dict[str, Any] = field(default_factory=dict)
    capabilities: list[str] = field(default_factory=list)
    exit_code: int = 0
    output: str = ""
    interrupted: str = ""

    def scenario(self, scenario_id: str) -> ScenarioResult:
        """Return the result of ``scenario_id``.

        Raises:
            KeyError: no such scenario in this result.
        """
        for requirement in self.requirements.values():
            if scenario_id in requirement.scenarios:
                return requirement.scenarios[scenario_id]
        raise KeyError(scenario_id)

    @property
    def scenarios(self) -> list[ScenarioResult]:
        """Every scenario result, requirement by requirement."""
        return [s for r in self.requirements.values() for s in r.scenarios.values()]

    @property
    def passed(self) -> bool:
        """True when no executed scenario failed."""
        return all(s.outcome != "failed" for s in self.scenarios)

    def counts(self) -> dict[str, int]:
        """Return how many scenarios ended in each outcome."""
        counts: dict[str, int] = {}
        for result in self.scenarios:
            counts[result.outcome] = counts.get(result.outcome, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the basis of the kit's JSON report)."""
        return {
            "implementation": self.implementation,
            "capabilities": self.capabilities,
            "passed": self.passed,
            "counts": self.counts(),
            "requirements": {k: v.to_dict() for k, v in self.requirements.items()},
        }
