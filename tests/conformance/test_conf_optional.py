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


def _claims_retry(monkeypatch) -> InProcessAdapter:
    """The non-retrying harness, declaring SEMANTIC_RETRY and ROUTER_RETRY (never taken)."""
    monkeypatch.syspath_prepend(str(IUTS))
    import non_retrying  # noqa: PLC0415 - found on the prepended path

    from reference_harness.mutants import MutantIUT, MutantSpec  # noqa: PLC0415

    spec = MutantSpec(
        "claims-retry",
        non_retrying._SPEC.requirement_id,
        "declares SEMANTIC_RETRY and ROUTER_RETRY, never retries",
        retry=non_retrying._SPEC.retry,
    )
    monkeypatch.setattr(non_retrying, "create", lambda: MutantIUT(spec))
    return InProcessAdapter("non_retrying:create")


def _judged(adapter: InProcessAdapter, scenario_ids: tuple[str, ...], examples: int | None):
    try:
        report = run_conformance(adapter, scenario_ids=scenario_ids, level=None, examples=examples)
    finally:
        adapter.close()
    return report, {s.scenario_id: s for r in report.requirements for s in r.scenarios}


DECLINED = {
    "semanticguard-returns-an-invalid-schema": "SEMANTIC_RETRY after INVALID_SCHEMA",
    "the-semanticguard-is-unavailable-once": "SEMANTIC_RETRY after UNAVAILABLE",
    "the-router-answers-with-an-invalid-intent-once": "ROUTER_RETRY after INVALID_SCHEMA",
    "the-router-is-unavailable": "ROUTER_RETRY after UNAVAILABLE",
}
"""A retry scenario whose first answer fails with one trigger -> the note of declining it."""


def test_a_declared_retry_not_taken_is_optional_per_trigger(monkeypatch):
    """A declared retry is a *may* per trigger (F1, docs/decisions/red-team-8.md): an IUT that
    declares SEMANTIC_RETRY and ROUTER_RETRY but takes neither passes the retry scenarios, each
    judged by the one-attempt policy and noted for the trigger it declined."""
    report, scenarios = _judged(_claims_retry(monkeypatch), tuple(DECLINED), None)
    assert [(i, s.message) for i, s in scenarios.items() if s.status is not Status.PASSED] == []
    assert report.passed
    for scenario_id, declined in DECLINED.items():
        (note,) = scenarios[scenario_id].optional
        assert note.startswith(f"{declined}: optional"), note
        assert "not implemented by this IUT (declared, not taken after" in note


@pytest.mark.parametrize(
    ("variant", "declined"),
    [
        (
            "retry_router_unavailable_sg_invalid",
            {
                "the-semanticguard-is-unavailable-once",
                "the-router-answers-with-an-invalid-intent-once",
            },
        ),
        (
            "retry_router_invalid_sg_unavailable",
            {"semanticguard-returns-an-invalid-schema", "the-router-is-unavailable"},
        ),
    ],
)
def test_a_retry_after_one_trigger_only_passes_the_retry_requirement(variant, declined):
    """Each single-trigger retry policy of the Router and the SemanticGuard passes every scenario
    of the retry requirement (its properties at 1 example); the retries it takes carry no note,
    the ones it declines a note for their trigger. Before F1 both failed R9.retry-as-declared.
    The whole suite passes them in their composites (tests/selftest/test_selftest_variants.py)."""
    assert variant in VARIANTS
    adapter = InProcessAdapter(f"reference_harness.variants:{variant}")
    report, scenarios = _judged(adapter, _judged_here(), 1)
    assert [(i, s.message) for i, s in scenarios.items() if s.status is not Status.PASSED] == []
    assert report.passed
    for scenario_id, note in DECLINED.items():
        notes = scenarios[scenario_id].optional
        if scenario_id in declined:
            assert [n.split(":")[0] for n in notes] == [note], scenario_id
        else:
            assert notes == (), scenario_id


def test_declared_retry_hidden_is_still_failed():
    """A declared retry taken but its first attempt not recorded looks declined (one INVALID_SCHEMA
    attempt recorded), yet it read the turn scripted for the retry: no SCRIPT_UNCONSUMED, so it
    fails R9.retry-as-declared (mutant failed_review_attempt_unrecorded, on two invalid answers)."""
    adapter = InProcessAdapter("reference_harness.mutants:failed_review_attempt_unrecorded")
    _, scenarios = _judged(adapter, ("the-second-semanticguard-attempt-also-fails",), None)
    (scenario,) = scenarios.values()
    assert scenario.status is Status.FAILED
    assert "[R9.retry-as-declared]" in scenario.message
    assert "yet the IUT reports no SCRIPT_UNCONSUMED" in scenario.message
