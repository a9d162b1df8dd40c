"""``srdh demo SCENARIO``: run one scenario fixture on the reference harness, show its trace.

The work: run a scenario (or a fixture file), print each Run's timeline; with ``--iut``, the
same fixtures on the IUT too, both normalized traces side by side.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conformance._inert import echo
from conformance.cli._bounds import TIMEOUT_S
from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output, kit_line, kit_spec_line, timeline_rows
from conformance.cli._run import DEFAULT_TIMEOUT_S

if TYPE_CHECKING:
    from conformance.adapters import Adapter, RecordingAdapter

__all__ = ["compare_rows", "demo", "run_demo", "run_demo_against"]


def demo(
    scenario: Annotated[
        str, typer.Argument(help="A scenario id (see `srdh spec show`) or a fixture JSON file.")
    ],
    iut: Annotated[
        str | None,
        typer.Option("--iut", help="Also run it on this stdio IUT; show both traces side by side."),
    ] = None,
    iut_module: Annotated[
        str | None,
        typer.Option("--iut-module", help="Same, with a Python IUT factory MODULE:FACTORY."),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            min=TIMEOUT_S.low,
            max=TIMEOUT_S.high,
            help="Seconds to wait for each IUT message.",
        ),
    ] = DEFAULT_TIMEOUT_S,
) -> None:
    """Run SCENARIO on the reference harness and print each Run's trace as a timeline.

    A scenario id runs that scenario of the conformance suite (its Given steps build the
    fixture) and shows every Run it made; a file is run as one scenario-fixture. Exit 1 when a
    Run's observation carries an error, 2 for an unknown id or an invalid fixture file.

    With --iut (or --iut-module), every fixture also runs on that IUT and the two normalized
    traces are printed side by side, the first difference marked; exit 1 when they differ (a Run
    the IUT answers with an error or cannot answer has no trace: a difference); exit 2 when the
    IUT cannot start.
    """
    out = Output()
    # printed before the first result: an unknown id or a bad file is one error line alone
    out.first((kit_line(), kit_spec_line()))
    if iut is not None or iut_module is not None:
        from conformance.adapters import supervise_signals  # noqa: PLC0415 - lazy
        from conformance.cli._run import make_adapter  # noqa: PLC0415 - lazy

        adapter = make_adapter(iut, iut_module, timeout)
        with supervise_signals():
            try:
                differs = run_demo_against(scenario, adapter, out)
            finally:
                adapter.close()
        if differs:
            raise typer.Exit(EXIT_FAILED)
        return
    if run_demo(scenario, out):
        raise typer.Exit(EXIT_FAILED)


_MARK = "◀ first difference"


def _looks_like_file(scenario: str) -> bool:
    return scenario.endswith(".json") or Path(scenario).is_file()


def _from_file(path: Path, adapter: RecordingAdapter) -> None:
    from conformance.cli._suite import read_fixture  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    adapter.run(read_fixture(path))


def _show(out: Output, fixture: dict[str, Any], observation: dict[str, Any]) -> bool:
    """Print one run's timeline; return True when its observation carries an error."""
    title = f"fixture {fixture.get('fixture_id')}"
    out.table(title, ["seq", "event", "details"], timeline_rows(observation))
    run_id = observation.get("run_id")
    rows = [r for r in observation.get("runs", []) if r.get("run_id") == run_id]
    state = rows[0].get("state") if rows else "?"
    result = observation.get("published_result") or {}
    out.line(f"Run {run_id}: state {state}, result {result.get('kind', 'none')}")
    out.line(f"client frames: {len(observation.get('client_frames', []))}")
    error = observation.get("error")
    if error:
        out.line(f"error: {echo(error.get('code'))}: {echo(error.get('message'))}")
    return bool(error)


