"""``json_copy``: a deep copy of JSON-shaped data, several times faster than ``copy.deepcopy``.

The Harness's trace, invocation ledger and simulated client copy every event, record and frame
they hand out or keep, so that nobody can change what was recorded; the kit copies each fixture
it fits to an IUT's capabilities. Their data are JSON values (dicts, lists, strings, numbers,
booleans, ``None``); those are copied by a plain recursion, without ``deepcopy``'s memo and
dispatch. Anything else inside (a tuple, an enum, a model) goes through ``copy.deepcopy``, so the
copy is always as deep as before.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

__all__ = ["json_copy"]

T = TypeVar("T")

_ATOMS = frozenset({str, int, float, bool, type(None)})


def json_copy(value: T) -> T:
    """Return a deep copy of ``value`` (dicts and lists rebuilt, JSON scalars shared)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        copied: Any = {key: json_copy(item) for key, item in value.items()}  # type: ignore[attr-defined]
        return copied  # type: ignore[no-any-return]
    if kind is list:
        return [json_copy(item) for item in value]  # type: ignore[attr-defined, return-value]
    return copy.deepcopy(value)
