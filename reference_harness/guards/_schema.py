"""Structural validation of a submitted document through the contracts' own validators.

A submitted document is first walked once (iteratively, linear in its size) to make sure it is a
JSON value the validators and the RFC 8785 encoder can take: only JSON types, string keys, bounded
nesting, integers within the I-JSON safe range, finite floats, strings without lone surrogates.
Then the contract's JSON Schema validator (`contracts.validator_for`) reports every schema error
(jsonschema-rs first decides, `contracts.fast_is_valid`, as in `contracts.validate_document`);
then the contract invariants (`contracts.check_invariants`) run; the Pydantic model is built last.
Every failure becomes a `SCHEMA_INVALID` violation with the JSON pointer of the offending value,
except those with their own stable code: an analysis without Tool Call IDs
(`MISSING_TOOL_CALL_IDS`), a knowledge item without references (`ITEM_WITHOUT_REFERENCES`),
duplicate analysis/item ids (`DUPLICATE_ANALYSIS_ID`, `DUPLICATE_ITEM_ID`) and a reference to a
call other than the lookup (`REFERENCE_OTHER_CALL`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

import pydantic

import contracts
from contracts import check_invariants, fast_is_valid, validator_for

from ._pointer import pointer
from ._violations import Violation, ViolationCode

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from jsonschema import ValidationError

MAX_DEPTH: Final = contracts.MAX_DEPTH
"""Deepest nesting accepted (the kit's one limit, :data:`contracts.MAX_DEPTH`)."""

SAFE_INTEGER: Final = contracts.MAX_SAFE_INTEGER
"""Largest integer magnitude RFC 8785 (I-JSON) can encode: :data:`contracts.MAX_SAFE_INTEGER`."""

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


def _walk_problem(document: object) -> str | None:
    """Return the pointer of the first value that is not a canonicalizable JSON value, or None."""
    problem = contracts.json_value_problem(document, canonical=True)
    return None if problem is None else pointer(problem.path)


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
    if fast_is_valid(contract, instance):
        # jsonschema-rs accepts it: python-jsonschema finds no error either (the verdicts agree,
        # as in `contracts.validate_document`); it is asked only to name the errors of a rejection.
        return
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
    bad_pointer = _walk_problem(document)
    if bad_pointer is not None:
        return [Violation(ViolationCode.SCHEMA_INVALID, bad_pointer)]
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
