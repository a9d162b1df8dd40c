"""The keyword-break outlines present, for every keyword of a model-written contract, a
document breaking that keyword alone, and their rows are what the schemas generate.

A Harness that skips one keyword of a frozen schema (a statement's maxLength, a verdict's
uniqueItems, a NEGATIVE_OBSERVATION's required scope, an argument's minimum) must meet a row that
breaks it (docs/decisions/red-team-6.md, "One keyword of a frozen contract").
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.builders import FixtureBuilder
from conformance.keywordbreaks import (
    ARGUMENTS,
    CONTRACTS,
    base_documents,
    break_at,
    keyword_breaks,
)
from contracts import load_json_file, schema_path, validator_for

FEATURES = Path(__file__).resolve().parents[2] / "features"

OUTLINES = {
    "diagnosis-draft": (
        "04-diagnosis-draft-shall-expose-typed-report-structure.feature",
        "A draft and its repair each break one keyword of the diagnosis-draft schema",
    ),
    "semantic-verdict": (
        "09-retry-attempts-shall-be-owned-by-harness.feature",
        "Two SemanticGuard answers each break one keyword of the verdict schema",
    ),
    ARGUMENTS: (
        "03-invocation-status-and-evidence-status-shall-be-independent.feature",
        "Two tool calls each break one keyword of the arguments schema",
    ),
    "knowledge-answer": (
        "05-knowledge-answers-shall-use-exact-rag-bindings.feature",
        "A knowledge answer and its repair each break one keyword of the knowledge-answer schema",
    ),
}
"""Contract -> the feature file and the outline presenting its breaks."""

_STRUCTURE = {"properties", "items", "$ref", "allOf", "if", "then", "else", "$defs"}
_ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples"}


def _bases(contract: str) -> list[Any]:
    """The bases the outlines' Given steps build (call_1 search_logs, call_2 query_metrics)."""
    builder = FixtureBuilder()
    builder.ask("Why is checkout failing?")
    builder.add_call(1, "search_logs", "call_1")
    builder.add_call(1, "query_metrics", "call_2")
    if contract == ARGUMENTS:
        arguments: Any = builder.steps[1][0]["arguments"]
        return [copy.deepcopy(arguments)]
    scopes = {call_id: builder.scope_of(call_id) for call_id in ("call_1", "call_2")}
    return base_documents(contract, scopes)


def _expected_rows(contract: str) -> list[str]:
    found = keyword_breaks(contract, _bases(contract))
    cells = [b.cell for b in found]
    if len(cells) % 2:
        cells.append(cells[0])
    return [f"| {a} | {b} |" for a, b in zip(cells[0::2], cells[1::2], strict=True)]


def _outline_rows(contract: str) -> list[str]:
    name, title = OUTLINES[contract]
    text = (FEATURES / name).read_text(encoding="utf-8")
    start = text.index(f"Scenario Outline: {title}\n")
    table = text[text.index("| first | second |", start) :].split("\n")[1:]
    rows = []
    for line in table:
        if not line.strip().startswith("|"):
            break
        rows.append(re.sub(r"\s+\|", " |", line.strip()))
    return rows


def _shadowed(node: dict[str, Any], key: str) -> bool:
    """A keyword no value can break alone: ``minLength`` 0, or 1 beside an anchored ``pattern``
    of at least one character (every id of the contracts)."""
    if key != "minLength":
        return False
    return node[key] == 0 or (node[key] == 1 and str(node.get("pattern", "")).startswith("^["))


def _constraining_keywords(node: object, *, under_if: bool = False) -> set[str]:  # noqa: C901
    """Every constraining keyword name of a schema, following $ref to the other schema files
    (a condition's keywords, under ``if``, constrain nothing)."""
    found: set[str] = set()
    if isinstance(node, list):
        for item in node:
            found |= _constraining_keywords(item, under_if=under_if)
    if not isinstance(node, dict):
        return found
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            found |= _constraining_keywords(load_json_file(schema_path(value.split(".")[0])))
        if key in _STRUCTURE or key in _ANNOTATIONS:
            if key in {"properties", "$defs"} and isinstance(value, dict):
                for sub in value.values():
                    found |= _constraining_keywords(sub, under_if=under_if)
            elif key != "$ref":
                found |= _constraining_keywords(value, under_if=under_if or key == "if")
        elif not under_if and not _shadowed(node, key):
            found.add(key)
    return found


@pytest.mark.parametrize("contract", CONTRACTS)
def test_outline_rows_are_the_breaks_the_schema_generates(contract: str) -> None:
    """A schema change changes the rows: the outline's table is the generated one, in order."""
    expected = _expected_rows(contract)
    shown = "\n".join(f"      {row}" for row in expected)
    assert _outline_rows(contract) == expected, f"regenerate the table:\n{shown}"


