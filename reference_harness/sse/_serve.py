"""Run the chat app with uvicorn: in the foreground (``serve``) or on loopback in a thread.

:class:`LoopbackServer` binds ``127.0.0.1`` port 0 itself before uvicorn starts, so the port is
known at once and a client may connect immediately (the connection waits in the listen backlog
until uvicorn accepts it): tests need no readiness polling.
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import TYPE_CHECKING, Any, Final, Self

import uvicorn

from reference_harness.sse._app import PublicEntry, create_app
from reference_harness.sse._connections import (
    OncePerCause,
    connection_settings,
    install_once_per_cause,
    remove_once_per_cause,
)
from reference_harness.sse._factory import (
    UnconfiguredTools,
    open_run_store,
    openai_harness_factory,
)
from reference_harness.sse._guard import DEFAULT_ALLOWED_HOSTS

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from types import TracebackType

    from starlette.applications import Starlette

    from reference_harness.sse._runs import ChatHarness
    from reference_harness.store import RunStore

__all__ = ["LoopbackServer", "default_store_path", "open_server_store", "serve", "serve_app"]

_STOP_WAIT_S: Final = 60.0
_LOG: Final = logging.getLogger("uvicorn.error")


def default_store_path(repo: Path) -> Path:
    """``repo/.srdh/runs.sqlite3``: the run store of ``srdh serve`` for ``repo``."""
    return repo / ".srdh" / "runs.sqlite3"


def open_server_store(repo: Path) -> RunStore:
    """Open ``srdh serve``'s store in ``repo/.srdh/``: created, proven writable, crashes recovered.

    Raises:
        StoreUnavailableError: the store file is locked, on a full disk, or read-only (named).
        OSError: ``repo/.srdh`` cannot be created.
    """
    path = default_store_path(repo)
    path.parent.mkdir(exist_ok=True)
    return open_run_store(path)


def _server_config(app: Starlette, **settings: Any) -> uvicorn.Config:  # noqa: ANN401 - uvicorn's own keywords
    """Uvicorn's config with the connection bounds of :func:`connection_settings`."""
    return uvicorn.Config(
        app, log_level="warning", lifespan="on", **connection_settings(), **settings
    )


def serve_app(app: Starlette, host: str, port: int) -> None:
    """Serve ``app`` on ``host:port`` until interrupted (SIGINT/SIGTERM); blocking.

    Connections are bounded (:mod:`._connections`: head timeout, keep-alive timeout, connection
    cap) and each cause of a warning is logged once; a summary of the repeats ends the log.
    """
    once = install_once_per_cause()
    try:
        uvicorn.Server(_server_config(app, host=host, port=port)).run()
    finally:
        remove_once_per_cause(once)
        for line in once.summary():
            _LOG.warning("%s", line)


def serve(  # noqa: PLR0913 - one keyword per documented setting
    host: str,
    port: int,
    repo: Path,
    *,
    public_entry: PublicEntry,
    harness_factory: Callable[[], ChatHarness] | None = None,
    internal_token: str | None = None,
    allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS,
    allowed_origins: tuple[str, ...] = (),
    run_store: RunStore | None = None,
) -> None:
    """Serve the chat entry (``srdh serve``) until interrupted; blocking.

    Args:
        host: interface to bind.
        port: TCP port (0 = any free port).
        repo: the repository; by default its ``.srdh/runs.sqlite3`` holds the run store.
        public_entry: the phase gate's decision, an input (``srdh serve`` computes it with
            ``conformance.gate``: ``LEGACY`` until stage 6B is archived and committed). The
            reference service never imports the kit, so it never decides this itself.
        harness_factory: builds the Harness of each request. ``None``: Harnesses on the
            OpenAI-compatible ports (``SRDH_OPENAI_*``), the store under ``repo/.srdh/``, and
            :class:`UnconfiguredTools` (this kit ships no real metrics/logs backends).
        internal_token: the bearer token the internal routes require (``srdh serve`` passes
            one; ``None`` leaves them open).
        allowed_hosts: host names accepted in the ``Host`` header (loopback names by default).
        allowed_origins: cross-site origins allowed to POST, besides the server's own.
        run_store: the store already opened by :func:`open_server_store` (``srdh serve`` opens
            it before announcing itself). ``None`` with no ``harness_factory``: opened here.

    Raises:
        ConfigError: ``harness_factory`` is ``None`` and ``SRDH_OPENAI_*`` are not set.
        StoreUnavailableError: the store cannot be written (its file named).
    """
    if harness_factory is None:
        if run_store is None:
            run_store = open_server_store(repo)
        harness_factory = openai_harness_factory(run_store, tools=UnconfiguredTools())
    app = create_app(
        run_store=run_store,
        harness_factory=harness_factory,
        public_entry=public_entry,
        internal_token=internal_token,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
    )
    serve_app(app, host, port)


class LoopbackServer:
    """uvicorn serving ``app`` on ``127.0.0.1:<free port>`` in a daemon thread.

    Use as a context manager; :attr:`base_url` is ``http://127.0.0.1:<port>``. Stopping asks
    uvicorn to exit (it finishes open responses and the app's shutdown) and joins the thread.
    """

    def __init__(self, app: Starlette) -> None:
        """Bind the socket now; serving starts in :meth:`start` (with ``srdh serve``'s bounds)."""
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(64)
        self._server = uvicorn.Server(_server_config(app, timeout_graceful_shutdown=30))
        self.once: OncePerCause | None = None
        """The log filter of this server's causes (while it runs)."""
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        host, port = self._socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def start(self) -> Self:
        """Start serving in the background thread; return ``self``."""
        self.once = install_once_per_cause()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for it (bounded); close the socket.

        Raises:
            TimeoutError: uvicorn did not stop within 60 seconds.
        """
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(_STOP_WAIT_S)
            if self._thread.is_alive():
                message = "uvicorn did not stop within 60 s"
                raise TimeoutError(message)
        self._socket.close()
        if self.once is not None:
            remove_once_per_cause(self.once)
            for line in self.once.summary():
                _LOG.warning("%s", line)

    def __enter__(self) -> Self:
        """Start serving."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop serving."""
        self.stop()
