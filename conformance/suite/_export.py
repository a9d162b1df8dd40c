"""Export the Scenario Fixture of every Gherkin scenario as JSON (``conformance/fixtures/*.json``).

The Given steps build each fixture; a recording adapter keeps it instead of running it, so no
implementation is needed. Implementers in other languages can replay the files directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.suite._run import run_suite
from contracts import capability_vocabulary

__all__ = ["CAPABILITIES", "FixtureRecorder", "export_fixtures", "fixture_json"]

CAPABILITIES: tuple[str, ...] = capability_vocabulary()
"""Every capability, in the contract's order: the recorder claims them all so that no scenario is
skipped (read from the schema: :func:`contracts.capability_vocabulary`)."""


class FixtureRecorder:
    """An adapter that records each fixture it is asked to run and runs nothing."""

    def __init__(self) -> None:
        """Start with no fixtures."""
        self.fixtures: dict[str, dict[str, Any]] = {}

    @property
    def capabilities(self) -> frozenset[str]:
        """Every capability of the protocol."""
        return frozenset(CAPABILITIES)

    def hello(self) -> dict[str, Any]:
        """Return a hello declaring every capability."""
        return {
            "type": "hello",
            "protocol_version": "2.0",
            "implementation": {"name": "fixture-recorder", "version": "1"},
            "capabilities": list(CAPABILITIES),
        }

    def run(self, fixture: dict[str, Any]) -> dict[str, Any]:
        """Record ``fixture``, then skip the scenario (the recorder observes nothing).

        Raises:
            pytest.skip.Exception: always; the scenario's Then steps have nothing to check.
        """
        self.fixtures.setdefault(str(fixture["fixture_id"]), fixture)
        pytest.skip("fixture recorded, not run")

    def close(self) -> None:
        """Nothing to release."""


ANY_FIXTURE_PREFIX = "any-fixture"
"""Fixture ids of the any-fixture scenario (pinned and drawn): not exported here."""


def fixture_json(fixture: dict[str, Any]) -> str:
    """Return the file text of ``fixture``: indented JSON, non-ASCII kept, final newline."""
    return json.dumps(fixture, indent=2, ensure_ascii=False) + "\n"


def export_fixtures(directory: Path | str) -> list[Path]:
    """Write ``<fixture_id>.json`` for every scenario that runs a fixture; return the paths.

    Files of fixtures that no longer exist are left alone (the caller decides).
    """
    recorder = FixtureRecorder()
    run_suite(recorder)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for fixture_id, fixture in sorted(recorder.fixtures.items()):
        if fixture_id.startswith(ANY_FIXTURE_PREFIX):
            continue  # the any-fixture scenario's corpus lives in conformance/anyfixture/pins.json
        path = folder / f"{fixture_id}.json"
        path.write_text(fixture_json(fixture), encoding="utf-8")
        written.append(path)
    return written
