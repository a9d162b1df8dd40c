"""The reference implementation of the single ReAct diagnosis harness (SRDH).

Public surface (everything else is private):

- :class:`Harness` — deterministic execution control of one diagnosis Run
  (``await Harness(...).run(session_id, user_message, sink=..., cancel=...)``), with
  :class:`Limits` (budgets), :class:`RetryPolicy` / :data:`DEFAULT_RETRY_POLICY` (Harness-owned
  retries), :class:`CancelScope` (layered cancellation) and :class:`RunJournal` (trace and
  invocations for observers).
- :mod:`reference_harness.ports` — the model and tool ports; :mod:`reference_harness.errors` —
  ``ModelUnavailable``, ``ModelTimeout``, ``ScriptExhausted``, ``ScriptUnconsumed``.
- Scripted ports driven by a Scenario Fixture: :class:`ScriptedRouter`, :class:`ScriptedAgent`,
  :class:`ScriptedReviewer`, :class:`ScriptedTools`, :class:`ScriptedPorts`.
- :data:`TOOL_SPECS` — the four tools offered to the Diagnosis Agent.
- :mod:`reference_harness.iut` — the Harness as a conformance-kit IUT;
  ``python -m reference_harness.stdio`` — the same over stdio NDJSON.

Names are loaded on first use, so that ``reference_harness.ports`` and ``reference_harness.errors``
import without the Harness's dependencies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference_harness._cancellation import CancelCause, CancelScope
    from reference_harness._harness import Harness, RunJournal
    from reference_harness._limits import Limits
    from reference_harness._retry import DEFAULT_RETRY_POLICY, RetryPolicy
    from reference_harness._scripted import (
        ScriptedAgent,
        ScriptedPorts,
        ScriptedReviewer,
        ScriptedRouter,
        ScriptedTools,
    )
    from reference_harness._tools import TOOL_SPECS
    from reference_harness.errors import (
        ModelTimeout,
        ModelUnavailable,
        ScriptExhausted,
        ScriptUnconsumed,
    )

__all__ = [
    "DEFAULT_RETRY_POLICY",
    "TOOL_SPECS",
    "CancelCause",
    "CancelScope",
    "Harness",
    "Limits",
    "ModelTimeout",
    "ModelUnavailable",
    "RetryPolicy",
    "RunJournal",
    "ScriptExhausted",
    "ScriptUnconsumed",
    "ScriptedAgent",
    "ScriptedPorts",
    "ScriptedReviewer",
    "ScriptedRouter",
    "ScriptedTools",
]

_HOMES = {
    "DEFAULT_RETRY_POLICY": "reference_harness._retry",
    "TOOL_SPECS": "reference_harness._tools",
    "CancelCause": "reference_harness._cancellation",
    "CancelScope": "reference_harness._cancellation",
    "Harness": "reference_harness._harness",
    "Limits": "reference_harness._limits",
    "ModelTimeout": "reference_harness.errors",
    "ModelUnavailable": "reference_harness.errors",
    "RetryPolicy": "reference_harness._retry",
    "RunJournal": "reference_harness._harness",
    "ScriptExhausted": "reference_harness.errors",
    "ScriptUnconsumed": "reference_harness.errors",
    "ScriptedAgent": "reference_harness._scripted",
    "ScriptedPorts": "reference_harness._scripted",
    "ScriptedReviewer": "reference_harness._scripted",
    "ScriptedRouter": "reference_harness._scripted",
    "ScriptedTools": "reference_harness._scripted",
}


def __getattr__(name: str) -> Any:  # noqa: ANN401 - a module attribute of any kind
    """Load a public name from its private module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'reference_harness' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """List the public names."""
    return sorted(__all__)
