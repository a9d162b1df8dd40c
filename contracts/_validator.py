r"""The kit's python-jsonschema validator: all schemas in one registry, ECMA-262 ``pattern``.

python-jsonschema evaluates ``pattern`` with :func:`re.search`, where ``$`` also matches before a
final newline, so ``"call_1\n"`` would pass ``^...$``. ECMA-262 (ajv, the contract sheet) and
Pydantic reject it. :func:`validator_for` replaces the ``pattern`` keyword with one that rewrites
every unescaped ``$`` outside a character class to ``\Z`` (end of string only).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from contracts._errors import SchemaSetError
from contracts._paths import schema_dir, schema_path
from contracts._refs import unresolved_refs
from contracts._strict_json import load_json_file

if TYPE_CHECKING:
    from collections.abc import Iterator

    from jsonschema import ValidationError
    from jsonschema.protocols import Validator
    from referencing import Registry

__all__ = [
    "check_schema_refs",
    "ecma_pattern",
    "fast_is_valid",
    "schema_registry",
    "validator_for",
]


def ecma_pattern(pattern: str) -> str:
    """Translate an ECMA-262 ``pattern`` so Python's ``re`` anchors ``$`` at the very end."""
    out: list[str] = []
    in_class = False
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            out.append(char + next(chars, ""))
        elif char == "[" and not in_class:
            in_class = True
            out.append(char)
        elif char == "]" and in_class:
            in_class = False
            out.append(char)
        elif char == "$" and not in_class:
            out.append(r"\Z")
        else:
            out.append(char)
    return "".join(out)


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(ecma_pattern(pattern))


def _pattern(
    validator: Validator,  # noqa: ARG001 - the keyword-function signature of jsonschema
    pattern: str,
    instance: Any,  # noqa: ANN401 - any JSON value
    schema: dict[str, Any],  # noqa: ARG001 - the keyword-function signature of jsonschema
) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not _compiled(pattern).search(instance):
        from jsonschema import ValidationError  # noqa: PLC0415 - imported when explaining only

        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.lru_cache(maxsize=1)
def _ecma_validator_class() -> Any:  # noqa: ANN401 - a jsonschema validator class
    """Draft 2020-12 with the ECMA ``pattern``.

    python-jsonschema is imported on first use: jsonschema-rs decides, python-jsonschema only
    explains a rejection.
    """
    from jsonschema import Draft202012Validator, validators  # noqa: PLC0415 - see above

    return validators.extend(  # type: ignore[no-untyped-call]  # jsonschema's extend is untyped
        Draft202012Validator, {"pattern": _pattern}
    )


@functools.lru_cache(maxsize=1)
def check_schema_refs() -> None:
    """Check once per process that every ``$ref`` of the schema set resolves within it.

    Raises:
        SchemaSetError: the first unresolvable ``$ref``, by schema file and JSON pointer (how
            many there are, and the command that rewrites references after a version bump).
    """
    problems = unresolved_refs(schema_dir())
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        message = (
            f"$ref {first.ref!r} resolves to {first.resolved}: {first.reason}{more}; "
            "after a $id version bump, `srdh contract bump NAME` rewrites every reference"
        )
        raise SchemaSetError(message, path=first.file, pointer=first.pointer, rule="schema-ref")


@functools.lru_cache(maxsize=1)
def schema_registry() -> Registry[Any]:
    """Return a ``referencing`` registry holding every contract schema under its ``$id``.

    Raises:
        SchemaSetError: a ``$ref`` of the set does not resolve (:func:`check_schema_refs`).
    """
    check_schema_refs()
    from referencing import Registry  # noqa: PLC0415 - imported with python-jsonschema, on use
    from referencing.jsonschema import DRAFT202012  # noqa: PLC0415 - idem

    resources = []
    for path in sorted(schema_dir().glob("*.schema.json")):
        contents = _without_dialect(load_json_file(path))
        resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
    return Registry().with_resources(resources)


def _without_dialect(schema: dict[str, Any]) -> dict[str, Any]:
    """Return ``schema`` without ``$schema``.

    python-jsonschema would otherwise switch to its stock validator class (without the ECMA
    ``pattern``) when a ``$ref`` enters another file. The registry fixes the dialect (2020-12).
    """
    return {key: value for key, value in schema.items() if key != "$schema"}


@functools.lru_cache(maxsize=64)
def validator_for(contract: str) -> Validator:
    """Return the Draft 2020-12 validator of ``contract`` (ECMA ``pattern``, ``format`` ignored).

    Raises:
        KeyError: ``contract`` has no schema file.
        SchemaSetError: a ``$ref`` of the set does not resolve (:func:`check_schema_refs`).
    """
    schema = _without_dialect(load_json_file(schema_path(contract)))
    validator: Validator = _ecma_validator_class()(schema, registry=schema_registry())
    return validator


@functools.lru_cache(maxsize=64)
def _fast_validator(contract: str) -> Any:  # noqa: ANN401 - jsonschema_rs ships no type stubs
    check_schema_refs()
    resources = [
        (schema["$id"], schema)
        for schema in (load_json_file(path) for path in sorted(schema_dir().glob("*.schema.json")))
    ]
    schema = load_json_file(schema_path(contract))
    return jsonschema_rs.validator_for(schema, registry=jsonschema_rs.Registry(resources))


def fast_is_valid(contract: str, document: Any) -> bool:  # noqa: ANN401 - any JSON value
    """Return True iff jsonschema-rs accepts ``document`` against ``contract``'s schema.

    The first pass of :func:`contracts.validate_document`: jsonschema-rs (Rust) is one to two
    orders of magnitude faster than python-jsonschema, and its ``pattern`` is ECMA-like, so the
    verdicts agree (``tests/contracts`` proves it on every example, ``bench/`` on a generated
    corpus). A document it cannot take (e.g. a lone surrogate) counts as not accepted here, and
    python-jsonschema decides and explains.

    Raises:
        KeyError: ``contract`` has no schema file.
        SchemaSetError: a ``$ref`` of the set does not resolve (:func:`check_schema_refs`).
    """
    validator = _fast_validator(contract)
    try:
        return bool(validator.is_valid(document))
    except (ValueError, TypeError, OverflowError):
        return False
