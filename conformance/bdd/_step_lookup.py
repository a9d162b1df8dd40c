"""pytest-bdd's step lookup, remembered per pytest session.

pytest-bdd finds the definition of every step of every scenario by walking *every* fixture name
the session knows (about 160 in the suite's session: 130 step definitions and pytest's own) and
matching each step definition's parser against the step's text
(``pytest_bdd.scenario.find_fixturedefs_for_step``). The answer depends only on the step (its
type and text) and on which definitions the item can see, which pytest decides from the item's
parent nodes; within one session neither changes once the step modules are registered. The suite
asks the same few hundred questions thousands of times (every example of every scenario, every
self-test probe), and the walk was about 7 % of a whole in-process suite run.

:func:`install` wraps pytest-bdd's function so that a session in which the suite's plugin is
configured asks it once per (step type, step text, the item's parent node ids) and reuses the
answer; any other pytest session in the process is passed through unchanged. A new question
(each Scenario Outline row renders its own step texts: about one lookup in six of a suite run)
no longer walks every fixture name again: the walk up to its last filter (the definitions of the
step's type the item can see, in pytest-bdd's order) is remembered per (step type, parent node
ids), and only the parsers are matched against the new text. The answer is the
same object list pytest-bdd would compute (tests/conformance/test_conf_step_lookup.py compares
both on every step of the suite). A pytest-bdd without that function is left alone (the suite
is only slower).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["CANDIDATES_KEY", "MEMO_KEY", "install", "lookup_key", "original_lookup"]

_MODULE: Final = "pytest_bdd.scenario"
_FUNCTION: Final = "find_fixturedefs_for_step"
_MARK: Final = "_srdh_memoised"

_Key: TypeAlias = tuple[str, str, tuple[str, ...]]

MEMO_KEY: Final = pytest.StashKey[dict[_Key, tuple[Any, ...]]]()
"""Where a configured session keeps its answers: lookup key -> the visible matching fixture
definitions, in pytest-bdd's order."""


def lookup_key(step: Any, node: Any) -> _Key:  # noqa: ANN401 - pytest-bdd's Step and pytest's Node
    """The memo key of a lookup: the step's type and text, and the ids of the item's parents.

    The parents decide which fixture definitions pytest lets the item see (conftest and module
    scopes); the item itself adds none that is a step definition.
    """
    parents = tuple(parent.nodeid for parent in node.listchain()[:-1])
    return (str(step.type), str(step.name), parents)


def original_lookup() -> Callable[..., Iterable[Any]] | None:
    """pytest-bdd's own lookup function (unwrapped), or ``None`` when this pytest-bdd has none."""
    module = importlib.import_module(_MODULE)
    current = getattr(module, _FUNCTION, None)
    if current is None:
        return None
    wrapped: Callable[..., Iterable[Any]] = getattr(current, "__wrapped__", current)
    return wrapped


_WALK_PARTS: Final = ("get_fixture_names", "getfixturedefs", "step_function_context_registry")
"""The names pytest-bdd's walk uses, looked up where it looks them up (its module's globals)."""

_CandidateKey: TypeAlias = tuple[str, tuple[str, ...]]

CANDIDATES_KEY: Final = pytest.StashKey[dict[_CandidateKey, tuple[tuple[Any, Any], ...]]]()
"""Where a configured session keeps, per (step type, the item's parent node ids), the visible
step definitions of that type with their parsers, in pytest-bdd's order."""


def _walk_parts(original: Callable[..., Iterable[Any]]) -> tuple[Any, ...] | None:
    names = getattr(original, "__globals__", {})
    parts = tuple(names.get(name) for name in _WALK_PARTS)
    return None if any(part is None for part in parts) else parts


def _candidates(
    parts: tuple[Any, ...],
    step: Any,  # noqa: ANN401 - pytest-bdd's Step
    fixturemanager: Any,  # noqa: ANN401 - pytest's FixtureManager
    node: Any,  # noqa: ANN401 - pytest's Node
) -> tuple[tuple[Any, Any], ...]:
    """pytest-bdd's walk up to its last filter: every visible step definition of the step's type.

    The same loops as ``find_fixturedefs_for_step`` (fixture names, the definitions pytest lets
    ``node`` see, the step-function registry, the type filter) in the same order; what is left
    for one step text is the parser match, which :func:`install` applies per text.
    """
    get_fixture_names, getfixturedefs, registry = parts
    found: list[tuple[Any, Any]] = []
    for fixturename in get_fixture_names(fixturemanager=fixturemanager):
        for fixturedef in getfixturedefs(fixturemanager, fixturename, node) or []:
            context = registry.get(fixturedef.func)
            if context is None:
                continue
            if context.type is not None and context.type != step.type:
                continue
            found.append((fixturedef, context.parser))
    return tuple(found)


def install(config: pytest.Config) -> None:
    """Give ``config``'s session a memo and make pytest-bdd's lookup use it (once per process)."""
    config.stash[MEMO_KEY] = {}
    config.stash[CANDIDATES_KEY] = {}
    module = importlib.import_module(_MODULE)
    current = getattr(module, _FUNCTION, None)
    if current is None or getattr(current, _MARK, False):
        return
    original: Callable[..., Iterable[Any]] = current
    parts = _walk_parts(original)

    def find_fixturedefs_for_step(step: Any, fixturemanager: Any, node: Any) -> Iterable[Any]:  # noqa: ANN401
        stash = fixturemanager.config.stash
        memo: dict[_Key, tuple[Any, ...]] | None = stash.get(MEMO_KEY, None)
        if memo is None:  # a session without the suite's plugin: pytest-bdd's own walk
            return original(step=step, fixturemanager=fixturemanager, node=node)
        key = lookup_key(step, node)
        found = memo.get(key)
        if found is None:
            candidates = stash.get(CANDIDATES_KEY, None)
            if parts is None or candidates is None:  # a pytest-bdd whose walk uses other names
                found = tuple(original(step=step, fixturemanager=fixturemanager, node=node))
            else:
                # Scenario Outline rows render new texts: the walk is shared, the match is not.
                visible = candidates.get((key[0], key[2]))
                if visible is None:
                    visible = candidates[key[0], key[2]] = _candidates(
                        parts, step, fixturemanager, node
                    )
                found = tuple(
                    fixturedef for fixturedef, parser in visible if parser.is_matching(step.name)
                )
            memo[key] = found
        return iter(found)

    find_fixturedefs_for_step.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(find_fixturedefs_for_step, _MARK, True)
    setattr(module, _FUNCTION, find_fixturedefs_for_step)
