"""Tool arguments the Harness cannot canonicalize are refused before execution (field fault F3).

One limit (``contracts.MAX_SAFE_INTEGER``) is shared by the tool arguments schema, the
EvidenceGuard and the Verified Snapshot digest: no number, string or shape the model sends as tool
arguments can end a Run ``INTERNAL_ERROR``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contracts import MAX_DEPTH, MAX_SAFE_INTEGER, canonical_json, json_value_problem
from reference_harness._tools import TOOL_SPECS, valid_arguments
from tests._profile import depth

FIELD_FIXTURE = (
    Path(__file__).parents[1] / "field_inputs" / "unsafe-integer-tool-arguments.fixture.json"
)


def _field_fixture() -> dict[str, Any]:
    fixture: dict[str, Any] = json.loads(FIELD_FIXTURE.read_text(encoding="utf-8"))
    return fixture


def test_f3_unsafe_integer_arguments_are_refused_before_execution(h: Any) -> None:
    """F3: start_ms beyond 2^53: INVALID_ARGUMENTS, never executed, never INTERNAL_ERROR."""
    fixture = _field_fixture()
    draft_turn = fixture["agent"][-1]
    fixture["agent"].append(draft_turn)  # the one structural repair the refusal leads to
    observation = h.run(fixture)
    invocation = h.invocation(observation, "call_1")
    assert (invocation["status"], invocation["evidence_status"]) == ("ERROR", "ERROR")
    assert invocation["error"]["code"] == "INVALID_ARGUMENTS"
    assert h.data(observation, "EVIDENCE_CLASSIFIED") == []
    final = h.final_run(observation)
    assert final["state"] == "FALLBACK"
    assert final["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"


def test_the_arguments_schema_offered_to_the_model_states_the_limit() -> None:
    """The schema the model is offered carries the same maximum the Harness enforces."""
    time_range = TOOL_SPECS[0].parameters["properties"]["time_range"]["properties"]
    assert time_range["start_ms"]["maximum"] == MAX_SAFE_INTEGER
    assert time_range["end_ms"]["maximum"] == MAX_SAFE_INTEGER


_json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["\ud800", "a\udfffb", "\u2028"])
)
_any_json = st.recursive(
    _json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_near_limit = st.sampled_from(
    [0, 1, MAX_SAFE_INTEGER - 1, MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, 2**63, 10**30, -1]
)


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


tool_arguments = st.one_of(
    st.builds(
        lambda start, end, target, query: {
            "target": target,
            "time_range": {"start_ms": start, "end_ms": end},
            "query": query,
        },
        _near_limit | st.integers(),
        _near_limit | st.integers(),
        st.sampled_from(["checkout", "", "\ud83d", "x" * 300]),
        st.sampled_from(["error", "\udc00", "a\u2028b"]) | st.text(max_size=5),
    ),
    st.builds(
        lambda extra: {
            "target": "checkout",
            "time_range": {"start_ms": 1, "end_ms": 2},
            "query": "q",
            "extra": extra,
        },
        _any_json,
    ),
    st.builds(
        lambda depth: {
            "target": "checkout",
            "time_range": {"start_ms": 1, "end_ms": 2},
            "query": _nested(depth),
        },
        st.integers(MAX_DEPTH - 2, MAX_DEPTH + 3),
    ),
    st.dictionaries(st.text(max_size=4), _any_json, max_size=3),
)
"""Tool arguments objects as a model might send them: valid, near and past every limit."""


@given(tool_arguments | _any_json)
def test_valid_arguments_are_always_canonicalizable(arguments: object) -> None:
    """Whatever the Harness accepts, RFC 8785 can encode (so the snapshot digest cannot fail)."""
    if valid_arguments(arguments):
        assert json_value_problem(arguments) is None
        canonical_json(arguments)


@settings(
    max_examples=depth(ci=25, dev=8),  # depth is the profile's: tests/_profile.py
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(tool_arguments)
def test_no_generated_tool_argument_ends_a_run_internal_error(h: Any, arguments: object) -> None:
    """Refused (INVALID_ARGUMENTS, not executed) or executed; the Run never ends FAILED."""
    observation = h.run(
        h.fixture(
            agent=[
                h.tool_calls({"id": "call_1", "name": "search_logs", "arguments": arguments}),
                h.draft_turn(h.draft()),
                h.draft_turn(h.draft()),
            ]
        )
    )
    invocation = h.invocation(observation, "call_1")
    if valid_arguments(arguments):
        assert invocation["status"] == "READY"
    else:
        assert invocation["error"]["code"] == "INVALID_ARGUMENTS"
        assert h.data(observation, "EVIDENCE_CLASSIFIED") == []
    assert h.final_run(observation)["state"] in {"SUCCESS", "FALLBACK"}
