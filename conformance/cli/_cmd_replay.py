"""``srdh replay DIR``: re-judge a recording of ``srdh run --record DIR`` without the IUT."""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotation at runtime
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output

__all__ = ["replay"]


def replay(
    recording: Annotated[Path, typer.Argument(help="A folder written by `srdh run --record DIR`.")],
    report: Annotated[
        Path | None, typer.Option("--report", help="Write JSON, JUnit, Markdown, HTML here.")
    ] = None,
) -> None:
    """Re-judge a recorded run with this kit's checks, without starting the IUT.

    The suite runs the recorded selection (scenarios, level, examples); each fixture is answered
    with the IUT's recorded observation of the identical fixture. A fixture the recording does
    not hold fails its scenario (the kit's suite changed since the recording). Exit 0 when every
    MUST requirement passed, 1 when one failed, 2 for a missing or malformed recording.
    """
    from conformance.cli._kit import announce, kit_line, kit_spec_line  # noqa: PLC0415 - lazy
    from conformance.cli._replay_impl import replay_recording  # noqa: PLC0415 - lazy

    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    if not replay_recording(recording, report, out):
        raise typer.Exit(EXIT_FAILED)
