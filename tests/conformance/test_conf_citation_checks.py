"""Citation kinds: lookups, a semantic fallback's sources, the snapshot's evidence, histories.

Expectations are written here by hand from the spec and the contract sheet (never copied from a
Harness's output). Each check passes the reference Harness's observation and fails an observation
broken in one place, naming its rule.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, find, settings

from conformance import checks
from conformance.adapters import InProcessAdapter
from conformance.checks import expected_previous_turn
from conformance.checks._outcome_oracle import cited_tool_call_ids, expected_outcome
from conformance.strategies import session_histories
from conformance.strategies._citation_pins import citation_pinned_fixtures
from contracts import digest

PINS = {str(f["fixture_id"]): f for f in citation_pinned_fixtures()}
SEARCH = settings(
    max_examples=3000, database=None, suppress_health_check=list(HealthCheck), deadline=None
)


@pytest.fixture(scope="module")
def observe():
    adapter = InProcessAdapter("reference_harness.iut:create")
    seen: dict[str, dict[str, object]] = {}

    def run(name: str) -> dict[str, object]:
        if name not in seen:
            seen[name] = adapter.run(PINS[name])
        return copy.deepcopy(seen[name])

    yield run
    adapter.close()


# --------------------------------------------------------------------------- the oracle


def _first_verdict(name: str):
    return expected_outcome(PINS[name]).verdicts[0]


def test_a_lookup_beside_another_ready_tool_is_the_single_lookup():
    """search_logs is no lookup: an answer naming the one READY lookup breaks no rule."""
    verdict = _first_verdict("pinned-lookup-beside-another-tool")
    assert (verdict.valid, verdict.required) == (True, ())


def test_a_failed_lookup_does_not_count_and_cannot_be_named():
    """A failed (ERROR) lookup returned nothing: the READY one is the single lookup call.

    Naming the failed one is one violation at ``/lookup_tool_call_id`` that either code reports
    (K3: the contract lists both INVOCATION_NOT_READY and LOOKUP_CALL_COUNT; either is accepted).
    """
    assert _first_verdict("pinned-failed-lookup-then-ready").valid is True
    named_failed = _first_verdict("pinned-answer-names-failed-lookup")
    assert named_failed.valid is False
    assert [sorted(v.codes) for v in named_failed.required] == [
        ["INVOCATION_NOT_READY", "LOOKUP_CALL_COUNT"]
    ]
    assert "/lookup_tool_call_id" in named_failed.required[0].pointers


def test_a_document_left_out_by_max_items_is_fabricated():
    """The lookup returned d1..d5 but max_items is 3: citing d5 cites no returned document."""
    verdict = _first_verdict("pinned-lookup-beyond-max-items")
    assert verdict.valid is False
    assert [sorted(v.codes) for v in verdict.required] == [["FABRICATED_DOCUMENT_ID"]]
    assert "/items/0/references/1/document_id" in verdict.required[0].pointers


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("pinned-unknown-analysis-in-action-plan", "UNKNOWN_ANALYSIS_ID"),
        ("pinned-unknown-analysis-in-recommendation", "UNKNOWN_ANALYSIS_ID"),
        ("pinned-inference-on-no-evidence", "NO_EVIDENCE_NOT_NEGATIVE"),
        ("pinned-negative-scope-other-tool", "NEGATIVE_SCOPE_TOO_WIDE"),
        ("pinned-negative-scope-earlier-start", "NEGATIVE_SCOPE_TOO_WIDE"),
        ("pinned-negative-scope-later-end-by-1-ms", "NEGATIVE_SCOPE_TOO_WIDE"),
    ],
)
def test_each_broken_first_draft_breaks_exactly_its_rule(name, code):
    """The first draft of each pin breaks one rule; the repair breaks none."""
    outcome = expected_outcome(PINS[name])
    first, repair = outcome.verdicts
    assert [sorted(v.codes) for v in first.required] == [[code]]
    assert (repair.valid, outcome.state) == (True, "SUCCESS")


def test_cited_ids_of_a_draft_and_an_answer():
    """A draft cites through analyses and limitations; an answer its lookup and references."""
    draft = PINS["pinned-uncited-evidence-unsupported"]["agent"][-1]["draft"]
    assert cited_tool_call_ids(draft) == ["call_1", "call_3", "call_4"]
    answer = PINS["pinned-lookup-beside-another-tool"]["agent"][-1]["answer"]
    assert cited_tool_call_ids(answer) == ["lookup_1"]


def test_the_long_history_selects_seq_3_and_skips_exactly_the_eight_newer_runs():
    """Older Runs (seq 1, 2) and another session's Run are neither selected nor skipped."""
    selected, skipped = expected_previous_turn(PINS["pinned-long-ineligible-history"])
    assert selected == "prior-run-3"
    assert sorted((s["run_id"], s["reason"]) for s in skipped) == sorted(
        [
            ("prior-run-4", "STATE_FALLBACK"),  # a KNOWLEDGE_QUERY Run: its state comes first
            ("prior-run-5", "INTENT_KNOWLEDGE_QUERY"),
            ("prior-run-7", "STATE_FAILED"),
            ("prior-run-8", "STATE_CANCELLED"),
            ("prior-run-9", "STATE_RUNNING"),
            ("prior-run-10", "STATE_FALLBACK"),
            ("prior-run-11", "STATE_CANCELLED"),
            ("prior-run-12", "STATE_RUNNING"),
        ]
    )


