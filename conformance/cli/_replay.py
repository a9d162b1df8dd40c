"""``srdh replay DIR``: re-judge a recording of ``srdh run --record DIR`` without the IUT.

The work: the recorded options, a ReplayAdapter, then the usual ``srdh run``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from conformance.cli._errors import EXIT_FAILED
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
    malformed recording.
    """
    out = Output()
    announce(out, (kit_line(), kit_spec_line()))
    if not replay_recording(recording, report, out):
        raise typer.Exit(EXIT_FAILED)


def _text(options: dict[str, Any], key: str) -> str | None:
    from conformance.adapters import RecordingError  # noqa: PLC0415 - lazy

    value = options.get(key)
    if value is not None and not isinstance(value, str):
        msg = f"run.json: {key} must be a string or null, got {type(value).__name__}"
        raise RecordingError(msg)
    return value


def replay_recording(recording: Path, report: Path | None, out: Output) -> bool:
    """Run the recorded selection against the recording; print and write reports as ``run``.

    Returns True when the replayed run passed (every MUST requirement).

    Raises:
        RecordingError: a missing or malformed recording. ReportDirError: unwritable report
            directory. SuiteSetupError: the recorded selection is unknown to this kit.
    """
    from conformance.adapters import (  # noqa: PLC0415 - lazy: `srdh --help` stays fast
        RecordingError,
        ReplayAdapter,
        read_run_options,
    )
    from conformance.cli._run import RunOptions, run_against_iut  # noqa: PLC0415 - lazy

    options = read_run_options(recording)
    adapter = ReplayAdapter(recording)
    scenarios = options.get("scenarios") or []
    examples = options.get("examples")
    if not isinstance(scenarios, list) or not all(isinstance(s, str) for s in scenarios):
        msg = "run.json: scenarios must be a list of strings"
        raise RecordingError(msg)
    if examples is not None and (
        not isinstance(examples, int) or isinstance(examples, bool) or examples < 0
    ):
        msg = "run.json: examples must be an integer >= 0 or null"
        raise RecordingError(msg)
    fixture = _text(options, "fixture")
    out.line(f"replaying {recording} (the IUT is not started)")
    run = RunOptions(
        iut=_text(options, "iut"),
        iut_module=_text(options, "iut_module"),
        scenarios=tuple(scenarios),
        level=_text(options, "level"),
        examples=examples,
        report=report,
        timeout_s=1.0,
        fixture=Path(fixture) if fixture else None,
    )
    return run_against_iut(run, out, adapter=adapter)
