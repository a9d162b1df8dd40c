"""The chat entry over server-sent events (Starlette + sse-starlette + uvicorn).

``create_app(harness_factory=…, public_entry=…)`` builds the app (routes in :mod:`._app`);
``serve(host, port, repo, public_entry=…, harness_factory=…)`` runs it in the foreground for
``srdh serve`` (:func:`openai_harness_factory` builds Harnesses on the OpenAI-compatible ports);
:class:`LoopbackServer` runs it on ``127.0.0.1`` in a thread for tests. Requests are checked
before any Run starts (allowed ``Host`` and ``Origin``, internal token, JSON only, bounded body:
:mod:`._guard`).
"""

from reference_harness.sse._app import INTERNAL_CHAT_PATH, PUBLIC_CHAT_PATH, PublicEntry, create_app
from reference_harness.sse._factory import (
    UNCONFIGURED_TOOL_CODE,
    UnconfiguredTools,
    openai_harness_factory,
)
from reference_harness.sse._guard import DEFAULT_ALLOWED_HOSTS, DEFAULT_MAX_BODY_BYTES
from reference_harness.sse._request import ChatRequest, ChatRequestError, parse_chat_request
from reference_harness.sse._runs import ActiveRun, ChatHarness, TraceLog
from reference_harness.sse._serve import LoopbackServer, serve, serve_app

__all__ = [
    "DEFAULT_ALLOWED_HOSTS",
    "DEFAULT_MAX_BODY_BYTES",
    "INTERNAL_CHAT_PATH",
    "PUBLIC_CHAT_PATH",
    "UNCONFIGURED_TOOL_CODE",
    "ActiveRun",
    "ChatHarness",
    "ChatRequest",
    "ChatRequestError",
    "LoopbackServer",
    "PublicEntry",
    "TraceLog",
    "UnconfiguredTools",
    "create_app",
    "openai_harness_factory",
    "parse_chat_request",
    "serve",
    "serve_app",
]
