"""Latitude variants: each takes its latitude (differs from the reference); the suite passes it.

A variant identical to the reference would prove nothing, so each one's difference is shown on a
fixture first (``WITNESSES``). The self-test then judges the composites (``COMPOSITES``: several
latitudes at once, every latitude in one at least) on what the reference must pass (every
scenario, every property, the global invariants): none may fail (a failure is a false kill). Each
composite shows every member's witness, so a composite that lost a member's part fails here; the
grouping rules that keep latitudes which would mask one another apart are checked as data
(``docs/decisions/latitude.md``, "Composites"). ``srdh selftest`` still judges every single
latitude alone.
"""

from __future__ import annotations

import functools
import json
import re
import time
from itertools import combinations
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from conformance.adapters import InProcessAdapter
from conformance.properties import INVARIANTS
from conformance.selftest import run_selftest
from conformance.selftest._plan import Probe, reference_probes
from conformance.selftest._run import _scenarios
from reference_harness.openai._client import ChatClient
from reference_harness.variants import (
    COMPOSITE_MEMBERS,
    COMPOSITES,
    VARIANTS,
    CompositionError,
    compose,
)
from tests._profile import depth

FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
DAY_MS = 86_400_000


def _fixture(fixture_id: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (FIXTURES / f"{fixture_id}.json").read_text(encoding="utf-8")
    )
    return loaded


@functools.cache
def _observed(factory: str, fixture_id: str) -> str:
    """The observation (JSON text) of ``factory`` on fixture ``fixture_id``, with the shares.

    ``_timeout_shares``: each HTTP client's timeout over the fixture's ``model_call_timeout_ms``
    (the clients the IUT built on the kit's model endpoint; none in process).
    """
    fixture = _fixture(fixture_id)
    configs: list[Any] = []
    original = ChatClient.__init__

    def spy(self: ChatClient, config: Any, **options: Any) -> None:
        configs.append(config)
        original(self, config, **options)

    adapter = InProcessAdapter(factory)
    try:
        with mock.patch.object(ChatClient, "__init__", spy):
            observation = adapter.run(fixture)
    finally:
        adapter.close()
    limit_ms = fixture["limits"]["model_call_timeout_ms"]
    observation["_timeout_shares"] = [round(c.timeout_s * 1000 / limit_ms, 6) for c in configs]
    return json.dumps(observation)


def _run(name: str, fixture_id: str) -> dict[str, Any]:
    """The observation of variant or composite ``name`` on fixture ``fixture_id`` (one run)."""
    loaded: dict[str, Any] = json.loads(_observed(f"reference_harness.variants:{name}", fixture_id))
    return loaded


def _reference(fixture_id: str, *, endpoint: bool) -> dict[str, Any]:
    """The reference's observation of ``fixture_id``, over the kit's endpoint when ``endpoint``."""
    factory = (
        "reference_harness.iut:create_with_endpoint" if endpoint else "reference_harness.iut:create"
    )
    loaded: dict[str, Any] = json.loads(_observed(factory, fixture_id))
    return loaded


def _types(observation: dict[str, Any]) -> list[str]:
    return [e["type"] for e in observation["trace"]]


