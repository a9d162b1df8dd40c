"""OpenAI-compatible model ports, perturbations, and (in ``.testing``) a scripted server.

Configure with ``SRDH_OPENAI_BASE_URL``, ``SRDH_OPENAI_MODEL``, ``SRDH_OPENAI_API_KEY`` (required),
``SRDH_OPENAI_TIMEOUT_S``, ``SRDH_OPENAI_STREAM`` (optional); see :class:`OpenAIConfig`.
"""

from reference_harness.openai._client import ChatClient
from reference_harness.openai._config import DEFAULT_TIMEOUT_S, ConfigError, OpenAIConfig
from reference_harness.openai._marker import Component, component_of, marker_line
from reference_harness.openai._ports import OpenAIAgent, OpenAIReviewer, OpenAIRouter, tool_entry

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "ChatClient",
    "Component",
    "ConfigError",
    "OpenAIAgent",
    "OpenAIConfig",
    "OpenAIReviewer",
    "OpenAIRouter",
    "component_of",
    "marker_line",
    "tool_entry",
]
