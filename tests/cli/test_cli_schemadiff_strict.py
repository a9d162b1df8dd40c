"""`srdh diff` judges a change under every contract that sees it, reads its inputs strictly.

Field fault F11 (a change seen through ``$ref``) as a kind: transitive and fragment references,
each referrer in its own direction; ``anyOf``/``oneOf`` branches matched independent of order;
values printed as JSON; inputs meta-validated (JSON Schema 2020-12) and contracts named by ``$id``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.cli import EXIT_FAILED, EXIT_SETUP, app
from conformance.schemadiff import Direction, SchemaDiffError, diff_paths, diff_schemas

if TYPE_CHECKING:
    from typer.testing import CliRunner

DIFF_INPUTS = Path(__file__).parents[1] / "field_inputs" / "diff-through-ref"
BASE = "https://srdh.dev/schemas/v1/"


def test_f11_a_change_seen_through_ref_breaks_the_referring_contract(runner: CliRunner) -> None:
    """F11: query.maxLength 1024 -> 256 is compatible for query-scope (EMIT) but breaking for
    diagnosis-draft (BOTH), which reads it through $ref."""
    result = runner.invoke(
        app, ["diff", str(DIFF_INPUTS / "old"), str(DIFF_INPUTS / "new"), "--json"]
    )
    assert result.exit_code == EXIT_FAILED, result.output
    changes = json.loads(result.stdout)["changes"]
    by_contract = {c["contract"]: c for c in changes}
    assert by_contract["query-scope"]["breaking"] is False
    draft = by_contract["diagnosis-draft"]
    assert (draft["rule_id"], draft["direction"], draft["breaking"]) == ("SD007", "BOTH", True)
    assert draft["pointer"] == "/$defs/Analysis/properties/scope"
    assert "query-scope:/properties/query/maxLength" in draft["detail"]


def _schema(name: str, **body: object) -> dict[str, object]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE + f"{name}.schema.json",
        **body,
    }


def _write_dir(root: Path, schemas: dict[str, dict[str, object]]) -> Path:
    root.mkdir()
    for file_name, schema in schemas.items():
        (root / file_name).write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return root


def _tree(max_x: int) -> dict[str, dict[str, object]]:
    """a: $defs X (bounded) and Y; b reads a#/$defs/X; c reads b; d reads a#/$defs/Y."""
    return {
        "a.schema.json": _schema(
            "a",
            type="object",
            **{"$defs": {"X": {"type": "string", "maxLength": max_x}, "Y": {"type": "integer"}}},
        ),
        "b.schema.json": _schema(
            "b", type="object", properties={"x": {"$ref": "a.schema.json#/$defs/X"}}
        ),
        "c.schema.json": _schema("c", type="array", items={"$ref": BASE + "b.schema.json"}),
        "d.schema.json": _schema("d", properties={"y": {"$ref": "a.schema.json#/%24defs/Y"}}),
    }


@pytest.mark.parametrize(
    ("direction_of_c", "breaking_for_c"), [(Direction.READ, True), (Direction.EMIT, False)]
)
def test_references_are_followed_transitively_each_in_its_own_direction(
    tmp_path: Path, direction_of_c: Direction, *, breaking_for_c: bool
) -> None:
    """Tightening a#/$defs/X reaches b and (through b) c, not d; each in its own direction."""
    old = _write_dir(tmp_path / "old", _tree(10))
    new = _write_dir(tmp_path / "new", _tree(5))
    directions = {
        "a": Direction.EMIT,
        "b": Direction.BOTH,
        "c": direction_of_c,
        "d": Direction.BOTH,
    }
    changes = diff_paths(old, new, directions=directions)
    seen = {(c.contract, c.pointer, c.breaking) for c in changes}
    assert seen == {
        ("a", "/$defs/X/maxLength", False),
        ("b", "/properties/x", True),
        ("c", "/items", breaking_for_c),
    }


_BRANCHES = [
    {"type": "null"},
    {"type": "string", "maxLength": 8},
    {"type": "integer", "minimum": 0},
    {"type": "object", "properties": {"kind": {"const": "A"}}, "required": ["kind"]},
    {"type": "object", "properties": {"kind": {"const": "B"}, "n": {"type": "integer"}}},
    {"$ref": "#/$defs/Other"},
    {"type": "array", "items": {"type": "string"}},
]


