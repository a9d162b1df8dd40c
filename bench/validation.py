"""Benchmark 3: contract validation throughput (documents per second) and verdict agreement.

Corpus: every example under ``schemas/examples/<contract>/{valid,invalid}/`` plus documents
generated from the valid examples by seeded, deterministic mutations (a key removed, an unknown
property added, a scalar replaced by a value of another type, a string emptied or given a
trailing newline, an array item duplicated), each validated against its own contract.

Paths, timed interleaved over the whole corpus, each giving the *contract* verdict (JSON Schema
and the contract invariants - the kit's meaning of "valid"):

* **kit** - ``contracts.validate_document`` (python-jsonschema with every error sorted and turned
  into a message, then ``contracts.check_invariants``);
* **python-jsonschema** - ``contracts.validator_for(c).iter_errors`` stopped at the first error,
  then ``check_invariants`` on a schema-valid document;
* **jsonschema-rs** - ``jsonschema_rs.validator_for(schema, registry=<every contract schema>)
  .is_valid``, then ``check_invariants`` on a schema-valid document;
* **Pydantic** - ``<Model>.model_validate_json(text)`` (the generated models with their
  hand-written ``if``/``then`` rules; they do not check the invariants), then
  ``check_invariants`` on a document the model accepted.

The schema-only cost of the three schema validators (without ``check_invariants``) is timed too.
Verdicts: the four contract verdicts must be identical on every document, and so must the three
schema-only verdicts; any disagreement is listed and fails the benchmark's agreement check.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import jsonschema_rs
import pydantic

from bench._result import BenchResult, Target
from bench._stats import Summary, interleave, paired_ratios, timed_ns
from contracts import CONTRACTS, check_invariants, schema_dir, validate_document, validator_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["NAME", "CorpusDocument", "corpus", "measure", "run", "verdicts"]

NAME: Final = "validation"
TARGET_SPEEDUP: Final = 10.0
"""Target: the fastest kit-usable path is >= 10x python-jsonschema."""

KIT: Final = "kit (validate_document)"
JSONSCHEMA: Final = "python-jsonschema"
RS: Final = "jsonschema-rs"
PYDANTIC: Final = "Pydantic model_validate_json"


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    """One document of the corpus: its contract, parsed value, JSON text and origin.

    ``origin`` is ``example:valid``, ``example:invalid:<layer>`` (``schema``, ``invariant`` or
    ``guard``: a guard example is contract-valid) or ``generated``.
    """

    contract: str
    document: Any
    text: str
    origin: str


def _examples() -> Iterator[CorpusDocument]:
    for path in sorted((schema_dir() / "examples").glob("*/*/*.json")):
        if path.name.endswith(".why.json"):
            continue
        text = path.read_text(encoding="utf-8")
        origin = f"example:{path.parent.name}"
        why = path.with_name(f"{path.stem}.why.json")
        if why.is_file():  # invalid examples say which layer rejects them
            origin += ":" + str(json.loads(why.read_text(encoding="utf-8")).get("layer"))
        yield CorpusDocument(path.parent.parent.name, json.loads(text), text, origin)


def _places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:  # noqa: ANN401 - any JSON value
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, (*path, index))


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:  # noqa: ANN401 - any JSON value
    if not path:
        return value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return document


def _mutate(document: Any, rng: random.Random) -> Any:  # noqa: ANN401 - any JSON value
    """Return a mutated deep copy of ``document`` (one seeded mutation)."""
    mutated = copy.deepcopy(document)
    places = list(_places(mutated))
    path, node = rng.choice(places)
    operation = rng.randrange(6)
    if operation == 0 and isinstance(node, dict) and node:
        del node[rng.choice(sorted(node))]
    elif operation == 1 and isinstance(node, dict):
        node["unexpected_field"] = "x"
    elif operation == 2 and isinstance(node, list) and node:
        node.append(copy.deepcopy(rng.choice(node)))
    elif operation == 3 and isinstance(node, str):
        mutated = _set(mutated, path, rng.choice(["", node + "\n", node * 3]))
    elif operation == 4 and isinstance(node, bool | int | float) and path:
        mutated = _set(mutated, path, rng.choice([-1, 0, 2**40, "1", None, 1.5]))
    else:
        replacement: object = rng.choice([None, [], {}, "text", 7])
        mutated = _set(mutated, path, replacement)
    return mutated


def corpus(*, generated_per_valid: int = 8, seed: int = 20261130) -> list[CorpusDocument]:
    """Return the examples plus ``generated_per_valid`` mutations of each valid example."""
    rng = random.Random(seed)  # noqa: S311 - reproducible test data, not cryptography
    documents = list(_examples())
    for example in [doc for doc in documents if doc.origin == "example:valid"]:
        for _ in range(generated_per_valid):
            mutated = _mutate(example.document, rng)
            documents.append(
                CorpusDocument(example.contract, mutated, json.dumps(mutated), "generated")
            )
    return documents


def _rs_validators() -> dict[str, Any]:
    resources = [(info.schema_id, info.schema) for info in CONTRACTS.values()]
    registry = jsonschema_rs.Registry(resources)
    return {
        name: jsonschema_rs.validator_for(info.schema, registry=registry)
        for name, info in CONTRACTS.items()
    }


def _invariants_hold(contract: str, document: Any) -> bool:  # noqa: ANN401 - any JSON value
    return next(iter(check_invariants(contract, document)), None) is None


def _paths(rs: dict[str, Any]) -> dict[str, tuple[Callable[[CorpusDocument], bool], ...]]:
    """Name -> (schema-only verdict, contract verdict) functions; kit has only the latter."""

    def kit(doc: CorpusDocument) -> bool:
        return not validate_document(doc.document, doc.contract)

    def js_schema(doc: CorpusDocument) -> bool:
        return next(iter(validator_for(doc.contract).iter_errors(doc.document)), None) is None

    def rs_schema(doc: CorpusDocument) -> bool:
        return bool(rs[doc.contract].is_valid(doc.document))

    def model_schema(doc: CorpusDocument) -> bool:
        try:
            CONTRACTS[doc.contract].model.model_validate_json(doc.text)
        except pydantic.ValidationError:
            return False
        return True

    def full(schema_only: Callable[[CorpusDocument], bool]) -> Callable[[CorpusDocument], bool]:
        def verdict(doc: CorpusDocument) -> bool:
            return schema_only(doc) and _invariants_hold(doc.contract, doc.document)

        return verdict

    return {
        KIT: (kit,),
        JSONSCHEMA: (js_schema, full(js_schema)),
        RS: (rs_schema, full(rs_schema)),
        PYDANTIC: (model_schema, full(model_schema)),
    }


def verdicts(documents: list[CorpusDocument]) -> dict[str, list[bool]]:
    """Return every path's verdicts: ``"<path>"`` (contract) and ``"<path> schema"``."""
    out: dict[str, list[bool]] = {}
    for name, functions in _paths(_rs_validators()).items():
        out[name] = [functions[-1](doc) for doc in documents]
        if len(functions) > 1:
            out[f"{name} schema"] = [functions[0](doc) for doc in documents]
    return out


