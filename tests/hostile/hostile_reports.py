"""Reports under hostile text: one built with the text everywhere, and their HTML read back.

Shared by the inert-text properties (``test_hostile_text.py``, ``test_hostile_failures.py``),
the report-folder faults (``test_reliability_reports.py``) and the CLI corpus
(``test_hostile_cli.py``), so all of them judge the same report shape and read tags the same way.
"""

from __future__ import annotations

from html.parser import HTMLParser

from conformance.reports import (
    Failure,
    MutantRow,
    Report,
    RequirementResult,
    ScenarioResult,
    Status,
    StepResult,
    Versions,
)

__all__ = ["hostile_report", "start_tags"]


def hostile_report(text: str, *, failing: tuple[str, ...] = (), passed: bool = False) -> Report:
    """Return a Report with ``text`` as title part, ids, names, messages, warnings and mutant row.

    Args:
        text: the text placed in every field (an empty text leaves the ids ``"r"`` and ``"s"``).
        failing: one :class:`Failure` per example id, each with its fixture
            (``fixtures/<example id>.json``, holding ``text`` as ``note``).
        passed: the scenario's status is PASSED (only without ``failing``); FAILED otherwise.
    """
    requirement_id, scenario_id = text or "r", text or "s"
    status = Status.PASSED if passed and not failing else Status.FAILED
    scenario = ScenarioResult(scenario_id, text, status, 0.1, text, 1)
    failures = tuple(
        Failure(
            requirement_id=requirement_id,
            scenario_id=scenario_id,
            example_id=example,
            source="fixture",
            status=Status.FAILED,
            check=text,
            rules=(),
            spec=(),
            expected=text,
            observed=text,
            message=text,
            fixture={"fixture_id": example, "note": text},
            fixture_path=f"fixtures/{example}.json",
        )
        for example in failing
    )
    return Report(
        title=f"srdh run {text}",
        kit=Versions("srdh-conformance-kit", "0"),
        iut=Versions(text, text),
        requirements=(RequirementResult(requirement_id, text, "MUST", (scenario,)),),
        steps=(StepResult(text, Status.FAILED, text, 0.1),),
        mutants=(MutantRow(text, text, text, killed=False, killed_by=(text,)),),
        warnings=(text,),
        failures=failures,
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def start_tags(markup: str) -> list[str]:
    """Return the start tags of ``markup`` in order, as ``html.parser`` reads them."""
    parser = _Tags()
    parser.feed(markup)
    parser.close()
    return parser.tags
