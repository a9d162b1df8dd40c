"""Failure lines for an observation that breaks its own contract (a rule, not only an error).

An IUT whose RunObservation breaks a frozen contract rule (a NO_EVIDENCE invocation that matched
rows, a projection whose query scope ends before it starts ...) reported something no
conforming Harness can: the adapter refuses the observation
(:class:`conformance.adapters.ObservationContractError`) and the suite fails the scenario with
these lines, each naming the rule the broken contract rule serves, so the run fails under a rule
id like every other conformance failure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterable

    from contracts import ContractViolation

__all__ = ["observation_contract_failures"]

_MAX_LINES: Final = 5
_INVOCATION: Final = re.compile(r"^/invocations/\d+(?:/|$)")
_INVOCATION_RULE: Final = "R3.invocation-outcome"
"""An invocation record's own contract (``tool-invocation``, its ``bounded-projection``): the
invocation and evidence status and the projection follow the backend's outcome and the call's
arguments (Requirement 3: "PROJECTING/READY/ERROR as invocation lifecycle states",
"EVIDENCE_FOUND/NO_EVIDENCE/ERROR as evidence result states")."""
_OTHER_RULE: Final = "R0.valid-observation"


def _rule_of(violation: ContractViolation) -> str:
    return _INVOCATION_RULE if _INVOCATION.match(violation.pointer) else _OTHER_RULE


def observation_contract_failures(violations: Iterable[ContractViolation]) -> list[str]:
    """Return one ``[<rule id>] …`` failure line per contract violation (at most five).

    ``violations`` point into the RunObservation (``/invocations/0/evidence_status`` …). A
    violation inside an invocation record names ``R3.invocation-outcome``; any other names
    ``R0.valid-observation``. Each line says the pointer, the contract rule and what it expects.
    """
    lines = [
        f"[{_rule_of(v)}] the observation breaks its contract at {v.pointer or '/'} "
        f"({v.rule}): {v.message}"
        for v in violations
    ]
    return lines[:_MAX_LINES]
