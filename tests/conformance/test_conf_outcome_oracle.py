"""The outcome oracle: expectations from the fixture alone, and the check that compares them.

The oracle's expectations are written here from the spec and DESIGN section 4 by hand (never
copied from a Harness's output). The check then passes the reference Harness's observation, fails
an observation broken in one place naming the rule, and stays exactly as strict as the spec (an
alternative pointer or code the rules allow still passes).
"""

import copy

import pytest

from conformance import checks
from conformance.adapters import InProcessAdapter
from conformance.fixtures import (
    analysis,
    answer_item,
    call_arguments,
    diagnosis_draft,
    diagnosis_fixture,
    document_rows,
    draft_and_tool_calls_turn,
    failure,
    in_band_error,
    knowledge_answer,
    knowledge_fixture,
    no_rows,
    query_scope,
    rows,
    supported_turn,
    tool_call,
    tool_script,
    unsupported_turn,
)
from conformance.strategies import pinned_fixtures


@pytest.fixture(scope="module")
def observe():
    adapter = InProcessAdapter("reference_harness.iut:create")
    cache: dict[str, dict] = {}

    def run(fixture: dict) -> dict:
        if fixture["fixture_id"] not in cache:
            cache[fixture["fixture_id"]] = adapter.run(fixture)
        return copy.deepcopy(cache[fixture["fixture_id"]])

    yield run
    adapter.close()


def _observing(*ids: str) -> dict:
    return diagnosis_draft([analysis("a1", "OBSERVATION", list(ids))])


def test_oracle_classifies_every_tool_outcome():
    """Rows, zero rows, in-band error and a raise give the contract's status pairs and codes."""
    steps = [
        [
            tool_call("c_rows", "search_logs"),
            tool_call("c_empty", "query_metrics"),
            tool_call("c_band", "list_alerts"),
            tool_call("c_raise", "list_alerts", call_arguments(query="again")),
        ]
    ]
    fixture = diagnosis_fixture(
        steps=steps,
        draft=_observing("c_rows"),
        reviews=[supported_turn()],
        tools={
            "search_logs": tool_script(rows("a")),
            "query_metrics": tool_script(no_rows()),
            "list_alerts": tool_script(in_band_error("X"), failure("boom")),
        },
    )
    outcome = checks.expected_outcome(fixture)
    pairs = {
        i.tool_call_id: (i.status, i.evidence_status, i.error_code) for i in outcome.invocations
    }
    assert pairs == {
        "c_rows": ("READY", "EVIDENCE_FOUND", None),
        "c_empty": ("READY", "NO_EVIDENCE", None),
        "c_band": ("READY", "ERROR", "BACKEND_ERROR"),
        "c_raise": ("ERROR", "ERROR", "TOOL_FAILED"),
    }
    assert (outcome.state, outcome.released) == ("SUCCESS", _observing("c_rows"))


def test_oracle_cuts_projections_to_the_limits():
    """A 3,000-character row is cut to max_item_chars; rows past max_items are only counted."""
    texts = ["z" * 3000, "short", "third"]
    fixture = diagnosis_fixture(
        steps=[[tool_call("call_1")]],
        draft=_observing("call_1"),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(rows(*texts, total_matched=7))},
        limits={"max_items": 2, "max_item_chars": 2000},
    )
    (row,) = checks.expected_outcome(fixture).invocations
    assert row.projection is not None
    assert row.projection.texts == ("z" * 2000, "short")
    assert (row.projection.total_matched, row.projection.truncated) == (7, True)


def test_oracle_rejects_padded_lookalike_and_numeric_ids_but_not_case_variants():
    """Padded, full-width and numeric ids are INVALID_ID; ``CALL_1`` is not ``call_1``."""
    lookalike = "".join(chr(0xFF00 + ord(c) - 0x20) for c in "call") + "_1"
    presented = [" call_1 ", lookalike, 42, "call_1", "CALL_1"]
    steps = [
        [tool_call(p, "search_logs", call_arguments(query=str(n))) for n, p in enumerate(presented)]
    ]
    fixture = diagnosis_fixture(steps=steps, draft=_observing("call_1"))
    outcome = checks.expected_outcome(fixture)
    assert [(c.value, r) for c, r in outcome.rejected] == [
        (" call_1 ", "INVALID_ID"),
        (lookalike, "INVALID_ID"),
        (42, "INVALID_ID"),
    ]
    assert [i.tool_call_id for i in outcome.invocations] == ["call_1", "CALL_1"]


