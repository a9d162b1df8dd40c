"""The leak checks compute the text a Run legitimately carries only when it can matter.

``explained_text`` (docs/decisions/false-kills-8.md, F1) walks every record of an observation;
it decides nothing unless a needle (a raised message, an in-band code, an unreleased draft
text) is found in the Run's output. These tests pin that: a clean Run never computes it, and a
check that needs it computes it once for both backend-text searches (docs/decisions/test-speed.md,
"Session 9: per-Run cost of the checks"). The verdicts themselves are pinned by
``test_conf_left_kinds.py`` and the false-kill tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import checks
from conformance.checks import _invariants

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
IN_BAND = "a-backend-answers-with-an-in-band-error"


@pytest.fixture(scope="module")
def in_band_run():
    from conformance.adapters import InProcessAdapter  # noqa: PLC0415 - only when run

    fixture = json.loads((FIXTURES / f"{IN_BAND}.json").read_text(encoding="utf-8"))
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    return fixture, observation


@pytest.fixture
def explained_calls(monkeypatch):
    calls = []
    real = _invariants.explained_text

    def counted(observation, fixture):
        calls.append(fixture)
        return real(observation, fixture)

    monkeypatch.setattr(_invariants, "explained_text", counted)
    return calls


def test_a_clean_run_never_computes_the_explained_text(in_band_run, explained_calls):
    """The fixture scripts an in-band code; the reference's records do not carry it."""
    fixture, observation = in_band_run
    assert _invariants.in_band_codes(fixture)  # there is a needle to look for
    assert checks.check_global_invariants(observation, fixture).passed
    assert checks.check_internal_error_excluded(observation, fixture).passed
    assert explained_calls == []


def test_a_found_needle_computes_it_once_per_check(in_band_run, explained_calls):
    """An in-band code in a safe message is found; the explained text is computed once."""
    fixture, observation = in_band_run
    observation = json.loads(json.dumps(observation))
    record = next(i for i in observation["invocations"] if (i["error"] or {}).get("code"))
    record["error"]["safe_message"] = "backend said " + _invariants.in_band_codes(fixture)[0]
    result = checks.check_internal_error_excluded(observation, fixture)
    assert result.rules == ("R6.in-band-error-excluded",)
    assert len(explained_calls) == 1
