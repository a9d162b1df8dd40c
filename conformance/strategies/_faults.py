"""Random extra faults over any generated fixture, for the global invariants.

A fault keeps the fixture self-consistent (every scripted turn is still consumed by a conforming
Harness) while adding trouble the scenario did not ask for: a Router answer to retry, a tool step
whose backend fails with secret text, answers with an in-band error or an oversize payload,
tight projection limits, an unavailable or unsupporting SemanticGuard, an agent that swallows
cancellation.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

from hypothesis import strategies as st

from conformance.builders import (
    error_turn,
    failure,
    in_band_error,
    raw_turn,
    supported_turn,
    tool_call,
    tool_calls_turn,
    tool_script,
    unsupported_turn,
)
from conformance.checks import expected_outcome, presented_calls
from conformance.strategies._citation_pins import citation_pinned_fixtures
from conformance.strategies._evidence_pins import evidence_pinned_fixtures
from conformance.strategies._runtime_faults import (
    RUNTIME_FAULTS,
    apply_runtime_fault,
    runtime_pinned_fixtures,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["FAULTS", "any_fixtures", "pinned_fixtures", "with_faults"]

Fixture = dict[str, Any]

FAULTS: Final = (
    "router_retry",
    "failing_tool",
    "in_band_tool",
    "oversize_tool",
    "tight_limits",
    "review_unavailable",
    "review_unsupported",
    "swallow_cancellation",
    *RUNTIME_FAULTS,
)
"""The extra faults :func:`with_faults` may add."""

_SECRET: Final = "backend exploded at 10.0.0.7: token sk-live-0000"  # noqa: S105 - fake, must not leak


def _is_knowledge(fixture: Fixture) -> bool:
    return any(t.get("intent") == "KNOWLEDGE_QUERY" for t in fixture["router"])


def _shift_disconnect(fixture: Fixture) -> None:
    target = fixture.get("client", {}).get("disconnect_on")
    if target is not None and target["event_type"] == "MODEL_CALL_STARTED":
        target["occurrence"] += 1


def _extra_step(fixture: Fixture, tool: str, response: dict[str, object]) -> bool:
    taken = {str(c.value) for c in presented_calls(fixture)}
    call_id = next(f"fault_{n}" for n in range(1, 100) if f"fault_{n}" not in taken)
    if _is_knowledge(fixture):
        return False
    fixture["agent"].insert(0, tool_calls_turn([tool_call(call_id, tool)]))
    script = fixture["tools"].setdefault(tool, tool_script())
    script.setdefault("responses", []).insert(0, response)
    _shift_disconnect(fixture)
    return True


def _lookup_rows(fixture: Fixture) -> int:
    """Most rows one lookup returns: a tighter max_items would turn cited documents fabricated."""
    script = fixture["tools"].get("lookup_documents") or {}
    responses = [*script.get("responses", []), script.get("default") or {}]
    return max((len(r.get("items", [])) for r in responses if r.get("kind") == "rows"), default=0)


def _reviewable_ids(fixture: Fixture) -> list[str]:
    """The analysis (or item) ids of the submission that reaches the SemanticGuard, if known."""
    for verdict in expected_outcome(fixture).verdicts:
        document = verdict.document
        if verdict.valid and isinstance(document, dict):
            key, field = (
                ("items", "item_id") if "items" in document else ("analyses", "analysis_id")
            )
            return [str(entry[field]) for entry in document.get(key, [])]
    return []


def _only_supported_review(fixture: Fixture) -> bool:
    return bool(fixture["semantic_guard"] == [supported_turn()])


def _apply(draw: st.DrawFn, fixture: Fixture, fault: str) -> bool:  # noqa: PLR0911 - one per fault
    if fault in RUNTIME_FAULTS:
        return apply_runtime_fault(draw, fixture, fault)
    if fault == "router_retry":
        fixture["router"].insert(0, draw(st.sampled_from([raw_turn("DIAGNOSE"), error_turn()])))
        _shift_disconnect(fixture)
        return True
    if fault == "failing_tool":
        return _extra_step(
            fixture, draw(st.sampled_from(["search_logs", "list_alerts"])), failure(_SECRET)
        )
    if fault == "in_band_tool":
        return _extra_step(fixture, "query_metrics", in_band_error("UPSTREAM_5XX"))
    if fault == "oversize_tool":
        size = draw(st.integers(50_000, 400_000))
        return _extra_step(fixture, "search_logs", {"kind": "oversize", "bytes": size})
    if fault == "tight_limits":
        fixture["limits"] = {
            **fixture["limits"],
            "max_items": max(draw(st.integers(1, 3)), _lookup_rows(fixture)),
            "max_item_chars": draw(st.integers(8, 64)),
        }
        return True
    if not _only_supported_review(fixture):
        return False
    if fault == "review_unavailable":
        fixture["semantic_guard"] = [error_turn(), error_turn()]
        return True
    if fault == "review_unsupported":
        reviewable = _reviewable_ids(fixture) or ["i1" if _is_knowledge(fixture) else "a1"]
        named = draw(st.lists(st.sampled_from(reviewable), min_size=1, unique=True))
        fixture["semantic_guard"] = [unsupported_turn(named)]  # often only some: partial support
        return True
    return False


def _swallow(fixture: Fixture) -> bool:
    changed = False
    for turn in fixture["agent"]:
        if turn.get("kind") == "block_until_cancelled":
            turn["kind"] = "ignore_cancellation"
            changed = True
    return changed


@st.composite
def with_faults(draw: st.DrawFn, fixtures: st.SearchStrategy[Fixture]) -> Fixture:
    """Draw a fixture from ``fixtures`` and add 0-3 faults of :data:`FAULTS` that fit it.

    ``description`` lists the faults applied.
    """
    fixture = copy.deepcopy(draw(fixtures))
    chosen = draw(st.lists(st.sampled_from(FAULTS), max_size=3, unique=True))
    chosen.sort(key=lambda fault: fault in RUNTIME_FAULTS)  # runtime faults last: they trim
    applied = []
    for fault in chosen:
        done = (
            _swallow(fixture) if fault == "swallow_cancellation" else _apply(draw, fixture, fault)
        )
        if done:
            applied.append(fault)
    fixture["description"] = f"faults: {', '.join(applied) or 'none'}"
    return fixture


def any_fixtures(
    strategies: list[Callable[[], st.SearchStrategy[Fixture]]],
) -> st.SearchStrategy[Fixture]:
    """A mix of every strategy in ``strategies``, with random extra faults."""
    return with_faults(st.one_of([make() for make in strategies]))


def pinned_fixtures() -> list[Fixture]:
    """Hand-built fixtures every invariants run starts with (Hypothesis explicit examples).

    Each puts one fault at its limit: the SemanticGuard answers invalid twice (the retry policy's
    last attempt), the Router answers an invalid intent once, a tool fails with secret text, the
    agent swallows a cancellation; then one per evidence kind
    (:func:`~conformance.strategies._evidence_pins.evidence_pinned_fixtures`) and per citation
    kind (:func:`~conformance.strategies._citation_pins.citation_pinned_fixtures`).
    """
    from conformance.builders import (  # noqa: PLC0415 - only needed when pinning
        analysis,
        diagnosis_draft,
        diagnosis_fixture,
        disconnect_during_agent_turn,
        draft_turn,
        ignores_cancellation,
        intent_turn,
        invalid_verdict_turn,
        rows,
    )

    draft = diagnosis_draft([analysis("a1", "OBSERVATION", ["call_1"])])
    steps = [[tool_call("call_1")]]
    tools = {"search_logs": tool_script(rows("checkout error rate 12%"))}
    twice_invalid = diagnosis_fixture(
        "pinned-review-invalid-twice",
        steps=steps,
        draft=draft,
        reviews=[invalid_verdict_turn(), invalid_verdict_turn()],
        tools=tools,
    )
    router_retry = diagnosis_fixture(
        "pinned-router-retry", steps=steps, draft=draft, reviews=[supported_turn()], tools=tools
    )
    router_retry["router"] = [raw_turn("DIAGNOSE"), intent_turn("DIAGNOSIS")]
    failing = diagnosis_fixture(
        "pinned-failing-tool",
        steps=[[tool_call("call_1"), tool_call("call_2", "list_alerts")]],
        draft=draft,
        reviews=[supported_turn()],
        tools={**tools, "list_alerts": tool_script(failure(_SECRET))},
    )
    swallowed = diagnosis_fixture(
        "pinned-swallowed-cancellation",
        steps=steps,
        submission_turn=ignores_cancellation(draft_turn(draft)),
        tools=tools,
        client=disconnect_during_agent_turn(1),
    )
    return [
        twice_invalid,
        router_retry,
        failing,
        swallowed,
        *_model_input_fixtures(),
        *runtime_pinned_fixtures(),
        *evidence_pinned_fixtures(),
        *citation_pinned_fixtures(),
    ]


def _model_input_fixtures() -> list[Fixture]:
    """Canaries for what a model call may receive (``conformance.checks.check_model_inputs``).

    Earlier Runs in every ineligible state plus another session's Run of the selected ``seq``
    (none of their texts may reach a model), and backend rows beyond the bounded projection.
    """
    from conformance.builders import FixtureBuilder  # noqa: PLC0415 - only needed when pinning

    earlier = FixtureBuilder()
    for seq, state in enumerate(("SUCCESS", "FAILED", "CANCELLED", "FALLBACK"), start=1):
        earlier.add_prior_run(seq, "DIAGNOSIS", state)
    earlier.add_other_session_run(1, "Why is the other tenant's billing job stuck?")
    earlier.ask("And what about the payment service?")
    raw = FixtureBuilder()
    raw.returns_rows_beyond_projection("search_logs")
    for builder in (earlier, raw):
        builder.add_call(1, "search_logs", "call_1")
        builder.submit(builder.observing_draft(["call_1"]))
        builder.review("supports")
    earlier.returns_lines("search_logs")
    return [earlier.build("pinned-earlier-runs-canaries"), raw.build("pinned-raw-rows-canaries")]
