"""Runs every scenario of ``features/`` against the reference Harness over stdio NDJSON."""

import sys
from pathlib import Path

import pytest
from pytest_bdd import scenarios

from conformance.adapters import StdioAdapter

FEATURES = Path(__file__).resolve().parents[2] / "features"


@pytest.fixture(scope="module")
def iut():
    """The reference Harness as a subprocess: ``python -m reference_harness.stdio``."""
    adapter = StdioAdapter([sys.executable, "-m", "reference_harness.stdio"], timeout_s=30.0)
    yield adapter
    adapter.close()


scenarios(str(FEATURES))
