"""docs/implementers.md agrees with the kit: its lists are derived here from the contract schemas,
the generated models, the rule registry and the checks, never copied.

When a helper adds a rule, an event type, a capability, a frame, a skip reason or an error code,
these tests fail until the page says what it means; when the page names something the kit does
not know (a renamed rule id, a removed capability), they fail too.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance.checks import ATTEMPT_POLICY, RULES, expected_previous_turn
from contracts import Capability, schema_dir

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "implementers.md"
INVARIANTS = ROOT / "conformance" / "checks" / "_invariants.py"
_RULE_ID = re.compile(r"R\d+\.[a-z0-9-]+")


@cache
def _text() -> str:
    return DOC.read_text(encoding="utf-8")


@cache
def _schema(name: str) -> dict[str, Any]:
    document = json.loads((schema_dir() / f"{name}.schema.json").read_text("utf-8"))
    assert isinstance(document, dict)
    return document


def _strings(node: object) -> set[str]:
    """Every ``enum`` and ``const`` string of a schema, at any depth."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            elif key == "const" and isinstance(value, str):
                found.add(value)
            else:
                found |= _strings(value)
    elif isinstance(node, list):
        for item in node:
            found |= _strings(item)
    return found


def _vocabulary() -> set[str]:
    """Every enum and const string of every kit schema: the words the contracts define."""
    words: set[str] = set()
    for path in schema_dir().glob("*.schema.json"):
        words |= _strings(json.loads(path.read_text("utf-8")))
    return words


def _table(header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header``."""
    lines = _text().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(header)]
    assert len(starts) == 1, f"expected one table headed {header!r}, found {len(starts)}"
    rows = []
    for line in lines[starts[0] + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(
            [cell.strip().strip("`").strip() for cell in line.strip().strip("|").split("|")]
        )
    return rows


def _enum(schema: str, *path: str) -> set[str]:
    node: Any = _schema(schema)
    for key in path:
        node = node[key]
    return set(node["enum"])


def _event_types() -> set[str]:
    trace = _schema("run-trace-event")
    names = [ref["$ref"].rsplit("/", 1)[1] for ref in trace["oneOf"]]
    return {trace["$defs"][name]["properties"]["type"]["const"] for name in names}


def test_the_rule_table_lists_every_registered_rule_once_and_nothing_else() -> None:
    """The rule-id table holds exactly the ids of the RULES registry, each once."""
    ids = [row[0] for row in _table("| rule id |")]
    assert sorted(ids) == sorted(RULES)
    assert len(ids) == len(set(ids))


def test_the_global_column_marks_exactly_the_rules_the_global_invariants_check() -> None:
    """Rules marked global are the ids ``check_global_invariants`` (its module) can report."""
    source = INVARIANTS.read_text(encoding="utf-8")
    in_invariants = {rule_id for rule_id in _RULE_ID.findall(source) if rule_id in RULES}
    marked = {row[0] for row in _table("| rule id |") if row[1] == "global"}
    assert marked == in_invariants


def test_every_rule_id_the_page_names_is_registered() -> None:
    """No rule id anywhere on the page is unknown to the registry."""
    named = set(_RULE_ID.findall(_text()))
    assert named - set(RULES) == set()


def test_the_event_order_lists_every_trace_event_type_once() -> None:
    """Each event type of the run-trace-event contract has exactly one place in the order."""
    listed = []
    for row in _table("| # | event |"):
        listed.extend(part.strip().strip("`") for part in re.split(r" or | / ", row[1]))
    assert sorted(listed) == sorted(_event_types())
    numbers = [int(row[0]) for row in _table("| # | event |")]
    assert numbers == list(range(1, len(numbers) + 1))


def test_the_rules_named_as_order_checks_are_registered() -> None:
    """The "checked" column names only registered rules."""
    for row in _table("| # | event |"):
        for rule_id in _RULE_ID.findall(row[3]):
            assert rule_id in RULES, row


def test_the_capability_table_is_the_capability_enum() -> None:
    """Every Capability of the adapter-message contract is explained, and nothing else."""
    listed = [row[0] for row in _table("| capability |")]
    assert sorted(listed) == sorted(c.value for c in Capability)
    assert set(listed) == _enum("adapter-message", "$defs", "Capability")


def test_the_frame_table_is_the_client_frame_enum() -> None:
    """Every SSE frame name of the run-observation contract is explained, and nothing else."""
    listed = {row[0] for row in _table("| frame |")}
    assert listed == _enum("run-observation", "$defs", "ClientFrame", "properties", "event")


def test_the_observation_error_table_is_the_error_code_enum() -> None:
    """Every ``observation.error.code`` is explained, and nothing else."""
    listed = {row[0] for row in _table("| code | when |")}
    codes = _enum("run-observation", "$defs", "ObservationError", "properties", "code")
    assert listed == codes


def test_the_retry_table_is_the_attempt_policy_the_checks_enforce() -> None:
    """The attempts per component are the global invariants' ATTEMPT_POLICY."""
    listed = {row[0]: int(row[1]) for row in _table("| component | attempts |")}
    assert listed == ATTEMPT_POLICY


def _documented_reason(intent: str, state: str) -> str:
    for condition, reason in _table("| prior Run | skip reason |"):
        kind, _, value = condition.partition(" ")
        if (kind, value) in {("state", state), ("intent", intent)}:
            return reason
    pytest.fail(f"the page gives no skip reason for intent {intent}, state {state}")


def test_the_skip_reason_precedence_is_the_checks_precedence() -> None:
    """For every intent x state of a skipped prior Run, the page's first matching row gives the
    reason the previous-turn check expects; the table lists every SkipReason."""
    reasons = _enum("run-trace-event", "$defs", "SkipReason")
    assert {row[1] for row in _table("| prior Run | skip reason |")} == reasons
    for intent in sorted(_enum("diagnosis-run", "$defs", "Intent")):
        for state in sorted(_enum("diagnosis-run", "$defs", "RunState")):
            if (intent, state) == ("DIAGNOSIS", "SUCCESS"):
                continue
            prior = {"run_id": "p1", "session_id": "s", "seq": 1, "intent": intent, "state": state}
            _, skipped = expected_previous_turn({"session_id": "s", "prior_runs": [prior]})
            assert skipped == [{"run_id": "p1", "reason": _documented_reason(intent, state)}], (
                intent,
                state,
            )


def test_the_adapter_message_types_are_all_named() -> None:
    """The five adapter message types appear in backticks."""
    schema = _schema("adapter-message")
    names = [ref["$ref"].rsplit("/", 1)[1] for ref in schema["oneOf"]]
    for name in names:
        message_type = schema["$defs"][name]["properties"]["type"]["const"]
        assert f"`{message_type}`" in _text(), message_type


def test_every_contract_word_on_the_page_is_a_word_of_the_contracts() -> None:
    """Each backticked UPPER_CASE word, and each UPPER_SNAKE word anywhere, is an enum or const
    of a kit schema: the page invents no event, state, code or capability."""
    vocabulary = _vocabulary()
    backticked = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", _text()))
    snake = set(re.findall(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", _text()))
    assert (backticked | snake) - vocabulary == set()


def test_the_page_is_linked_from_the_readme() -> None:
    """A new implementer finds the page from the README."""
    assert "docs/implementers.md" in (ROOT / "README.md").read_text(encoding="utf-8")
