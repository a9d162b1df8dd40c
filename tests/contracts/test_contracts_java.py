"""The Java recipe (docs/types.md): generated classes compile and round-trip the examples.

quicktype generates the classes (:mod:`contracts.codegen_java`), javac compiles them with the
recipe's mapper (``types/java/dev/srdh/recipe``) against Jackson, and ``RoundTrip`` decodes each
example and encodes it again. A JDK and Jackson are Debian packages (``default-jdk-headless``,
``libjackson2-databind-java``): outside CI, without them, this module is ONE skip naming the
install line; in CI (``CI=true``, where ``.ci/run`` installs them) it fails instead
(``tests/conftest.py``: :func:`require_system_package`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import contracts
from contracts import codegen_java, codegen_typescript

from ..conftest import require_system_package  # noqa: TID252 - importlib mode: no absolute name

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "types" / "java"
JACKSON = [
    Path(f"/usr/share/java/jackson-{name}.jar") for name in ("databind", "core", "annotations")
]
JAVAC, JAVA = shutil.which("javac"), shutil.which("java")
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
"""HotSpot tuning for short-lived JVMs (C1 only, one GC thread): no change to what the Java code
does, about half the CPU of ``javac`` and of each run (docs/decisions/test-speed.md, Session 6)."""
_MISSING = [
    *(["a JDK (javac, java)"] if JAVAC is None or JAVA is None else []),
    *(["Jackson (/usr/share/java/jackson-*.jar)"] if not all(j.is_file() for j in JACKSON) else []),
]
require_system_package(
    " and ".join(_MISSING),
    present=not _MISSING,
    install="apt-get install -y default-jdk-headless libjackson2-databind-java",
)
# Contracts holding a oneOf of objects: quicktype merges the variants into one class, which
# cannot keep a variant's required null (docs/types.md: decode the discriminator first).
MERGED_UNIONS = {"adapter-message", "run-observation", "run-trace-event", "scenario-fixture"}
# Refused by the schema outside any condition, yet accepted by the generated classes: why.
NOT_IN_JAVA_TYPES = {
    "published-result/invalid/two-bodies": "oneOf exclusivity: the merged class holds both bodies",
    "run-trace-event/invalid/draft-attempt-three": "an integer enum becomes a number wrapper",
    "scenario-fixture/invalid/unknown-tool-script": "propertyNames: map keys are strings",
}


def _class_of(contract: str) -> str:
    if contract == "tool-call-id":
        return "java.lang.String"
    return f"{codegen_java.PACKAGE}.{''.join(p.title() for p in contract.split('-'))}"


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory: pytest.TempPathFactory):
    """Compile the generated classes and the recipe; return a runner of ``RoundTrip``."""
    javac, java = JAVAC, JAVA
    assert javac is not None
    assert java is not None  # the module is skipped (or fails in CI) without a JDK
    work = tmp_path_factory.mktemp("java")
    sources = work / "src"
    codegen_java.generate(sources)
    shutil.copytree(RECIPE / "dev" / "srdh" / "recipe", sources / "dev" / "srdh" / "recipe")
    classpath = ":".join(str(jar) for jar in JACKSON)
    files = sorted(str(p) for p in sources.rglob("*.java"))
    done = subprocess.run(  # noqa: S603 - fixed argv
        [
            javac,
            *(f"-J{flag}" for flag in JVM_FLAGS),
            "-nowarn",
            "-d",
            str(work / "classes"),
            "-cp",
            classpath,
            *files,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]

    def run(examples: list[contracts.Example]) -> dict[str, tuple[str, str]]:
        lines = "".join(f"{_class_of(e.contract)}\t{e.path}\n" for e in examples)
        out = subprocess.run(  # noqa: S603 - fixed argv
            [
                java,
                *JVM_FLAGS,
                "-cp",
                f"{work / 'classes'}:{classpath}",
                "dev.srdh.recipe.RoundTrip",
            ],
            input=lines,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        results = {}
        for line in out.splitlines():
            verdict, path, detail = line.split("\t", 2)
            results[path] = (verdict, detail)
        assert len(results) == len(examples)
        return results

    return run


def test_java_classes_round_trip_every_valid_example(round_trip):
    """Every valid example decodes with the strict mapper; outside merged unions it comes back
    identical, inside them it loses nothing but ``null`` members."""
    examples = [e for e in contracts.iter_examples() if e.valid]
    results = round_trip(examples)
    identical = 0
    for example in examples:
        verdict, detail = results[str(example.path)]
        assert verdict != "ERROR", f"{example.name}: {detail}"
        if verdict == "OK":
            identical += 1
            continue
        assert example.contract in MERGED_UNIONS, f"{example.name} changed: {detail}"
        assert _drop_nulls(json.loads(detail)) == _drop_nulls(example.document), example.name
    assert identical >= 99, identical  # 99 of 120 when written


def _unconditional() -> dict[str, Draft202012Validator]:
    schemas = {
        p.name.removesuffix(".schema.json"): contracts.load_json_file(p)
        for p in sorted(contracts.schema_dir().glob("*.schema.json"))
    }
    prepared = codegen_typescript.prepare_schemas(schemas)
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], DRAFT202012.create_resource(s)) for s in prepared.values()
    )
    return {stem: Draft202012Validator(s, registry=registry) for stem, s in prepared.items()}


def test_java_classes_refuse_unknown_properties_and_enum_values(round_trip):
    """additionalProperties: false and enums hold in Java: such invalid examples do not decode."""
    validators = _unconditional()
    examples = [
        e
        for e in contracts.iter_examples()
        if not e.valid
        and e.rule in {"schema:additionalProperties", "schema:enum"}
        and not validators[e.contract].is_valid(e.document)
        and e.name not in NOT_IN_JAVA_TYPES
    ]
    results = round_trip(examples)
    decoded = [e.name for e in examples if results[str(e.path)][0] != "ERROR"]
    assert decoded == []
    assert len(examples) >= 20  # 20 when written
