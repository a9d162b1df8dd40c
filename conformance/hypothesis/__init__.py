"""Public Hypothesis strategies of the SRDH conformance kit, for an implementer's own tests.

Like Bowtie's ``bowtie.hypothesis``, this module is the kit's supported strategy API:

* :func:`scenario_fixtures` draws any valid, runnable Scenario Fixture
  (``schemas/scenario-fixture.schema.json``): every turn kind of every component, every tool
  response kind, every trace event type as a client disconnect point, earlier Runs of every
  intent and state, limits at their bounds, every class of presented Tool Call ID. ``force``
  pins a choice (:data:`CHOICES`), ``capabilities`` keeps to what an IUT declares.
* :func:`conforming_ids` / :func:`rejected_ids` draw presented Tool Call IDs
  (:data:`REJECTED_ID_CLASSES` are the classes a conforming Harness rejects).

Example::

    from hypothesis import given
    from conformance.hypothesis import scenario_fixtures

    @given(scenario_fixtures(capabilities={"DIAGNOSIS", "CANCELLATION"}))
    def test_my_harness_keeps_every_invariant(fixture):
        observation = my_adapter.run(fixture)
        assert check_global_invariants(observation, fixture).passed

Issue 19 item 1; the any-fixture property of the suite (``conformance.properties``) runs it.
"""

from conformance.hypothesis._fixtures import ALL_CAPABILITIES, CHOICES, scenario_fixtures
from conformance.hypothesis._ids import REJECTED_ID_CLASSES, conforming_ids, rejected_ids

__all__ = [
    "ALL_CAPABILITIES",
    "CHOICES",
    "REJECTED_ID_CLASSES",
    "conforming_ids",
    "rejected_ids",
    "scenario_fixtures",
]