def _disagreements(documents: list[CorpusDocument], found: dict[str, list[bool]]) -> list[str]:
    contract_paths = [KIT, JSONSCHEMA, RS, PYDANTIC]
    schema_paths = [f"{name} schema" for name in (JSONSCHEMA, RS, PYDANTIC)]
    problems = []
    for index, doc in enumerate(documents):
        for group in (contract_paths, schema_paths):
            answers = {name: found[name][index] for name in group}
            if len(set(answers.values())) > 1:
                problems.append(f"{doc.contract} ({doc.origin} #{index}): {answers}")
    return problems


def measure(
    documents: list[CorpusDocument] | None = None,
    *,
    generated_per_valid: int = 8,
    rounds: int = 10,
    warmup: int = 1,
) -> BenchResult:
    """Time the four paths over the corpus, interleaved, and compare their verdicts.

    Args:
        documents: the corpus; ``None`` builds :func:`corpus` with ``generated_per_valid``.
        generated_per_valid: mutations per valid example when the corpus is built here.
        rounds: measured passes over the corpus per path.
        warmup: discarded passes.

    Returns:
        A :class:`BenchResult` with documents/s per path (contract and schema-only), speedups
        over python-jsonschema, the agreement flag, and the >= 10x target.
    """
    if documents is None:
        documents = corpus(generated_per_valid=generated_per_valid)
    rs = _rs_validators()
    paths = _paths(rs)
    found = verdicts(documents)
    problems = _disagreements(documents, found)

    def over_corpus(check: Callable[[CorpusDocument], bool]) -> Callable[[], float]:
        def once() -> float:
            return float(timed_ns(lambda: [check(doc) for doc in documents]))

        return once

    contenders: dict[str, Callable[[], float]] = {}
    for name, functions in paths.items():
        contenders[name] = over_corpus(functions[-1])
        if len(functions) > 1:
            contenders[f"{name} schema"] = over_corpus(functions[0])
    values = interleave(contenders, rounds=rounds, warmup=warmup)
    return _report(documents, found, problems, values)