def run_demo(scenario: str, out: Output) -> bool:
    """Run ``scenario`` (a suite scenario id or a fixture file) and print every Run's timeline.

    Returns True when a Run's observation carries an error.

    Raises:
        SuiteSetupError: an unknown scenario id. ContractError: an invalid fixture file.
        AdapterError: the reference harness broke the protocol.
    """
    from conformance.adapters import InProcessAdapter, RecordingAdapter  # noqa: PLC0415 - lazy
    from conformance.suite import run_suite  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify import REFERENCE_IUT  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    adapter = RecordingAdapter(InProcessAdapter(REFERENCE_IUT))
    try:
        if _looks_like_file(scenario):
            _from_file(Path(scenario), adapter)
        else:
            result = run_suite(adapter, scenario_ids=[scenario])
            outcome = result.scenario(scenario).outcome
            out.line(f"scenario {scenario}: {outcome} ({len(adapter.runs)} Run(s))")
            if not adapter.runs:
                out.line("this scenario checks contract data; it makes no Run to show")
    finally:
        adapter.close()
    errors = [_show(out, fixture, observation) for fixture, observation in adapter.runs]
    return any(errors)


def compare_rows(
    reference: tuple[str, ...], observed: tuple[str, ...]
) -> tuple[list[list[str]], int | None]:
    """Rows ``[#, reference, IUT, mark]`` of two normalized traces; the first difference marked.

    Returns the rows and the index of the first difference (``None`` when the traces agree).
    """
    first: int | None = None
    rows = []
    for index in range(max(len(reference), len(observed))):
        ref = reference[index] if index < len(reference) else "(end)"
        seen = observed[index] if index < len(observed) else "(end)"
        mark = ""
        if first is None and ref != seen:
            first, mark = index, _MARK
        rows.append([str(index), ref, seen, mark])
    return rows, first


def run_demo_against(scenario: str, iut: Adapter, out: Output) -> bool:
    """Run ``scenario`` (a suite scenario id or a fixture file) on the reference and on ``iut``.

    Prints each Run's normalized trace on both, side by side, the first difference marked; a
    Run the IUT cannot answer (an ``error`` message, a crash, a timeout) is shown as no trace,
    with the reason. Returns True when a trace differs, a Run has no trace or an observation
    carries an error.

    Raises:
        SuiteSetupError: an unknown scenario id. ContractError: an invalid fixture file.
        AdapterError: the IUT cannot start or sent no usable hello (a Run it cannot answer is a
            difference, printed, not raised).
    """
    from conformance.adapters import (  # noqa: PLC0415 - lazy
        AdapterError,
        InProcessAdapter,
        RecordingAdapter,
    )
    from conformance.cli._failures import trace_lines  # noqa: PLC0415 - only with --iut
    from conformance.suite import run_suite  # noqa: PLC0415 - lazy: `srdh --help` stays fast
    from conformance.verify import REFERENCE_IUT  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    reference = RecordingAdapter(InProcessAdapter(REFERENCE_IUT))
    try:
        if _looks_like_file(scenario):
            _from_file(Path(scenario), reference)
        else:
            run_suite(reference, scenario_ids=[scenario])
    finally:
        reference.close()
    if not reference.runs:
        out.line(f"{scenario} checks contract data; it makes no Run to compare")
        return False
    iut.hello()  # an IUT that cannot start or greet is a setup error (exit 2)
    differs = False
    for fixture, expected in reference.runs:
        try:
            observed: dict[str, Any] | None = iut.run(fixture)
        except AdapterError as failure:
            # The IUT started but could not produce this Run's trace (an `error` answer, a crash,
            # a timeout, invalid JSON): a difference from the reference, as `srdh run` fails
            # the scenario; a fresh IUT process runs the next fixture.
            observed, why = None, failure.reason
        else:
            why = ""
        rows, first = compare_rows(trace_lines(expected), trace_lines(observed))
        title = f"fixture {fixture.get('fixture_id')}: reference harness against the IUT"
        out.table(title, ["#", "reference", "IUT", ""], rows)
        if why:
            out.line(f"the IUT produced no trace: {why}")
        if first is None:
            out.line("the normalized traces are identical")
        else:
            out.line(f"first difference at event {first}: {rows[first][1]} | {rows[first][2]}")
        error = observed.get("error") if observed is not None else None
        if error:
            out.line(f"IUT error: {echo(error.get('code'))}: {echo(error.get('message'))}")
        differs = differs or first is not None or bool(error) or bool(why)
    return differs
