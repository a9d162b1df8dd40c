"""Contract validation of observed documents through :func:`contracts.validate_document`."""

from __future__ import annotations

from typing import Any

from conformance.checks._result import CheckResult, Findings

__all__ = ["check_contract", "contract_problems"]

_MAX_LISTED = 10


def contract_problems(document: Any, contract: str, where: str = "") -> list[str]:  # noqa: ANN401
    """Return one line per violation of ``contract`` (a sheet stem, e.g. ``"run-observation"``).

    Each line names the JSON pointer (prefixed with ``where``) and what was expected.
    """
    from contracts import validate_document  # noqa: PLC0415 - contracts loads schemas on import

    violations = validate_document(document, contract)
    lines = [f"{where}{v.pointer or '/'}: {v.message} [{v.rule}]" for v in violations]
    if len(lines) > _MAX_LISTED:
        lines = [*lines[:_MAX_LISTED], f"... and {len(lines) - _MAX_LISTED} more"]
    return lines


def check_contract(document: Any, contract: str) -> CheckResult:  # noqa: ANN401 - any JSON
    """Check ``document`` is a valid ``contract`` document (schema and invariants)."""
    found = Findings(f"valid {contract}", "R0.valid-observation")
    for line in contract_problems(document, contract):
        found.add(line)
    return found.result()