def test_oracle_requires_the_pointer_of_one_unknown_id_among_known_ones():
    """``[call_1, call_9]`` breaks the binding rule at ``/analyses/0/tool_call_ids/1``."""
    fixture = diagnosis_fixture(
        steps=[[tool_call("call_1")]],
        draft=_observing("call_1", "call_9"),
        repair=_observing("call_1"),
        reviews=[supported_turn()],
        tools={"search_logs": tool_script(rows("a"))},
    )
    first, second = checks.expected_outcome(fixture).verdicts
    assert first.valid is False
    (rule,) = first.required
    assert rule.codes == {"UNKNOWN_TOOL_CALL_ID"}
    assert rule.pointers == {"/analyses/0/tool_call_ids/1"}
    assert second.valid is True


def test_oracle_checks_a_negative_scope_against_every_cited_call():
    """A 15-minute negative claim citing a 15- and a 5-minute empty call is too wide."""
    wide = call_arguments()
    narrow = call_arguments(start_ms=wide["time_range"]["end_ms"] - 300_000)
    claim = analysis(
        "a1", "NEGATIVE_OBSERVATION", ["c1", "c2"], scope=query_scope("search_logs", wide)
    )
    fixture = diagnosis_fixture(
        steps=[[tool_call("c1", "search_logs", wide), tool_call("c2", "search_logs", narrow)]],
        draft=diagnosis_draft([claim]),
        repair=diagnosis_draft([claim]),
        tools={"search_logs": tool_script(default=no_rows())},
    )
    outcome = checks.expected_outcome(fixture)
    assert [r.codes for r in outcome.verdicts[0].required] == [{"NEGATIVE_SCOPE_TOO_WIDE"}]
    assert (outcome.state, outcome.fallback_type) == ("FALLBACK", "EVIDENCE_VALIDATION_FAILED")


def test_oracle_lets_a_raised_invocation_be_reported_as_error_or_not_ready():
    """Citing an ERROR/ERROR invocation: ERROR_EVIDENCE_CITED or INVOCATION_NOT_READY."""
    scope = query_scope("search_logs", call_arguments())
    draft = diagnosis_draft([analysis("a1", "NEGATIVE_OBSERVATION", ["call_1"], scope=scope)])
    fixture = diagnosis_fixture(
        steps=[[tool_call("call_1")]],
        draft=draft,
        repair=draft,
        tools={"search_logs": tool_script(failure("boom"))},
    )
    (rule,) = checks.expected_outcome(fixture).verdicts[0].required
    assert rule.codes == {"ERROR_EVIDENCE_CITED", "INVOCATION_NOT_READY"}
    assert rule.met_by([{"code": "INVOCATION_NOT_READY", "pointer": "/analyses/0"}])
    assert not rule.met_by([{"code": "SCHEMA_INVALID", "pointer": "/analyses/0"}])


def test_oracle_matches_document_ids_exactly():
    """``D1`` is not ``d1``: the answer cites a fabricated document."""
    answer = knowledge_answer("lookup_1", [answer_item("i1", "lookup_1", ["D1"])])
    fixture = knowledge_fixture(
        steps=[[tool_call("lookup_1", "lookup_documents")]],
        answer=answer,
        repair=answer,
        tools={"lookup_documents": tool_script(default=document_rows("d1", "d2"))},
    )
    outcome = checks.expected_outcome(fixture)
    assert [r.codes for r in outcome.verdicts[0].required] == [{"FABRICATED_DOCUMENT_ID"}]
    assert outcome.fallback_type == "EVIDENCE_VALIDATION_FAILED"


def test_oracle_counts_a_repair_that_calls_tools_as_failed():
    """A repair holding a draft and a tool call is a failed repair; the call is no invocation."""
    fixture = diagnosis_fixture(
        steps=[[tool_call("call_1")]],
        draft=_observing("call_9"),
        tools={"search_logs": tool_script(rows("a"))},
    )
    fixture["agent"].append(draft_and_tool_calls_turn(_observing("call_1"), [tool_call("call_2")]))
    outcome = checks.expected_outcome(fixture)
    assert outcome.verdicts[1].by_tool_calls
    assert [i.tool_call_id for i in outcome.invocations] == ["call_1"]
    assert (outcome.state, outcome.fallback_type) == ("FALLBACK", "EVIDENCE_VALIDATION_FAILED")


def test_oracle_partial_unsupported_releases_nothing():
    """UNSUPPORTED naming one of two analyses falls back SEMANTIC_UNSUPPORTED."""
    draft = diagnosis_draft(
        [analysis("a1", "OBSERVATION", ["c1"]), analysis("a2", "OBSERVATION", ["c1"])]
    )
    fixture = diagnosis_fixture(
        steps=[[tool_call("c1")]],
        draft=draft,
        reviews=[unsupported_turn(["a1"])],
        tools={"search_logs": tool_script(rows("a"))},
    )
    outcome = checks.expected_outcome(fixture)
    assert (outcome.state, outcome.fallback_type, outcome.released) == (
        "FALLBACK",
        "SEMANTIC_UNSUPPORTED",
        None,
    )


