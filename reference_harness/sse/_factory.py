"""``openai_harness_factory``: Harnesses on the OpenAI-compatible ports, for ``srdh serve``."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Final

from reference_harness import Harness, Limits
from reference_harness._harness import wall_clock_ms
from reference_harness.openai import OpenAIAgent, OpenAIConfig, OpenAIReviewer, OpenAIRouter
from reference_harness.ports import InBandError
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from reference_harness.ports import AcceptedToolCall, CancelToken, ToolBackend, ToolResult

__all__ = [
    "STORE_THREADS",
    "UNCONFIGURED_TOOL_CODE",
    "UnconfiguredTools",
    "open_run_store",
    "openai_harness_factory",
]

STORE_THREADS: Final = 4
"""Threads running the store calls of a server's Runs (each waits at most the busy timeout)."""

_HTTP_SHARE = 0.9
"""The adapters' HTTP timeout as a share of the Harness's model-call bound."""

UNCONFIGURED_TOOL_CODE = "NO_TOOL_BACKEND"
"""The in-band error code every :class:`UnconfiguredTools` execution answers."""


class UnconfiguredTools:
    """A tool backend for a server without real backends: every call is an in-band error.

    The invocation ends READY with evidence status ERROR (``BACKEND_ERROR``), so nothing can be
    cited as evidence and no draft built on it is released.
    """

    async def execute(self, call: AcceptedToolCall, cancel: CancelToken) -> ToolResult:  # noqa: ARG002 - nothing to do
        """Answer ``InBandError(UNCONFIGURED_TOOL_CODE)``."""
        return InBandError(UNCONFIGURED_TOOL_CODE)


def open_run_store(path: Path) -> RunStore:
    """Open a server's run store, prove it writable and recover its crashed Runs.

    The server's startup (Requirement 7): every RUNNING row left by a crash becomes FAILED
    (``INTERNAL_ERROR``) before any Run starts. Call it before announcing the server, so that a
    store that cannot be written is refused with its file named, not found by the first request.

    Raises:
        StoreUnavailableError: the file is locked by another process (past the busy timeout),
            the disk is full, or it is read-only or not a database; the message names the file.
        RunStoreError: the folder of ``path`` does not exist.
    """
    store = RunStore(path)
    try:
        store.recover_crashed(wall_clock_ms())
    except BaseException:
        store.close()
        raise
    return store


def openai_harness_factory(
    store_path: Path | RunStore,
    *,
    tools: ToolBackend,
    config: OpenAIConfig | None = None,
    limits: Limits | None = None,
) -> Callable[[], Harness]:
    """Return a factory of Harnesses sharing one run store, OpenAI ports and tool backend.

    Opening the store is the server's startup: every RUNNING row left by a crash is recovered as
    FAILED (``INTERNAL_ERROR``) before any Run starts, never to be a previous turn (Requirement 7).
    The Harnesses run their store calls in one pool of :data:`STORE_THREADS` threads, never on
    the event loop.

    Args:
        store_path: the SQLite file of the ``diagnosis_run`` store (created if absent), or a
            store already opened by :func:`open_run_store`.
        tools: the tool backend every Run dispatches to.
        config: the endpoint; ``OpenAIConfig.from_env()`` when ``None``.
        limits: the Runs' budgets. The adapters' HTTP timeout is 90 % of
            ``model_call_timeout_ms``, so a blocking call ends inside the Harness's bound. When
            ``None``, the defaults with ``model_call_timeout_ms`` derived from the endpoint's
            ``timeout_s`` (``SRDH_OPENAI_TIMEOUT_S``), which then is the HTTP timeout.

    Raises:
        ConfigError: ``config`` is ``None`` and the ``SRDH_OPENAI_*`` variables are not set.
        StoreUnavailableError: (given a path) the store cannot be written.
    """
    endpoint = config if config is not None else OpenAIConfig.from_env()
    if limits is None:
        # No explicit budget: the endpoint's timeout (SRDH_OPENAI_TIMEOUT_S, default 30 s) is the
        # HTTP timeout, and the Harness's bound on a model call is set just above it.
        limits = Limits(model_call_timeout_ms=math.ceil(endpoint.timeout_s * 1000 / _HTTP_SHARE))
    endpoint = endpoint.with_timeout(limits.model_call_timeout_s * _HTTP_SHARE)
    store = open_run_store(store_path) if isinstance(store_path, Path) else store_path
    executor = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="srdh-store")
    router, agent, reviewer = (
        OpenAIRouter(endpoint),
        OpenAIAgent(endpoint),
        OpenAIReviewer(endpoint),
    )

    def factory() -> Harness:
        return Harness(
            store=store,
            router=router,
            agent=agent,
            reviewer=reviewer,
            tools=tools,
            limits=limits,
            store_executor=executor,
        )

    return factory
