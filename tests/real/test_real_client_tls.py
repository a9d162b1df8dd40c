"""The SDK clients of one process share one TLS context (the CA bundle is loaded once)."""

from __future__ import annotations

import httpx2

from reference_harness.openai import OpenAIConfig, _client
from reference_harness.openai._client import ChatClient


def test_clients_share_one_tls_context_built_as_the_sdks_default(monkeypatch):
    """Three clients (a Run's Router, Agent and SemanticGuard) build one TLS context, with the
    SDK default's arguments, and each client's transport uses it."""
    built = []

    def counting(*args, **kwargs):
        built.append((args, kwargs))
        return real(*args, **kwargs)

    real = httpx2.create_ssl_context
    _client._tls_context.cache_clear()
    monkeypatch.setattr(httpx2, "create_ssl_context", counting)
    config = OpenAIConfig(base_url="http://127.0.0.1:9/v1", api_key="k", model="m")
    clients = [ChatClient(config) for _ in range(3)]
    try:
        contexts = {id(c._client._client._transport._pool._ssl_context) for c in clients}
    finally:
        for client in clients:
            client.close()
        _client._tls_context.cache_clear()
    assert built == [((), {})]
    assert len(contexts) == 1
