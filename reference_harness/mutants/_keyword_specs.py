"""Mutants that skip one keyword of a frozen JSON Schema a model's output must meet.

A sixth red team's faulty harnesses each skipped one keyword (docs/decisions/red-team-6.md,
"One keyword of a frozen contract"): a NEGATIVE_OBSERVATION's required ``scope``, a verdict's
``uniqueItems``, a statement's ``maxLength``, the conclusion's ``minItems``, the ``scope`` of an
OBSERVATION, a tool argument's ``minimum``; a Knowledge Answer item's ``maxLength`` (open
world 7). Each mutant here is one of them, killed by the
keyword-break outlines of the default run naming its rule. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

from contracts import validator_for
from reference_harness.guards._pointer import pointer
from reference_harness.guards._violations import Violation
from reference_harness.mutants._iut import MutantSpec, Patch

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from jsonschema import ValidationError

__all__ = ["KEYWORD_SPECS"]

_R3 = "invocation-status-and-evidence-status-shall-be-independent"
_R6 = "safe-fallback-shall-use-a-fixed-schema"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_SCHEMA = "reference_harness.guards._schema"
_DRAFT = "reference_harness.guards._draft"
_KNOWLEDGE = "reference_harness.guards._knowledge"
_VERDICT = "reference_harness.guards._verdict"
_LOOP = "reference_harness._agent_loop"


def _skipping(
    contract: str, skipped: Callable[[ValidationError, Any], bool]
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``guards._schema._schema_errors``: ``contract``'s errors ``skipped`` selects are dropped."""

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        from reference_harness.guards import _schema  # noqa: PLC0415 - the patched module

        def schema_errors(document: Any, name: str) -> Iterator[Violation]:  # noqa: ANN401
            if name != contract:
                yield from original(document, name)
                return
            for error in validator_for(name).iter_errors(document):
                if skipped(error, document):
                    continue
                code, path = _schema._code_for(error, name)  # noqa: SLF001 - the wrapped module
                yield Violation(code, pointer(path))

        return schema_errors

    return wrap


