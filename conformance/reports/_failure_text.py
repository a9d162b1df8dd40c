"""A failure as labelled plain-text fields, shared by the JUnit and Markdown renderers.

The text is raw (outside text included as is): each renderer makes it inert for its format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.reports._model import Failure, SpecSentence

__all__ = ["failure_fields", "failure_text", "sentence_text"]


def sentence_text(sentence: SpecSentence) -> str:
    """``file:line "text"``, or the quoted text alone when its location is unknown."""
    where = sentence.location
    return f'{where} "{sentence.text}"' if where else f'"{sentence.text}"'


def failure_fields(failure: Failure) -> list[tuple[str, list[str]]]:
    """``(label, lines)`` pairs in reading order; every value in full, nothing shortened."""
    fields: list[tuple[str, list[str]]] = [
        ("example", [f"{failure.example_id} ({failure.source}, {failure.status.value})"]),
        ("requirement", [failure.requirement_id]),
        ("scenario", [failure.scenario_id]),
        ("check", [failure.check or "(none)"]),
        ("rules", [f"{r.rule_id}: {r.summary}" for r in failure.rules] or ["(none named)"]),
        ("spec", [sentence_text(s) for s in failure.spec] or ["(not located)"]),
        ("expected", failure.expected.splitlines() or [""]),
        ("observed", failure.observed.splitlines() or [""]),
        ("fixture", [failure.fixture_path or "(none)"]),
        ("reproduce", [failure.reproduce or "(none)"]),
    ]
    index = failure.first_difference
    if index is not None:
        seen = failure.observed_trace[index] if index < len(failure.observed_trace) else "(end)"
        ref = failure.reference_trace[index] if index < len(failure.reference_trace) else "(end)"
        fields.append(
            ("first trace difference", [f"event {index}: IUT {seen}", f"reference {ref}"])
        )
    return fields


def failure_text(failure: Failure) -> str:
    """The failure as ``label: value`` lines (multi-line values indented under their label)."""
    lines: list[str] = []
    for label, values in failure_fields(failure):
        if len(values) == 1:
            lines.append(f"{label}: {values[0]}")
        else:
            lines.append(f"{label}:")
            lines += [f"  {value}" for value in values]
    return "\n".join(lines)
