"""Every scenario of ``features/`` through the OpenAI-compatible adapters over real HTTP.

The IUT is ``reference_harness.openai.iut:create``: the reference Harness whose Router, Diagnosis
Agent and SemanticGuard ports are the OpenAI adapters, talking to a scripted OpenAI-compatible
server on loopback that plays each fixture's model turns.
"""

from pathlib import Path

import pytest
from pytest_bdd import scenarios

from conformance.adapters import InProcessAdapter

FEATURES = Path(__file__).resolve().parents[2] / "features"


@pytest.fixture(scope="module")
def iut():
    """The Harness on OpenAI adapters, created by ``reference_harness.openai.iut:create``."""
    adapter = InProcessAdapter("reference_harness.openai.iut:create")
    yield adapter
    adapter.close()


scenarios(str(FEATURES))
