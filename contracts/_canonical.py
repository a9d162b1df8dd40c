"""RFC 8785 canonical JSON and its SHA-256 digest (Verified Snapshot digest, freeze lock)."""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785

from contracts._errors import ContractError
from contracts._strict_json import json_value_problem

__all__ = ["canonical_json", "digest"]


def canonical_json(obj: Any) -> bytes:  # noqa: ANN401 - any JSON value
    """Return the RFC 8785 (JCS) canonical UTF-8 bytes of the JSON value ``obj``.

    Raises:
        ContractError: ``obj`` is not representable (an integer beyond +/-(2^53-1), NaN, a
            non-str key...); its ``pointer`` names the first such value in document order and
            its ``rule`` the strict reader's (``json-unsafe-integer``, ...). A ``ValueError``.
    """
    try:
        return rfc8785.dumps(obj)
    except rfc8785.CanonicalizationError as error:
        problem = json_value_problem(obj, canonical=True)
        rule = problem.rule if problem is not None else "json-canonical-form"
        detail = problem.message if problem is not None else str(error)
        pointer = problem.pointer if problem is not None else ""
        message = f"not representable in the RFC 8785 canonical form: {detail}"
        raise ContractError(message, pointer=pointer, expected="I-JSON", rule=rule) from None


def digest(obj: Any) -> str:  # noqa: ANN401 - any JSON value
    """Return the lower-case hex SHA-256 of :func:`canonical_json` of ``obj`` (64 chars).

    Raises:
        ContractError: as :func:`canonical_json`.
    """
    return hashlib.sha256(canonical_json(obj)).hexdigest()