def test_oracle_judges_nothing_it_cannot_fix():
    """A cancellation, or a Router retry, leaves the release undetermined."""
    fixture = diagnosis_fixture(steps=[[tool_call("c1")]], draft=_observing("c1"))
    fixture["client"] = {"disconnect_on": {"event_type": "TOOL_CALL_ACCEPTED", "occurrence": 1}}
    assert not checks.expected_outcome(fixture).complete
    fixture["client"] = {}
    fixture["router"].insert(0, {"kind": "raw", "text": "what?"})
    assert checks.expected_outcome(fixture).state is None


@pytest.mark.parametrize("fixture", pinned_fixtures(), ids=lambda f: f["fixture_id"])
def test_outcome_check_passes_the_reference(observe, fixture):
    """The reference Harness keeps every expectation of every pinned fixture."""
    result = checks.check_evidence_outcome(observe(fixture), fixture)
    assert result.passed, result.message


def _outcomes_fixture() -> dict:
    return next(f for f in pinned_fixtures() if f["fixture_id"] == "pinned-tool-outcomes")


def test_outcome_check_names_a_missing_projecting_state(observe):
    """An invocation never observed PROJECTING breaks R3.invocation-lifecycle."""
    fixture = _outcomes_fixture()
    observation = observe(fixture)
    observation["trace"] = [
        e
        for e in observation["trace"]
        if not (e["type"] == "INVOCATION_STATUS_CHANGED" and e["data"]["status"] == "PROJECTING")
    ]
    result = checks.check_evidence_outcome(observation, fixture)
    assert "R3.invocation-lifecycle" in result.rules


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (
            lambda p: p["items"][0].update(text=p["items"][0]["text"] + "x" * 10),
            "R4.bounded-projection",
        ),
        (lambda p: p.update(truncated=False), "R4.bounded-projection"),
        (lambda p: p.update(total_matched=len(p["items"])), "R4.bounded-projection"),
    ],
    ids=["text-not-cut", "not-truncated", "total-is-kept"],
)
def test_outcome_check_names_a_broken_projection(observe, edit, rule):
    """A projection over the limits, unmarked or miscounted, breaks R4.bounded-projection."""
    fixture = _outcomes_fixture()
    observation = observe(fixture)
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == "many_1")
    edit(record["projection"])
    assert rule in checks.check_evidence_outcome(observation, fixture).rules


def test_outcome_check_names_a_raise_reported_as_no_evidence(observe):
    """A raising backend reported READY / NO_EVIDENCE breaks R3.invocation-outcome."""
    fixture = _outcomes_fixture()
    observation = observe(fixture)
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == "raise_1")
    record.update(status="READY", evidence_status="NO_EVIDENCE", error=None)
    assert "R3.invocation-outcome" in checks.check_evidence_outcome(observation, fixture).rules


def _unknown_among_known() -> dict:
    return next(f for f in pinned_fixtures() if f["fixture_id"] == "pinned-unknown-among-known")


def test_outcome_check_accepts_another_allowed_pointer(observe):
    """The rules fix the code and where it is broken, not one wording of the pointer."""
    fixture = diagnosis_fixture(
        steps=[[tool_call("call_1")]],
        draft=diagnosis_draft([analysis("a1", "INFERENCE", ["call_1"])]),
        repair=_observing("call_2"),
        tools={"search_logs": tool_script(no_rows())},
        fixture_id="allowed-pointer",
    )
    observation = observe(fixture)
    assert checks.check_evidence_outcome(observation, fixture).passed
    first = next(e for e in observation["trace"] if e["type"] == "EVIDENCE_VALIDATION")
    first["data"]["violations"] = [
        {"code": "NO_EVIDENCE_NOT_NEGATIVE", "pointer": "/analyses/0/kind"}
    ]
    assert checks.check_evidence_outcome(observation, fixture).passed
    first["data"]["violations"] = [{"code": "NO_EVIDENCE_NOT_NEGATIVE", "pointer": "/conclusion"}]
    result = checks.check_evidence_outcome(observation, fixture)
    assert result.rules == ("R3.no-evidence-citation",)


def test_outcome_check_names_a_missed_unknown_binding(observe):
    """The unknown id reported at its analysis, not its binding, breaks R4.tool-call-bindings."""
    fixture = _unknown_among_known()
    observation = observe(fixture)
    first = next(e for e in observation["trace"] if e["type"] == "EVIDENCE_VALIDATION")
    for violation in first["data"]["violations"]:
        violation["pointer"] = "/analyses/0"
    assert "R4.tool-call-bindings" in checks.check_evidence_outcome(observation, fixture).rules