def _lenient(
    repair: Callable[[Any], Any], restore: Callable[[Any, Any], Any]
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``build_model``: a document the model refuses is built from ``repair(document)``.

    The refused values are then put back (``restore(model, document)``, an unvalidated
    ``model_copy``): the contract model's own bounds are skipped as well as the schema's.
    """

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def build_model(model: type[Any], document: Any) -> tuple[Any, Any]:  # noqa: ANN401
            built, violations = original(model, document)
            if built is not None or not isinstance(document, dict):
                return built, violations
            repaired, _ = original(model, repair(copy.deepcopy(document)))
            if repaired is None:
                return built, violations
            return restore(repaired, document), ()

        return build_model

    return wrap


def _statements_cut(document: Any) -> Any:  # noqa: ANN401
    for analysis in document.get("analyses", []):
        if isinstance(analysis, dict) and isinstance(analysis.get("statement"), str):
            analysis["statement"] = analysis["statement"][:4000]
    return document


def _statements_back(model: Any, document: Any) -> Any:  # noqa: ANN401
    analyses = [
        analysis.model_copy(update={"statement": given["statement"]})
        for analysis, given in zip(model.analyses, document["analyses"], strict=True)
    ]
    return model.model_copy(update={"analyses": analyses})


def _conclusion_filled(document: Any) -> Any:  # noqa: ANN401
    conclusion = document.get("conclusion")
    if isinstance(conclusion, dict) and conclusion.get("analysis_ids") == []:
        conclusion["analysis_ids"] = [document["analyses"][0]["analysis_id"]]
    return document


def _conclusion_back(model: Any, document: Any) -> Any:  # noqa: ANN401
    ids = document["conclusion"]["analysis_ids"]
    conclusion = model.conclusion.model_copy(
        update={"analysis_ids": model.conclusion.analysis_ids[: len(ids)]}
    )
    return model.model_copy(update={"conclusion": conclusion})


def _ids_once(document: Any) -> Any:  # noqa: ANN401
    ids = document.get("unsupported_analysis_ids")
    if isinstance(ids, list) and all(isinstance(i, str) for i in ids):
        document["unsupported_analysis_ids"] = list(dict.fromkeys(ids))
    return document


def _ids_back(model: Any, _document: Any) -> Any:  # noqa: ANN401
    """The verdict is taken with each id once (accepted as valid, not retried)."""
    return model


def _negative_scope(error: ValidationError, _document: object) -> bool:
    return error.validator == "required" and "'scope'" in error.message


def _statement_length(error: ValidationError, _document: object) -> bool:
    path = tuple(error.absolute_path)
    return error.validator == "maxLength" and path[-1:] == ("statement",)


def _conclusion_ids(error: ValidationError, _document: object) -> bool:
    path = tuple(error.absolute_path)
    return error.validator == "minItems" and path == ("conclusion", "analysis_ids")


def _item_text_length(error: ValidationError, _document: object) -> bool:
    path = tuple(error.absolute_path)
    return error.validator == "maxLength" and path[:1] == ("items",) and path[-1:] == ("text",)


def _item_texts_cut(document: Any) -> Any:  # noqa: ANN401
    for item in document.get("items", []):
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            item["text"] = item["text"][:4000]
    return document


def _item_texts_back(model: Any, document: Any) -> Any:  # noqa: ANN401
    items = [
        item.model_copy(update={"text": given["text"]})
        for item, given in zip(model.items, document["items"], strict=True)
    ]
    return model.model_copy(update={"items": items})


def _positive_scope(error: ValidationError, document: Any) -> bool:  # noqa: ANN401
    path = tuple(error.absolute_path)
    if len(path) < 3 or path[0] != "analyses" or path[2] != "scope":  # noqa: PLR2004
        return False
    analysis = document["analyses"][path[1]]
    return isinstance(analysis, dict) and analysis.get("kind") != "NEGATIVE_OBSERVATION"


def _repeated_ids(error: ValidationError, _document: object) -> bool:
    return error.validator == "uniqueItems"


def _negative_start_accepted(original: Callable[[object], bool]) -> Callable[[object], bool]:
    """``valid_arguments``: a negative ``start_ms`` is read as 0 (the ``minimum`` skipped)."""

    def valid_arguments(arguments: object) -> bool:
        if isinstance(arguments, dict) and isinstance(arguments.get("time_range"), dict):
            window = arguments["time_range"]
            start = window.get("start_ms")
            if isinstance(start, int) and not isinstance(start, bool) and start < 0:
                return original({**arguments, "time_range": {**window, "start_ms": 0}})
        return original(arguments)

    return valid_arguments


def _negative_start_clamped(original: Callable[[object], Any]) -> Callable[[object], Any]:
    """``recorded_arguments``: the call is recorded (and executed) with a negative start at 0."""

    def recorded_arguments(arguments: object) -> Any:  # noqa: ANN401 - the recorded arguments
        if isinstance(arguments, dict) and isinstance(arguments.get("time_range"), dict):
            window = arguments["time_range"]
            start = window.get("start_ms")
            if isinstance(start, int) and not isinstance(start, bool) and start < 0:
                return original({**arguments, "time_range": {**window, "start_ms": 0}})
        return original(arguments)

    return recorded_arguments


KEYWORD_SPECS: Final = (
    MutantSpec(
        "negative_scope_not_required",
        _R6,
        "diagnosis-draft: scope is required on NEGATIVE_OBSERVATION (the if/then of Analysis); "
        "a NEGATIVE_OBSERVATION without scope is accepted",
        rule_id="R6.evidence-validation-failed",
        patches=(Patch(_SCHEMA, "_schema_errors", _skipping("diagnosis-draft", _negative_scope)),),
    ),
    MutantSpec(
        "knowledge_item_text_unbounded",
        _R6,
        "knowledge-answer: an answer item's text is at most 4000 characters (maxLength); a "
        "longer one is accepted",
        rule_id="R6.evidence-validation-failed",
        patches=(
            Patch(_SCHEMA, "_schema_errors", _skipping("knowledge-answer", _item_text_length)),
            Patch(_KNOWLEDGE, "build_model", _lenient(_item_texts_cut, _item_texts_back)),
        ),
    ),
    MutantSpec(
        "statement_length_unbounded",
        _R6,
        "diagnosis-draft: an analysis statement is at most 4000 characters (maxLength); a longer "
        "one is accepted",
        rule_id="R6.evidence-validation-failed",
        patches=(
            Patch(_SCHEMA, "_schema_errors", _skipping("diagnosis-draft", _statement_length)),
            Patch(_DRAFT, "build_model", _lenient(_statements_cut, _statements_back)),
        ),
    ),
    MutantSpec(
        "conclusion_without_analyses_accepted",
        _R6,
        "diagnosis-draft: the conclusion rests on at least one analysis (analysis_ids minItems "
        "1); an empty list is accepted",
        rule_id="R6.evidence-validation-failed",
        patches=(
            Patch(_SCHEMA, "_schema_errors", _skipping("diagnosis-draft", _conclusion_ids)),
            Patch(_DRAFT, "build_model", _lenient(_conclusion_filled, _conclusion_back)),
        ),
    ),
    MutantSpec(
        "observation_scope_unvalidated",
        _R6,
        "diagnosis-draft: an Analysis scope is a query-scope; the scope of an OBSERVATION or "
        "INFERENCE is not validated (a time range of -1 ms passes)",
        rule_id="R6.evidence-validation-failed",
        patches=(Patch(_SCHEMA, "_schema_errors", _skipping("diagnosis-draft", _positive_scope)),),
    ),
    MutantSpec(
        "verdict_repeated_ids_accepted",
        _R9,
        "an invalid SemanticGuard answer is an INVALID_SCHEMA attempt: a verdict repeating an "
        "unsupported id (semantic-verdict uniqueItems) is taken as valid",
        rule_id="R9.model-call-outcome",
        patches=(
            Patch(_SCHEMA, "_schema_errors", _skipping("semantic-verdict", _repeated_ids)),
            Patch(_VERDICT, "build_model", _lenient(_ids_once, _ids_back)),
        ),
    ),
    MutantSpec(
        "negative_start_ms_executed",
        _R3,
        "INVALID_ARGUMENTS is for arguments that give no query scope: a negative start_ms "
        "(query-scope minimum 0) is read as 0: executed and recorded so",
        rule_id="R3.malformed-arguments-error",
        patches=(
            Patch(_LOOP, "valid_arguments", _negative_start_accepted),
            Patch(_LOOP, "recorded_arguments", _negative_start_clamped),
        ),
    ),
)
"""The keyword-skipping mutants, in requirement order of the rule they break."""
