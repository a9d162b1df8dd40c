"""RFC 2119 honesty: optional behaviour never fails an IUT that declares it does not do it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter
from conformance.cli._suite import run_conformance
from conformance.reports import Status, render_json

IUTS = Path(__file__).resolve().parent / "iuts"

RETRY_SCENARIOS = (
    "semanticguard-returns-an-invalid-schema",
    "the-second-semanticguard-attempt-also-fails",
    "the-router-answers-with-an-invalid-intent-once",
    "the-router-is-unavailable",
)


@pytest.fixture
def non_retrying(monkeypatch):
    monkeypatch.syspath_prepend(str(IUTS))
    adapter = InProcessAdapter("non_retrying:create")
    yield adapter
    adapter.close()


def test_non_retrying_harness_passes_with_optional_notes(non_retrying):
    """The whole suite (and the retry property) passes; the retries show as optional."""
    report = run_conformance(non_retrying, scenario_ids=(), level=None, examples=3)
    failed = [
        (s.scenario_id, s.message)
        for r in report.requirements
        for s in r.scenarios
        if s.status is not Status.PASSED
    ]
    assert failed == []
    assert report.passed
    scenarios = {s.scenario_id: s for r in report.requirements for s in r.scenarios}
    for scenario_id in RETRY_SCENARIOS:
        notes = scenarios[scenario_id].optional
        assert notes, scenario_id
        assert all("optional" in n and "not implemented" in n for n in notes)
        assert "optional, not implemented" in scenarios[scenario_id].message
    assert '"optional": [' in render_json(report)
    assert scenarios["evidence-validation-fails-twice"].optional == ()


def test_declared_retry_is_still_required(monkeypatch):
    """An IUT declaring SEMANTIC_RETRY but never retrying fails the retry scenario (R9)."""
    monkeypatch.syspath_prepend(str(IUTS))
    import non_retrying  # noqa: PLC0415 - found on the prepended path

    from reference_harness.mutants import MutantIUT, MutantSpec  # noqa: PLC0415

    spec = MutantSpec(
        "claims-retry",
        non_retrying._SPEC.requirement_id,
        "declares SEMANTIC_RETRY, never retries",
        retry=non_retrying._SPEC.retry,
    )
    monkeypatch.setattr(non_retrying, "create", lambda: MutantIUT(spec))
    adapter = InProcessAdapter("non_retrying:create")
    try:
        report = run_conformance(
            adapter, scenario_ids=(RETRY_SCENARIOS[0],), level=None, examples=None
        )
    finally:
        adapter.close()
    (scenario,) = [s for r in report.requirements for s in r.scenarios]
    assert scenario.status is Status.FAILED
    assert "[R9.retry-as-declared]" in scenario.message