def _validations(observation: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {
        e["data"]["attempt"]: e["data"]
        for e in observation["trace"]
        if e["type"] == "EVIDENCE_VALIDATION"
    }


def _no_ts_ms(o: dict[str, Any]) -> bool:
    frames = [f["data"] for f in o["client_frames"] if f["event"] == "run_event"]
    return all("ts_ms" not in e for e in [*o["trace"], *frames])


def _cancel_order(o: dict[str, Any]) -> bool:
    types = _types(o)
    return types.index("TOOL_WORK_CANCELLED") < types.index("INTERRUPT_REQUESTED")


def _step_accepted_first(o: dict[str, Any]) -> bool:
    """Every call of the step is accepted before the first one's invocation ends."""
    trace = o["trace"]
    accepted = [i for i, e in enumerate(trace) if e["type"] == "TOOL_CALL_ACCEPTED"]
    ended = [
        i
        for i, e in enumerate(trace)
        if e["type"] == "INVOCATION_STATUS_CHANGED" and e["data"]["status"] != "PROJECTING"
    ]
    return len(accepted) > 1 and bool(ended) and accepted[-1] < ended[0]


def _never_run_unrecorded(o: dict[str, Any]) -> bool:
    """The step's second call, accepted before the first ran, ends ERROR CANCELLED unrecorded;
    the first call's stopped work is recorded."""
    ends = {i["tool_call_id"]: (i.get("error") or {}).get("code") for i in o["invocations"]}
    stopped = [e["data"]["tool_call_id"] for e in o["trace"] if e["type"] == "TOOL_WORK_CANCELLED"]
    return ends == {"call_1": "CANCELLED", "call_2": "CANCELLED"} and stopped == ["call_1"]


def _no_marker(o: dict[str, Any]) -> bool:
    systems = [
        m["content"]
        for r in o["model_requests"]
        for m in r["messages"]
        if m.get("role") in {"system", "developer"}
    ]
    return bool(systems) and not any(s.startswith("[srdh-component") for s in systems)


def _pretty_tools(o: dict[str, Any]) -> bool:
    return any(
        m.get("role") == "tool" and "\n  " in str(m.get("content"))
        for c in o["model_calls"]
        for m in c["messages"]
    )


def _pretty_snapshot(o: dict[str, Any]) -> bool:
    return any(
        c["component"] == "SEMANTIC_GUARD" and "\n  " in str(c["messages"][-1]["content"])
        for c in o["model_calls"]
    )


def _streams_flipped(o: dict[str, Any]) -> bool:
    streamed = {(r["component"], r["stream"]) for r in o.get("model_requests") or []}
    return streamed == {("ROUTER", True), ("DIAGNOSIS_AGENT", False), ("SEMANTIC_GUARD", False)}


def _developer_role(o: dict[str, Any]) -> bool:
    roles = {(r["component"], m.get("role")) for r in o["model_requests"] for m in r["messages"]}
    wanted = {(c, "developer") for c in ("ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD")}
    return wanted <= roles and not any(role == "system" for _, role in roles)


def _knowledge_query_selects(o: dict[str, Any]) -> bool:
    intents = [e["data"]["intent"] for e in o["trace"] if e["type"] == "INTENT_ROUTED"]
    return intents == ["KNOWLEDGE_QUERY"] and "PREVIOUS_TURN_SELECTED" in _types(o)


def _unknown_id_unsupported(o: dict[str, Any]) -> bool:
    row = next(r for r in o["runs"] if r["run_id"] == o["run_id"])
    reviews = [
        e["data"]["outcome"]
        for e in o["trace"]
        if e["type"] == "MODEL_CALL_FINISHED" and e["data"]["component"] == "SEMANTIC_GUARD"
    ]
    return reviews == ["VALID"] and row["fallback_type"] == "SEMANTIC_UNSUPPORTED"


def _attempts(o: dict[str, Any], component: str) -> list[int]:
    return [
        e["data"]["attempt"]
        for e in o["trace"]
        if e["type"] == "MODEL_CALL_STARTED" and e["data"]["component"] == component
    ]


def _seq_jumps(o: dict[str, Any]) -> bool:
    row = next(r for r in o["runs"] if r["run_id"] == o["run_id"])
    earlier = [r["seq"] for r in o["runs"] if r["run_id"] != o["run_id"]]
    return row["seq"] > max(earlier) + 1


def _document_ids_sorted(o: dict[str, Any]) -> bool:
    projection = next(i for i in o["invocations"] if i["tool_name"] == "lookup_documents")[
        "projection"
    ]
    in_items = [item["document_id"] for item in projection["items"]]
    return projection["document_ids"] == sorted(in_items) != in_items


WITNESSES = {
    "no_ts_ms": ("draft-contains-an-analysis-item", _no_ts_ms),
    "other_safe_messages": (
        "a-backend-that-raises-cannot-be-cited-as-no-evidence",
        lambda o: any(
            (i.get("error") or {}).get("safe_message", "").startswith("The tool call could not")
            for i in o["invocations"]
        ),
    ),
    "random_run_ids": (
        "draft-contains-an-analysis-item",
        lambda o: re.fullmatch(r"run-[0-9a-f]{32}", o["run_id"]) is not None,
    ),
    "wall_clock": (
        "draft-contains-an-analysis-item",
        lambda o: abs(o["runs"][-1]["created_at_ms"] - time.time() * 1000) < DAY_MS,
    ),
    "half_timeout_share": (
        "a-model-call-blocks-past-its-timeout-and-no-client-disconnects",
        lambda o: bool(o["_timeout_shares"]) and set(o["_timeout_shares"]) == {0.5},
    ),
    "hang_up_on_cancel": (
        "client-disconnects-during-a-model-call",
        lambda o: "LATE_RESULT_DISCARDED" not in _types(o) and "CANCEL_REQUESTED" in _types(o),
    ),
    "tool_work_cancelled_before_interrupt": (
        "a-tool-answers-after-its-work-is-cancelled",
        _cancel_order,
    ),
    "own_prompts": ("draft-contains-an-analysis-item", _no_marker),
    "pretty_tool_messages": ("draft-contains-an-analysis-item", _pretty_tools),
    "streams_flipped": ("draft-contains-an-analysis-item", _streams_flipped),
    "pretty_snapshot": ("draft-contains-an-analysis-item", _pretty_snapshot),
    "per_store_seq": ("another-session-has-newer-runs", _seq_jumps),
    "single_lookup_call_strict": (
        "a-failed-lookup-is-called-again-and-the-answer-names-the-ready-one",
        lambda o: _validations(o)[1]["valid"] is False,
    ),
    "failed_lookup_not_ready": (
        "a-knowledge-answer-names-the-lookup-that-failed",
        lambda o: [v["code"] for v in _validations(o)[1]["violations"]] == ["INVOCATION_NOT_READY"],
    ),
    "no_optional_retries": (
        "semanticguard-returns-an-invalid-schema",
        lambda o: _attempts(o, "SEMANTIC_GUARD") == [1],
    ),
    "retry_router_unavailable_sg_invalid": (
        "the-semanticguard-is-unavailable-once",
        lambda o: _attempts(o, "SEMANTIC_GUARD") == [1],
    ),
    "retry_router_invalid_sg_unavailable": (
        "semanticguard-returns-an-invalid-schema",
        lambda o: _attempts(o, "SEMANTIC_GUARD") == [1],
    ),
    "developer_role_instructions": ("draft-contains-an-analysis-item", _developer_role),
    "knowledge_query_selects_previous_turn": (
        "a-knowledge-question-follows-failed-and-fallback-runs",
        _knowledge_query_selects,
    ),
    "unknown_verdict_id_unsupported": (
        "the-semanticguard-s-last-allowed-answer-decides-the-fallback-example-7",
        _unknown_id_unsupported,
    ),
    "step_accepted_first": (
        "four-parallel-calls-give-the-same-observation-in-every-fresh-process",
        _step_accepted_first,
    ),
    "step_accepted_first_unrecorded": (
        "the-client-disconnects-at-any-event-of-the-run-example-4",
        _never_run_unrecorded,
    ),
    "failed_repair_submits_nothing": (
        "the-structural-repair-answers-with-a-tool-call-example-1",
        lambda o: 2 not in _validations(o),
    ),
    "lookup_document_ids_sorted": (
        "a-released-knowledge-answer-keeps-the-order-of-its-items-and-references-example-1",
        _document_ids_sorted,
    ),
}
"""Per variant: a fixture, and what its observation shows that the reference's does not."""


def test_every_variant_has_a_witness():
    """The witness table and the catalogue name the same variants."""
    assert set(WITNESSES) == set(VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_takes_its_latitude(name):
    """The variant differs from the reference where its latitude says, on its witness fixture."""
    fixture_id, shows = WITNESSES[name]
    assert shows(_run(name, fixture_id)), f"variant {name} behaves like the reference"
    baseline = _reference(fixture_id, endpoint=VARIANTS[name].endpoint_client is not None)
    assert not shows(baseline), f"the reference already does what {name} claims"


RETRY_FIXTURES = {
    ("SEMANTIC_GUARD", "INVALID_SCHEMA"): "semanticguard-returns-an-invalid-schema",
    ("SEMANTIC_GUARD", "UNAVAILABLE"): "the-semanticguard-is-unavailable-once",
    ("ROUTER", "INVALID_SCHEMA"): "the-router-answers-with-an-invalid-intent-once",
    ("ROUTER", "UNAVAILABLE"): "the-router-is-unavailable",
}
"""A fixture whose first answer of the component fails with the outcome (a retry follows it)."""


@pytest.mark.parametrize(
    ("name", "retried"),
    [
        (
            "retry_router_unavailable_sg_invalid",
            {("SEMANTIC_GUARD", "INVALID_SCHEMA"), ("ROUTER", "UNAVAILABLE")},
        ),
        (
            "retry_router_invalid_sg_unavailable",
            {("SEMANTIC_GUARD", "UNAVAILABLE"), ("ROUTER", "INVALID_SCHEMA")},
        ),
    ],
)
def test_retry_variants_retry_after_one_trigger_each(name, retried):
    """Each retry variant retries each component after its one trigger and not after the other:
    together the two take every single-trigger policy of both components (F1, red-team-8.md)."""
    for (component, outcome), fixture_id in RETRY_FIXTURES.items():
        attempts = _attempts(_run(name, fixture_id), component)
        want = [1, 2] if (component, outcome) in retried else [1]
        assert attempts == want, (name, component, outcome)
        assert _attempts(_reference(fixture_id, endpoint=False), component) == [1, 2]


# --------------------------------------------------------------------------- composites

APART: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        # hang-up replaces the agent's and SemanticGuard's HTTP client: a streamed-vs-JSON call
        # or a timeout share would no longer be judged on the reference's client, and a late
        # answer to a JSON call (K2) would never come
        ("hang_up_on_cancel", "streams_flipped"),
        ("hang_up_on_cancel", "half_timeout_share"),
        # both change what happens on cancellation
        ("hang_up_on_cancel", "tool_work_cancelled_before_interrupt"),
        # a trace without ts_ms hides whatever clock its ts_ms would come from
        ("no_ts_ms", "wall_clock"),
        # the two codes of a named failed lookup: the strict reading reports LOOKUP_CALL_COUNT
        ("single_lookup_call_strict", "failed_lookup_not_ready"),
    )
)
"""Latitudes that would mask one another: never in one composite."""

