"""Two independent validators agree with the kit's python-jsonschema verdict on every example.

jsonschema-rs (Rust, in-process) and ajv (Node, JSON Schema 2020-12 build, strict mode, default
``unicodeRegExp``) are run on every example; ajv runs through ``tests/contracts/ajv_verdicts.mjs``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

import contracts
from contracts._examples import iter_examples

EXAMPLES = list(iter_examples())
REPO = Path(__file__).resolve().parents[2]
AJV_SCRIPT = Path(__file__).with_name("ajv_verdicts.mjs")


def _rs_validator(contract):
    schemas = {
        info.schema_id: json.loads(info.schema_path.read_text(encoding="utf-8"))
        for info in contracts.CONTRACTS.values()
    }
    registry = jsonschema_rs.Registry(list(schemas.items()))
    return jsonschema_rs.Draft202012Validator(
        schemas[contracts.CONTRACTS[contract].schema_id], registry=registry
    )


@pytest.fixture(scope="module")
def ajv_verdicts():
    """ajv's verdict for every example, in EXAMPLES order (fails clearly without node)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the ajv second opinion needs Node 20 (make setup)")
    if not (REPO / "node_modules" / "ajv").is_dir():
        pytest.fail("node_modules/ajv is missing: run `npm ci` (make setup)")
    cases = json.dumps([{"contract": e.contract, "instance": e.document} for e in EXAMPLES])
    done = subprocess.run(  # noqa: S603 - fixed argv
        [node, str(AJV_SCRIPT), str(contracts.schema_dir())],
        input=cases,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [item["valid"] for item in json.loads(done.stdout)]


def _ids(examples):
    return [e.name for e in examples]


@pytest.mark.parametrize("contract", list(contracts.CONTRACTS))
def test_contracts_jsonschema_rs_agrees_on_every_example(contract):
    """jsonschema-rs gives the kit validator's verdict on every example of the contract."""
    ours = contracts.validator_for(contract)
    theirs = _rs_validator(contract)
    examples = [e for e in EXAMPLES if e.contract == contract]
    assert examples
    disagree = [
        e.name for e in examples if theirs.is_valid(e.document) != ours.is_valid(e.document)
    ]
    assert disagree == []


def test_contracts_ajv_agrees_on_every_example(ajv_verdicts):
    """ajv (2020-12, strict) gives the kit validator's verdict on every example."""
    assert len(ajv_verdicts) == len(EXAMPLES)
    disagree = [
        e.name
        for e, verdict in zip(EXAMPLES, ajv_verdicts, strict=True)
        if verdict != contracts.validator_for(e.contract).is_valid(e.document)
    ]
    assert disagree == []


def test_contracts_trailing_newline_id_splits_stock_jsonschema_from_the_rest(ajv_verdicts):
    """``"call_1\\n"`` passes stock python-jsonschema but fails the kit validator, ajv and rs."""
    schema = json.loads(contracts.schema_path("tool-call-id").read_text(encoding="utf-8"))
    assert Draft202012Validator(schema).is_valid("call_1\n")  # the python re.search quirk
    assert not contracts.validator_for("tool-call-id").is_valid("call_1\n")
    assert not _rs_validator("tool-call-id").is_valid("call_1\n")
    index = next(
        i for i, e in enumerate(EXAMPLES) if e.name == "tool-call-id/invalid/trailing-newline"
    )
    assert EXAMPLES[index].document == "call_1\n"
    assert ajv_verdicts[index] is False