def _stretch(runs: list[dict[str, object]]) -> tuple[int, bool]:
    """(ineligible same-session Runs newer than the previous turn, whether older Runs exist)."""
    selected, skipped = expected_previous_turn({"session_id": "session-1", "prior_runs": runs})
    if selected is None:
        return 0, False
    seq = next(r["seq"] for r in runs if r["run_id"] == selected)
    older = any(r["session_id"] == "session-1" and int(str(r["seq"])) < int(str(seq)) for r in runs)
    return len(skipped), older


def test_session_histories_reach_long_ineligible_stretches_with_older_runs_behind():
    """Some drawn history has 5+ ineligible Runs before its previous turn, and Runs behind it."""
    found = find(
        session_histories(),
        lambda runs: _stretch(runs)[0] >= 5 and _stretch(runs)[1],
        settings=SEARCH,
    )
    assert _stretch(found)[0] >= 5


# --------------------------------------------------------------------------- verified sources


def _sources_findings(observation: dict[str, object], name: str) -> list[str]:
    result = checks.check_evidence_outcome(observation, PINS[name])
    return [line for line in result.message.splitlines() if "R6.fallback-verified-sources" in line]


def _source(call_id: str, observation: dict[str, object]) -> dict[str, object]:
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == call_id)
    scope = (record.get("projection") or {}).get("query_scope") or {"tool": record["tool_name"]}
    return {
        "tool_call_id": call_id,
        "tool_name": record["tool_name"],
        "query_scope": scope,
        "evidence_status": record["evidence_status"],
    }


@pytest.mark.parametrize(
    "name", ["pinned-uncited-evidence-unsupported", "pinned-uncited-evidence-unavailable"]
)
def test_a_semantic_fallback_lists_exactly_the_cited_ready_calls(observe, name):
    """call_1 (found) and call_4 (in-band error) are cited and READY; call_2 is uncited, call_3
    failed: the reference lists the first two only, and the check holds."""
    observation = observe(name)
    listed = [
        s["tool_call_id"]
        for s in observation["published_result"]["safe_fallback"]["verified_sources"]
    ]
    assert sorted(listed) == ["call_1", "call_4"]
    assert _sources_findings(observation, name) == []


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("drop call_4", "leave it out"),
        ("add call_2", "not cited"),
        ("add call_3", "not a READY invocation"),
        ("repeat call_1", "twice"),
        ("rename tool", "differs from its canonical invocation"),
    ],
)
def test_wrong_verified_sources_name_the_rule(observe, change, says):
    """Each kind of wrong list (missing, uncited, failed, repeated, altered) is a finding."""
    name = "pinned-uncited-evidence-unsupported"
    observation = observe(name)
    fallback = observation["published_result"]["safe_fallback"]
    sources = fallback["verified_sources"]
    if change == "drop call_4":
        sources[:] = [s for s in sources if s["tool_call_id"] != "call_4"]
    elif change.startswith("add"):
        sources.append(_source(change.split()[1], observation))
    elif change == "repeat call_1":
        sources.append(copy.deepcopy(sources[0]))
    else:
        sources[0]["tool_name"] = "query_metrics"
    assert any(says in line for line in _sources_findings(observation, name))


