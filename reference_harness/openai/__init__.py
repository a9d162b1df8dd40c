"""OpenAI-compatible model ports, perturbations, and (in ``.testing``) a scripted server.

* :class:`OpenAIRouter`, :class:`OpenAIAgent`, :class:`OpenAIReviewer` — the model ports on the
  ``openai`` SDK (one HTTP attempt per call, explicit timeout, values passed through untouched);
* :func:`perturb` — wrappers that force a scenario's WHEN on a real model (DESIGN §9);
* :mod:`reference_harness.openai.testing` — :class:`~.testing.ScriptedOpenAIServer`;
* :mod:`reference_harness.openai.iut` — the Harness on these ports as a conformance-kit IUT.

Configure with ``SRDH_OPENAI_BASE_URL``, ``SRDH_OPENAI_MODEL``, ``SRDH_OPENAI_API_KEY`` (required),
``SRDH_OPENAI_TIMEOUT_S``, ``SRDH_OPENAI_STREAM`` (optional); see :class:`OpenAIConfig`.
"""

from reference_harness.openai._client import ChatClient
from reference_harness.openai._config import DEFAULT_TIMEOUT_S, ConfigError, OpenAIConfig
from reference_harness.openai._marker import Component, component_of, marker_line
from reference_harness.openai._perturb import (
    FABRICATED_DOCUMENT_ID,
    INVALID_REVIEW,
    ModelPorts,
    Perturbation,
    PerturbationError,
    perturb,
)
from reference_harness.openai._ports import OpenAIAgent, OpenAIReviewer, OpenAIRouter, tool_entry

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "FABRICATED_DOCUMENT_ID",
    "INVALID_REVIEW",
    "ChatClient",
    "Component",
    "ConfigError",
    "ModelPorts",
    "OpenAIAgent",
    "OpenAIConfig",
    "OpenAIReviewer",
    "OpenAIRouter",
    "Perturbation",
    "PerturbationError",
    "component_of",
    "marker_line",
    "perturb",
    "tool_entry",
]
