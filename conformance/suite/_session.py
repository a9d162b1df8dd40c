"""One nested pytest session that runs suite scenarios against many adapters, on demand.

:func:`run_suite` starts a pytest session per call: start-up and collection of every feature file
cost about 0.2 s each time. The mutant self-test judges dozens of IUTs, scenario by scenario, and
stops a mutant at its first kill; :func:`suite_session` collects the suite once and hands the
caller a :class:`SuiteSession` whose :meth:`SuiteSession.run_scenario` runs one scenario's items
against any adapter through pytest's ordinary run-test protocol (fixtures set up and torn down,
every hook called), exactly as :func:`run_suite` runs them.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from conformance.bdd import scenario_identity
from conformance.bdd.plugin import ADAPTER_KEY, EXAMPLES_KEY
from conformance.checks import rule_ids_in
from conformance.suite._collector import kit_fault_of, message_of
from conformance.suite._run import (
    LEAN_NESTED_OPTIONS,
    SETUP_FAILURES,
    SuiteSetupError,
    nested_args,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from conformance._kitfault import KitFault
    from conformance.adapters import Adapter

__all__ = ["FAST_NESTED_OPTIONS", "ItemOutcome", "SuiteSession", "suite_session"]

FAST_NESTED_OPTIONS = ("--tb=no", *LEAN_NESTED_OPTIONS)
"""Options of the self-test's nested sessions.

They change what pytest prints, never an outcome: no traceback text (the outcome's message comes
from the exception itself, see :func:`~conformance.suite._collector.message_of`), and no plugins
that turn unraisable/thread exceptions into warnings (a warning never fails a suite item).
"""


@dataclass(frozen=True, slots=True)
class ItemOutcome:
    """What one test item (a scenario, or one Scenario Outline row) did against one adapter.

    Attributes:
        nodeid: the pytest node id; ``outcome``: ``passed``, ``failed`` or ``skipped``.
        message: the failure message or skip reason (``""`` when passed).
        rules: the check rule ids the failure message names (``[R<n>.<slug>]`` tags).
    """

    nodeid: str
    outcome: str
    message: str
    rules: tuple[str, ...] = ()


@dataclass
class _Recorder:
    """Merges the setup, call and teardown reports of the item being run."""

    outcome: str = "passed"
    message: str = ""
    kit_fault: KitFault | None = None

    def record(
        self, report: pytest.TestReport, call: pytest.CallInfo[None], where: Callable[[], str]
    ) -> None:
        if report.failed and self.kit_fault is None:
            self.kit_fault = kit_fault_of(call, where())
        if report.failed:
            self.outcome = "failed"
            self.message = self.message or message_of(call)
        elif report.skipped and self.outcome != "failed":
            self.outcome = "skipped"
            self.message = message_of(call)


def _where(item: pytest.Item) -> str:
    """``scenario ID (example EX)``: what a kit fault interrupted."""
    _, scenario_id, example_id = scenario_identity(item)
    where = f"scenario {scenario_id}"
    if example_id and example_id != scenario_id:
        where += f" (example {example_id})"
    return where


@dataclass
class SuiteSession:
    """The collected suite inside a running nested pytest session.

    Attributes:
        scenario_ids: every scenario id of the suite, in collection order.
    """

    session: pytest.Session
    items: dict[str, list[pytest.Item]] = field(default_factory=dict)
    _current: _Recorder | None = None

    @property
    def scenario_ids(self) -> tuple[str, ...]:
        """Every scenario id of the suite, in collection order."""
        return tuple(self.items)

    def run_scenario(
        self,
        adapter: Adapter,
        scenario_id: str,
        *,
        stop: Callable[[ItemOutcome], bool] | None = None,
    ) -> list[ItemOutcome]:
        """Run the items of ``scenario_id`` against ``adapter``; return their outcomes.

        Each item goes through pytest's run-test protocol (hooks, fixtures, teardown) on its own:
        nothing is shared with the previous item or adapter. ``stop(outcome)`` returning true
        ends the scenario after that item (the remaining Scenario Outline rows are not run).

        Raises:
            KeyError: an unknown scenario id.
            KitFault: the kit's own code raised while judging an item (not a check's failure
                nor the adapter's; :mod:`conformance._kitfault`), never counted as a kill.
        """
        outcomes: list[ItemOutcome] = []
        self.session.config.stash[ADAPTER_KEY] = adapter
        for item in self.items[scenario_id]:
            self._current = _Recorder()
            try:
                item.ihook.pytest_runtest_protocol(item=item, nextitem=None)
            finally:
                recorded, self._current = self._current, None
            if recorded.kit_fault is not None:  # the kit's own code failed: no verdict
                raise recorded.kit_fault from recorded.kit_fault.error
            if self.session.shouldstop:
                message = f"the suite was stopped: {self.session.shouldstop}"
                raise SuiteSetupError(message)
            outcome = ItemOutcome(
                item.nodeid,
                recorded.outcome,
                recorded.message,
                rule_ids_in(recorded.message) if recorded.outcome == "failed" else (),
            )
            outcomes.append(outcome)
            if stop is not None and stop(outcome):
                break
        return outcomes

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """Record the outcome and the message of each phase of the item being run."""
        report = yield
        if self._current is not None:
            self._current.record(report, call, lambda: _where(item))
        return report


@dataclass
class _Loop:
    """The nested session's run-test loop: collect, then hand the session to ``work``."""

    work: Callable[[SuiteSession], None]
    property_examples: int | None = None
    error: BaseException | None = None
    ran: bool = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        if session.testsfailed:
            return False  # collection errors: pytest reports them, the caller raises
        if self.property_examples is not None:
            session.config.stash[EXAMPLES_KEY] = self.property_examples
        runner = SuiteSession(session)
        session.config.pluginmanager.register(runner, "srdh-suite-session")
        for item in session.items:
            _, scenario_id, _ = scenario_identity(item)
            runner.items.setdefault(str(scenario_id), []).append(item)
        self.ran = True
        try:
            self.work(runner)
        except BaseException as error:  # noqa: BLE001 - re-raised by suite_session, not by pytest
            self.error = error
        return True


def suite_session(
    work: Callable[[SuiteSession], None], *, property_examples: int | None = None
) -> None:
    """Collect the Gherkin suite once in a nested pytest session and call ``work(session)``.

    ``work`` runs inside the session (after collection, before the session ends); whatever it
    raises is re-raised here once the session has closed. ``property_examples`` (when set) is
    the generated examples per property of the caller's run, handed to the suite's property
    scenarios (the any-fixture scenario draws that many fixtures after its pins), as
    ``srdh run --examples`` does; unset, they draw the default.

    Raises:
        SuiteSetupError: pytest could not collect the suite (the message carries its output).
    """
    from conformance.suite._run import Bootstrap  # noqa: PLC0415 - shared with run_suite

    loop = _Loop(work, property_examples)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exit_code = pytest.main([*nested_args(), *FAST_NESTED_OPTIONS], plugins=[Bootstrap(), loop])
    if loop.error is not None:
        raise loop.error
    if not loop.ran or exit_code in SETUP_FAILURES - {pytest.ExitCode.NO_TESTS_COLLECTED}:
        message = f"the suite did not run (pytest exit code {int(exit_code)}):\n{output.getvalue()}"
        raise SuiteSetupError(message)
