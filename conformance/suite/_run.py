"""``run_suite``: the Gherkin suite against one adapter, programmatically (``srdh run``)."""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from conformance._inert import echo, shown_path
from conformance.adapters import interruption
from conformance.bdd import plugin
from conformance.bdd._then_runtime import close_started_processes
from conformance.suite._catalogue import LEVEL_STRENGTH, ScenarioEntry, load_catalogue
from conformance.suite._collector import ResultCollector
from conformance.suite._results import (
    ExampleResult,
    RequirementResult,
    ScenarioResult,
    SuiteResult,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from conformance.adapters import Adapter

__all__ = [
    "LEAN_NESTED_OPTIONS",
    "NESTED_PLUGINS",
    "SETUP_FAILURES",
    "Bootstrap",
    "SuiteSetupError",
    "nested_args",
    "run_suite",
    "split_example_ids",
]

_EXAMPLE_ID = re.compile(r"^(?P<scenario>.+)-example-(?P<row>[1-9][0-9]*)$")

_HERE = Path(__file__).resolve().parent
_BOUND_MODULE = _HERE / "_gherkin_suite.py"
_INI = _HERE / "_pytest.ini"
SETUP_FAILURES = {
    pytest.ExitCode.INTERRUPTED,
    pytest.ExitCode.INTERNAL_ERROR,
    pytest.ExitCode.USAGE_ERROR,
    pytest.ExitCode.NO_TESTS_COLLECTED,
}
"""pytest exit codes meaning the suite did not run at all."""


class SuiteSetupError(ValueError):
    """The suite could not run as asked.

    An unknown scenario id or level, or pytest itself failed before running scenarios (the
    message then carries its output).
    """


class Bootstrap:
    """Registers the conformance plugin in the nested session (once, whatever loaded it)."""

    def pytest_configure(self, config: pytest.Config) -> None:
        """Register :mod:`conformance.bdd.plugin` unless it is already registered."""
        if not config.pluginmanager.is_registered(plugin):
            config.pluginmanager.register(plugin, "srdh-conformance")


NESTED_PLUGINS = ("pytest-bdd", "hypothesispytest")
"""The installed pytest plugins (entry point names) a nested suite session loads: pytest-bdd
(the Gherkin scenarios) and Hypothesis's (as under any pytest: its settings options and its
bookkeeping around collection, which the properties' derandomized draws see). Nothing else
installed is loaded (``--disable-plugin-autoload``): the suite's verdicts cannot depend on a
plugin the user happens to have (one that reorders, reruns, times out or reseeds tests), and a
session no longer imports plugins it never calls (xdist and execnet, pytest-timeout, anyio's,
typeguard's: ~0.16 CPU s of a fresh ``srdh run``; docs/decisions/test-speed.md, Session 8)."""


def nested_args() -> list[str]:
    """The command line of a nested suite session: the bound module, its ini, no cache, quiet.

    Of the installed pytest plugins, only :data:`NESTED_PLUGINS` are loaded.
    """
    return [
        str(_BOUND_MODULE),
        "-c",
        str(_INI),
        "--rootdir",
        str(_HERE),
        "--disable-plugin-autoload",
        *(option for name in NESTED_PLUGINS for option in ("-p", name)),
        "-p",
        "no:cacheprovider",
        "-W",
        "ignore::pytest.PytestAssertRewriteWarning",
        "-q",
    ]


LEAN_NESTED_OPTIONS = ("-p", "no:unraisableexception", "-p", "no:threadexception")
"""Plugins left out of ``run_suite``'s nested session: they turn unraisable and thread
exceptions into warnings (which never fail a suite item) and force two full garbage collections
per session (about 40 % of a one-scenario run). Tracebacks stay: a setup error prints them."""


def split_example_ids(ids: Iterable[str], known: set[str]) -> tuple[list[str], dict[str, set[str]]]:
    """Split asked ids into scenario ids and, per scenario, the outline example ids asked.

    ``<scenario id>-example-<n>`` (the fixture id of row ``n`` of a Scenario Outline) names one
    example of a known scenario; it selects that scenario narrowed to the example. An id that is
    itself a known scenario id stays a scenario id (and keeps every example).
    """
    scenarios: list[str] = []
    examples: dict[str, set[str]] = {}
    ids = list(ids)
    for asked in ids:
        match = _EXAMPLE_ID.match(asked)
        if asked not in known and match is not None and match["scenario"] in known:
            scenarios.append(match["scenario"])
            examples.setdefault(match["scenario"], set()).add(asked)
        else:
            scenarios.append(asked)
    for whole in set(ids) & known:
        examples.pop(whole, None)  # the whole scenario was asked for as well
    return list(dict.fromkeys(scenarios)), examples


def _did_you_mean(asked: str, known: set[str]) -> str:
    """`` (did you mean 'x'?)`` for the (at most 3) known ids closest to a mistyped one.

    Else `` (no close match)``; :func:`difflib.get_close_matches`, similarity ratio 0.6 or more.
    """
    close = difflib.get_close_matches(asked, sorted(known), n=3, cutoff=0.6)
    return (
        f" (did you mean {' or '.join(repr(each) for each in close)}?)"
        if close
        else (" (no close match)")
    )


def _select(
    catalogue: list[ScenarioEntry], scenario_ids: Iterable[str] | None, level: str | None
) -> list[ScenarioEntry]:
    known = {entry.scenario_id for entry in catalogue}
    asked = None if scenario_ids is None else list(scenario_ids)
    unknown = sorted(set(asked or ()) - known)
    if unknown:
        # each id echoed bounded and inert, never the whole catalogue: a line a reader can read
        named = [f"{echo(each, quote=True)}{_did_you_mean(each, known)}" for each in unknown]
        message = (
            f"unknown scenario id(s) {', '.join(named)}; the suite knows {len(known)}: "
            "`srdh spec show` lists the spec's scenarios, and every id is a scenario of "
            f"{shown_path(os.path.commonpath([entry.path.parent for entry in catalogue]))}"
        )
        raise SuiteSetupError(message)
    if level is not None and level not in LEVEL_STRENGTH:
        message = f"unknown level {level!r}; expected one of {', '.join(LEVEL_STRENGTH)}"
        raise SuiteSetupError(message)
    minimum = LEVEL_STRENGTH[level] if level is not None else 0
    return [
        entry
        for entry in catalogue
        if (asked is None or entry.scenario_id in asked)
        and LEVEL_STRENGTH.get(entry.level or "", 0) >= minimum
    ]


def run_suite(
    adapter: Adapter,
    *,
    scenario_ids: Iterable[str] | None = None,
    level: str | None = None,
    report: Path | str | None = None,
    property_examples: int | None = None,
) -> SuiteResult:
    """Run the Gherkin suite against ``adapter`` and return the results.

    Args:
        adapter: the IUT adapter (:class:`~conformance.adapters.InProcessAdapter` or
            :class:`~conformance.adapters.StdioAdapter`); the caller keeps it and closes it.
        scenario_ids: only these scenario ids (``@scenario:`` tag, or the slug of an extension
            scenario's name) or example ids (``<scenario id>-example-<n>``, one row of a
            Scenario Outline); ``None`` runs them all.
        level: only requirements at least this binding (``MUST``/``SHALL`` > ``SHOULD`` > ``MAY``).
        report: when given, the result's JSON (:meth:`SuiteResult.to_dict`) is written there.
        property_examples: generated examples per property for the suite's property scenarios
            (the any-fixture scenario: 0 runs its pinned fixtures only); ``None``: their default
            (:data:`conformance._examples.DEFAULT_EXAMPLES`).

    Returns:
        Results keyed by requirement id, then scenario id: outcome (passed, failed, skipped with
        its reason, or not-run), messages and the requirement's RFC 2119 level. A run stopped by
        a signal (:class:`~conformance.adapters.RunInterrupted` inside
        :func:`~conformance.adapters.supervise_signals`) returns what ran: ``interrupted`` names
        the signal and the scenarios not reached are ``not-run``.

    Raises:
        SuiteSetupError: an unknown scenario id or level, or pytest failed before the scenarios.
        AdapterError: the IUT's hello failed.
        KitFault: the kit's own code raised while judging a scenario (not a check's failure nor
            the IUT's; :mod:`conformance._kitfault`): the suite stops there, with no verdict.
    """
    catalogue = load_catalogue()
    examples: dict[str, set[str]] = {}
    if scenario_ids is not None:
        asked = list(scenario_ids)
        scenario_ids, examples = split_example_ids(asked, {e.scenario_id for e in catalogue})
    selected = _select(catalogue, scenario_ids, level)
    hello = adapter.hello()
    collector = ResultCollector(
        adapter=adapter,
        wanted={e.scenario_id for e in selected},
        examples=examples,
        property_examples=property_examples,
    )
    args = [*nested_args(), *LEAN_NESTED_OPTIONS]
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output):
            exit_code = pytest.main(args, plugins=[Bootstrap(), collector])
    finally:
        close_started_processes()  # started ahead for a scenario that did not take them
    if collector.kit_fault is not None:  # the kit's own code failed: no verdict on the IUT
        raise collector.kit_fault from collector.kit_fault.error
    stopped = interruption() if exit_code == pytest.ExitCode.INTERRUPTED else None
    if (
        stopped is None
        and exit_code == pytest.ExitCode.INTERRUPTED
        and ("KeyboardInterrupt" in output.getvalue())
    ):
        # pytest reports a collection error as INTERRUPTED too; only Ctrl-C prints this marker.
        message = "the suite was interrupted (Ctrl-C) before it finished; no results"
        raise SuiteSetupError(message)
    missing = sorted(set().union(*examples.values()) - collector.seen_examples)
    if missing and stopped is None:
        known_examples = ", ".join(sorted(collector.seen_examples))
        message = f"unknown example id(s) {', '.join(missing)}; known: {known_examples}"
        raise SuiteSetupError(message)
    if exit_code in SETUP_FAILURES and stopped is None:
        message = f"the suite did not run (pytest exit code {int(exit_code)}):\n{output.getvalue()}"
        raise SuiteSetupError(message)
    result = SuiteResult(
        implementation=dict(hello.get("implementation", {})),
        capabilities=list(hello.get("capabilities", [])),
        exit_code=int(exit_code),
        output=output.getvalue(),
        interrupted=stopped.name if stopped is not None else "",
    )
    for entry in selected:
        requirement = result.requirements.setdefault(
            entry.requirement_id,
            RequirementResult(entry.requirement_id, entry.requirement, entry.level),
        )
        requirement.scenarios[entry.scenario_id] = ScenarioResult(
            scenario_id=entry.scenario_id,
            name=entry.name,
            kind=entry.kind,
            requirement_id=entry.requirement_id,
            level=entry.level,
        )
    for nodeid, outcome in collector.outcomes.items():
        scenario = result.scenario(outcome.scenario_id)
        scenario.examples.append(
            ExampleResult(
                nodeid,
                outcome.outcome,
                outcome.message,
                outcome.duration_s,
                tuple(outcome.optional),
                example_id=outcome.example_id,
                step=outcome.step,
                rules=outcome.rules,
                # the Run's data is kept only where a report needs it: a failing example
                fixture=outcome.fixture if outcome.outcome == "failed" else None,
                observations=outcome.observations if outcome.outcome == "failed" else (),
            )
        )
    if report is not None:
        Path(report).write_text(json.dumps(result.to_dict(), indent=2) + "\n", encoding="utf-8")
    return result