PATH_CHANGING = frozenset(
    {
        "no_optional_retries",
        "retry_router_unavailable_sg_invalid",
        "retry_router_invalid_sg_unavailable",
        "single_lookup_call_strict",
        "unknown_verdict_id_unsupported",
    }
)
"""Latitudes that change which steps a Run takes (no second attempt; a rejected answer and its
fallback, after which the kit fixes nothing; a fallback instead of the retry): their composite
holds no other latitude, so none of the others is judged only on Runs whose path they changed."""


READ_THE_SAME_ON_BOTH_PATHS = {
    "wall_clock": "times (ts_ms, created_at_ms, finished_at_ms) are read from the trace and the "
    "store rows by the same checks in process and over the endpoint (volatile in the normalizer, "
    "the determinism and frame checks; the contract's finished-after-created)",
}
"""Latitudes judged alone in process whose only composite runs on the endpoint, and why that
judges their difference by the same checks."""


def test_every_latitude_is_in_a_composite():
    """Every single latitude is judged by at least one composite's self-test; no unknown name."""
    members = {m for group in COMPOSITE_MEMBERS.values() for m in group}
    assert members == set(VARIANTS)
    assert set(COMPOSITES) == set(COMPOSITE_MEMBERS)
    assert not set(COMPOSITES) & set(VARIANTS)


