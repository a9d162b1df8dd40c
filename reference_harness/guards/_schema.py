"""Structural validation of a submitted document through the contracts' own validators.

A submitted document is first walked once (iteratively, linear in its size) to make sure it is a
JSON value the validators and the RFC 8785 encoder can take: only JSON types, string keys, bounded
nesting, integers within the I-JSON safe range, finite floats, strings without lone surrogates.
Then the contract's JSON Schema validator (`contracts.validator_for`) reports every schema error;
then the contract invariants (`contracts.check_invariants`) run; the Pydantic model is built last.
Every failure becomes a `SCHEMA_INVALID` violation with the JSON pointer of the offending value,
except those with their own stable code: an analysis without Tool Call IDs
(`MISSING_TOOL_CALL_IDS`), a knowledge item without references (`ITEM_WITHOUT_REFERENCES`),
duplicate analysis/item ids (`DUPLICATE_ANALYSIS_ID`, `DUPLICATE_ITEM_ID`) and a reference to a
call other than the lookup (`REFERENCE_OTHER_CALL`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final, TypeVar

import pydantic

from contracts import check_invariants, validator_for

from ._pointer import pointer
from ._violations import Violation, ViolationCode

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from jsonschema import ValidationError

MAX_DEPTH: Final = 64
"""Deepest nesting accepted; every contract body is far shallower than this."""

SAFE_INTEGER: Final = 2**53 - 1
"""Largest magnitude of an integer that RFC 8785 (I-JSON) can encode."""

_ModelT = TypeVar("_ModelT", bound=pydantic.BaseModel)

STRUCTURAL_CODES: Final = frozenset(
    {
        ViolationCode.SCHEMA_INVALID,
        ViolationCode.MISSING_TOOL_CALL_IDS,
        ViolationCode.ITEM_WITHOUT_REFERENCES,
    }
)
"""Codes after which the binding rules are not checked (the document's shape is not known)."""

# contracts invariant rule -> the EvidenceGuard code it is reported under (else SCHEMA_INVALID)
_INVARIANT_CODES: Final = {
    "unique-analysis-ids": ViolationCode.DUPLICATE_ANALYSIS_ID,
    "unique-item-ids": ViolationCode.DUPLICATE_ITEM_ID,
    "reference-names-lookup": ViolationCode.REFERENCE_OTHER_CALL,
}

# (contract, array holding the bindings, property that must hold >= 1 binding, its code)
_BINDING_RULES: Final = {
    "diagnosis-draft": ("analyses", "tool_call_ids", ViolationCode.MISSING_TOOL_CALL_IDS),
    "knowledge-answer": ("items", "references", ViolationCode.ITEM_WITHOUT_REFERENCES),
}


def _unencodable_text(value: str) -> bool:
    """Return True when `value` holds a lone surrogate (not encodable as UTF-8)."""
    if value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _scalar_problem(value: object) -> bool:
    """Return True when a JSON scalar cannot be encoded by RFC 8785 (or is no JSON scalar)."""
    if value is None or isinstance(value, bool):
        problem = False
    elif isinstance(value, int):
        problem = abs(value) > SAFE_INTEGER
    elif isinstance(value, float):
        problem = not math.isfinite(value)
    elif isinstance(value, str):
        problem = _unencodable_text(value)
    else:
        problem = True
    return problem


def _walk_problem(document: object) -> tuple[object, ...] | None:
    """Return the path of the first value that is not an encodable JSON value, or None."""
    stack: list[tuple[object, tuple[object, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            return path
        if isinstance(value, dict):
            for key, child in value.items():
                if not isinstance(key, str) or _scalar_problem(key):
                    return path
                stack.append((child, (*path, key)))
        elif isinstance(value, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(value))
        elif _scalar_problem(value):
            return path
    return None


def _code_for(error: ValidationError, contract: str) -> tuple[str, tuple[object, ...]]:
    """Map one JSON Schema error to its violation code and the path it points at."""
    path = tuple(error.absolute_path)
    rule = _BINDING_RULES.get(contract)
    if rule is not None:
        array, binding, code = rule
        if (
            error.validator == "minItems"
            and len(path) == 3  # noqa: PLR2004 <array>/<index>/<binding>
            and path[0] == array
            and path[2] == binding
        ):
            return code, path
        if (
            error.validator == "required"
            and len(path) == 2  # noqa: PLR2004 <array>/<index>
            and path[0] == array
            and isinstance(error.instance, dict)
            and binding not in error.instance
            and f"'{binding}'" in error.message
        ):
            return code, (*path, binding)
    return ViolationCode.SCHEMA_INVALID, path


def _schema_errors(document: object, contract: str) -> Iterator[Violation]:
    instance: Any = document  # any Python value; the walk proved it is plain JSON
    for error in validator_for(contract).iter_errors(instance):
        code, path = _code_for(error, contract)
        yield Violation(code, pointer(path))


def structural_violations(document: object, contract: str) -> list[Violation]:
    """Return the contract violations of `document` against `contract` (a contract file stem).

    Layers, each only if the previous one passed: encodable JSON value; the JSON Schema
    (`contracts.validator_for`); the contract invariants (`contracts.check_invariants`), where
    duplicate analysis/item ids and references to another call keep their own codes. Empty means
    the document is a valid contract document. The binding rules may run iff no returned code is
    in `STRUCTURAL_CODES`.
    """
    bad_path = _walk_problem(document)
    if bad_path is not None:
        return [Violation(ViolationCode.SCHEMA_INVALID, pointer(bad_path))]
    schema = list(_schema_errors(document, contract))
    if schema:
        return schema
    return [
        Violation(_INVARIANT_CODES.get(found.rule, ViolationCode.SCHEMA_INVALID), found.pointer)
        for found in check_invariants(contract, document)
    ]


def is_structural(violations: list[Violation]) -> bool:
    """Return True when `violations` hold a code that stops the binding checks."""
    return any(violation.code in STRUCTURAL_CODES for violation in violations)


def build_model(
    model: type[_ModelT], document: object
) -> tuple[_ModelT | None, Sequence[Violation]]:
    """Build `model` from a schema-valid `document`; a rejected invariant is `SCHEMA_INVALID`.

    Returns the model and no violations, or `None` and one violation per Pydantic error.
    """
    try:
        return model.model_validate(document), ()
    except pydantic.ValidationError as exc:
        found = tuple(
            Violation(ViolationCode.SCHEMA_INVALID, pointer(error["loc"])) for error in exc.errors()
        )
        return None, found or (Violation(ViolationCode.SCHEMA_INVALID, ""),)
