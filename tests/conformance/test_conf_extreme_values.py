"""The reference takes every unbounded integer of the Scenario Fixture at its largest valid value.

A fixture with ``limits.model_call_timeout_ms`` 10**15 (valid: ``integer, minimum 1``) passed in
process and failed over stdio: the HTTP client's socket timeout overflowed the platform's
(``OverflowError``), so every model call ended UNAVAILABLE before its request was sent. Here every
unbounded integer (``tests/_largest.py``, read from the schema) is 2**53 - 1, the I-JSON bound, in
process and over stdio with the kit's model endpoint; the Java example takes the same fixture in
``tests/examples/test_java_example.py``. docs/decisions/extreme-limits-11.md.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter, StdioAdapter
from contracts import json_value_problem, validate_document
from reference_harness._limits import MAX_WAIT_S, Limits, wait_s
from tests._largest import (
    LARGEST,
    SET,
    judged,
    largest_fixture,
    means_what_it_says,
    unbounded_integers,
)

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def test_the_largest_fixture_sets_every_unbounded_integer_of_the_contract():
    """A new integer without a maximum in the contract fails here until tests/_largest sets it."""
    assert unbounded_integers() == SET


def test_the_largest_fixture_is_a_valid_i_json_fixture():
    fixture = largest_fixture()
    assert validate_document(fixture, "scenario-fixture") == []
    assert json_value_problem(fixture) is None
    assert f'"occurrence": {LARGEST}' in json.dumps(fixture)


def test_waits_are_clamped_to_the_longest_the_platform_takes():
    """2**53 - 1 ms overflows a socket timeout; the clamped value is taken (this platform)."""
    with socket.socket() as sock:
        with pytest.raises(OverflowError):
            sock.settimeout(LARGEST / 1000)
        sock.settimeout(MAX_WAIT_S)
        assert sock.gettimeout() == MAX_WAIT_S
    assert MAX_WAIT_S == threading.TIMEOUT_MAX
    limits = Limits(model_call_timeout_ms=LARGEST, tool_timeout_ms=LARGEST, max_steps=LARGEST)
    assert limits.model_call_timeout_s == limits.tool_timeout_s == MAX_WAIT_S
    assert wait_s(5000) == 5.0


def test_the_reference_in_process_takes_every_integer_at_its_largest():
    observation = judged(InProcessAdapter("reference_harness.iut:create"), largest_fixture())
    means_what_it_says(observation)


def test_the_reference_over_stdio_takes_every_integer_at_its_largest():
    """Over stdio with the kit's model endpoint (the HTTP client's timeout is the clamped wait);
    the reported fixture (duplicate-tool-call-id, a 10**15 ms model-call timeout) passes too."""
    adapter = StdioAdapter([sys.executable, "-m", "reference_harness.stdio"], 60.0)
    try:
        assert "MODEL_ENDPOINT" in adapter.capabilities
        means_what_it_says(judged(adapter, largest_fixture()))
        reported = json.loads(
            (FIXTURES / "duplicate-tool-call-id-is-proposed.json").read_text(encoding="utf-8")
        )
        reported["limits"]["model_call_timeout_ms"] = 10**15
        observation = judged(adapter, reported)
        assert observation.get("error") is None
    finally:
        adapter.close()
