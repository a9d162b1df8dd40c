"""``srdh demo SCENARIO``: run one scenario fixture on the reference harness, show its trace."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from conformance.adapters import InProcessAdapter
from conformance.cli._catalog import scenario_fixture_for
from conformance.cli._errors import EXIT_FAILED
from conformance.cli._output import Output
from conformance.cli._timeline import timeline_rows
from contracts import load_document

__all__ = ["REFERENCE_IUT", "demo"]

REFERENCE_IUT = "reference_harness.iut:create"
"""The in-process factory of the reference harness."""


def _fixture(scenario: str) -> dict[str, Any]:
    path = Path(scenario)
    if path.suffix == ".json" or path.exists():
        model = load_document(path, "scenario-fixture")
        fixture: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return fixture
    return scenario_fixture_for(scenario)


def demo(
    scenario: Annotated[
        str, typer.Argument(help="A spec scenario id, or a scenario-fixture JSON file.")
    ],
) -> None:
    """Run SCENARIO on the reference harness and print its trace as a timeline.

    SCENARIO is a scenario id (see `srdh spec show`) or a scenario-fixture JSON file. Exit 1 when
    the observation carries an error (a script exhausted or left unconsumed).
    """
    out = Output()
    fixture = _fixture(scenario)
    adapter = InProcessAdapter(REFERENCE_IUT)
    try:
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    title = f"{fixture.get('fixture_id')}: {fixture.get('description') or scenario}"
    out.table(title, ["seq", "event", "details"], timeline_rows(observation))
    runs = [r for r in observation.get("runs", []) if r.get("run_id") == observation.get("run_id")]
    state = runs[0].get("state") if runs else "?"
    result = observation.get("published_result") or {}
    out.line(f"Run {observation.get('run_id')}: state {state}, result {result.get('kind', 'none')}")
    out.line(f"client frames: {len(observation.get('client_frames', []))}")
    error = observation.get("error")
    if error:
        out.line(f"error: {error.get('code')}: {error.get('message')}")
        raise typer.Exit(EXIT_FAILED)
