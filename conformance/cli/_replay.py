"""``srdh replay DIR``: re-judge a recording of ``srdh run --record DIR`` without the IUT.

The work: the recorded options, a ReplayAdapter, then the usual ``srdh run``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, EXIT_SETUP
from conformance.cli._output import Output, announce, kit_line, kit_spec_line

__all__ = ["replay", "replay_recording"]


def replay(
    recording: Annotated[Path, typer.Argument(help="A folder written by `srdh run --record DIR`.")],
    report: Annotated[
        Path | None, typer.Option("--report", help="Write JSON, JUnit, Markdown, HTML here.")
    ] = None,
) -> None:
    """Re-judge a recorded run with this kit's checks, without starting the IUT.

    The suite runs the recorded selection (scenarios, level, examples); each fixture is answered
    with the IUT's recorded observation of the identical fixture. A fixture the recording does
    not hold fails its scenario (the kit's suite changed since the recording); a recording of an
    interrupted run stops where the run stopped (a partial report, exit 128 + the signal, as the
    run). Exit 0 when every MUST requirement passed, 1 when one failed, 2 for a missing or
    malformed recording: every problem of it, one line each naming the file, line and JSON
    pointer, before anything is judged or written.
    """
    from conformance.adapters import RecordingError  # noqa: PLC0415 - lazy: `srdh --help`

    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    try:
        passed = replay_recording(recording, report, out)
    except RecordingError as error:
        for problem in error.problems:  # every problem, one `srdh: error:` line each
            out.error(problem)
        raise typer.Exit(EXIT_SETUP) from None
    if not passed:
        raise typer.Exit(EXIT_FAILED)


def replay_recording(recording: Path, report: Path | None, out: Output) -> bool:
    """Run the recorded selection against the recording; print and write reports as ``run``.

    Both files of the recording are checked first, wholly (``run.json`` and every record of
    ``exchange.ndjson`` against their formats, the records' order); nothing is judged and no
    report folder is touched when a problem is found. Returns True when the replayed run passed
    (every MUST requirement).

    Raises:
        RecordingError: a missing or malformed recording (every problem, one line each: file,
            line, JSON pointer, what was expected). ReportDirError: unwritable report
            directory. SuiteSetupError: the recorded selection is unknown to this kit.
    """
    from conformance.adapters import check_recording  # noqa: PLC0415 - lazy: `srdh --help`
    from conformance.cli._run import (  # noqa: PLC0415 - lazy
        DEFAULT_MAX_MESSAGE_BYTES,
        DEFAULT_TIMEOUT_S,
        RunOptions,
        run_against_iut,
    )

    options, adapter = check_recording(recording)
    fixture, examples = options["fixture"], options["examples"]
    out.line(f"replaying {recording} (the IUT is not started)")
    run = RunOptions(
        iut=options["iut"],
        iut_module=options["iut_module"],
        scenarios=tuple(options["scenarios"]),
        level=options["level"],
        examples=None if examples is None else int(examples),  # JSON Schema: 3.0 is an integer
        report=report,
        # the recorded limits (in their options' ranges, by the schema), for reproduce commands
        timeout_s=float(options.get("timeout_s", DEFAULT_TIMEOUT_S)),
        max_message_bytes=int(options.get("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)),
        fixture=Path(fixture) if fixture else None,
    )
    return run_against_iut(run, out, adapter=adapter)
