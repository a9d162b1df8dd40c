"""Runs every scenario of ``features/`` against the reference Harness in-process."""

from pathlib import Path

import pytest
from pytest_bdd import scenarios

from conformance.adapters import InProcessAdapter

FEATURES = Path(__file__).resolve().parents[2] / "features"


@pytest.fixture(scope="module")
def iut():
    """The reference Harness, created by ``reference_harness.iut:create``."""
    adapter = InProcessAdapter("reference_harness.iut:create")
    yield adapter
    adapter.close()


scenarios(str(FEATURES))