@pytest.mark.parametrize("contract", CONTRACTS)
def test_each_break_breaks_its_keyword_alone(contract: str) -> None:
    """The contract's validator reports the row's keyword and no other, and the base is valid."""
    name = contract.split("#", maxsplit=1)[0]
    bases = _bases(contract)
    found = keyword_breaks(contract, bases)
    assert found
    for base in bases:
        if contract != ARGUMENTS:
            assert not list(validator_for(name).iter_errors(base))
    for broken in found:
        at = break_at(contract, bases, broken.keyword, broken.pointer, lone_item=broken.lone_item)
        assert at == broken.document
        if contract == ARGUMENTS:
            continue  # no schema file of its own; the walk's validator decided
        errors = list(validator_for(name).iter_errors(broken.document))
        assert errors, broken
        assert {e.validator for e in errors} == {broken.keyword}, (broken.pointer, errors)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_keyword_of_the_schema_has_a_row(contract: str) -> None:
    """A keyword kind the schema holds that no row breaks fails here (teach the walk)."""
    schema = load_json_file(schema_path(contract.split("#", maxsplit=1)[0]))
    present = _constraining_keywords(schema)
    if contract == ARGUMENTS:
        present -= {"additionalProperties", "enum"}  # extra members open; no tool member
    broken = {b.keyword for b in keyword_breaks(contract, _bases(contract))}
    assert present - broken == set(), present - broken


def _array_paths(value: Any, path: str = "") -> set[str]:
    """Every array member path of ``value`` (indexes as ``*``) that holds one item."""
    found: set[str] = set()
    if isinstance(value, list):
        found |= {path} if len(value) == 1 else set()
        for item in value:
            found |= _array_paths(item, f"{path}/*")
    elif isinstance(value, dict):
        for name, member in value.items():
            found |= _array_paths(member, f"{path}/{name}")
    return found


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_array_of_the_bases_is_written_as_its_lone_item(contract: str) -> None:
    """Each array member path the bases hold with one item has one row writing it as that item,
    bare; listed again, the item gives a base back (a Harness that wraps it meets a valid
    document), and the contract rejects the bare item for its ``type`` alone (red team 9,
    "a lone id wrapped into a list")."""
    bases = _bases(contract)
    lone = [b for b in keyword_breaks(contract, bases) if b.lone_item]
    shown = {re.sub(r"/\d+(?=/|$)", "/*", b.pointer) for b in lone}
    assert len(shown) == len(lone)
    assert shown == set().union(*(_array_paths(base) for base in bases))
    for broken in lone:
        parts = [int(p) if p.isdigit() else p for p in broken.pointer.split("/")[1:]]
        relisted = copy.deepcopy(broken.document)
        holder = relisted
        for part in parts[:-1]:
            holder = holder[part]
        assert not isinstance(holder[parts[-1]], list)
        holder[parts[-1]] = [holder[parts[-1]]]
        assert relisted in bases, broken.cell
        assert broken.keyword == "type"
        assert broken.cell.endswith(" with its lone item")


def test_the_lone_items_cover_every_list_a_model_writes() -> None:
    """Every list of the three contracts with lists: the draft's five id lists and four entry
    lists, the verdict's unsupported ids, the answer's items, references and limitations."""
    cells = {
        contract: {b.pointer for b in keyword_breaks(contract, _bases(contract)) if b.lone_item}
        for contract in CONTRACTS
    }
    assert cells["diagnosis-draft"] == {
        "/conclusion/analysis_ids",
        "/analyses",
        "/analyses/0/tool_call_ids",
        "/action_plan",
        "/action_plan/0/analysis_ids",
        "/recommendations",
        "/recommendations/0/analysis_ids",
        "/limitations",
        "/limitations/0/tool_call_ids",
    }
    assert cells["semantic-verdict"] == {"/unsupported_analysis_ids"}
    assert cells["knowledge-answer"] == {"/items", "/items/0/references", "/limitations"}
    assert cells[ARGUMENTS] == set()


def test_the_red_team_six_keywords_have_rows() -> None:
    """The six survivors' keywords (docs/decisions/red-team-6.md) each have their row."""
    rows = {
        contract: {(b.keyword, b.pointer) for b in keyword_breaks(contract, _bases(contract))}
        for contract in CONTRACTS
    }
    assert ("required", "/analyses/1/scope") in rows["diagnosis-draft"]
    assert ("maxLength", "/analyses/0/statement") in rows["diagnosis-draft"]
    assert ("minItems", "/conclusion/analysis_ids") in rows["diagnosis-draft"]
    assert ("minimum", "/analyses/0/scope/time_range/end_ms") in rows["diagnosis-draft"]
    assert ("uniqueItems", "/unsupported_analysis_ids") in rows["semantic-verdict"]
    assert ("minimum", "/time_range/start_ms") in rows[ARGUMENTS]


def test_an_invalid_base_is_refused() -> None:
    """The walk starts from a valid document only (a row from an invalid one breaks two)."""
    with pytest.raises(ValueError, match="not valid"):
        keyword_breaks("semantic-verdict", [{"verdict": "MAYBE", "unsupported_analysis_ids": []}])
