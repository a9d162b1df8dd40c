"""The error family of IUT adapters, and the protocol violations found after the fact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from contracts import ContractViolation

__all__ = ["AdapterError", "ObservationContractError", "ProtocolViolation"]


class AdapterError(RuntimeError):
    """The implementation under test broke the adapter protocol, crashed, hung or lied.

    Attributes:
        reason: one line saying what went wrong (e.g. ``"IUT sent invalid JSON"``).
        stderr_tail: the last lines the IUT wrote to stderr (stdio adapters), or ``""``.
        timeout_s: the per-message timeout in force, in seconds, or ``None``.
        request_id: the request the failure is blamed on (stdio adapters), or ``None``.
    """

    def __init__(
        self,
        reason: str,
        *,
        stderr_tail: str = "",
        timeout_s: float | None = None,
        request_id: str | None = None,
    ) -> None:
        """Build the error; ``str()`` joins the reason, the timeout and the stderr tail."""
        self.reason = reason
        self.stderr_tail = stderr_tail
        self.timeout_s = timeout_s
        self.request_id = request_id
        parts = [reason]
        if timeout_s is not None:
            parts.append(f"(per-message timeout {timeout_s:g} s)")
        if stderr_tail:
            parts.append(f"\n--- IUT stderr (tail) ---\n{stderr_tail}")
        super().__init__(" ".join(parts[:2]) + "".join(parts[2:]))


class ObservationContractError(AdapterError):
    """The IUT answered with a well-formed ``observation`` whose RunObservation breaks a contract.

    The message envelope (type, request id) was right; the Run it reports was not: e.g. a
    NO_EVIDENCE invocation with matches, or a projection whose query scope ends before it starts.
    That is a conformance failure of the Harness, not only a protocol fault: the suite reports
    it under the rule the broken contract rule serves
    (:func:`conformance.checks.check_observation_contract`).

    Attributes:
        violations: every violation, JSON pointers into the RunObservation.
        answer: the ``observation`` message as the IUT sent it (stdio), or ``None``: what
            ``srdh run --record`` keeps so that ``srdh replay`` judges it again.
    """

    def __init__(
        self,
        reason: str,
        violations: tuple[ContractViolation, ...],
        *,
        stderr_tail: str = "",
        answer: dict[str, Any] | None = None,
    ) -> None:
        """Build the error; ``violations`` are the observation's contract violations."""
        super().__init__(reason, stderr_tail=stderr_tail)
        self.violations = violations
        self.answer = answer


@dataclass(frozen=True)
class ProtocolViolation:
    """A protocol error seen after the answer it concerns was already accepted.

    For example a second ``observation`` for one ``run``: it is noticed only when the next
    message is due or when the IUT ended, so it is blamed on the request it followed.

    Attributes:
        request_id: the request the unsolicited output followed.
        fixture_id: that request's fixture id.
        scenario_id: that fixture's ``scenario_id`` when it names one, else ``None``.
        reason: one line saying what the IUT did.
    """

    request_id: str
    fixture_id: str
    scenario_id: str | None
    reason: str
