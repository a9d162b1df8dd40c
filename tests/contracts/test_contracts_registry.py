"""Every schema has a model and a registry entry (and vice versa), and follows the sheet's rules."""

from __future__ import annotations

import importlib
import json
import re

import pytest

import contracts
from contracts._examples import iter_examples
from contracts._paths import SCHEMA_BASE_URI
from contracts._schema_rules import rule_targets

SHEET = (contracts.schema_dir().parent / "docs" / "contracts.md").read_text(encoding="utf-8")
SHEET_ROWS = dict(re.findall(r"^\| `([a-z-]+)` \| `([A-Za-z]+)` \|", SHEET, flags=re.MULTILINE))
SCHEMA_FILES = sorted(
    p.name.removesuffix(".schema.json") for p in contracts.schema_dir().glob("*.schema.json")
)


def test_contracts_sheet_schemas_models_and_registry_are_one_set():
    """Sheet table, schema files, CONTRACTS and exported models name the same 19 contracts."""
    assert len(SHEET_ROWS) == 19
    assert sorted(SHEET_ROWS) == SCHEMA_FILES == sorted(contracts.CONTRACTS)
    for name, model_name in SHEET_ROWS.items():
        info = contracts.CONTRACTS[name]
        assert info.model.__name__ == model_name
        assert getattr(contracts, model_name) is info.model
        assert model_name in contracts.__all__
        assert info.direction in set(contracts.Direction)


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_contracts_schema_header_follows_the_sheet(name):
    """Each schema is 2020-12, with the versioned $id, the model name as title, a description."""
    schema = json.loads(contracts.schema_path(name).read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    # any version: a breaking change bumps it (srdh contract bump), v1 is the frozen start
    base = SCHEMA_BASE_URI.removesuffix("v1/")
    expected = rf"{re.escape(base)}v[1-9][0-9]*/{re.escape(name)}\.schema\.json"
    assert re.fullmatch(expected, schema["$id"])
    assert schema["title"] == SHEET_ROWS[name]
    assert schema["description"]


def _objects_and_properties(node, path=""):
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _objects_and_properties(item, f"{path}/{index}")
    elif isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _objects_and_properties(value, f"{path}/{key}")


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_contracts_every_property_is_described_and_objects_are_closed(name):
    """Every declared property has a description; every object with properties is closed."""
    schema = json.loads(contracts.schema_path(name).read_text(encoding="utf-8"))
    for path, node in _objects_and_properties(schema):
        in_conditional = any(f"/{k}/" in f"{path}/" for k in ("if", "then", "else"))
        if "properties" in node and not in_conditional:
            assert node.get("additionalProperties") is False, path
            for prop, sub in node["properties"].items():
                assert isinstance(sub, dict), f"{path}/properties/{prop}"
                assert sub.get("description"), f"{path}/properties/{prop}"
        assert "format" not in node or not isinstance(node["format"], str), path


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_contracts_refs_between_files_are_relative(name):
    """Cross-file $refs are relative file names, never absolute URLs."""
    text = contracts.schema_path(name).read_text(encoding="utf-8")
    refs = re.findall(r'"\$ref": "([^"]+)"', text)
    assert refs or name in {
        "tool-call-id",
        "public-error",
        "semantic-verdict",
        "component-registry",
        "phase-plan",
    }
    assert all(not ref.startswith(("http:", "https:", "/")) for ref in refs)


def _enum_values():
    for name in SCHEMA_FILES:
        schema = json.loads(contracts.schema_path(name).read_text(encoding="utf-8"))
        for path, node in _objects_and_properties(schema):
            in_conditional = any(f"/{k}/" in f"{path}/" for k in ("if", "then", "else"))
            if not in_conditional and isinstance(node.get("enum"), list):
                for value in node["enum"]:
                    yield name, path, value


def _leaves(doc):
    if isinstance(doc, dict):
        for value in doc.values():
            yield from _leaves(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _leaves(value)
    else:
        yield json.dumps(doc)


def test_contracts_every_enum_value_appears_in_a_valid_example():
    """Each value of every vocabulary appears in at least one valid example."""
    seen = {leaf for e in iter_examples() if e.valid for leaf in _leaves(e.document)}
    missing = [f"{n}{p}: {v!r}" for n, p, v in _enum_values() if json.dumps(v) not in seen]
    assert missing == []


def test_contracts_patterns_avoid_engine_dependent_classes():
    """No pattern uses \\d, \\w, \\s or \\b, whose meaning differs between regex engines."""
    for name in SCHEMA_FILES:
        schema = json.loads(contracts.schema_path(name).read_text(encoding="utf-8"))
        for path, node in _objects_and_properties(schema):
            pattern = node.get("pattern")
            if isinstance(pattern, str):
                assert not re.search(r"\\[dwsbDWSB]", pattern), f"{name}{path}"


def test_contracts_each_restored_rule_targets_a_generated_class():
    """Every schema with an if/then has a restoration, each on a class of the generated code."""
    with_conditionals = {
        f"{name.replace('-', '_')}_schema"
        for name in SCHEMA_FILES
        if any(
            "if" in node
            for _, node in _objects_and_properties(
                json.loads(contracts.schema_path(name).read_text(encoding="utf-8"))
            )
        )
    }
    assert with_conditionals
    assert with_conditionals <= {module_name for module_name, _ in rule_targets()}
    for module_name, class_name in rule_targets():
        module = importlib.import_module(f"contracts._generated.{module_name}")
        assert isinstance(getattr(module, class_name, None), type), (module_name, class_name)
