"""Failure lines for an observation that breaks its own contract (a rule, not only an error).

An IUT whose RunObservation breaks a frozen contract rule (a NO_EVIDENCE invocation that matched
rows, a projection whose query scope ends before it starts ...) reported something no
conforming Harness can: the adapter refuses the observation
(:class:`conformance.adapters.ObservationContractError`) and the suite fails the scenario with
lines each naming the rule the broken contract rule serves, so the run fails under a rule
id like every other conformance failure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from conformance.checks._result import CheckResult, Findings

if TYPE_CHECKING:
    from collections.abc import Iterable

    from contracts import ContractViolation

__all__ = ["check_observation_contract"]

_MAX_LINES: Final = 5
_INVOCATION: Final = re.compile(r"^/invocations/\d+(?:/|$)")
_INVOCATION_RULE: Final = "R3.invocation-outcome"
"""An invocation record's own contract (``tool-invocation``, its ``bounded-projection``): the
invocation and evidence status and the projection follow the backend's outcome and the call's
arguments (Requirement 3: "PROJECTING/READY/ERROR as invocation lifecycle states",
"EVIDENCE_FOUND/NO_EVIDENCE/ERROR as evidence result states")."""
_FALLBACK: Final = re.compile(r"/safe_fallback(?:/|$)")
_FALLBACK_RULE: Final = "R6.fallback-fixed-schema"
"""A Safe Fallback's own contract (``safe-fallback``, its verified sources' ``query-scope``):
"Safe fallback SHALL use a fixed schema" (red-team-8.md, S15: a source's query scope carrying the
call's extra argument members)."""
_DRAFT: Final = re.compile(r"/published_result/diagnosis_draft(?:/|$)")
_DRAFT_RULE: Final = "R4.rejected-then-repaired"
"""A released Diagnosis Draft breaking its own contract: a draft the EvidenceGuard must reject is
never released (red-team-9.md: an analysis ID breaking its grammar, released)."""
_OTHER_RULE: Final = "R0.valid-observation"


def _rule_of(violation: ContractViolation) -> str:
    if _INVOCATION.match(violation.pointer):
        return _INVOCATION_RULE
    if _DRAFT.search(violation.pointer):
        return _DRAFT_RULE
    return _FALLBACK_RULE if _FALLBACK.search(violation.pointer) else _OTHER_RULE


def check_observation_contract(violations: Iterable[ContractViolation]) -> CheckResult:
    """Return the failure of an observation breaking its contract, one line per violation.

    ``violations`` point into the RunObservation (``/invocations/0/evidence_status`` …); at
    most five are listed. A violation inside an invocation record names
    ``R3.invocation-outcome``, one inside a Safe Fallback ``R6.fallback-fixed-schema``, one inside
    a released Diagnosis Draft ``R4.rejected-then-repaired``; any other
    ``R0.valid-observation``. Each line says the pointer,
    the contract rule and what it expects. Passes only for no violations.
    """
    found = Findings("the observation keeps its contracts", _OTHER_RULE)
    for v in list(violations)[:_MAX_LINES]:
        found.add(
            f"the observation breaks its contract at {v.pointer or '/'} ({v.rule}): {v.message}",
            rule=_rule_of(v),
        )
    return found.result()
