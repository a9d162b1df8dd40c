"""The OpenAI-compatible ports on the conformance kit's model endpoint (capability MODEL_ENDPOINT).

The kit hands the IUT a ``model_endpoint`` object in the ``run`` message (contract sheet:
adapter-message ``ModelEndpoint``): one ``{base_url, model}`` per component and an ``api_key``.
:func:`endpoint_ports` builds the Router, Diagnosis Agent and SemanticGuard ports on it, each with
its own :class:`~reference_harness.openai.ChatClient` (``max_retries=0``: one HTTP request per
attempt, Requirement 9) and the given per-call timeout (Requirement 8). The Diagnosis Agent and
the SemanticGuard ask for streamed answers, the Router for one JSON body, so both answer shapes
are exercised on every Run.

The three clients share the process's HTTP connection pool
(:func:`~reference_harness.openai._client.shared_http_client`): a Run's requests reuse one
keep-alive connection to the endpoint where each client used to open its own, and nothing of
the pool is built per Run. Each request is still one HTTP request on its component's path, with
its own timeout; a request that times out or is interrupted ends its own connection as before.
:func:`warm_up` builds what the first Run needs (the SDK import, the pool) ahead of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reference_harness.openai._client import ChatClient, shared_http_client
from reference_harness.openai._config import OpenAIConfig
from reference_harness.openai._ports import OpenAIAgent, OpenAIReviewer, OpenAIRouter

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["EndpointPorts", "endpoint_ports", "pooled_client", "warm_up"]


@dataclass(frozen=True, slots=True)
class EndpointPorts:
    """The three model ports on the kit's endpoint; :meth:`close` closes their connection pools."""

    router: OpenAIRouter
    agent: OpenAIAgent
    reviewer: OpenAIReviewer

    def close(self) -> None:
        """Close every port's own HTTP connection pool (a shared pool stays open)."""
        for port in (self.router, self.agent, self.reviewer):
            port.close()


def pooled_client(config: OpenAIConfig) -> ChatClient:
    """A component's :class:`ChatClient` on the process's shared connection pool."""
    return ChatClient(config, http_client=shared_http_client())


def warm_up() -> None:
    """Build what the first Run on the endpoint needs: the OpenAI SDK and the shared pool.

    Called ahead of the first Run (the stdio entry does it in the background once ``hello`` is
    out); a Run never depends on it.
    """
    shared_http_client()


def endpoint_ports(
    model_endpoint: Mapping[str, Any],
    *,
    timeout_s: float,
    client: Callable[[OpenAIConfig], ChatClient] = pooled_client,
) -> EndpointPorts:
    """Return the three model ports on the kit's ``model_endpoint``.

    Args:
        model_endpoint: the run message's ``model_endpoint`` object (already schema-valid).
        timeout_s: per-call HTTP timeout in seconds.
        client: builds the HTTP client of a component (default :func:`pooled_client`; a mutant
            may pass a retrying one).
    """

    def config(key: str, *, stream: bool) -> ChatClient:
        part = model_endpoint[key]
        api_key = str(model_endpoint["api_key"])
        return client(OpenAIConfig(part["base_url"], part["model"], api_key, timeout_s, stream))

    return EndpointPorts(
        OpenAIRouter(config("router", stream=False)),
        OpenAIAgent(config("diagnosis_agent", stream=True)),
        OpenAIReviewer(config("semantic_guard", stream=True)),
    )
