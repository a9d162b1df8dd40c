"""RFC 2119 honesty: optional behaviour never fails an IUT that declares it does not do it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter
from conformance.cli._suite import run_conformance
from conformance.reports import Status, render_json
from conformance.suite._catalogue import load_catalogue
from reference_harness.variants import COMPOSITE_MEMBERS, VARIANTS

IUTS = Path(__file__).resolve().parent / "iuts"
RETRY_REQUIREMENT = "retry-attempts-shall-be-owned-by-harness"
COMPONENTS = ("ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD")

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


def _judged_here() -> tuple[str, ...]:
    """Every scenario of the retry requirement (each optional behaviour is a retry), and the
    repair scenario whose second attempt is required (no note)."""
    retry = [e.scenario_id for e in load_catalogue() if e.requirement_id == RETRY_REQUIREMENT]
    return (*dict.fromkeys(retry), "evidence-validation-fails-twice")


def test_non_retrying_harness_passes_with_optional_notes(non_retrying):
    """The retry requirement's scenarios (and their properties) pass; the retries show as optional.

    That the rest of the suite passes such a harness too is the latitude variant
    ``no_optional_retries``'s claim: ``composite_stricter``, of which it is a member where
    nothing masks it, passes every scenario, property and invariant of the self-test
    (tests/selftest/test_selftest_variants.py; docs/decisions/latitude.md). This harness takes
    the same latitude (:func:`test_the_non_retrying_harness_is_the_no_optional_retries_variant`),
    so the whole suite here ran every scenario a second time (docs/decisions/test-speed.md,
    Session 7).
    """
    report = run_conformance(non_retrying, scenario_ids=_judged_here(), level=None, examples=3)
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
    assert set(scenarios) == set(_judged_here())
    assert scenarios[RETRY_SCENARIOS[0]].examples > 1  # its property ran


def test_the_non_retrying_harness_is_the_no_optional_retries_variant(monkeypatch):
    """Same attempts per component and the same capabilities as the variant the self-test judges
    on the whole suite inside ``composite_stricter``: what the test above leaves to it holds."""
    monkeypatch.syspath_prepend(str(IUTS))
    import non_retrying  # noqa: PLC0415 - found on the prepended path

    variant = VARIANTS["no_optional_retries"]
    assert "no_optional_retries" in COMPOSITE_MEMBERS["composite_stricter"]
    for component in COMPONENTS:
        assert non_retrying._SPEC.retry.attempts_for(component) == variant.retry.attempts_for(
            component
        ), component
    assert non_retrying._SPEC.retry.retry_on == variant.retry.retry_on
    assert set(non_retrying._SPEC.capabilities) == set(variant.capabilities)


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