def _report(
    documents: list[CorpusDocument],
    found: dict[str, list[bool]],
    problems: list[str],
    values: dict[str, list[float]],
) -> BenchResult:
    valid = sum(found[KIT])
    count = len(documents)
    result = BenchResult(
        name=NAME,
        title=(
            f"Contract validation throughput over {count:,} documents "
            f"({valid:,} valid, {count - valid:,} invalid)"
        ),
        columns=[
            "path",
            "docs/s, contract verdict (schema + invariants)",
            "x python-jsonschema",
            "docs/s, schema only",
            "x python-jsonschema",
        ],
        verdicts_agree=not problems,
    )
    base_full, base_schema = values[JSONSCHEMA], values[f"{JSONSCHEMA} schema"]
    data: dict[str, Any] = {}
    for name in (KIT, JSONSCHEMA, RS, PYDANTIC):
        full = Summary.of([count / (ns / 1e9) for ns in values[name]])
        speedup = Summary.of(paired_ratios(base_full, values[name]))
        row = [name, full.text(0), f"{speedup.median:.1f}x"]
        entry: dict[str, Any] = {"docs_per_s": full.as_dict(), "speedup": speedup.as_dict()}
        schema_key = f"{name} schema"
        if schema_key in values:
            schema = Summary.of([count / (ns / 1e9) for ns in values[schema_key]])
            schema_speedup = Summary.of(paired_ratios(base_schema, values[schema_key]))
            row += [schema.text(0), f"{schema_speedup.median:.1f}x"]
            entry["schema_only_docs_per_s"] = schema.as_dict()
            entry["schema_only_speedup"] = schema_speedup.as_dict()
        else:
            row += ["- (always checks invariants)", "-"]
        result.rows.append(row)
        data[name] = entry
    result.data = {
        "documents": count,
        "valid": valid,
        "examples": sum(1 for doc in documents if doc.origin.startswith("example")),
        "generated": sum(1 for doc in documents if doc.origin == "generated"),
        "jsonschema_rs": _version("jsonschema-rs"),
        "paths": data,
        "disagreements": problems[:50],
    }
    kit_usable = {RS: data[RS]["speedup"]["median"], PYDANTIC: data[PYDANTIC]["speedup"]["median"]}
    fastest = max(kit_usable, key=lambda name: kit_usable[name])
    speed = kit_usable[fastest]
    met = speed >= TARGET_SPEEDUP and not problems
    result.targets.append(
        Target(
            goal=(
                f"fastest kit-usable path >= {TARGET_SPEEDUP:g}x python-jsonschema, same verdicts "
                "(contract verdict, both sides running the same invariants)"
            ),
            measured=f"{fastest}: {speed:.1f}x; verdicts {'agree' if not problems else 'DIFFER'}",
            met=met,
            margin=(
                f"met ({speed / TARGET_SPEEDUP:.1f}x the target)"
                if met
                else f"missed: {speed:.1f}x is {TARGET_SPEEDUP / speed:.1f}x short"
            ),
        )
    )
    kit_speed = data[KIT]["speedup"]["median"]
    result.targets.append(
        Target(
            goal="kit's own path (validate_document) vs python-jsonschema",
            measured=f"{kit_speed:.2f}x",
            met=kit_speed >= TARGET_SPEEDUP,
            margin=f"{TARGET_SPEEDUP / kit_speed:.1f}x short of {TARGET_SPEEDUP:g}x",
        )
    )
    return result


def _version(distribution: str) -> str:
    from importlib import metadata  # noqa: PLC0415 - only the report needs it

    return metadata.version(distribution)


def run(*, quick: bool) -> BenchResult:
    """Run the benchmark (``quick``: fewer generated documents and rounds)."""
    if quick:
        return measure(generated_per_valid=2, rounds=3)
    return measure(generated_per_valid=8, rounds=6)