@given(
    st.sampled_from(["anyOf", "oneOf"]),
    st.lists(st.sampled_from(range(len(_BRANCHES))), min_size=1, unique=True),
    st.randoms(use_true_random=False),
)
def test_branches_are_matched_independent_of_order(
    keyword: str, picked: list[int], random: Any
) -> None:
    """Reordering branches is no change; changing one reordered branch is that one change only.

    Under ``oneOf`` that change is ``oneOf-overlap-changed`` unless the branches are provably
    disjoint: the unresolvable ``$ref`` (5) may overlap anything, and the two object branches
    (3, 4) may overlap since 4 does not require its ``kind``.
    """
    old = {keyword: [_BRANCHES[i] for i in picked]}
    shuffled = [_BRANCHES[i] for i in picked]
    random.shuffle(shuffled)
    assert diff_schemas(old, {keyword: shuffled}, contract="x", direction=Direction.BOTH) == []
    if any("maxLength" in b for b in shuffled):
        changed = [dict(b, maxLength=4) if "maxLength" in b else b for b in shuffled]
        changes = diff_schemas(old, {keyword: changed}, contract="x", direction=Direction.BOTH)
        overlap = keyword == "oneOf" and (5 in picked or {3, 4} <= set(picked))
        expected = "oneOf-overlap-changed" if overlap else "max-decreased"
        assert [c.rule.name for c in changes] == [expected]


_PYTHON_REPR = re.compile(r"'|\bTrue\b|\bFalse\b|\bNone\b")

_VALUE_PAIRS = [
    (
        {"type": "string", "pattern": "^a$"},
        {"type": "string", "pattern": "^b$"},
        'pattern "^a$" -> "^b$"',
    ),
    ({"type": "object"}, {"type": "object", "additionalProperties": False}, "true -> false"),
    (
        {"properties": {"a'b": {}}, "additionalProperties": False},
        {"additionalProperties": False},
        'property "a\'b" removed',
    ),
    ({"maxLength": 3}, {}, "maxLength 3 -> null"),
    ({"type": ["string", "null"]}, {"type": "string"}, 'type ["null", "string"] -> ["string"]'),
    ({"required": []}, {"required": ["n"]}, 'property "n" is now required'),
    ({"const": None}, {"const": True}, "const null -> true"),
]


@pytest.mark.parametrize(("old", "new", "detail"), _VALUE_PAIRS)
def test_values_in_details_are_written_as_json(old: dict, new: dict, detail: str) -> None:
    """Details quote values as JSON (double quotes, true/false/null), never as Python reprs."""
    (change,) = diff_schemas(old, new, contract="x", direction=Direction.BOTH)
    assert change.detail == detail
    assert not _PYTHON_REPR.search(change.detail.replace("a'b", ""))


@pytest.mark.parametrize(
    "bad",
    [{"type": 5}, {"minLength": -1}, {"required": "name"}, {"properties": []}],
    ids=["type-5", "negative-minLength", "required-string", "properties-array"],
)
def test_inputs_that_are_not_json_schemas_are_refused(
    runner: CliRunner, tmp_path: Path, bad: dict
) -> None:
    """Meta-validation: a file that is not a JSON Schema 2020-12 is a setup error naming it."""
    good = tmp_path / "good.schema.json"
    good.write_text("{}", encoding="utf-8")
    broken = tmp_path / "broken.schema.json"
    broken.write_text(json.dumps(bad), encoding="utf-8")
    result = runner.invoke(app, ["diff", str(good), str(broken)])
    assert result.exit_code == EXIT_SETUP
    assert f"{broken}: not a valid JSON Schema 2020-12 at /" in result.stderr


def test_a_schema_file_with_duplicate_members_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    """Inputs are read by the strict reader: a duplicate member name is a setup error."""
    good = tmp_path / "good.schema.json"
    good.write_text("{}", encoding="utf-8")
    dup = tmp_path / "dup.schema.json"
    dup.write_text('{\n  "maxLength": 5,\n  "maxLength": 500\n}', encoding="utf-8")
    result = runner.invoke(app, ["diff", str(good), str(dup)])
    assert result.exit_code == EXIT_SETUP
    assert "dup.schema.json: line 3: not I-JSON: duplicate member name" in result.stderr


def test_contracts_are_named_and_paired_by_id(tmp_path: Path) -> None:
    """A renamed file with the same $id is the same contract; two files with one $id: an error."""
    old = _write_dir(tmp_path / "old", {"old-name.schema.json": _schema("scope", maxLength=5)})
    new = _write_dir(tmp_path / "new", {"new-name.schema.json": _schema("scope", maxLength=9)})
    (change,) = diff_paths(old, new, directions={"scope": Direction.READ})
    assert (change.contract, change.rule.name, change.breaking) == ("scope", "max-increased", False)
    (new / "copy.schema.json").write_text(json.dumps(_schema("scope")), encoding="utf-8")
    with pytest.raises(SchemaDiffError, match="names contract 'scope' by its"):
        diff_paths(old, new, directions={})