def test_composites_keep_apart_what_would_mask():
    """No composite holds two latitudes that mask one another; path-changing ones go alone.

    And each latitude judged in process alone is in a composite judged in process (its checks
    read the same observation parts: a composite on the endpoint reads model inputs from the
    endpoint's requests instead).
    """
    for name, members in COMPOSITE_MEMBERS.items():
        for pair in combinations(members, 2):
            assert frozenset(pair) not in APART, f"{name} holds {pair}, which mask one another"
        path = PATH_CHANGING.intersection(members)
        assert not path or set(members) <= PATH_CHANGING, (
            f"{name} mixes {sorted(path)} (they change the Run's path) with other latitudes"
        )
    for latitude, spec in VARIANTS.items():
        if latitude in READ_THE_SAME_ON_BOTH_PATHS:
            continue
        endpoint = spec.endpoint_client is not None
        homes = [
            name
            for name, members in COMPOSITE_MEMBERS.items()
            if latitude in members and (COMPOSITES[name].endpoint_client is not None) == endpoint
        ]
        assert homes, f"{latitude} is in no composite judged the way it is alone"


def _lookups(fixture: dict[str, Any]) -> int:
    return sum(
        call.get("name") == "lookup_documents"
        for turn in fixture.get("agent", [])
        for call in turn.get("tool_calls", [])
    )


def _first_fails(fixture: dict[str, Any], script: str, answer: str) -> bool:
    turns = fixture.get(script, [])
    return bool(turns) and turns[0].get("kind") != answer


