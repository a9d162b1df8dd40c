"""Mutants that break what the frozen contracts define where the spec's sentences stop.

Each still follows every spec sentence the suite checks elsewhere (it rejects the same ids,
drafts and answers, selects the same previous turn) and gets one contract detail wrong: the
presented id a rejection records, the body kind a validation names, the violation code of a
missing binding, the cap of the skip report. Found by mutation testing of the reference
(``bench/mutation``): these are the smallest wrong harnesses the suite used to pass. Added to
:data:`reference_harness.mutants.MUTANTS` by the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from reference_harness.guards._violations import ViolationCode
from reference_harness.mutants._iut import MutantSpec, Patch
from reference_harness.store import RunStore

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from jsonschema import ValidationError

__all__ = ["CONTRACT_DETAIL_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R2 = "tool-invocation-identity-shall-use-the-framework-tool-call-id"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R5 = "knowledge-answers-shall-use-exact-rag-bindings"
_R7 = "previous-turn-shall-come-from-a-safe-durable-run-result"


def _str_of_presented(original: Callable[[object], str | None]) -> Callable[[object], str | None]:
    """``presented_id_text``: a present id is shown by ``str()``, not as JSON text."""

    def text(presented: object) -> str | None:
        shown = original(presented)
        return None if shown is None else str(presented)[:160]

    return text


class _RelabellingTrace:
    """A trace recorder whose DRAFT_SUBMITTED / EVIDENCE_VALIDATION always say DIAGNOSIS_DRAFT."""

    def __init__(self, trace: Any) -> None:  # noqa: ANN401 - the Run's TraceRecorder
        self._trace = trace

    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        if event_type in {"DRAFT_SUBMITTED", "EVIDENCE_VALIDATION"}:
            data = {**data, "result_kind": "DIAGNOSIS_DRAFT"}
        result: dict[str, Any] = self._trace.emit(event_type, data)
        return result

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegation
        return getattr(self._trace, name)


class _RelabelledContext:
    """The Run context, seen through :class:`_RelabellingTrace`."""

    def __init__(self, ctx: Any) -> None:  # noqa: ANN401 - the RunContext
        self._ctx = ctx
        self.trace = _RelabellingTrace(ctx.trace)

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - delegation
        return getattr(self._ctx, name)


def _labelled_draft(original: Callable[..., Any]) -> Callable[..., Any]:
    """``_release._validate``: every submission is labelled DIAGNOSIS_DRAFT in the trace."""

    def validate(ctx: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - pass-through
        return original(_RelabelledContext(ctx), *args, **kwargs)

    return validate


def _schema_invalid_for(contract_name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``guards._schema._code_for``: a missing binding of ``contract_name`` is SCHEMA_INVALID."""

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def code_for(error: ValidationError, contract: str) -> tuple[str, tuple[object, ...]]:
            code, path = original(error, contract)
            if contract == contract_name:
                return ViolationCode.SCHEMA_INVALID, tuple(error.absolute_path)
            return code, path

        return code_for

    return wrap


class UncappedSkipStore(RunStore):
    """A run store whose previous-turn selection lists every passed-over Run, however many."""

    SKIPPED_LIMIT = 1_000_000


CONTRACT_DETAIL_SPECS: Final = (
    MutantSpec(
        "presented_id_not_json_text",
        _R2,
        "TOOL_CALL_REJECTED records a presented id by its str() (an absent id stays null), not "
        "as the JSON text of the value presented",
        rule_id="R2.rejected-presented-id",
        patches=(Patch("reference_harness._agent_loop", "presented_id_text", _str_of_presented),),
    ),
    MutantSpec(
        "validation_kind_mislabelled",
        _R1,
        "DRAFT_SUBMITTED and EVIDENCE_VALIDATION of a KNOWLEDGE_QUERY Run name DIAGNOSIS_DRAFT",
        rule_id="R1.validated-body-kind",
        patches=(Patch("reference_harness._release", "_validate", _labelled_draft),),
    ),
    MutantSpec(
        "missing_tool_call_ids_as_schema_invalid",
        _R4,
        "an analysis without Tool Call IDs is reported as SCHEMA_INVALID, never as "
        "MISSING_TOOL_CALL_IDS (still rejected, repaired and fallen back as the spec says)",
        rule_id="R4.missing-binding-code",
        patches=(
            Patch(
                "reference_harness.guards._schema",
                "_code_for",
                _schema_invalid_for("diagnosis-draft"),
            ),
        ),
    ),
    MutantSpec(
        "item_without_references_as_schema_invalid",
        _R5,
        "a knowledge item without references is reported as SCHEMA_INVALID, never as "
        "ITEM_WITHOUT_REFERENCES",
        rule_id="R5.item-without-references-code",
        patches=(
            Patch(
                "reference_harness.guards._schema",
                "_code_for",
                _schema_invalid_for("knowledge-answer"),
            ),
        ),
    ),
    MutantSpec(
        "skip_report_uncapped",
        _R7,
        "PREVIOUS_TURN_SELECTED lists every passed-over Run, beyond the contract's 100",
        rule_id="R7.skip-report-cap",
        store_class=UncappedSkipStore,
    ),
)
"""The contract-detail mutants, in requirement order of the rule they break."""
