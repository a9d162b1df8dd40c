"""The work of ``srdh replay``: the recorded options, a ReplayAdapter, the usual run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.adapters import RecordingError, ReplayAdapter, read_run_options
from conformance.cli._run_impl import RunOptions, run_against_iut

if TYPE_CHECKING:
    from conformance.cli._output import Output

__all__ = ["replay_recording"]


def _text(options: dict[str, Any], key: str) -> str | None:
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
    options = read_run_options(recording)
    adapter = ReplayAdapter(recording)
    scenarios = options.get("scenarios") or []
    examples = options.get("examples")
    if not isinstance(scenarios, list) or not all(isinstance(s, str) for s in scenarios):
        msg = "run.json: scenarios must be a list of strings"
        raise RecordingError(msg)
    if examples is not None and (not isinstance(examples, int) or examples < 1):
        msg = "run.json: examples must be a positive integer or null"
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
