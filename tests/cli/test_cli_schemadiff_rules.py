"""Each schema-diff rule, triggered by a pair of schemas, and the direction cases."""

from __future__ import annotations

import pytest

from conformance.schemadiff import RULES, Direction, diff_schemas


def _obj(props: dict[str, object], required: list[str] | None = None, **extra: object) -> dict:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": props,
        "required": required or [],
        **extra,
    }


_S = {"type": "string"}

# (rule id, old schema, new schema): the minimal pair that triggers exactly that rule.
PAIRS = [
    ("SD001", _obj({"a": _S, "b": _S}), _obj({"a": _S})),
    ("SD002", _obj({"a": _S}), _obj({"a": _S}, ["a"])),
    ("SD003", {"enum": ["A", "B"]}, {"enum": ["A"]}),
    ("SD004", {"enum": ["A"]}, {"enum": ["A", "B"]}),
    ("SD005", {"type": ["string", "null"]}, {"type": "string"}),
    ("SD006", {"type": "object"}, {"type": "object", "additionalProperties": False}),
    ("SD007", {"type": "string", "maxLength": 10}, {"type": "string", "maxLength": 5}),
    ("SD008", {"type": "array", "minItems": 0}, {"type": "array", "minItems": 1}),
    ("SD009", {"type": "string", "pattern": "^a$"}, {"type": "string", "pattern": "^b$"}),
    ("SD010", _obj({"a": _S}), _obj({"a": _S, "b": _S})),
    ("SD011", _obj({"a": _S}, ["a"]), _obj({"a": _S})),
    ("SD012", {"type": "string"}, {"type": ["string", "null"]}),
    ("SD013", {"type": "object", "additionalProperties": False}, {"type": "object"}),
    ("SD014", {"type": "integer", "maximum": 5}, {"type": "integer", "maximum": 9}),
    ("SD015", {"type": "integer", "minimum": 5}, {"type": "integer", "minimum": 1}),
    ("SD016", {"const": "1.0"}, {"const": "2.0"}),
    ("SD017", {"type": "array"}, {"type": "array", "uniqueItems": True}),
    ("SD018", {"type": "array", "uniqueItems": True}, {"type": "array"}),
    ("SD019", {"oneOf": [{"type": "string"}]}, {"oneOf": [{"type": "string"}, {"type": "null"}]}),
    ("SD020", {"oneOf": [{"type": "string"}, {"type": "null"}]}, {"oneOf": [{"type": "string"}]}),
    ("SD023", {"$id": "https://srdh.dev/schemas/v1/x"}, {"$id": "https://srdh.dev/schemas/v1/y"}),
    ("SD024", {"type": "string", "description": "a"}, {"type": "string", "description": "b"}),
    (
        "SD025",
        {"$id": "https://srdh.dev/schemas/v1/x.schema.json"},
        {"$id": "https://srdh.dev/schemas/v2/x.schema.json"},
    ),
    (
        "SD026",
        {"oneOf": [{"type": "number"}]},
        {"oneOf": [{"type": "number"}, {"type": "integer"}]},
    ),
    (
        "SD027",
        {"not": {"type": "string", "maxLength": 9}},
        {"not": {"type": "string", "maxLength": 5}},
    ),
    (
        "SD028",
        {"not": {"type": "string", "maxLength": 5}},
        {"not": {"type": "string", "maxLength": 9}},
    ),
    (
        "SD029",
        {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
        {"if": {"required": ["c"]}, "then": {"required": ["b"]}},
    ),
    ("SD030", {"type": "string"}, {"type": "string", "not": {"const": "x"}}),
    ("SD031", {"type": "string", "not": {"const": "x"}}, {"type": "string"}),
    ("SD999", {"type": "string", "$dynamicRef": "#a"}, {"type": "string", "$dynamicRef": "#b"}),
]


@pytest.mark.parametrize(("rule_id", "old", "new"), PAIRS, ids=[p[0] for p in PAIRS])
def test_each_rule_is_triggered_by_its_pair(rule_id: str, old: dict, new: dict) -> None:
    """The minimal pair for a rule yields exactly one change, classified under that rule id."""
    changes = diff_schemas(old, new, contract="x", direction=Direction.BOTH)
    assert [c.rule.rule_id for c in changes] == [rule_id]


def test_every_rule_has_a_triggering_pair_or_is_file_level() -> None:
    """Every rule in the registry is covered by a pair here, except the two file-level rules."""
    covered = {p[0] for p in PAIRS} | {"SD021", "SD022"}
    assert {r.rule_id for r in RULES.values()} == covered


def test_rule_ids_are_unique_and_stable_in_form() -> None:
    """Rule ids are distinct and shaped SD + three digits."""
    ids = [r.rule_id for r in RULES.values()]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("SD") and len(i) == 5 and i[2:].isdigit() for i in ids)


