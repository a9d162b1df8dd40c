"""Errors a model port raises, and the script errors of the scripted ports.

Two families:

* :class:`ModelCallError` — a model call (Router, Diagnosis Agent, SemanticGuard) failed in a way
  the Harness records as an attempt outcome: :class:`ModelUnavailable` (outcome ``UNAVAILABLE``:
  HTTP 429/5xx, connection refused, provider error) and :class:`ModelTimeout` (outcome
  ``TIMEOUT``). Ports raise only these; any other exception escaping a port is an internal error
  of the Run (public error ``INTERNAL_ERROR``). Their messages never reach any output.
* :class:`ScriptError` — a scripted port was driven past its script (:class:`ScriptExhausted`) or
  was left with turns nobody asked for (:class:`ScriptUnconsumed`). These are errors of the
  *fixture run*, not of the Run: the kit reports them as ``observation.error``.
"""

from __future__ import annotations

__all__ = [
    "ModelCallError",
    "ModelTimeout",
    "ModelUnavailable",
    "ScriptError",
    "ScriptExhausted",
    "ScriptUnconsumed",
]


class ModelCallError(Exception):
    """Base class of the model-call failures a port may raise (Requirement 9 attempt outcomes)."""


class ModelUnavailable(ModelCallError):  # noqa: N818 - the spec's word for the outcome UNAVAILABLE
    """The model endpoint did not answer usefully (429, 5xx, refused); outcome ``UNAVAILABLE``."""


class ModelTimeout(ModelCallError):  # noqa: N818 - the spec's word for the outcome TIMEOUT
    """The model call did not finish within its timeout; outcome ``TIMEOUT``."""


class ScriptError(Exception):
    """Base class of errors of a scripted fixture run (the kit's ``observation.error``)."""

    code: str = "IUT_ERROR"


class ScriptExhausted(ScriptError):  # noqa: N818 - mirrors openai-agents' UnexpectedModelCall naming
    """A scripted port was called with no turn left (``SCRIPT_EXHAUSTED``)."""

    code = "SCRIPT_EXHAUSTED"


class ScriptUnconsumed(ScriptError):  # noqa: N818 - mirrors openai-agents' UnconsumedModelSteps naming
    """A scripted port still held turns when the Run ended (``SCRIPT_UNCONSUMED``)."""

    code = "SCRIPT_UNCONSUMED"
