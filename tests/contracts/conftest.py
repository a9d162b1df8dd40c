"""Shared helpers of the contract tests (plain functions exposed as fixtures)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

import contracts


def model_verdict(contract: str, document: object) -> bool:
    """True when the contract's Pydantic model accepts ``document``."""
    try:
        contracts.CONTRACTS[contract].model.model_validate(document)
    except ValidationError:
        return False
    return True


def schema_verdict(contract: str, document: object) -> bool:
    """True when the kit's python-jsonschema validator accepts ``document``."""
    return contracts.validator_for(contract).is_valid(document)


@pytest.fixture
def verdicts():
    """``(schema_verdict, model_verdict)`` functions."""
    return schema_verdict, model_verdict
