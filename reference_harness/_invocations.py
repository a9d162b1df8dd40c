"""The canonical Tool invocations of one Run (contract sheet ``tool-invocation``).

One record per *accepted* Tool Call ID, created ``PROJECTING`` and moved exactly once to a terminal
state. Allowed (status, evidence status) pairs, and nothing else: (PROJECTING, null),
(READY, EVIDENCE_FOUND), (READY, NO_EVIDENCE), (READY, ERROR), (ERROR, ERROR). Terminal records
are immutable and a record is never replaced: a second acceptance of the same id is a programming
error (the id classifier rejects duplicates before they reach the ledger).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from contracts import json_copy
from reference_harness._projection import evidence_status_of

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["SAFE_MESSAGES", "InvocationErrorCode", "InvocationLedger", "InvocationStateError"]

InvocationErrorCode: TypeAlias = Literal[
    "BACKEND_ERROR", "TOOL_FAILED", "TOOL_TIMEOUT", "CANCELLED", "INVALID_ARGUMENTS"
]
"""Contract sheet: invocation error code."""

SAFE_MESSAGES: Final[dict[str, str]] = {
    "BACKEND_ERROR": "The tool backend answered with an error.",
    "TOOL_FAILED": "The tool failed.",
    "TOOL_TIMEOUT": "The tool did not answer in time.",
    "CANCELLED": "The tool call was cancelled.",
    "INVALID_ARGUMENTS": "The tool name or arguments were invalid.",
}
"""The fixed ``safe_message`` of each invocation error code: never backend or exception text."""

Document: TypeAlias = dict[str, Any]


class InvocationStateError(RuntimeError):
    """A transition the lifecycle forbids (a Harness bug, never a model or backend fault)."""


class InvocationLedger:
    """The canonical invocations of one Run, by Tool Call ID, in acceptance order.

    Args:
        run_id: the Run.
        on_change: called with a copy of the record after its creation and after each transition
            (the Harness emits ``INVOCATION_STATUS_CHANGED`` from it).
    """

    def __init__(self, run_id: str, on_change: Callable[[Document], None]) -> None:
        """Create an empty ledger for ``run_id``."""
        self._run_id = run_id
        self._on_change = on_change
        self._records: dict[str, Document] = {}

    @property
    def accepted_ids(self) -> Mapping[str, Document]:
        """The accepted Tool Call IDs (a read-only view keyed by id)."""
        return self._records

    def accept(
        self, tool_call_id: str, tool_name: str, arguments: Mapping[str, Any], step: int
    ) -> Document:
        """Create the ``PROJECTING`` record of a newly accepted call and return a copy.

        Raises:
            InvocationStateError: ``tool_call_id`` already has a record (never overwritten).
        """
        if tool_call_id in self._records:
            msg = f"invocation {tool_call_id!r} already exists; it is never overwritten"
            raise InvocationStateError(msg)
        record: Document = {
            "tool_call_id": tool_call_id,
            "run_id": self._run_id,
            "sequence": len(self._records) + 1,
            "step": step,
            "tool_name": tool_name,
            "arguments": json_copy(dict(arguments)),
            "status": "PROJECTING",
            "evidence_status": None,
            "projection": None,
            "error": None,
        }
        self._records[tool_call_id] = record
        self._changed(record)
        return json_copy(record)

    def ready(self, tool_call_id: str, projection: Mapping[str, Any]) -> Document:
        """Move to ``READY`` with ``EVIDENCE_FOUND`` or ``NO_EVIDENCE`` (from the projection)."""
        record = self._projecting(tool_call_id)
        record.update(
            status="READY",
            evidence_status=evidence_status_of(projection),
            projection=json_copy(dict(projection)),
        )
        self._changed(record)
        return json_copy(record)

    def backend_error(self, tool_call_id: str, projection: Mapping[str, Any]) -> Document:
        """Move to ``READY``/``ERROR`` (the backend answered with an in-band error)."""
        record = self._projecting(tool_call_id)
        record.update(
            status="READY",
            evidence_status="ERROR",
            projection=json_copy(dict(projection)),
            error={"code": "BACKEND_ERROR", "safe_message": SAFE_MESSAGES["BACKEND_ERROR"]},
        )
        self._changed(record)
        return json_copy(record)

    def fail(self, tool_call_id: str, code: InvocationErrorCode) -> Document:
        """Move to ``ERROR``/``ERROR`` with ``code`` and its fixed safe message.

        Raises:
            InvocationStateError: ``code`` is ``BACKEND_ERROR`` (that is READY/ERROR), or the
                record is not ``PROJECTING``.
        """
        if code == "BACKEND_ERROR":
            msg = "BACKEND_ERROR is an in-band error: use backend_error()"
            raise InvocationStateError(msg)
        record = self._projecting(tool_call_id)
        record.update(
            status="ERROR",
            evidence_status="ERROR",
            projection=None,
            error={"code": code, "safe_message": SAFE_MESSAGES[code]},
        )
        self._changed(record)
        return json_copy(record)

    def is_projecting(self, tool_call_id: str) -> bool:
        """Return whether the record exists and is still ``PROJECTING``."""
        record = self._records.get(tool_call_id)
        return record is not None and record["status"] == "PROJECTING"

    def get(self, tool_call_id: str) -> Document:
        """Return a copy of one record (``KeyError`` if unknown)."""
        return json_copy(self._records[tool_call_id])

    def documents(self) -> list[Document]:
        """Return copies of every record, by ``sequence``."""
        return [json_copy(record) for record in self._records.values()]

    def _projecting(self, tool_call_id: str) -> Document:
        record = self._records.get(tool_call_id)
        if record is None:
            msg = f"unknown invocation {tool_call_id!r}"
            raise InvocationStateError(msg)
        if record["status"] != "PROJECTING":
            msg = f"invocation {tool_call_id!r} is terminal ({record['status']}); it is immutable"
            raise InvocationStateError(msg)
        return record

    def _changed(self, record: Document) -> None:
        self._on_change(json_copy(record))
