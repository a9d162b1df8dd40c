"""A Scenario Fixture with every unbounded integer of its own contract at its largest valid value.

The contract bounds some integers below only (``minimum``, no ``maximum``); a fixture is an
I-JSON document (RFC 7493), so the largest valid value of each is 2**53 - 1
(``contracts.MAX_SAFE_INTEGER``).
:func:`unbounded_integers` reads them from the schema, so a new one fails the tests that pin the
list until :func:`at_largest` sets it too (docs/decisions/extreme-limits-11.md).
"""

from __future__ import annotations

import copy
from typing import Any, Final

from conformance.anyfixture._property import judge_any_fixture, pinned_any_fixtures
from contracts import MAX_SAFE_INTEGER, bundle_schema

LARGEST: Final = MAX_SAFE_INTEGER

SET: Final = frozenset(
    {
        "Limits.max_steps",
        "Limits.model_call_timeout_ms",
        "Limits.tool_timeout_ms",
        "DisconnectOn.occurrence",
        "RowsResponse.total_matched",
        "OversizeResponse.bytes",
    }
)
"""The members :func:`at_largest` sets, as ``Definition.member`` of the Scenario Fixture."""

_PREFIX: Final = "scenario-fixture."


def unbounded_integers() -> set[str]:
    """``Definition.member`` of every integer of the Scenario Fixture's own definitions with a
    ``minimum`` and no ``maximum`` (an ``enum`` bounds it too). The earlier Runs' integers are the
    diagnosis-run contract's (their ``seq`` reaches the bound in the pin ``history:greatest-seq``).
    """
    found: set[str] = set()
    for name, definition in bundle_schema("scenario-fixture")["$defs"].items():
        if not name.startswith(_PREFIX):
            continue
        for member, schema in (definition.get("properties") or {}).items():
            bounded = "maximum" in schema or "enum" in schema or "const" in schema
            if schema.get("type") == "integer" and not bounded:
                found.add(f"{name.removeprefix(_PREFIX)}.{member}")
    return found


def at_largest(fixture: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``fixture`` with every member of :data:`SET` at :data:`LARGEST`.

    The limits (the fixture must have no blocking turn or tool: no wait is meant to end), a client
    disconnect that never comes (on the Run's first ``MODEL_CALL_STARTED``'s 2**53 - 1-th
    occurrence; the fixture must have no client script), every ``rows`` result with items
    reporting that many matches, every ``oversize`` result that many bytes.
    """
    largest = copy.deepcopy(fixture)
    assert not largest.get("client"), "the fixture already scripts a disconnect"
    assert "block_until_cancelled" not in repr(largest), "a blocking turn waits for a timeout"
    largest["limits"].update(
        max_steps=LARGEST, model_call_timeout_ms=LARGEST, tool_timeout_ms=LARGEST
    )
    largest["client"] = {
        "disconnect_on": {"event_type": "MODEL_CALL_STARTED", "occurrence": LARGEST}
    }
    for script in largest["tools"].values():
        for response in [*script["responses"], script.get("default") or {}]:
            if response.get("kind") == "rows" and response.get("items"):
                response["total_matched"] = LARGEST
            elif response.get("kind") == "oversize":
                response["bytes"] = LARGEST
    return largest


def largest_fixture() -> dict[str, Any]:
    """The committed pin ``tool:oversize`` (a draft citing a tool whose rows and oversize payload
    it reads, then SUPPORTED) with every member of :data:`SET` at :data:`LARGEST`."""
    (pin,) = (f for f in pinned_any_fixtures() if "for tool:oversize:" in f["description"])
    largest = at_largest(pin)
    largest["fixture_id"] = "every-unbounded-integer-at-its-largest"
    return largest


def judged(adapter: Any, fixture: dict[str, Any]) -> dict[str, Any]:
    """Run ``fixture`` once through ``adapter``; every check of the any-fixture property passes."""
    (observation,), results = judge_any_fixture(adapter, fixture, 1)
    for result in results:
        result.require()
    return observation


def means_what_it_says(observation: dict[str, Any]) -> None:
    """Assert: no wait ended, no disconnect came, the count was copied, both payloads were cut."""
    trace = observation["trace"]
    types = [event["type"] for event in trace]
    assert "CANCEL_REQUESTED" not in types
    outcomes = {e["data"]["outcome"] for e in trace if e["type"] == "MODEL_CALL_FINISHED"}
    assert outcomes == {"VALID"}
    classified = [e["data"] for e in trace if e["type"] == "EVIDENCE_CLASSIFIED"]
    assert any(data["total_matched"] == LARGEST for data in classified), classified
    assert sum(data["truncated"] for data in classified) >= 2, classified  # rows and oversize
    assert [e["data"]["state"] for e in trace if e["type"] == "RUN_FINISHED"] == ["SUCCESS"]
