"""Then checks of behaviour the spec makes optional (RFC 2119 *may*): judged as declared.

"Harness may execute one second attempt" (SemanticGuard) and "any allowed Router ... retry" are
optional. An IUT that declares ``SEMANTIC_RETRY`` / ``ROUTER_RETRY`` and takes the retry is
checked doing it; one that does not declare it is checked *not* doing it (exactly one attempt,
then the outcome the failed call gives) and the scenario records the behaviour as "optional, not
implemented" instead of failing or skipping. A declared retry is a *may* per trigger: an IUT may
retry after INVALID_SCHEMA only, after UNAVAILABLE only, or after both, so a declared retry the
Run did not take after one of them is judged like an undeclared one and noted for that trigger
(:func:`declined_note`; docs/decisions/red-team-8.md, "F1 per-trigger retries"). The mandatory
parts (every attempt recorded, no hidden retry below the Harness, the fixed fallback or public
error) are checked either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conformance import checks
from conformance.checks import CheckResult, Findings
from conformance.checks._view import model_attempts

if TYPE_CHECKING:
    from collections.abc import Sequence

    from conformance.bdd._context import ScenarioContext

__all__ = [
    "OPTIONAL_SENTENCES",
    "declined_note",
    "declined_notes",
    "optional_note",
    "router_retry",
    "semantic_retry",
]

OPTIONAL_SENTENCES: Final = {
    "SEMANTIC_RETRY": "Harness may execute one second attempt",
    "ROUTER_RETRY": "Harness explicitly owns any allowed Router or SemanticGuard retry",
}
"""Each optional capability -> the spec words that make it optional."""

_INSTEAD: Final = {
    "SEMANTIC_RETRY": "then SEMANTIC_UNAVAILABLE",
    "ROUTER_RETRY": "then FAILED ROUTER_UNAVAILABLE",
}
"""Each optional retry -> what follows one failed attempt without it."""


def optional_note(capability: str, instead: str) -> str:
    """Return the report note for an optional ``capability`` the IUT does not implement."""
    return (
        f"{capability}: optional (spec: {OPTIONAL_SENTENCES[capability]!r}), not implemented by "
        f"this IUT; checked instead: {instead}"
    )


def declined_note(capability: str, outcome: str) -> str:
    """Return the report note for a declared retry ``capability`` not taken after ``outcome``.

    One note per trigger: "SEMANTIC_RETRY after UNAVAILABLE: optional (...), not implemented by
    this IUT (declared, not taken after UNAVAILABLE); checked instead: one UNAVAILABLE attempt,
    then SEMANTIC_UNAVAILABLE".
    """
    return (
        f"{capability} after {outcome}: optional (spec: {OPTIONAL_SENTENCES[capability]!r}), not "
        f"implemented by this IUT (declared, not taken after {outcome}); checked instead: one "
        f"{outcome} attempt, {_INSTEAD[capability]}"
    )


def declined_notes(context: ScenarioContext) -> list[str]:
    """The :func:`declined_note` of each declared retry the scenario's (first) Run declined."""
    return [declined_note(c, outcome) for c, outcome in context.declined.items()]


def _both(*results: CheckResult) -> CheckResult:
    failed = [r for r in results if not r.passed]
    if failed:
        rules = tuple(dict.fromkeys(rule for r in failed for rule in r.rules))
        return CheckResult(passed=False, message="\n".join(r.message for r in failed), rules=rules)
    return CheckResult(passed=True, message="; ".join(r.message for r in results))


def _single_attempt(context: ScenarioContext, component: str, outcome: str) -> CheckResult:
    found = Findings(
        f"{component} makes one attempt (retry not declared, or not taken)", "R9.retry-as-declared"
    )
    attempts = model_attempts(context.observation, component)
    seen = [(a.get("call_index"), a.get("attempt"), a.get("outcome")) for a in attempts]
    found.expect(
        seen == [(1, 1, outcome)],
        f"recorded {seen}; an IUT that does not declare the retry, or does not take it after "
        f"this outcome, makes exactly one attempt, expected [(1, 1, {outcome!r})]",
    )
    return found.result()


def semantic_retry(
    context: ScenarioContext, *, second_outcome: str, first_outcome: str = "INVALID_SCHEMA"
) -> CheckResult:
    """The first SemanticGuard answer fails: a declared retry, or one attempt and a fallback.

    With SEMANTIC_RETRY, taken: :func:`conformance.checks.check_semantic_retry`. Without it, or
    declared and not taken after the first attempt's outcome: one ``first_outcome`` attempt, then
    the SEMANTIC_UNAVAILABLE fallback (noted as optional, for that trigger when declared).
    """
    capabilities = context.capabilities
    calls = checks.check_model_calls(context.observation, context.ran_fixture, capabilities)
    if capabilities is None or "SEMANTIC_RETRY" in capabilities:
        return _both(
            checks.check_semantic_retry(
                context.observation, second_outcome=second_outcome, first_outcome=first_outcome
            ),
            calls,
        )
    declined = context.declined.get("SEMANTIC_RETRY")
    context.optional.append(
        declined_note("SEMANTIC_RETRY", declined)
        if declined is not None
        else optional_note(
            "SEMANTIC_RETRY", f"one {first_outcome} attempt, then SEMANTIC_UNAVAILABLE"
        )
    )
    return _both(
        _single_attempt(context, "SEMANTIC_GUARD", first_outcome),
        calls,
        checks.check_fallback(context.observation, "SEMANTIC_UNAVAILABLE"),
    )


def router_retry(
    context: ScenarioContext, outcomes: Sequence[str], *, then_success: bool
) -> CheckResult:
    """The Router's first answer fails: a declared retry giving ``outcomes``, or one attempt.

    With ROUTER_RETRY, taken: the attempts are ``outcomes`` and the Run goes on to SUCCESS
    (``then_success``) or fails ROUTER_UNAVAILABLE. Without it, or declared and not taken after
    the first attempt's outcome: one attempt with the first outcome, then FAILED
    ROUTER_UNAVAILABLE (noted as optional, for that trigger when declared).
    """
    observation = context.observation
    capabilities = context.capabilities
    calls = checks.check_model_calls(observation, context.ran_fixture, capabilities)
    if capabilities is None or "ROUTER_RETRY" in capabilities:
        attempts = _both(
            checks.check_attempt_outcomes(observation, "ROUTER", list(outcomes)), calls
        )
        if then_success:
            return _both(
                attempts, checks.check_released_is_submitted(observation, context.ran_fixture)
            )
        return _both(attempts, checks.check_failed_run(observation, "ROUTER_UNAVAILABLE"))
    declined = context.declined.get("ROUTER_RETRY")
    context.optional.append(
        declined_note("ROUTER_RETRY", declined)
        if declined is not None
        else optional_note(
            "ROUTER_RETRY", f"one {outcomes[0]} attempt, then FAILED ROUTER_UNAVAILABLE"
        )
    )
    return _both(
        _single_attempt(context, "ROUTER", outcomes[0]),
        calls,
        checks.check_failed_run(observation, "ROUTER_UNAVAILABLE"),
    )