# Direction cases: (rule id, breaking when READ, breaking when EMIT).
DIRECTION_CASES = [
    ("SD002", True, False),  # required-added: producers of what we read must now send it
    ("SD003", True, False),  # enum-value-removed: producers may still send the old value
    ("SD004", False, True),  # enum-value-added: consumers of what we emit may not know it
    ("SD011", False, True),  # required-removed: consumers relied on the field
    ("SD005", True, False),
    ("SD012", False, True),
    ("SD001", True, True),  # property-removed breaks both sides
    ("SD024", False, False),  # annotations never break
    ("SD999", True, True),  # unclassified is breaking everywhere
]


@pytest.mark.parametrize(("rule_id", "read", "emit"), DIRECTION_CASES, ids=str)
def test_direction_decides_breaking(rule_id: str, read: bool, emit: bool) -> None:
    """A change breaks READ contracts when it tightens and EMIT contracts when it loosens."""
    old, new = next((o, n) for i, o, n in PAIRS if i == rule_id)
    for direction, expected in ((Direction.READ, read), (Direction.EMIT, emit)):
        (change,) = diff_schemas(old, new, contract="x", direction=direction)
        assert change.breaking is expected, direction
    (both,) = diff_schemas(old, new, contract="x", direction=Direction.BOTH)
    assert both.breaking is (read or emit or rule_id == "SD999")


def test_pointer_names_the_changed_keyword_inside_nested_schemas() -> None:
    """A nested enum change carries the JSON pointer of that enum in the new schema."""
    old = _obj({"state": {"enum": ["RUNNING", "SUCCESS"]}})
    new = _obj({"state": {"enum": ["RUNNING"]}})
    (change,) = diff_schemas(old, new, contract="diagnosis-run", direction=Direction.EMIT)
    assert change.pointer == "/properties/state/enum"
    assert "SUCCESS" in change.detail


def test_discriminated_branches_are_matched_by_their_const_not_position() -> None:
    """Reordering oneOf variants tagged by a `type` const is no change at all."""

    def variant(tag: str) -> dict:
        return _obj({"type": {"const": tag}}, ["type"])

    old = {"oneOf": [variant("A"), variant("B")]}
    new = {"oneOf": [variant("B"), variant("A")]}
    assert diff_schemas(old, new, contract="x", direction=Direction.BOTH) == []


def test_integer_to_number_widens_and_number_to_integer_narrows() -> None:
    """`integer` is a subset of `number`, so the two directions classify oppositely."""
    widen = diff_schemas(
        {"type": "integer"}, {"type": "number"}, contract="x", direction=Direction.READ
    )
    narrow = diff_schemas(
        {"type": "number"}, {"type": "integer"}, contract="x", direction=Direction.READ
    )
    assert [c.rule.name for c in widen] == ["type-widened"]
    assert [c.rule.name for c in narrow] == ["type-narrowed"]


def test_identical_schemas_have_no_changes() -> None:
    """The same schema on both sides gives an empty diff."""
    schema = _obj({"a": {"enum": ["X"]}}, ["a"])
    assert diff_schemas(schema, dict(schema), contract="x", direction=Direction.BOTH) == []
