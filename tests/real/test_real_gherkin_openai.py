"""Every scenario of ``features/`` through the OpenAI-compatible adapters over real HTTP.

The IUT is ``reference_harness.openai.iut:create``: the reference Harness whose Router, Diagnosis
Agent and SemanticGuard ports are the OpenAI adapters, talking to a scripted OpenAI-compatible
server on loopback that plays each fixture's model turns.
"""

from pathlib import Path

import pytest
from pytest_bdd import scenarios

from conformance.adapters import InProcessAdapter
from conformance.bdd import ScenarioContext

FEATURES = Path(__file__).resolve().parents[2] / "features"


@pytest.fixture(scope="module")
def iut():
    """The Harness on OpenAI adapters, created by ``reference_harness.openai.iut:create``."""
    adapter = InProcessAdapter("reference_harness.openai.iut:create")
    yield adapter
    adapter.close()


@pytest.fixture
def srdh_context(iut):
    """Each scenario's context, with the scenarios' model-call and tool timeouts times four.

    Every model call here is a real HTTP request through the OpenAI SDK, in a pytest worker that
    shares two cores with CPU-heavy tests (javac, tsc, wheel builds): a scenario's 300 ms budget
    for a call that must answer in time was once missed under that load (a flaky TIMEOUT). The
    fixture that runs holds the scaled timeouts, so the checks judge exactly what the IUT was
    given; the unscaled timings are covered in process, over stdio and over the kit's endpoint.
    """
    return ScenarioContext(iut=iut, timeout_scale=4)


scenarios(str(FEATURES))
