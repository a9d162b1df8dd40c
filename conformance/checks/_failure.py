"""Checks of model-call attempts and FAILED Runs.

Requirement "Retry attempts SHALL be owned by Harness": the Harness alone retries, within its
policy, and records every attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conformance.checks._result import CheckResult, Findings
from conformance.checks._view import current_run, model_attempts, released_kinds

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["check_attempt_outcomes", "check_failed_run"]


def check_attempt_outcomes(
    observation: dict[str, Any], component: str, outcomes: Sequence[str]
) -> CheckResult:
    """Check ``component``'s first logical call recorded exactly the attempts ``outcomes``.

    Attempts 1..n of call 1, in order (e.g. ROUTER: INVALID_SCHEMA then VALID).
    """
    found = Findings(f"{component} attempts {list(outcomes)}", "R9.attempts-bounded")
    attempts = model_attempts(observation, component)
    seen = [(a.get("call_index"), a.get("attempt"), a.get("outcome")) for a in attempts]
    expected = [(1, n, outcome) for n, outcome in enumerate(outcomes, start=1)]
    found.expect(seen[: len(expected)] == expected, f"recorded {seen}, expected {expected} first")
    return found.result()


def check_failed_run(observation: dict[str, Any], error_code: str) -> CheckResult:
    """Check the Run ended FAILED with the fixed public error ``error_code``.

    The row says FAILED with that code, the published result is that PUBLIC_ERROR, and no draft,
    answer or fallback was released.
    """
    found = Findings(f"FAILED with {error_code}", "R9.failed-run")
    row = current_run(observation) or {}
    found.expect(
        (row.get("state"), row.get("error_code")) == ("FAILED", error_code),
        f"diagnosis_run is {row.get('state')} / {row.get('error_code')}, "
        f"expected FAILED / {error_code}",
    )
    published = observation.get("published_result") or {}
    found.expect(
        published == {"kind": "PUBLIC_ERROR", "public_error": {"error_code": error_code}},
        f"published {published}, expected the PUBLIC_ERROR {error_code}",
    )
    kinds = released_kinds(observation)
    found.expect(
        not {"DIAGNOSIS_DRAFT", "KNOWLEDGE_ANSWER", "SAFE_FALLBACK"} & set(kinds),
        f"a FAILED Run released {kinds}",
    )
    return found.result()
