"""Test double shipped with the kit: a scripted OpenAI-compatible server on loopback.

Like pydantic-ai's ``TestModel``, it is part of the product: the conformance suite runs the real
OpenAI adapters against it, and a user can point their own harness at it.
"""

from reference_harness.openai.testing._replies import Fault, Hold, Reply
from reference_harness.openai.testing._server import (
    RecordedRequest,
    ScriptedOpenAIServer,
    ServerScriptError,
)

__all__ = ["Fault", "Hold", "RecordedRequest", "Reply", "ScriptedOpenAIServer", "ServerScriptError"]
