"""JSON report: results keyed by requirement id, then scenario id."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from conformance._inert import scrub

if TYPE_CHECKING:
    from conformance.reports._model import Failure, Report, SpecSentence

__all__ = ["failure_to_dict", "render_json", "report_to_dict"]


def _sentence(sentence: SpecSentence) -> dict[str, object]:
    return {
        "text": sentence.text,
        "file": sentence.file,
        "line": sentence.line,
        "location": sentence.location,
    }


def failure_to_dict(failure: Failure) -> dict[str, object]:
    """One failure as JSON-ready data, untruncated.

    Shape: ``{requirement_id, scenario_id, example_id, source, status, check, rule_ids[],
    rules[{rule_id, summary, sentences[{text, file, line, location}], observed[]}],
    spec[{text, file, line, location}], expected, observed, message, fixture_path, reproduce,
    observed_trace[], reference_trace[], first_difference}`` (``first_difference`` is an index
    into the traces or ``null``).
    """
    return {
        "requirement_id": failure.requirement_id,
        "scenario_id": failure.scenario_id,
        "example_id": failure.example_id,
        "source": failure.source,
        "status": failure.status.value,
        "check": failure.check,
        "rule_ids": list(failure.rule_ids),
        "rules": [
            {
                "rule_id": r.rule_id,
                "summary": r.summary,
                "sentences": [_sentence(s) for s in r.sentences],
                "observed": list(r.observed),
            }
            for r in failure.rules
        ],
        "spec": [_sentence(s) for s in failure.spec],
        "expected": failure.expected,
        "observed": failure.observed,
        "message": failure.message,
        "fixture_path": failure.fixture_path,
        "reproduce": failure.reproduce,
        "observed_trace": list(failure.observed_trace),
        "reference_trace": list(failure.reference_trace),
        "first_difference": failure.first_difference,
    }


def report_to_dict(report: Report) -> dict[str, object]:
    """The report as JSON-ready data.

    Shape: ``{title, passed, partial (the reason, or null), kit{name,version}, iut{name,version},
    compliance{MUST|SHOULD|MAY: {requirements, passed, failed, not_tested, compliant}},
    requirements{<requirement id>: {name, level, status, scenarios{<scenario id>: {name, status,
    seconds, message, examples, optional[], parts[{id, source, status, message}]}}}},
    steps[{name, status, detail, seconds}], mutants[{name, kind, requirement_id, killed,
    killed_by}],
    matrix[{requirement_id, scenario_id, scenario_name, cells}], sentences[{id, requirement_id,
    scenario_id, kind, level, text, location, rules[], mutants[], status}], warnings[string],
    failures[...]}`` (see :func:`failure_to_dict`; nothing in it is truncated).
    """
    return {
        "title": report.title,
        "passed": report.passed,
        "partial": report.partial or None,
        "kit": {"name": report.kit.name, "version": report.kit.version},
        "iut": {"name": report.iut.name, "version": report.iut.version},
        "compliance": {
            level: {
                "requirements": c.requirements,
                "passed": c.passed,
                "failed": c.failed,
                "not_tested": c.not_tested,
                "compliant": c.compliant,
            }
            for level, c in report.compliance().items()
        },
        "requirements": {
            r.requirement_id: {
                "name": r.name,
                "level": r.level,
                "status": r.status.value,
                "scenarios": {
                    s.scenario_id: {
                        "name": s.name,
                        "status": s.status.value,
                        "seconds": round(s.seconds, 3),
                        "message": s.message,
                        "examples": s.examples,
                        "optional": list(s.optional),
                        "parts": [
                            {
                                "id": part.part_id,
                                "source": part.source,
                                "status": part.status.value,
                                "message": part.message,
                            }
                            for part in s.parts
                        ],
                    }
                    for s in r.scenarios
                },
            }
            for r in report.requirements
        },
        "steps": [
            {
                "name": s.name,
                "status": s.status.value,
                "detail": s.detail,
                "seconds": round(s.seconds, 3),
            }
            for s in report.steps
        ],
        "mutants": [
            {
                "name": m.name,
                "kind": m.kind,
                "requirement_id": m.requirement_id,
                "killed": m.killed,
                "killed_by": list(m.killed_by),
            }
            for m in report.mutants
        ],
        "matrix": [
            {
                "requirement_id": m.requirement_id,
                "scenario_id": m.scenario_id,
                "scenario_name": m.scenario_name,
                "cells": m.cells,
            }
            for m in report.matrix
        ],
        "sentences": [
            {
                "id": t.sentence_id,
                "requirement_id": t.requirement_id,
                "scenario_id": t.scenario_id,
                "kind": t.kind,
                "level": t.level,
                "text": t.text,
                "location": t.location,
                "rules": list(t.rules),
                "mutants": list(t.mutants),
                "status": t.status,
            }
            for t in report.sentences
        ],
        "warnings": list(report.warnings),
        "failures": [failure_to_dict(f) for f in report.failures],
    }


def _scrubbed(value: Any) -> Any:  # noqa: ANN401 - any JSON value
    """``value`` with every string's lone surrogates replaced (the text stays valid UTF-8)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {_scrubbed(k): _scrubbed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v) for v in value]
    return value


def render_json(report: Report) -> str:
    """The JSON report text (two-space indented, keys in report order, trailing newline).

    Strings from outside stay data (JSON escaping); lone surrogates become U+FFFD.
    """
    return json.dumps(_scrubbed(report_to_dict(report)), indent=2) + "\n"
