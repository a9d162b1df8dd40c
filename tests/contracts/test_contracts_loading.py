"""load_document / validate_document: one ContractError naming file, line, pointer, expectation."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

import contracts
from contracts._validator import ecma_pattern

DRAFT = json.loads(
    (contracts.schema_dir() / "examples" / "diagnosis-draft" / "valid" / "full.json").read_text(
        encoding="utf-8"
    )
)


def test_contracts_load_returns_the_model(tmp_path):
    """A valid file loads into its model."""
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(DRAFT))
    model = contracts.load_document(path, "diagnosis-draft")
    assert isinstance(model, contracts.DiagnosisDraft)
    assert model.analyses[1].kind == contracts.AnalysisKind.NEGATIVE_OBSERVATION


def test_contracts_bad_enum_names_file_pointer_and_vocabulary(tmp_path):
    """An out-of-vocabulary kind names the file, the pointer and the allowed values."""
    doc = json.loads(json.dumps(DRAFT))
    doc["analyses"][0]["kind"] = "GUESS"
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(path, "diagnosis-draft")
    error = caught.value
    assert error.path == str(path)
    assert error.pointer == "/analyses/0/kind"
    assert error.expected == "one of OBSERVATION, NEGATIVE_OBSERVATION, INFERENCE"
    assert (
        str(error)
        == f"{path}: /analyses/0/kind: expected one of OBSERVATION, NEGATIVE_OBSERVATION, INFERENCE"
    )


def test_contracts_malformed_json_names_the_line(tmp_path):
    """Malformed JSON is a ContractError with the 1-based line of the syntax error."""
    path = tmp_path / "broken.json"
    path.write_text('{\n  "error_code": "INTERNAL_ERROR",\n  oops\n}\n')
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(path, "public-error")
    assert caught.value.line == 3
    assert caught.value.rule == "json-syntax"
    assert str(caught.value).startswith(f"{path}:3: ")


def test_contracts_missing_file_is_a_contract_error(tmp_path):
    """A missing file is a ContractError naming it, not an OSError."""
    path = tmp_path / "absent.json"
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(path, "public-error")
    assert caught.value.path == str(path)
    assert caught.value.rule == "file"


def test_contracts_wrong_type_is_a_contract_error():
    """A document of the wrong JSON type is rejected at the root pointer."""
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document("[1, 2]", "public-error")
    assert caught.value.pointer == ""
    assert caught.value.expected == "type object"


def test_contracts_schema_key_naming_another_contract_is_rejected():
    """A $schema naming another contract is a wrong-contract error; naming this one is allowed."""
    other = {
        "$schema": contracts.CONTRACTS["safe-fallback"].schema_id,
        "error_code": "INTERNAL_ERROR",
    }
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(other, "public-error")
    assert caught.value.rule == "wrong-contract"
    assert caught.value.pointer == "/$schema"
    assert "safe-fallback" in str(caught.value)
    same = dict(other, **{"$schema": contracts.CONTRACTS["public-error"].schema_id})
    assert contracts.load_document(same, "public-error") == contracts.PublicError(
        error_code="INTERNAL_ERROR"
    )


def test_contracts_invariant_violation_is_raised_with_its_rule():
    """A schema-valid document breaking an invariant raises with that rule and pointer."""
    doc = json.loads(json.dumps(DRAFT))
    doc["analyses"][2]["analysis_id"] = "a1"
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(doc, "diagnosis-draft")
    assert (caught.value.rule, caught.value.pointer) == (
        "unique-analysis-ids",
        "/analyses/2/analysis_id",
    )


def test_contracts_validate_document_lists_every_schema_violation():
    """validate_document reports all schema violations, each with a pointer."""
    doc = {"fallback_type": "NOPE", "message_code": "NOPE", "verified_sources": [], "text": "hi"}
    found = {(v.rule, v.pointer) for v in contracts.validate_document(doc, "safe-fallback")}
    assert found == {
        ("schema:enum", "/fallback_type"),
        ("schema:enum", "/message_code"),
        ("schema:additionalProperties", ""),
    }


def test_contracts_json_text_and_parsed_values_are_accepted():
    """JSON text (str or bytes) and parsed values load like files."""
    assert contracts.load_document('"call_1"', "tool-call-id").root == "call_1"
    assert (
        contracts.load_document(b'{"error_code": "AGENT_UNAVAILABLE"}', "public-error").error_code
        == "AGENT_UNAVAILABLE"
    )
    assert (
        contracts.load_document({"error_code": "AGENT_UNAVAILABLE"}, "public-error").error_code
        == "AGENT_UNAVAILABLE"
    )


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("^a$", "a", True),
        ("^a$", "a\n", False),
        ("^[$]$", "$", True),
        (r"^\$$", "$", True),
        (r"^\$$", "$\n", False),
    ],
)
def test_contracts_ecma_pattern_anchors_dollar_at_the_end(pattern, text, matches):
    """The rewritten pattern matches like ECMA-262: ``$`` only at the very end of the string."""
    assert bool(re.search(ecma_pattern(pattern), text)) is matches


def test_contracts_canonical_digest_is_rfc8785():
    """digest() hashes the RFC 8785 form: key order and spacing do not matter."""
    assert contracts.canonical_json({"b": 1, "a": [1.0, "x"]}) == b'{"a":[1,"x"],"b":1}'
    assert contracts.digest({"b": 1, "a": 2}) == contracts.digest({"a": 2, "b": 1})
    assert contracts.digest({}) == hashlib.sha256(b"{}").hexdigest()


def test_contracts_missing_properties_are_one_violation():
    """An empty object gives one `required` violation naming every missing property, once."""
    violations = contracts.validate_document({}, "diagnosis-run")
    required = contracts.CONTRACTS["diagnosis-run"].schema["required"]
    assert [v.rule for v in violations] == ["schema:required"]
    assert all(repr(name) in violations[0].message for name in required)


def test_contracts_too_deep_json_is_a_contract_error(tmp_path):
    """JSON nested beyond the parser's recursion limit is a ContractError, not a RecursionError."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(contracts.ContractError) as caught:
        contracts.load_document(path, "diagnosis-draft")
    assert caught.value.rule == "json-depth"
    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("source", "contract"),
    [
        pytest.param(
            dict(DRAFT, analyses=[dict(DRAFT["analyses"][0], kind="GUESS")]),
            "diagnosis-draft",
            id="schema",
        ),
        pytest.param(
            dict(
                DRAFT,
                analyses=[
                    DRAFT["analyses"][0],
                    dict(DRAFT["analyses"][2], analysis_id=DRAFT["analyses"][0]["analysis_id"]),
                ],
            ),
            "diagnosis-draft",
            id="invariant",
        ),
        pytest.param("[1, 2]", "public-error", id="type"),
        pytest.param(
            '{\n  "error_code": "INTERNAL_ERROR",\n  oops\n}\n', "public-error", id="syntax"
        ),
        pytest.param(
            {
                "$schema": contracts.CONTRACTS["safe-fallback"].schema_id,
                "error_code": "INTERNAL_ERROR",
            },
            "public-error",
            id="wrong-contract",
        ),
    ],
)
def test_contracts_check_document_refuses_what_load_document_refuses(source, contract):
    """check_document raises load_document's ContractError (rule, pointer, expectation, text)."""
    with pytest.raises(contracts.ContractError) as loading:
        contracts.load_document(source, contract)
    with pytest.raises(contracts.ContractError) as checking:
        contracts.check_document(source, contract)
    got, want = checking.value, loading.value
    assert (got.rule, got.pointer, got.expected, got.line, str(got)) == (
        want.rule,
        want.pointer,
        want.expected,
        want.line,
        str(want),
    )


def test_contracts_check_document_returns_the_value_it_checked(tmp_path):
    """A valid document comes back as its JSON value (and its file path), not as a model."""
    assert contracts.check_document(DRAFT, "diagnosis-draft") == (DRAFT, None)
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(DRAFT))
    assert contracts.check_document(path, "diagnosis-draft") == (DRAFT, str(path))