# --------------------------------------------------------------------------- the snapshot


def _resign(observation: dict[str, object], edit) -> None:
    """Edit the SemanticGuard's snapshot and re-sign it (digest, MODEL_CALL_STARTED)."""
    call = next(c for c in observation["model_calls"] if c["component"] == "SEMANTIC_GUARD")
    message = next(m for m in call["messages"] if m["role"] == "user")
    snapshot = json.loads(message["content"])
    old = snapshot.pop("digest")
    edit(snapshot)
    snapshot["digest"] = digest(snapshot)
    message["content"] = json.dumps(snapshot)
    for event in observation["trace"]:
        if event["data"].get("snapshot_digest") == old:
            event["data"]["snapshot_digest"] = snapshot["digest"]


def _snapshot_findings(observation: dict[str, object], name: str) -> list[str]:
    result = checks.check_model_inputs(observation, PINS[name])
    return [
        line for line in result.message.splitlines() if "R1.snapshot-holds-cited-evidence" in line
    ]


def test_the_reference_snapshot_holds_exactly_the_cited_ready_evidence(observe):
    """The reference's snapshot holds call_1 and call_4 (call_3 failed, call_2 is uncited)."""
    name = "pinned-uncited-evidence-unsupported"
    observation = observe(name)
    assert _snapshot_findings(observation, name) == []


def _drop_evidence(snapshot: dict[str, object]) -> None:
    snapshot["evidence"] = []


def _duplicate_evidence(snapshot: dict[str, object]) -> None:
    snapshot["evidence"] = [*snapshot["evidence"], snapshot["evidence"][0]]


def _alter_evidence(snapshot: dict[str, object]) -> None:
    snapshot["evidence"][0]["projection"]["items"][0]["text"] = "checkout 200"


def _edit_body(snapshot: dict[str, object]) -> None:
    snapshot["diagnosis_draft"]["conclusion"]["summary"] = "The Harness's own summary."


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (_drop_evidence, "leaves out"),
        (_duplicate_evidence, "twice"),
        (_alter_evidence, "differs from the canonical invocation"),
        (_edit_body, "not canonical-JSON-identical"),
    ],
)
def test_a_wrong_snapshot_names_the_rule(observe, edit, says):
    """Missing, repeated or altered evidence, or an edited body, is a finding."""
    name = "pinned-uncited-evidence-unsupported"
    observation = observe(name)
    _resign(observation, edit)
    assert any(says in line for line in _snapshot_findings(observation, name))


def test_uncited_evidence_in_the_snapshot_names_the_rule(observe):
    """call_2 is READY but uncited: the snapshot may not hold its projection."""
    name = "pinned-uncited-evidence-unsupported"
    observation = observe(name)
    record = next(i for i in observation["invocations"] if i["tool_call_id"] == "call_2")

    def add(snapshot: dict[str, object]) -> None:
        snapshot["evidence"].append(
            {
                "tool_call_id": "call_2",
                "tool_name": record["tool_name"],
                "evidence_status": record["evidence_status"],
                "projection": record["projection"],
            }
        )

    _resign(observation, add)
    assert any("does not cite" in line for line in _snapshot_findings(observation, name))
