"""``srdh serve``: the reference harness's chat entry over SSE (Starlette + uvicorn).

The models are the OpenAI-compatible endpoint of the ``SRDH_OPENAI_*`` variables; the run store
and the tool backends are the reference harness's defaults (``reference_harness.sse.serve``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._output import Output
from conformance.cli._repo import require_openspec

__all__ = ["serve"]


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=0, max=65535)] = 8080,
    repo: Annotated[
        Path, typer.Option("--repo", help="Repository whose phase gate picks the public entry.")
    ] = Path(),
) -> None:
    """Serve the reference harness's SSE chat entry until interrupted.

    The public chat entry is LEGACY or SINGLE_REACT as the phase gate of REPO allows (computed
    before anything listens). Exit 2 when REPO has no openspec/, is not a git repository, or
    the SRDH_OPENAI_* variables are not set.
    """
    from conformance.gate import public_entry_of, read_repo_state  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from reference_harness.openai import OpenAIConfig  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from reference_harness.sse import serve as serve_chat  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    require_openspec(repo)
    entry = public_entry_of(read_repo_state(repo))
    OpenAIConfig.from_env()  # a missing SRDH_OPENAI_* variable fails before the URL is announced
    Output().err.print(f"srdh serve: http://{host}:{port} public entry {entry}", markup=False)
    serve_chat(host, port, repo, public_entry=entry)
