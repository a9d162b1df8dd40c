"""``srdh serve``: the reference harness's chat entry over SSE (Starlette + uvicorn)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import CliSetupError
from conformance.cli._output import Output
from conformance.cli._repo import require_openspec
from conformance.verify._kit_steps import optional_attr

__all__ = ["serve"]


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=0, max=65535)] = 8080,
    repo: Annotated[
        Path, typer.Option("--repo", help="Repository whose phase gate picks the public entry.")
    ] = Path(),
) -> None:
    """Serve the reference harness's chat entry until interrupted.

    The public chat entry is LEGACY or SINGLE_REACT as the phase gate of REPO allows.
    """
    require_openspec(repo)
    run = optional_attr("reference_harness.sse", "serve")
    if run is None:
        msg = "reference_harness.sse.serve is not available in this installation"
        raise CliSetupError(msg)
    Output().err.print(f"srdh serve: http://{host}:{port} (repo {repo})", markup=False)
    run(host, port, repo)
