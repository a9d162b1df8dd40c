"""Every example under schemas/examples gets the verdict, layer and pointer its sidecar records."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

import contracts
from contracts._examples import LAYERS, iter_examples

EXAMPLES = list(iter_examples())
VALID = [e for e in EXAMPLES if e.valid]
INVALID = [e for e in EXAMPLES if not e.valid]


def _ids(examples):
    return [e.name for e in examples]


@pytest.mark.parametrize("example", VALID, ids=_ids(VALID))
def test_contracts_valid_example_passes_every_layer(example):
    """A valid example passes the schema, the invariants and the model."""
    assert contracts.validate_document(example.document, example.contract) == []
    model = contracts.CONTRACTS[example.contract].model
    body = (
        {k: v for k, v in example.document.items() if k != "$schema"}
        if isinstance(example.document, dict)
        else example.document
    )
    model.model_validate(body)


@pytest.mark.parametrize("example", INVALID, ids=_ids(INVALID))
def test_contracts_invalid_example_is_rejected_by_its_layer(example):
    """An invalid example is rejected by exactly the layer its sidecar names, at its pointer."""
    assert example.layer in LAYERS
    model = contracts.CONTRACTS[example.contract].model
    schema_valid = contracts.validator_for(example.contract).is_valid(example.document)
    violations = contracts.validate_document(example.document, example.contract)
    found = {(v.rule, v.pointer) for v in violations}
    if example.layer == "schema":
        assert not schema_valid
        assert (example.rule, example.pointer) in found, violations
        with pytest.raises(ValidationError):
            model.model_validate(example.document)
    elif example.layer == "invariant":
        assert schema_valid
        model.model_validate(example.document)
        assert (example.rule, example.pointer) in found, violations
        assert all(v.layer == "invariant" for v in violations)
    else:
        assert violations == []
        codes = json.loads(contracts.schema_path("run-trace-event").read_text())["$defs"][
            "ViolationCode"
        ]["enum"]
        assert example.guard_code in codes


@pytest.mark.parametrize("example", EXAMPLES, ids=_ids(EXAMPLES))
def test_contracts_is_valid_document_gives_validate_document_verdict(example):
    """The verdict-only check agrees with the full explanation on every example, and a
    ``$schema`` naming another contract is rejected by both."""
    document, contract = example.document, example.contract
    assert contracts.is_valid_document(document, contract) == (
        not contracts.validate_document(document, contract)
    )
    if isinstance(document, dict):
        other = next(name for name in contracts.CONTRACTS if name != contract)
        mislabelled = {**document, "$schema": contracts.CONTRACTS[other].schema_id}
        assert not contracts.is_valid_document(mislabelled, contract)
        assert contracts.validate_document(mislabelled, contract)
