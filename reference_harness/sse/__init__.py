"""The chat entry over server-sent events (Starlette + sse-starlette + uvicorn).

``create_app(harness_factory=…, public_entry=…)`` builds the app (routes in :mod:`._app`);
``serve(host, port, repo, public_entry=…, harness_factory=…)`` runs it in the foreground for
``srdh serve`` (:func:`openai_harness_factory` builds Harnesses on the OpenAI-compatible ports);
:class:`LoopbackServer` runs it on ``127.0.0.1`` in a thread for tests. Requests are checked
before any Run starts (allowed ``Host`` and ``Origin``, internal token, JSON only, bounded body:
:mod:`._guard`).
"""

from reference_harness.sse._app import (
    BODY_WAIT_S,
    INTERNAL_CHAT_PATH,
    PUBLIC_CHAT_PATH,
    RECOVERY_INTERVAL_S,
    START_WAIT_S,
    PublicEntry,
    create_app,
)
from reference_harness.sse._connections import (
    HEAD_TIMEOUT_S,
    KEEP_ALIVE_S,
    HeadTimeoutProtocol,
    OncePerCause,
    connection_settings,
)
from reference_harness.sse._factory import (
    STORE_THREADS,
    UNCONFIGURED_TOOL_CODE,
    UnconfiguredTools,
    open_run_store,
    openai_harness_factory,
)
from reference_harness.sse._guard import DEFAULT_ALLOWED_HOSTS, DEFAULT_MAX_BODY_BYTES
from reference_harness.sse._request import ChatRequest, ChatRequestError, parse_chat_request
from reference_harness.sse._runs import ActiveRun, ChatHarness, TraceLog
from reference_harness.sse._serve import (
    LoopbackServer,
    default_store_path,
    open_server_store,
    serve,
    serve_app,
)

__all__ = [
    "BODY_WAIT_S",
    "DEFAULT_ALLOWED_HOSTS",
    "DEFAULT_MAX_BODY_BYTES",
    "HEAD_TIMEOUT_S",
    "INTERNAL_CHAT_PATH",
    "KEEP_ALIVE_S",
    "PUBLIC_CHAT_PATH",
    "RECOVERY_INTERVAL_S",
    "START_WAIT_S",
    "STORE_THREADS",
    "UNCONFIGURED_TOOL_CODE",
    "ActiveRun",
    "ChatHarness",
    "ChatRequest",
    "ChatRequestError",
    "HeadTimeoutProtocol",
    "LoopbackServer",
    "OncePerCause",
    "PublicEntry",
    "TraceLog",
    "UnconfiguredTools",
    "connection_settings",
    "create_app",
    "default_store_path",
    "open_run_store",
    "open_server_store",
    "openai_harness_factory",
    "parse_chat_request",
    "serve",
    "serve_app",
]
