"""The remembered step lookup (conformance/bdd/_step_lookup.py) gives pytest-bdd's own answers."""

from __future__ import annotations

import contextlib
import importlib
import io
from typing import Any

import pytest
from pytest_bdd.scenario import scenario_wrapper_template_registry

from conformance.bdd import _step_lookup
from conformance.suite._run import Bootstrap, nested_args


class _EveryStep:
    """At the end of a collect-only suite session: every step of every collected item (each
    Scenario Outline row rendered) looked up through the installed lookup, twice, and through
    pytest-bdd's own walk."""

    def __init__(self) -> None:
        self.items = 0
        self.steps = 0
        self.unbound: list[str] = []
        self.differing: list[str] = []
        self.memo_size = 0
        self.walks = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # the module attribute as installed (``pytest_bdd.scenario`` the name is a function)
        installed = importlib.import_module("pytest_bdd.scenario").find_fixturedefs_for_step
        original = _step_lookup.original_lookup()
        assert original is not None
        manager = session._fixturemanager  # what pytest-bdd itself passes
        for item in session.items:
            function: Any = getattr(item, "function", None)
            template = scenario_wrapper_template_registry.get(function)
            if template is None:
                continue
            self.items += 1
            callspec = getattr(item, "callspec", None)
            example = callspec.params.get("_pytest_bdd_example", {}) if callspec else {}
            for step in template.render(example).steps:
                self.steps += 1
                walked = tuple(original(step=step, fixturemanager=manager, node=item))
                first = tuple(installed(step=step, fixturemanager=manager, node=item))
                again = tuple(installed(step=step, fixturemanager=manager, node=item))
                if not walked:
                    self.unbound.append(f"{item.nodeid}: {step.type} {step.name}")
                if not (walked == first == again):
                    self.differing.append(f"{item.nodeid}: {step.type} {step.name}")
        self.memo_size = len(session.config.stash[_step_lookup.MEMO_KEY])
        self.walks = len(session.config.stash[_step_lookup.CANDIDATES_KEY])


def _collect(plugin: _EveryStep) -> int:
    with contextlib.redirect_stdout(io.StringIO()):
        return int(pytest.main([*nested_args(), "--collect-only"], plugins=[Bootstrap(), plugin]))


def test_the_remembered_lookup_answers_every_step_of_the_suite_as_pytest_bdd_does():
    """Every step of every scenario and outline row: same definitions, first time and again."""
    every = _EveryStep()
    assert _collect(every) == 0
    assert every.items > 100  # the whole suite was walked, not an empty session
    assert every.steps > 3 * every.items
    assert every.unbound == []
    assert every.differing == []
    # fewer remembered answers than steps: the answers are shared, which is the point
    assert 0 < every.memo_size < every.steps
    # and fewer walks than answers: the rendered texts of one step type share one walk
    assert 0 < every.walks < every.memo_size


class _Stash:
    def __init__(self) -> None:
        self.memo: bool | None = None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.memo = _step_lookup.MEMO_KEY in session.config.stash


def test_a_session_without_the_suite_plugin_gets_pytest_bdd_s_own_walk(tmp_path):
    """A pytest session in the same process that does not configure the suite's plugin keeps
    no memo: its lookups go through pytest-bdd's own walk (its own step definitions found)."""
    _collect(_EveryStep())  # installs the wrapper in this process
    (tmp_path / "plain.feature").write_text(
        "Feature: F\n  Scenario: S\n    Given a thing\n", encoding="utf-8"
    )
    (tmp_path / "test_plain.py").write_text(
        "from pytest_bdd import given, scenarios\n"
        'scenarios("plain.feature")\n'
        '@given("a thing")\n'
        "def _a_thing():\n"
        "    pass\n",
        encoding="utf-8",
    )
    stash = _Stash()
    with contextlib.redirect_stdout(io.StringIO()):
        code = pytest.main(
            [str(tmp_path), "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-q"],
            plugins=[stash],
        )
    assert code == 0
    assert stash.memo is False
