"""JUnit XML report: one testsuite per requirement, one testcase per scenario (and per step).

Every name and message passes :func:`~conformance._inert.xml_text` first, so the file
is well-formed XML whatever an IUT wrote (escape sequences, NUL, lone surrogates).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from conformance._inert import xml_text
from conformance.reports._failure_text import failure_text
from conformance.reports._model import Status

if TYPE_CHECKING:
    from conformance.reports._model import Failure, Report

__all__ = ["render_junit"]


def _case(
    suite: ET.Element,
    classname: str,
    name: str,
    outcome: tuple[Status, str, float],
    failures: tuple[Failure, ...] = (),
) -> None:
    status, message, seconds = outcome
    details = "\n\n".join(xml_text(failure_text(f)) for f in failures)
    classname, name, message = xml_text(classname), xml_text(name), xml_text(message)
    case = ET.SubElement(suite, "testcase", classname=classname, name=name, time=f"{seconds:.3f}")
    body = "\n\n".join(part for part in (message or status.value, details) if part)
    if status in {Status.FAILED, Status.NOT_TESTED}:
        tag = ET.SubElement(case, "failure", type=status.value, message=message or status.value)
        tag.text = body
    elif status is Status.ERROR:
        tag = ET.SubElement(case, "error", type=status.value, message=message or status.value)
        tag.text = body
    elif status is Status.NOT_RUN:
        ET.SubElement(case, "skipped", type=status.value, message=message or "not run")


def render_junit(report: Report) -> str:
    """JUnit XML text for ``report``.

    ``<testsuites>`` holds one ``<testsuite>`` per requirement (named by its id, ``level`` as a
    property) and, for ``srdh verify``, a ``verify`` suite of its steps.

    A NOT_TESTED scenario is a ``<failure>`` (a MUST that cannot be tested is a failure).
    Warnings (``report.warnings``) are the ``<system-err>`` of an empty ``warnings`` suite.
    A failing scenario's ``<failure>`` text carries, after the message, every structured
    failure of its examples (example id, rules, spec sentences with ``file:line``, expected,
    observed, fixture and reproduce command), in full.
    """
    root = ET.Element("testsuites", name=xml_text(report.title))
    for req in report.requirements:
        failures = sum(s.status in {Status.FAILED, Status.NOT_TESTED} for s in req.scenarios)
        errors = sum(s.status is Status.ERROR for s in req.scenarios)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=xml_text(req.requirement_id),
            tests=str(len(req.scenarios)),
            failures=str(failures),
            errors=str(errors),
            skipped=str(sum(s.status is Status.NOT_RUN for s in req.scenarios)),
            time=f"{sum(s.seconds for s in req.scenarios):.3f}",
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="level", value=xml_text(req.level))
        ET.SubElement(props, "property", name="requirement", value=xml_text(req.name))
        for sc in req.scenarios:
            found = tuple(
                f
                for f in report.failures
                if f.scenario_id == sc.scenario_id and f.requirement_id == req.requirement_id
            )
            outcome = (sc.status, sc.message, sc.seconds)
            _case(suite, req.requirement_id, sc.scenario_id, outcome, found)
    if report.steps:
        failed = sum(s.status is not Status.PASSED for s in report.steps)
        suite = ET.SubElement(
            root,
            "testsuite",
            name="verify",
            tests=str(len(report.steps)),
            failures=str(failed),
            errors="0",
            time=f"{sum(s.seconds for s in report.steps):.3f}",
        )
        for step in report.steps:
            _case(suite, "verify", step.name, (step.status, step.detail, step.seconds))
    if report.warnings:  # an empty suite, as the JUnit schema has no place for them on the root
        suite = ET.SubElement(
            root, "testsuite", name="warnings", tests="0", failures="0", errors="0", time="0.000"
        )
        err = ET.SubElement(suite, "system-err")
        err.text = "\n".join(xml_text(w) for w in report.warnings)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
