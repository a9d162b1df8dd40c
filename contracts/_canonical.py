"""RFC 8785 canonical JSON and its SHA-256 digest (Verified Snapshot digest, freeze lock)."""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785

__all__ = ["canonical_json", "digest"]


def canonical_json(obj: Any) -> bytes:  # noqa: ANN401 - any JSON value
    """Return the RFC 8785 (JCS) canonical UTF-8 bytes of the JSON value ``obj``.

    Raises:
        rfc8785.CanonicalizationError: ``obj`` is not representable (e.g. NaN, non-str keys).
    """
    return rfc8785.dumps(obj)


def digest(obj: Any) -> str:  # noqa: ANN401 - any JSON value
    """Return the lower-case hex SHA-256 of :func:`canonical_json` of ``obj`` (64 chars)."""
    return hashlib.sha256(canonical_json(obj)).hexdigest()
