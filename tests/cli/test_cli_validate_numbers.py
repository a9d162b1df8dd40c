"""`srdh validate`: numbers are read exactly, and what RFC 8785 cannot hold is a violation.

Field faults G5 (a number a double holds only rounded, e.g. ``1764400000000.00001`` or
``1e-400``, is never read as the integer it rounds to) and G6 (an integer beyond 2^53 in a
Verified Snapshot is a validation failure naming its pointer and rule, exit 1, never an
internal error), each as its kind: the field inputs, then properties over generated numbers.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

import contracts
from conformance.cli import EXIT_FAILED, app
from contracts import MAX_SAFE_INTEGER, ContractError, StrictJSONError, loads_strict

if TYPE_CHECKING:
    from typer.testing import CliRunner

ROUND3 = Path(__file__).parents[1] / "field_inputs" / "round3"
PRECISION = ROUND3 / "validate-number-precision"


@pytest.mark.parametrize(
    ("name", "rule", "number"),
    [
        ("precision.json", "json-number-precision", "1764400000000.00001"),
        ("underflow.json", "json-number-precision", "1e-400"),
        ("control-visible-fraction.json", "schema:type", ""),
    ],
)
def test_g5_a_number_that_is_not_exactly_an_integer_is_invalid(
    runner: CliRunner, name: str, rule: str, number: str
) -> None:
    """Neither rounding (18 digits) nor underflow makes an integer; the control fails as well."""
    path = PRECISION / name
    result = runner.invoke(app, ["validate", "--contract", "query-scope", str(path)])
    assert result.exit_code == EXIT_FAILED, result.output
    assert f"{path}:1: /time_range/start_ms: " in result.stdout
    assert f"[{rule}]" in result.stdout
    assert number in result.stdout
    assert "1 document(s), 1 invalid" in result.stdout


@pytest.mark.parametrize("name", ["precision.json", "underflow.json"])
def test_g5_the_typed_model_never_stores_a_rounded_value(name: str) -> None:
    """The contract loader refuses the text; no model holds 1764400000000 or 0."""
    with pytest.raises(ContractError) as raised:
        contracts.load_document(PRECISION / name, "query-scope")
    assert raised.value.pointer == "/time_range/start_ms"
    assert raised.value.rule == "json-number-precision"


_exact_doubles = st.floats(allow_nan=False, allow_infinity=False)


@given(_exact_doubles)
def test_every_double_written_by_python_reads_back_as_itself(number: float) -> None:
    """The precision rule refuses no number a double holds: repr round trips are accepted."""
    assert loads_strict(json.dumps({"n": number}))["n"] == number


@given(
    st.integers(-(2**60), 2**60),
    st.integers(1, 10**12),
    st.integers(17, 30),
)
def test_a_fraction_a_double_loses_is_refused_never_rounded(
    whole: int, fraction: int, places: int
) -> None:
    """``whole.000…fraction`` with more digits than a double keeps is refused, not rounded."""
    token = f"{whole}.{str(fraction).rjust(places, '0')}"
    text = f'{{"n": {token}}}'
    if Decimal(repr(float(token))) == Decimal(token):  # the double is the number itself
        assert loads_strict(text)["n"] == float(token)
        return
    with pytest.raises(StrictJSONError) as raised:
        loads_strict(text)
    assert raised.value.rule == "json-number-precision"
    assert raised.value.pointer == "/n"


def _snapshot_with(pointer: list[object], value: int) -> dict[str, object]:
    source = ROUND3 / "validate-unsafe-integer.verified-snapshot.json"
    doc = json.loads(source.read_text(encoding="utf-8"))
    time_range = doc["evidence"][1]["projection"]["query_scope"]["time_range"]
    time_range["end_ms"] = 1764400900000
    doc["evidence"][2]["projection"]["query_scope"]["time_range"]["end_ms"] = 1764400900000
    target = doc
    for part in pointer[:-1]:
        target = target[part]
    target[pointer[-1]] = value
    return doc


def test_g6_an_unsafe_integer_in_a_verified_snapshot_is_invalid_not_an_internal_error(
    runner: CliRunner,
) -> None:
    """The field input: exit 1 naming the first pointer (document order) and the rule."""
    path = ROUND3 / "validate-unsafe-integer.verified-snapshot.json"
    result = runner.invoke(app, ["validate", "--contract", "verified-snapshot", str(path)])
    assert result.exit_code == EXIT_FAILED, result.output
    assert "internal error" not in result.output
    pointer = "/evidence/1/projection/query_scope/time_range/end_ms"
    assert f": {pointer}: " in result.stdout
    assert "[json-unsafe-integer]" in result.stdout
    assert "9007199254740993" in result.stdout


_POINTERS = [
    ["evidence", 0, "projection", "total_matched"],
    ["evidence", 2, "projection", "query_scope", "time_range", "start_ms"],
    ["diagnosis_draft", "analyses", 1, "scope", "time_range", "end_ms"],
]


@pytest.mark.parametrize("where", _POINTERS, ids=lambda p: "/".join(map(str, p)))
@pytest.mark.parametrize("value", [MAX_SAFE_INTEGER + 1, -(2**64), 10**30])
def test_g6_any_integer_rfc8785_cannot_hold_is_a_violation_at_its_pointer(
    where: list[object], value: int
) -> None:
    """Wherever it sits, the snapshot's digest cannot be computed: one violation, no crash."""
    doc = _snapshot_with(where, value)
    violations = contracts.validate_document(doc, "verified-snapshot")
    canonical = [v for v in violations if v.rule == "json-unsafe-integer"]
    if canonical:  # a schema rule (e.g. maximum) may refuse the value first
        assert canonical[0].pointer == "/" + "/".join(map(str, where))
    assert violations


def test_canonical_json_names_the_pointer_and_rule_of_what_it_cannot_hold() -> None:
    """Every other caller of the canonical form gets a ContractError (a ValueError), not
    rfc8785's own exception."""
    with pytest.raises(ContractError) as raised:
        contracts.canonical_json({"a": [1, {"b": 2**60}], "c": 2**61})
    assert raised.value.pointer == "/a/1/b"
    assert raised.value.rule == "json-unsafe-integer"
    assert isinstance(raised.value, ValueError)