def test_no_scenario_fixture_mixes_the_two_path_changing_latitudes():
    """``composite_stricter``'s two latitudes meet in no scenario fixture: neither masks the other.

    A Knowledge Answer in a Run with two or more lookup calls is where the strict reading differs;
    a first Router or SemanticGuard answer that fails is where ``no_optional_retries`` does. A
    fixture with both would judge each only on the path the other changed: split the composite.
    """
    fixtures = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))]
    assert any(_lookups(f) >= 2 for f in fixtures)
    assert any(_first_fails(f, "router", "intent") for f in fixtures)
    both = [
        f["fixture_id"]
        for f in fixtures
        if _lookups(f) >= 2
        and (_first_fails(f, "router", "intent") or _first_fails(f, "semantic_guard", "verdict"))
    ]
    assert both == []


def test_compose_refuses_colliding_latitudes():
    """Two latitudes replacing one part cannot be composed (one would be silently dropped)."""
    with pytest.raises(CompositionError, match=r"TraceRecorder"):
        compose("x", ["no_ts_ms", "hang_up_on_cancel"])
    with pytest.raises(CompositionError, match=r"harness_class"):
        compose("x", ["random_run_ids", "wall_clock"])
    with pytest.raises(CompositionError, match=r"_the_lookup"):
        compose("x", ["single_lookup_call_strict", "failed_lookup_not_ready"])
    with pytest.raises(CompositionError, match=r"two or more"):
        compose("x", ["no_ts_ms"])
    spec = compose("x", ["own_prompts", "streams_flipped"])  # one shared endpoint client
    assert spec.endpoint_client is VARIANTS["own_prompts"].endpoint_client
    assert len(spec.patches) == len(VARIANTS["own_prompts"].patches) + 1


@pytest.mark.parametrize(
    ("composite", "member"),
    [(name, member) for name, members in COMPOSITE_MEMBERS.items() for member in members],
)
def test_composite_takes_every_latitude(composite, member):
    """The composite shows each member's witness: no member's part was lost in the composition."""
    fixture_id, shows = WITNESSES[member]
    assert shows(_run(composite, fixture_id)), f"{composite} does not take {member}"


def test_selftest_judges_a_composite_by_name_like_a_variant():
    """``srdh selftest --mutant composite_…`` judges the composite as a variant."""
    result = run_selftest(
        mutants=["composite_stricter"], suite=False, examples=0, reference=False, jobs=1
    )
    assert [(v.name, v.kind, v.killed) for v in result.mutants] == [
        ("composite_stricter", "variant", False)
    ]
    rule = result.mutants[0].rule  # each member's latitude, named
    assert all(f"{m}: {VARIANTS[m].rule}" in rule for m in COMPOSITE_MEMBERS["composite_stricter"])
    with pytest.raises(KeyError, match=r"composite_scripted"):
        run_selftest(mutants=["no_such_composite"], suite=False, examples=0, jobs=1)


_COMPOSITE_DEPTH = {"ci": 2, "dev": 1}
COMPOSITE_EXAMPLES = depth(**_COMPOSITE_DEPTH)
"""Generated examples per property (and any-fixture draws) after the pins, in a composite's
self-test: depth only. Any count above 0 plans every probe (``reference_probes``: 0 would drop
the properties and the invariants); the pins are the same at 1 and 2."""


def test_a_composite_faces_every_probe_at_either_depth():
    """Both profiles' counts plan the same probes for a composite: every scenario, every ``run``
    property and the invariants (the count changes only how many examples each property draws)."""
    scenarios = _scenarios()
    plans = [
        reference_probes(scenarios, suite=True, examples=n, invariants=True)
        for n in (depth(**_COMPOSITE_DEPTH, profile=profile) for profile in ("ci", "dev"))
    ]
    assert plans[0] == plans[1]
    assert {p.kind for p in plans[0]} == {"scenario", "property"}
    assert Probe("property", INVARIANTS) in plans[0]


@pytest.mark.parametrize("name", list(COMPOSITES))
def test_selftest_passes_composite(name):
    """The self-test judges the composite on every scenario, property and the invariants: it passes.

    Judged once: a Run the machine's load decided (a timely answer ended by the variant's 300 ms
    timeout) is run again by the adapter itself (``docs/decisions/races.md``).
    """
    result = run_selftest(mutants=[name], examples=COMPOSITE_EXAMPLES, reference=False, jobs=1)
    (verdict,) = result.mutants
    assert verdict.kind == "variant"
    assert verdict.error == ""
    assert not verdict.killed, f"false kill of {name}: {verdict.killing_scenarios}"
    assert verdict.as_expected
    assert result.passed
