"""The public strategy draws valid fixtures; the pinned corpus reaches every element (issue 19
items 1-2). The reference Harness passing the any-fixture property (pins and drawn fixtures) is
the any-fixture scenario of ``tests/conformance/test_conf_gherkin_inprocess.py``."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Final

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from conformance.adapters import AdapterError, RecordingAdapter
from conformance.anyfixture._engine import stable_draws
from conformance.anyfixture._property import (
    CORPUS,
    PINS,
    PINS_FILE,
    generate_pins,
    pinned_any_fixtures,
)
from conformance.fixtures import tool_call
from conformance.hypothesis import CHOICES, REJECTED_ID_CLASSES, rejected_ids, scenario_fixtures
from conformance.vocabulary import id_classes_of
from contracts import MAX_SAFE_INTEGER, json_value_problem, validate_document


def test_prop_any_fixture_strategy_draws_valid_fixtures(property_config):
    """Every drawn fixture is a valid ScenarioFixture (schema and invariants)."""

    @property_config
    @given(scenario_fixtures())
    def check(fixture):
        assert validate_document(fixture, "scenario-fixture") == []
        assert json_value_problem(fixture) is None  # an I-JSON document, as a fixture file is

    check()


def test_prop_any_fixture_strategy_keeps_to_the_declared_capabilities(property_config):
    """An IUT declaring DIAGNOSIS alone gets no knowledge, history, disconnect or blocking turn."""

    @property_config
    @given(scenario_fixtures(capabilities={"DIAGNOSIS"}))
    def check(fixture):
        assert validate_document(fixture, "scenario-fixture") == []
        assert fixture["prior_runs"] == []
        assert fixture["client"] == {}
        assert all(t.get("intent") != "KNOWLEDGE_QUERY" for t in fixture["router"])
        text = json.dumps([fixture["router"], fixture["agent"], fixture["semantic_guard"]])
        assert "block_until_cancelled" not in text
        assert "ignore_cancellation" not in text
        assert len(fixture["router"]) == 1  # no ROUTER_RETRY: one Router answer

    check()


_UNBOUNDED: Final = ("max_steps", "model_call_timeout_ms", "tool_timeout_ms")
"""The limits with no maximum in the contract (tests/_largest.py reads them from the schema)."""


def test_prop_any_fixture_strategy_draws_the_unbounded_integers_at_their_largest():
    """Unforced, 150 derandomized draws (a count the claim needs, in both profiles) reach each
    unbounded integer the strategy draws at its largest valid value, the I-JSON bound 2**53 - 1:
    the three limits, a disconnect's occurrence, a count (docs/decisions/extreme-limits-11.md).
    Their smallest values are vocabulary elements the default run reaches (``limit:<member>=1``,
    tests/vocabulary), as are the largest limits (the pin ``values:largest``)."""
    seen: defaultdict[str, set[int]] = defaultdict(set)

    @settings(
        max_examples=150,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(scenario_fixtures())
    def check(fixture):
        for name in _UNBOUNDED:
            seen[name].add(fixture["limits"][name])
        if fixture["client"].get("disconnect_on"):
            seen["occurrence"].add(fixture["client"]["disconnect_on"]["occurrence"])
        for script in fixture["tools"].values():
            seen["total_matched"] |= {r.get("total_matched") for r in script["responses"]}

    with stable_draws():
        check()
    largest = [name for name, values in seen.items() if MAX_SAFE_INTEGER in values]
    assert sorted(largest) == sorted([*_UNBOUNDED, "occurrence", "total_matched"])


@pytest.mark.parametrize("id_class", REJECTED_ID_CLASSES)
def test_prop_rejected_ids_are_of_their_class(id_class, property_config):
    """Each rejected class draws ids the meter classifies as that class."""

    @property_config
    @given(rejected_ids(id_class))
    def check(value):
        assert id_classes_of(
            {"agent": [{"kind": "tool_calls", "tool_calls": [tool_call(value)]}]}
        ) == {id_class}

    check()


def test_prop_any_fixture_force_pins_a_choice():
    """A forced choice is honoured: a raw submission, a disconnect on SEMANTIC_VERDICT."""
    force = {"submission": "raw", "disconnect": ("SEMANTIC_VERDICT", 1), "router": ["intent"]}
    fixture = pinned_like(force)
    assert fixture["agent"][-2]["kind"] == "raw" or fixture["agent"][-1]["kind"] in {
        "raw",
        "draft",
    }
    assert fixture["client"] == {
        "disconnect_on": {"event_type": "SEMANTIC_VERDICT", "occurrence": 1}
    }
    assert PINS()
    assert set(CHOICES) >= {k for recipe in PINS().values() for k in recipe}


def pinned_like(force):
    config = settings(database=None, max_examples=1, phases=[Phase.generate], deadline=None)
    return find(scenario_fixtures(force=force), lambda _: True, settings=config)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_prop_pins_corpus_is_the_strategy_s():
    """The committed corpus is what the strategy draws for the pins (else: python -m
    conformance.anyfixture.pins)."""
    committed = json.loads(PINS_FILE.read_text(encoding="utf-8"))
    assert committed == json.loads(json.dumps(generate_pins())), (
        "stale corpus: run `python -m conformance.anyfixture.pins`"
    )


def test_prop_pinned_fixtures_are_valid_one_per_corpus_name():
    """Every pin of the corpus is valid, one per CORPUS name.

    That the reference passes every pin (each run twice, every check) and a few drawn fixtures
    is the any-fixture Gherkin scenario of ``tests/conformance/test_conf_gherkin_inprocess.py``
    (the same reference in process, the pins then 10 drawn fixtures; this module ran the pins
    once and 3 drawn again: docs/decisions/test-speed.md, Session 6).
    """
    pins = pinned_any_fixtures()
    assert len(pins) == len(CORPUS)
    assert set(PINS()) >= CORPUS
    assert all(validate_document(f, "scenario-fixture") == [] for f in pins)


def test_prop_the_any_fixture_scenario_draws_the_run_s_examples_per_property(monkeypatch):
    """`srdh run --examples N` reaches the any-fixture scenario: its pins, then N drawn fixtures
    (0: the pins only), each run twice; one count for every property of a run."""
    from conformance.adapters import InProcessAdapter  # noqa: PLC0415 - only this test
    from conformance.anyfixture import pinned_any_fixtures  # noqa: PLC0415
    from conformance.bdd._any_fixture import EXAMPLES_VARIABLE  # noqa: PLC0415
    from conformance.suite import run_suite  # noqa: PLC0415

    monkeypatch.delenv(EXAMPLES_VARIABLE, raising=False)
    scenario = "any-valid-scenario-fixture-is-judged-by-every-check"
    runs = {}
    for drawn in (0, 2):
        recorder = RecordingAdapter(InProcessAdapter("reference_harness.iut:create"))
        try:
            result = run_suite(recorder, scenario_ids=[scenario], property_examples=drawn)
        finally:
            recorder.close()
        assert [s.outcome for s in result.scenarios] == ["passed"]
        runs[drawn] = [f["fixture_id"] for f in recorder.fixtures]
    pinned = {f["fixture_id"] for f in pinned_any_fixtures()}
    assert set(runs[0]) <= pinned  # 0: the pinned fixtures only
    assert runs[2][: len(runs[0])] == runs[0]  # the same pins first, then
    assert len(runs[2]) - len(runs[0]) == 2 * 2  # two drawn fixtures, each run twice
    assert not set(runs[2][len(runs[0]) :]) & pinned


def test_prop_any_fixture_flaky_failure_names_what_failed():
    """An IUT that fails a fixture once and then passes it is reported with the first failure.

    Hypothesis raises ``FlakyFailure`` (an exception group) when a failing example passes on
    replay; the result's message carries the sub-exception, not only "unreliable results" (stop
    26's CI log lost which rule had failed).
    """
    from hypothesis import strategies as st  # noqa: PLC0415

    from conformance.anyfixture import drive  # noqa: PLC0415

    calls: list[int] = []

    def body(value: int) -> None:
        calls.append(value)
        if len(calls) == 1:
            message = "[R0.valid-observation] SCRIPT_UNCONSUMED the first time only"
            raise AssertionError(message)

    config = settings(max_examples=5, database=None, derandomize=True)
    result = drive("flaky", st.just(1), body, config)
    assert result.outcome == "failed"
    assert "R0.valid-observation" in result.message
    assert "SCRIPT_UNCONSUMED the first time only" in result.message


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (
            AssertionError("[R2.tool-call-identity] no TOOL_CALL_REJECTED"),
            "[R2.tool-call-identity]",
        ),
        (AdapterError("IUT sent invalid JSON instead of the observation"), "IUT sent invalid JSON"),
    ],
)
def test_prop_failure_message_names_no_python_class_for_a_check_or_the_iut(error, shown):
    """A failed check or an IUT's protocol failure reads as its sentence (no ``AssertionError:``
    or ``AdapterError:`` before it, which says nothing to an implementer in another language)."""
    from hypothesis import strategies as st  # noqa: PLC0415

    from conformance.anyfixture import drive  # noqa: PLC0415

    def body(_value: int) -> None:
        raise error

    config = settings(max_examples=1, database=None, derandomize=True)
    result = drive("fails", st.just(1), body, config)
    assert result.outcome == "failed"
    assert result.message.startswith(shown), result.message


def test_prop_a_kit_bug_is_no_failed_result_but_a_kit_fault():
    """Any other exception, a kit bug, is no verdict on the IUT: ``drive`` raises KitFault
    naming its class and the property (session 11: it used to be a ``failed`` result,
    ``KeyError: 'run_id'``, which ``srdh run`` showed as the scenario's FAILED)."""
    from hypothesis import strategies as st  # noqa: PLC0415

    from conformance._kitfault import KitFault  # noqa: PLC0415
    from conformance.anyfixture import drive  # noqa: PLC0415

    def body(_value: int) -> None:
        member = "run_id"
        raise KeyError(member)

    config = settings(max_examples=1, database=None, derandomize=True)
    with pytest.raises(KitFault) as raised:
        drive("fails", st.just(1), body, config)
    assert str(raised.value).startswith("KeyError: 'run_id' (while judging property fails;")
    assert isinstance(raised.value.error, KeyError)


def test_prop_explicit_examples_run_as_given_and_fail_by_their_fixture():
    """The explicit examples reach the body as the very values given, before any drawn one, and
    one that fails is reported with its fixture (what the pinned corpus relies on); Hypothesis
    is handed positions, so it never pretty-prints a whole fixture."""
    from hypothesis import strategies as st  # noqa: PLC0415

    from conformance.anyfixture import drive  # noqa: PLC0415

    pins = [{"fixture_id": f"pin-{n}", "n": n} for n in range(3)]
    seen: list[object] = []
    config = settings(max_examples=2, database=None, derandomize=True)
    passed = drive("explicit", st.just({"fixture_id": "drawn"}), seen.append, config, pins)
    assert passed.outcome == "passed"
    assert sorted(map(id, seen[:3])) == sorted(map(id, pins))
    assert {value["fixture_id"] for value in seen[3:]} == {"drawn"}  # type: ignore[index]
    assert passed.examples == len(seen)

    def body(value: dict) -> None:
        if value["n"] == 1:
            message = "[R0.valid-observation] the second pin breaks"
            raise AssertionError(message)

    failed = drive("explicit", st.just({"n": 0}), body, config, pins)
    assert failed.outcome == "failed"
    assert failed.fixture is pins[1]
    assert failed.message.startswith("[R0.valid-observation] the second pin breaks")
    assert json.dumps(pins[1], ensure_ascii=True, sort_keys=True) in failed.message
