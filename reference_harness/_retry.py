"""The Harness retry policy, as data (Requirement 9, DESIGN section 6).

SDK, HTTP and database layers make exactly one attempt; the Harness alone decides whether a
logical model call gets another attempt. Default: Router 2 attempts, SemanticGuard 2 attempts,
every other call 1; another attempt only after an ``INVALID_SCHEMA`` or ``UNAVAILABLE`` outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DEFAULT_RETRY_POLICY", "AttemptOutcome", "Component", "RetryPolicy"]

Component: TypeAlias = Literal["ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD"]
"""A model-calling component (contract sheet: attempt-record ``component``)."""

AttemptOutcome: TypeAlias = Literal[
    "VALID", "INVALID_SCHEMA", "UNAVAILABLE", "TIMEOUT", "CANCELLED"
]
"""The outcome of one attempt (contract sheet: attempt outcome)."""

_COMPONENTS: Final = ("ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD")
_OUTCOMES: Final = ("VALID", "INVALID_SCHEMA", "UNAVAILABLE", "TIMEOUT", "CANCELLED")


def _default_attempts() -> Mapping[Component, int]:
    return MappingProxyType({"ROUTER": 2, "DIAGNOSIS_AGENT": 1, "SEMANTIC_GUARD": 2})


def _no_overrides() -> Mapping[Component, frozenset[AttemptOutcome]]:
    return MappingProxyType({})


def _check_retry_on(name: str, outcomes: frozenset[AttemptOutcome]) -> None:
    for outcome in outcomes:
        if outcome not in _OUTCOMES or outcome in {"VALID", "CANCELLED"}:
            msg = f"RetryPolicy.{name}: {outcome!r} is not a retryable attempt outcome"
            raise ValueError(msg)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many attempts each component's logical call may make, and after which outcomes.

    Attributes:
        max_attempts: attempts per logical call, by component (missing component = 1), each >= 1.
        retry_on: outcomes after which another attempt is made while attempts remain.
        retry_on_by_component: per component, the outcomes after which *that* component's call
            gets another attempt, instead of ``retry_on`` (e.g. the SemanticGuard only after
            ``INVALID_SCHEMA``); a component not named uses ``retry_on``.

    Raises:
        ValueError: an unknown component or outcome, or an attempt count below 1.
    """

    max_attempts: Mapping[Component, int] = field(default_factory=_default_attempts)
    retry_on: frozenset[AttemptOutcome] = frozenset({"INVALID_SCHEMA", "UNAVAILABLE"})
    retry_on_by_component: Mapping[Component, frozenset[AttemptOutcome]] = field(
        default_factory=_no_overrides
    )

    def __post_init__(self) -> None:
        """Check the policy's vocabulary and counts."""
        for component, attempts in self.max_attempts.items():
            if component not in _COMPONENTS:
                msg = f"RetryPolicy.max_attempts: unknown component {component!r}"
                raise ValueError(msg)
            if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
                msg = f"RetryPolicy.max_attempts[{component!r}]: expected >= 1, got {attempts!r}"
                raise ValueError(msg)
        _check_retry_on("retry_on", self.retry_on)
        for component, outcomes in self.retry_on_by_component.items():
            if component not in _COMPONENTS:
                msg = f"RetryPolicy.retry_on_by_component: unknown component {component!r}"
                raise ValueError(msg)
            _check_retry_on(f"retry_on_by_component[{component!r}]", outcomes)

    def attempts_for(self, component: Component) -> int:
        """Return the most attempts one logical call of ``component`` may make (>= 1)."""
        return self.max_attempts.get(component, 1)

    def should_retry(self, component: Component, attempt: int, outcome: AttemptOutcome) -> bool:
        """Return whether attempt ``attempt`` (1-based) ending in ``outcome`` gets a successor."""
        retry_on = self.retry_on_by_component.get(component, self.retry_on)
        return outcome in retry_on and attempt < self.attempts_for(component)


DEFAULT_RETRY_POLICY: Final = RetryPolicy()
"""Router 2, SemanticGuard 2, Diagnosis Agent 1; retry on INVALID_SCHEMA or UNAVAILABLE."""
