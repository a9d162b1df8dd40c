"""``srdh serve``: the reference harness's chat entry over SSE (Starlette + uvicorn).

The models are the OpenAI-compatible endpoint of the ``SRDH_OPENAI_*`` variables; the run store
and the tool backends are the reference harness's defaults (``reference_harness.sse.serve``).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._bounds import PORT
from conformance.cli._errors import require_openspec
from conformance.cli._output import Output, announce, kit_line

__all__ = ["TOKEN_VARIABLE", "serve"]


TOKEN_VARIABLE = "SRDH_SERVE_TOKEN"  # noqa: S105 - the variable's name, not a secret
"""Environment variable holding the internal entry's bearer token (else one is generated)."""


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="TCP port.", min=PORT.low, max=PORT.high)
    ] = 8080,
    repo: Annotated[
        Path, typer.Option("--repo", help="Repository whose phase gate picks the public entry.")
    ] = Path(),
    allow_host: Annotated[
        list[str] | None,
        typer.Option("--allow-host", help="Also accept this Host header name (repeat)."),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option("--allow-origin", help="Also accept POSTs from this Origin (repeat)."),
    ] = None,
) -> None:
    """Serve the reference harness's SSE chat entry until interrupted.

    The public chat entry is LEGACY or SINGLE_REACT as the phase gate of REPO allows (computed
    before anything listens). Requests must name an allowed Host (loopback names, --host, and
    --allow-host) and, from a browser, an allowed Origin; chat bodies must be application/json
    and at most 256 KiB. The internal entry needs "Authorization: Bearer TOKEN": TOKEN is
    $SRDH_SERVE_TOKEN, or a fresh one printed on standard error at start. Exit 2 when REPO has
    no openspec/, is not a git repository, the SRDH_OPENAI_* variables are not set, or the run
    store REPO/.srdh/runs.sqlite3 cannot be written (locked by another process, disk full).
    """
    from conformance.gate import public_entry_of, read_repo_state  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from reference_harness.openai import OpenAIConfig  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from reference_harness.sse import DEFAULT_ALLOWED_HOSTS, open_server_store  # noqa: PLC0415 - lazy
    from reference_harness.sse import serve as serve_chat  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    require_openspec(repo)
    entry = public_entry_of(read_repo_state(repo))
    OpenAIConfig.from_env()  # a missing SRDH_OPENAI_* variable fails before the URL is announced
    store = open_server_store(repo)  # so does a locked, full or read-only store (file named)
    token = os.environ.get(TOKEN_VARIABLE) or secrets.token_urlsafe(32)
    hosts = tuple(dict.fromkeys([*DEFAULT_ALLOWED_HOSTS, host, *(allow_host or ())]))
    output = Output()
    announce(output, (kit_line(), f"spec: {repo.resolve() / 'openspec'}"), machine=True)
    err = output.err
    err.print(f"srdh serve: http://{host}:{port} public entry {entry}", markup=False)
    if not os.environ.get(TOKEN_VARIABLE):
        err.print(f"srdh serve: internal entry token {token} (set {TOKEN_VARIABLE})", markup=False)
    serve_chat(
        host,
        port,
        repo,
        public_entry=entry,
        internal_token=token,
        allowed_hosts=hosts,
        allowed_origins=tuple(allow_origin or ()),
        run_store=store,
    )
