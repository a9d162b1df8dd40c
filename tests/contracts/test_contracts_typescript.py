"""The TypeScript types: generated from the schemas, no drift, and `tsc --strict` agrees with them.

The example documents are the evidence: every schema-valid example (``valid/`` and the invalid
ones rejected only by an invariant or a guard) must type-check as its contract's type, and every
example the schema rejects for a rule a TypeScript type expresses (a wrong ``enum``/``const``
value, a missing ``required`` or an unknown property, a wrong JSON type, an empty ``minItems: 1``
array) must not: each sits under ``// @ts-expect-error``, which tsc reports when unused.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import contracts
from contracts import codegen_typescript
from contracts._annotations import iter_subschemas

REPO = Path(__file__).resolve().parents[2]
TS_DIR = REPO / "types" / "typescript"
TSC = REPO / "node_modules" / ".bin" / "tsc"

# Schema rules a TypeScript type expresses (the rest: lengths, patterns, bounds, uniqueness, if/then
# conditions and oneOf exclusivity are the validator's job).
TYPED_RULES = frozenset(
    {
        "schema:additionalProperties",
        "schema:const",
        "schema:enum",
        "schema:minItems",
        "schema:required",
        "schema:type",
    }
)
# Rejected by a typed keyword that the generated types still do not express, with the reason.
NOT_TYPED = {
    "scenario-fixture/invalid/unknown-tool-script": "the enum sits in propertyNames: json2ts "
    "types a map's keys as string",
}


def _schemas() -> dict[str, Any]:
    return {
        path.name.removesuffix(".schema.json"): contracts.load_json_file(path)
        for path in sorted(contracts.schema_dir().glob("*.schema.json"))
    }


def _tsc(folder: Path) -> subprocess.CompletedProcess[str]:
    if not TSC.is_file():
        pytest.fail("node_modules/.bin/tsc is missing: run `npm ci` (make setup)")
    return subprocess.run(  # noqa: S603 - fixed argv
        [str(TSC), "-p", str(folder / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
        cwd=folder,
    )


def test_typescript_types_have_no_drift():
    """Regenerating from the schemas reproduces the committed types/typescript/contracts.ts."""
    assert codegen_typescript.main(["--check"]) == 0


def test_typescript_types_declare_each_title_once():
    """No numbered copies (``ToolCallId1``): each named schema is one TypeScript type."""
    text = codegen_typescript.GENERATED.read_text("utf-8")
    names = re.findall(r"^export (?:type|interface) (\w+)", text, flags=re.MULTILINE)
    assert [n for n in names if re.search(r"\d$", n)] == []
    assert len(names) == len(set(names))
    titles = {
        node["title"]
        for schema in _schemas().values()
        for _, node in iter_subschemas(schema)
        if isinstance(node.get("title"), str)
    }
    assert titles <= {*names}, sorted(titles - set(names))


def test_typescript_committed_module_compiles_strict():
    """`tsc --strict` (plus exactOptionalPropertyTypes) accepts the types and usage.ts."""
    done = _tsc(TS_DIR)
    assert done.returncode == 0, done.stdout + done.stderr


def _unconditional_validators() -> dict[str, Draft202012Validator]:
    """Validators of the schemas as the generator sees them (no if/then/else)."""
    prepared = codegen_typescript.prepare_schemas(_schemas())
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], DRAFT202012.create_resource(schema)) for schema in prepared.values()
    )
    return {
        stem: Draft202012Validator(schema, registry=registry) for stem, schema in prepared.items()
    }


def _typed_examples() -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """(accepted, rejected) documents: schema-valid ones, and those a type must refuse.

    An invalid example is a type error when its rule is one :data:`TYPED_RULES` names and it
    breaks that rule outside any ``if``/``then`` condition (the generator's copy of the schema,
    which has no conditions, still rejects it).
    """
    validators = _unconditional_validators()
    accepted, rejected = [], []
    for example in contracts.iter_examples():
        if example.valid or example.layer in {"invariant", "guard"}:
            accepted.append((example.contract, example.document))
        elif (
            example.rule in TYPED_RULES
            and example.name not in NOT_TYPED
            and not validators[example.contract].is_valid(example.document)
        ):
            rejected.append((example.contract, example.document))
    return accepted, rejected


def test_typescript_types_agree_with_the_examples(tmp_path):
    """Schema-valid examples type-check; examples breaking a typed rule are type errors."""
    shutil.copyfile(codegen_typescript.GENERATED, tmp_path / "contracts.ts")
    accepted, rejected = _typed_examples()
    lines = ['import type { Contracts } from "./contracts";']
    for index, (contract, document) in enumerate(accepted):
        lines.append(f'export const ok{index}: Contracts["{contract}"] = {json.dumps(document)};')
    for index, (contract, document) in enumerate(rejected):
        lines.append("// @ts-expect-error the schema rejects it for a rule TypeScript expresses")
        lines.append(f'export const bad{index}: Contracts["{contract}"] = {json.dumps(document)};')
    (tmp_path / "examples.ts").write_text("\n".join(lines) + "\n", "utf-8")
    config = json.loads((TS_DIR / "tsconfig.json").read_text("utf-8"))
    config["files"] = ["contracts.ts", "examples.ts"]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), "utf-8")
    done = _tsc(tmp_path)
    assert done.returncode == 0, done.stdout[:4000]
    assert len(accepted) >= 120  # every valid example at least
    assert len(rejected) >= 30  # 32 when written: the unconditional typed rows


def test_typescript_every_oneof_variant_and_enum_has_a_title():
    """Generators name types after titles: every oneOf variant, every enum in a type position.

    A variant that is a bare ``$ref`` is titled by its target. Enums under ``if``/``then``/
    ``else``/``not`` are conditions, not types, and need none.
    """
    schemas = _schemas()
    untitled = []
    for stem, schema in schemas.items():
        for pointer, node in iter_subschemas(schema):
            conditional = re.search(r"/(if|then|else|not)(/|$)", pointer)
            if "enum" in node and "title" not in node and not conditional:
                untitled.append(f"{stem}#{pointer}")
            for index, variant in enumerate(node.get("oneOf", [])):
                if not _titled_variant(variant, stem, schemas):
                    untitled.append(f"{stem}#{pointer}/oneOf/{index}")
    assert untitled == []


def _titled_variant(variant: dict[str, Any], stem: str, schemas: dict[str, Any]) -> bool:
    if "title" in variant:
        return True
    ref = variant.get("$ref")
    if not isinstance(ref, str):
        return False
    target, _, fragment = ref.partition("#")
    document = schemas[target.removesuffix(".schema.json")] if target else schemas[stem]
    node = document
    for token in fragment.split("/")[1:]:
        node = node[token]
    return "title" in node


def test_typescript_one_title_one_shape():
    """A title never names two different schemas (one name per concept), and the check sees it."""
    assert codegen_typescript.title_clashes(_schemas()) == []
    clash = {
        "a": {"$defs": {"X": {"title": "Same", "enum": [1]}}},
        "b": {"$defs": {"Y": {"title": "Same", "enum": [2], "description": "differs"}}},
    }
    assert len(codegen_typescript.title_clashes(clash)) == 1
    with pytest.raises(ValueError, match="Same"):
        codegen_typescript.prepare_schemas(clash)


def test_typescript_preparation_shares_one_definition_per_title():
    """Identical titled schemas become one definition; $ref siblings and conditionals go."""
    schemas = {
        "a": {
            "$defs": {"E": {"title": "E", "enum": [1, 2], "description": "first"}},
            "properties": {
                "x": {"title": "E", "enum": [1, 2]},
                "y": {"$ref": "#/$defs/E", "description": "a sibling"},
            },
            "allOf": [{"if": {"required": ["x"]}, "then": {"required": ["y"]}}],
        },
        "b": {"properties": {"z": {"title": "E", "enum": [1, 2]}}},
    }
    prepared = codegen_typescript.prepare_schemas(schemas)
    assert prepared["a"]["properties"]["x"] == {"$ref": "a.schema.json#/$defs/E"}
    assert prepared["a"]["properties"]["y"] == {"$ref": "a.schema.json#/$defs/E"}
    assert prepared["b"]["properties"]["z"] == {"$ref": "a.schema.json#/$defs/E"}
    assert "allOf" not in prepared["a"]
    assert schemas["a"]["properties"]["x"] == {"title": "E", "enum": [1, 2]}  # input untouched
