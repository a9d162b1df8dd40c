"""Bind Gherkin steps to pytest-bdd step definitions, the way pytest-bdd matches them.

The step definitions are the ones the suite's pytest plugin (:mod:`conformance.bdd.plugin`)
registers: pytest-bdd's ``given``/``when``/``then`` decorators inject one fixture per definition
into the defining module and record its :class:`~pytest_bdd.steps.StepFunctionContext`. Matching
is pytest-bdd's own: same step type (or a type-less ``step``) and ``parser.is_matching(text)``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pytest_bdd.steps import StepFunctionContext, step_function_context_registry

from conformance.traceability._model import StepBinding

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from conformance.traceability._features import GherkinStep

__all__ = ["StepDefinition", "bind_step", "default_step_modules", "step_definitions"]

_PLUGIN = "conformance.bdd.plugin"


@dataclass(frozen=True, slots=True)
class StepDefinition:
    """One registered step definition: its type, pytest-bdd parser and ``module:function``."""

    type: str | None
    context: StepFunctionContext
    name: str

    def matches(self, step: GherkinStep) -> bool:
        """Whether pytest-bdd would use this definition for ``step``."""
        if self.type is not None and self.type != step.type:
            return False
        return bool(self.context.parser.is_matching(step.text))


def default_step_modules() -> tuple[ModuleType, ...]:
    """Return the suite plugin module and every ``conformance.bdd`` module it imports.

    These are the modules whose step definitions ``-p conformance.bdd.plugin`` registers.
    """
    plugin = importlib.import_module(_PLUGIN)
    imported = [
        value
        for value in vars(plugin).values()
        if isinstance(value, ModuleType) and value.__name__.startswith("conformance.bdd.")
    ]
    return (plugin, *sorted(imported, key=lambda m: m.__name__))


def _context_of(value: Any) -> StepFunctionContext | None:  # noqa: ANN401 - any module global
    wrapped = getattr(value, "__wrapped__", None)
    if wrapped is None:
        return None
    try:
        return step_function_context_registry.get(wrapped)
    except TypeError:  # not weak-referenceable: not a step marker
        return None


def step_definitions(modules: Iterable[ModuleType]) -> list[StepDefinition]:
    """Return every step definition registered in ``modules`` (in module, then name, order)."""
    found: list[StepDefinition] = []
    seen: set[int] = set()
    for module in modules:
        for value in vars(module).values():
            context = _context_of(value)
            if context is None or id(context) in seen:
                continue
            seen.add(id(context))
            function = context.step_func
            name = (
                f"{function.__module__}:{function.__qualname__}"
                f" [{context.type or 'step'} {context.parser.name!r}]"
            )
            found.append(StepDefinition(context.type, context, name))
    return found


def bind_step(step: GherkinStep, definitions: Sequence[StepDefinition]) -> StepBinding:
    """Return ``step`` with the name of every definition that matches it."""
    matching = tuple(d.name for d in definitions if d.matches(step))
    return StepBinding(keyword=step.type, text=step.text, line=step.line, definitions=matching)
