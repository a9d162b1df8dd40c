"""Loading and validating documents: JSON Schema first, then the invariants.

Requirement "Contract set is frozen": every document crossing a boundary is checked against its
contract; a bad one yields one :class:`ContractError` naming file, line, pointer and expectation.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, cast

from contracts._errors import ContractError, ContractViolation, json_pointer
from contracts._paths import stem_of_id
from contracts._registry import CONTRACTS
from contracts._strict_json import load_json_file, loads_strict
from contracts._validator import _ecma_validator_class, fast_is_valid, validator_for

if TYPE_CHECKING:
    import jsonschema
    from pydantic import BaseModel

__all__ = [
    "check_document",
    "is_valid_document",
    "load_document",
    "parse_document",
    "schema_violations",
    "validate_document",
]

_SCHEMA_KEY = "$schema"
_JSON_TEXT_STARTS = frozenset('{["-0123456789')
_JSON_LITERALS = frozenset({"true", "false", "null"})
_DISCRIMINATORS = frozenset({"type", "kind"})
_SELF_EXPLAINING = frozenset({"enum", "const", "type", "required", "pattern"})


def _expected(error: jsonschema.ValidationError) -> str:  # noqa: PLR0911 - one phrase per keyword
    keyword, value = error.validator, cast("Any", error.validator_value)
    if keyword == "enum":
        return "one of " + ", ".join(str(v) for v in value)
    if keyword == "const":
        return json.dumps(value)
    if keyword == "type":
        return f"type {value if isinstance(value, str) else ' or '.join(value)}"
    if keyword == "required":
        missing = [
            name
            for name in value
            if isinstance(error.instance, dict) and name not in error.instance
        ]
        return "property " + ", ".join(repr(name) for name in missing or value)
    if keyword == "additionalProperties":
        return "no other properties"
    if keyword == "pattern":
        return f"a string matching {value}"
    if keyword in {"oneOf", "anyOf"}:
        return (
            "exactly one of the allowed shapes"
            if keyword == "oneOf"
            else "one of the allowed shapes"
        )
    return f"{keyword} {json.dumps(value)}"


def _rules_out(sub: jsonschema.ValidationError) -> str | None:
    """Name the discriminator when ``sub`` shows its branch does not apply at all, else None."""
    path = list(sub.relative_path)
    if not path and sub.validator == "type":
        return "(type)"
    if len(path) == 1 and path[0] in _DISCRIMINATORS and sub.validator in {"const", "enum"}:
        return str(path[0])
    return None


def _refine(error: jsonschema.ValidationError) -> tuple[jsonschema.ValidationError, str]:
    """Descend from a failed ``oneOf``/``anyOf`` into the one branch that applies.

    A branch does not apply when the instance has another JSON type or another discriminator
    (``type``/``kind``) value. Returns the most specific error and, when no branch applies,
    the allowed discriminator values as the expectation.
    """
    if error.validator not in {"oneOf", "anyOf"} or not error.context:
        return error, ""
    branches: dict[object, list[jsonschema.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    plausible = [subs for subs in branches.values() if not any(_rules_out(s) for s in subs)]
    if len(plausible) == 1:
        return _refine(max(plausible[0], key=lambda sub: len(sub.relative_path)))
    if plausible:
        return error, ""
    keys = {_rules_out(sub) for sub in error.context} - {None, "(type)"}
    values = [
        json.dumps(sub.validator_value)
        for sub in error.context
        if sub.validator == "const" and [str(p) for p in sub.relative_path] in [[k] for k in keys]
    ]
    if len(keys) == 1 and values:
        return error, f"{keys.pop()} one of {', '.join(values)}"
    return error, ""


_ECHO_CHARS = 120
"""The most characters of a document's value a violation quotes (``conformance._inert.echo``'s
bound; this package imports no kit package)."""


def _bounded(error: jsonschema.ValidationError) -> str:
    """The validator's message, the value it quotes cut to :data:`_ECHO_CHARS` characters.

    The cut value ends ``… (N characters)`` (``N items`` for an array or object), so a
    20,000-character string is not echoed whole.
    """
    quoted = repr(error.instance)
    if len(quoted) <= _ECHO_CHARS or quoted not in error.message:
        return error.message
    size = f"{len(error.instance)} items" if isinstance(error.instance, list | dict) else None
    if isinstance(error.instance, str):
        size = f"{len(error.instance)} characters"
    shown = f"{quoted[:_ECHO_CHARS]}… ({size or f'{len(quoted)} characters shown as text'})"
    return error.message.replace(quoted, shown, 1)


def _schema_violation(top: jsonschema.ValidationError) -> ContractViolation:
    error, expectation = _refine(top)
    message = f"expected {expectation or _expected(error)}"
    if error.validator not in _SELF_EXPLAINING and not expectation:
        message += f" ({_bounded(error)})"
    return ContractViolation(
        pointer=json_pointer(error.absolute_path), rule=f"schema:{error.validator}", message=message
    )


def _contract_of(doc: Any, contract: str) -> tuple[Any, list[ContractViolation]]:  # noqa: ANN401
    """Strip a ``$schema`` naming ``contract``; report one naming another contract."""
    if not isinstance(doc, dict) or _SCHEMA_KEY not in doc:
        return doc, []
    named = doc[_SCHEMA_KEY]
    info = CONTRACTS[contract]
    if named != info.schema_id:
        other = stem_of_id(named) if isinstance(named, str) else None
        hint = f" (a {other} document)" if other and other != contract else ""
        message = f"expected $schema {info.schema_id}, got {json.dumps(named)}{hint}"
        return doc, [
            ContractViolation(pointer=f"/{_SCHEMA_KEY}", rule="wrong-contract", message=message)
        ]
    return {key: value for key, value in doc.items() if key != _SCHEMA_KEY}, []


def validate_document(doc: Any, contract: str) -> list[ContractViolation]:  # noqa: ANN401
    """Return every violation of the parsed JSON value ``doc`` against ``contract``.

    Schema violations come first (rule ``schema:<keyword>``, all of them, by pointer); invariants
    run only on a schema-valid document. jsonschema-rs decides first; python-jsonschema (with
    ECMA ``pattern``) explains a rejection with pointers. A top-level ``"$schema"`` equal to
    the contract's ``$id`` is allowed and ignored; one naming another contract is a
    ``wrong-contract`` violation.

    Raises:
        KeyError: ``contract`` is not a contract of the sheet.
    """
    info = CONTRACTS[contract]
    body, wrong = _contract_of(doc, contract)
    if wrong:
        return wrong
    if not fast_is_valid(contract, body):
        errors = sorted(
            validator_for(contract).iter_errors(body), key=lambda e: list(e.absolute_path)
        )
        if errors:
            # python-jsonschema yields one ``required`` error per missing property, each naming
            # all of them: identical violations collapse to one (order kept).
            return list(dict.fromkeys(_schema_violation(error) for error in errors))
    return list(info.invariants(body, ""))


def schema_violations(schema: dict[str, Any], doc: Any) -> list[ContractViolation]:  # noqa: ANN401
    """Return every violation of ``doc`` against ``schema``, a JSON Schema 2020-12 of the kit.

    For the kit's own file formats beside the contract set (a recording's ``run.json`` and
    exchange records): the same validator class as :func:`validate_document` (ECMA
    ``pattern``, ``format`` ignored) and the same explanations (``expected ...``, rule
    ``schema:<keyword>``, RFC 6901 pointer), sorted by pointer. ``schema`` must be
    self-contained (local ``$ref`` only); it is checked against the 2020-12 meta-schema.

    Raises:
        jsonschema.SchemaError: ``schema`` is not a valid JSON Schema (a kit bug).
    """
    validator_class = _ecma_validator_class()
    body = {key: value for key, value in schema.items() if key != _SCHEMA_KEY}
    validator_class.check_schema(body)
    errors = sorted(validator_class(body).iter_errors(doc), key=lambda e: list(e.absolute_path))
    return list(dict.fromkeys(_schema_violation(error) for error in errors))


def is_valid_document(doc: Any, contract: str) -> bool:  # noqa: ANN401
    """Return ``not validate_document(doc, contract)``, without explaining a rejection.

    The same verdict, computed the same way (jsonschema-rs, then python-jsonschema on a
    rejection, then the invariants), but a rejected document stops at its first schema error
    instead of collecting, sorting and explaining every one.

    Raises:
        KeyError: ``contract`` is not a contract of the sheet.
    """
    info = CONTRACTS[contract]
    body, wrong = _contract_of(doc, contract)
    if wrong:
        return False
    if (
        not fast_is_valid(contract, body)
        and next(iter(validator_for(contract).iter_errors(body)), None) is not None
    ):
        return False
    return next(iter(info.invariants(body, "")), None) is None


def parse_document(source: Any) -> tuple[Any, str | None]:  # noqa: ANN401
    """Return ``(json_value, path_or_None)`` for a path, JSON text (str/bytes) or parsed value.

    A :class:`os.PathLike` is a file; a ``str`` is JSON text when it starts (after whitespace)
    with ``{``, ``[``, ``"``, ``-``, a digit, or is ``true``/``false``/``null``, else a file path;
    ``bytes`` are JSON text; anything else is taken as an already-parsed JSON value.

    Text is read by the kit's strict reader (:func:`contracts.loads_strict`: RFC 8259 and
    I-JSON, nesting at most :data:`contracts.MAX_DEPTH`).

    Raises:
        ContractError: the file is missing or unreadable (rule ``file``); the text is refused
            (a :class:`contracts.StrictJSONError`, rule ``json-*``, with line and pointer).
    """
    if isinstance(source, os.PathLike) or (
        isinstance(source, str)
        and source.strip()[:1] not in _JSON_TEXT_STARTS
        and source.strip() not in _JSON_LITERALS
    ):
        path = os.fspath(source)
        return load_json_file(path), path
    if isinstance(source, str | bytes):
        return loads_strict(source), None
    return source, None


def check_document(source: Any, contract: str) -> tuple[Any, str | None]:  # noqa: ANN401
    """Read ``source`` (see :func:`parse_document`) and refuse it unless it keeps ``contract``.

    The checks of :func:`load_document` (JSON Schema, then the invariants), without building
    the model: for a caller that needs the verdict, not the model. Returns ``(json_value,
    path_or_None)``.

    Raises:
        ContractError: as :func:`load_document` (the first violation).
        KeyError: ``contract`` is not a contract of the sheet.
    """
    doc, path = parse_document(source)
    violations = validate_document(doc, contract)
    if violations:
        first = violations[0]
        expected = first.message.removeprefix("expected ").split(" (", 1)[0]
        raise ContractError(
            first.message, path=path, pointer=first.pointer, expected=expected, rule=first.rule
        )
    return doc, path


def load_document(source: Any, contract: str) -> BaseModel:  # noqa: ANN401
    """Read ``source`` (see :func:`parse_document`) and return it as ``contract``'s model.

    Raises:
        ContractError: missing/unreadable file, malformed JSON (``line`` set), a ``$schema``
            naming another contract, a schema violation or a broken invariant (first one;
            ``pointer``, ``expected`` and ``message`` say where and what).
        KeyError: ``contract`` is not a contract of the sheet.
    """
    info = CONTRACTS[contract]
    doc, path = check_document(source, contract)
    body, _ = _contract_of(doc, contract)
    from pydantic import ValidationError  # noqa: PLC0415 - validating a document needs no model

    try:
        return info.model.model_validate(body)
    except ValidationError as error:  # the differential tests keep this unreachable
        detail = error.errors()[0]
        msg = f"expected a valid {contract} ({detail['msg']})"
        raise ContractError(
            msg, path=path, pointer=json_pointer(detail["loc"]), rule="model"
        ) from None
