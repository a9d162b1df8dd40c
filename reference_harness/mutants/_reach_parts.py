"""Broken parts for the reach mutants: faults only fixtures of a particular shape reach.

Each part is the smallest wrong harness of one kind an independent attacker's wrapper harnesses
showed the suite passing because no suite fixture put the fault in front of it:

* item texts cut to ``max_item_chars`` UTF-16 code units instead of characters (astral text);
* ``total_matched`` taken from the rows returned, ignoring the backend's larger count;
* evidence status NO_EVIDENCE whenever the projection has no items (a backend reporting matches
  but returning no rows);
* a tool call whose time range ends before it starts is executed (no INVALID_ARGUMENTS);
* a NEGATIVE_OBSERVATION's target compared case-insensitively;
* unknown members of a Diagnosis Draft (e.g. a ``reasoning`` member) ignored by EvidenceGuard;
* an INFERENCE citing an in-band error (READY/ERROR) accepted;
* only the first reference of an answer item checked against the bounded lookup result;
* a SCHEMA_INVALID first draft sent straight to EVIDENCE_VALIDATION_FAILED, without the repair;
* ``set_intent`` writing the intent to every RUNNING Run of the session;
* released body strings stripped of surrounding whitespace;
* the Verified Snapshot leaving out the projections of cited NO_EVIDENCE invocations;
* a KNOWLEDGE_QUERY Run selecting a previous turn (PREVIOUS_TURN_SELECTED is for DIAGNOSIS Runs).

:mod:`reference_harness.mutants._catalogue` combines each with the reference Harness.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import update

from contracts import validator_for
from reference_harness._harness import Harness
from reference_harness._outcome import fallback
from reference_harness.guards import safe_fallback
from reference_harness.ports import ToolRows
from reference_harness.store import RunStore
from reference_harness.store._table import diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import VerifiedSnapshot
    from reference_harness._limits import Limits
    from reference_harness._outcome import Outcome
    from reference_harness._run_context import RunContext

__all__ = [
    "AllRunningIntentStore",
    "KnowledgeSelectingHarness",
    "SkipRepairSignal",
    "after_first_reference",
    "backend_total_ignored",
    "extra_members_ignored",
    "inference_on_in_band_error",
    "items_only_evidence_status",
    "no_evidence_left_out",
    "released_strings_stripped",
    "reversed_time_range_accepted",
    "schema_invalid_stops",
    "skipping_repair_pipeline",
    "target_case_folded",
    "utf16_cut",
]

Json = Any
"""A parsed JSON value."""
_ANALYSIS: Final = re.compile(r"^/analyses/(\d+)")
_LATER_REFERENCE: Final = re.compile(r"^/items/\d+/references/[1-9]\d*/document_id$")


# --------------------------------------------------------------------------- projections


def _utf16_prefix(text: str, units: int) -> str:
    """The longest prefix of ``text`` of at most ``units`` UTF-16 code units."""
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1  # noqa: PLR2004 - a surrogate pair is two units
        if used > units:
            return text[:index]
    return text


def utf16_cut(original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """Wrap ``project``: item texts are cut to ``max_item_chars`` UTF-16 code units (Java-style)."""

    def project(
        tool_name: str, arguments: Mapping[str, Any], result: ToolRows, limits: Limits
    ) -> dict[str, Any]:
        projection = original(tool_name, arguments, result, limits)
        for item in projection["items"]:
            item["text"] = _utf16_prefix(item["text"], limits.max_item_chars)
        return projection

    return project


def backend_total_ignored(original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """Wrap ``project``: ``total_matched`` is the number of rows returned, not the backend's."""

    def project(
        tool_name: str, arguments: Mapping[str, Any], result: ToolRows, limits: Limits
    ) -> dict[str, Any]:
        return original(tool_name, arguments, ToolRows(result.rows, None), limits)

    return project


def items_only_evidence_status(_original: Callable[..., str]) -> Callable[..., str]:
    """Replace ``evidence_status_of``: NO_EVIDENCE whenever the projection has zero items."""

    def evidence_status_of(projection: Mapping[str, Any]) -> str:
        return "NO_EVIDENCE" if not projection["items"] else "EVIDENCE_FOUND"

    return evidence_status_of


def reversed_time_range_accepted(original: Callable[[object], bool]) -> Callable[[object], bool]:
    """Wrap ``valid_arguments``: a time range ending before it starts is valid (read swapped)."""

    def valid_arguments(arguments: object) -> bool:
        if isinstance(arguments, dict) and isinstance(arguments.get("time_range"), dict):
            window = arguments["time_range"]
            start, end = window.get("start_ms"), window.get("end_ms")
            if isinstance(start, int) and isinstance(end, int) and end < start:
                swapped = {"start_ms": end, "end_ms": start}
                return original({**arguments, "time_range": swapped})
        return original(arguments)

    return valid_arguments


# --------------------------------------------------------------------------- EvidenceGuard


def _analysis(document: Json, pointer: str) -> dict[str, Any] | None:
    match = _ANALYSIS.match(pointer)
    analyses = document.get("analyses") if isinstance(document, dict) else None
    if match is None or not isinstance(analyses, list):
        return None
    index = int(match.group(1))
    found = analyses[index] if index < len(analyses) else None
    return found if isinstance(found, dict) else None


def target_case_folded(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401
    """Drop NEGATIVE_SCOPE_TOO_WIDE when only the target's case keeps the scope out of its query."""
    analysis = _analysis(document, violation["pointer"])
    if violation["code"] != "NEGATIVE_SCOPE_TOO_WIDE" or analysis is None:
        return False
    scope = analysis.get("scope")
    if not isinstance(scope, dict):
        return False
    for call_id in analysis["tool_call_ids"]:
        record = invocations.get(call_id)
        if record is None or record.projection is None:
            return False
        query = record.projection.model_dump(mode="json")["query_scope"]
        inner, outer = scope["time_range"], query["time_range"]
        if not (
            scope["tool"] == query["tool"]
            and str(scope["target"]).casefold() == str(query["target"]).casefold()
            and scope["query"] == query["query"]
            and outer["start_ms"] <= inner["start_ms"] <= inner["end_ms"] <= outer["end_ms"]
        ):
            return False
    return True


def inference_on_in_band_error(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401
    """Drop ERROR_EVIDENCE_CITED when an INFERENCE cites a READY invocation (an in-band error)."""
    analysis = _analysis(document, violation["pointer"])
    if violation["code"] != "ERROR_EVIDENCE_CITED" or analysis is None:
        return False
    if analysis.get("kind") != "INFERENCE":
        return False
    records = [invocations.get(call_id) for call_id in analysis["tool_call_ids"]]
    return all(r is not None and r.status == "READY" for r in records)


def after_first_reference(violation: dict[str, str], document: Json, invocations: Any) -> bool:  # noqa: ANN401, ARG001
    """Drop FABRICATED_DOCUMENT_ID for every reference of an item but its first."""
    return (
        violation["code"] == "FABRICATED_DOCUMENT_ID"
        and _LATER_REFERENCE.match(violation["pointer"]) is not None
    )


def _without_unknown_members(document: Json, contract: str) -> Json:
    """A copy of ``document`` without the members its contract's schema does not define."""
    stripped = copy.deepcopy(document)
    for error in list(validator_for(contract).iter_errors(stripped)):
        schema = error.schema
        if (
            error.validator == "additionalProperties"
            and isinstance(error.instance, dict)
            and isinstance(schema, dict)
        ):
            allowed = set(schema.get("properties", {}))
            for key in [k for k in error.instance if k not in allowed]:
                del error.instance[key]
    return stripped


def extra_members_ignored(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``check_draft``: members the draft contract does not define are dropped first."""

    def check(document: object, **kwargs: Any) -> Any:  # noqa: ANN401 - a GuardVerdict
        return original(_without_unknown_members(document, "diagnosis-draft"), **kwargs)

    return check


# --------------------------------------------------------------------------- release


class SkipRepairSignal(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised by :func:`schema_invalid_stops` to end the pipeline without the repair."""


def schema_invalid_stops(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_validate``: a first submission with SCHEMA_INVALID stops the pipeline (no repair)."""

    def validate(ctx: Any, intent: Any, submission: Any, *, attempt: int) -> Any:  # noqa: ANN401 - the pipeline's collaborators
        verdict = original(ctx, intent, submission, attempt=attempt)
        if attempt == 1 and any(str(v.code) == "SCHEMA_INVALID" for v in verdict.violations):
            raise SkipRepairSignal
        return verdict

    return validate


def skipping_repair_pipeline(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``release_pipeline``: :class:`SkipRepairSignal` ends it in a Safe Fallback."""

    async def pipeline(ctx: Any, **kwargs: Any) -> Outcome:  # noqa: ANN401 - a RunContext
        try:
            outcome: Outcome = await original(ctx, **kwargs)
        except SkipRepairSignal:
            return fallback(safe_fallback("EVIDENCE_VALIDATION_FAILED"))
        return outcome

    return pipeline


def _stripped(value: Json) -> Json:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return [_stripped(v) for v in value]
    if isinstance(value, dict):
        return {k: _stripped(v) for k, v in value.items()}
    return value


def released_strings_stripped(original: Callable[..., Outcome]) -> Callable[..., Outcome]:
    """Wrap ``success``: every string of the released body is stripped of surrounding whitespace."""

    def success(kind: str, body: Json) -> Outcome:
        return original(kind, _stripped(body))

    return success


def no_evidence_left_out(original: Callable[..., VerifiedSnapshot]) -> Callable[..., Any]:
    """Wrap ``build_snapshot``: the projections of cited NO_EVIDENCE invocations are left out."""
    from contracts import VerifiedSnapshot, digest  # noqa: PLC0415 - the model at run time
    from reference_harness.guards._body import body_json  # noqa: PLC0415

    def build(*, run_id: str, document: Any, invocations: Any) -> VerifiedSnapshot:  # noqa: ANN401 - a body model, the ledger
        snapshot = original(run_id=run_id, document=document, invocations=invocations)
        unsigned = body_json(snapshot)
        unsigned.pop("digest", None)
        unsigned["evidence"] = [
            e for e in unsigned["evidence"] if e.get("evidence_status") != "NO_EVIDENCE"
        ]
        return VerifiedSnapshot.model_validate({**unsigned, "digest": digest(unsigned)})

    return build


# --------------------------------------------------------------------------- run store


class AllRunningIntentStore(RunStore):
    """``set_intent`` writes the routed intent to every RUNNING Run of the session."""

    def set_intent(self, run_id: str, intent: Any) -> None:  # noqa: ANN401 - an Intent
        """Record ``intent`` on ``run_id`` and on every other RUNNING Run of its session."""
        super().set_intent(run_id, intent)
        session_id = self.get(run_id).session_id
        with self._write() as connection:
            connection.execute(
                update(diagnosis_run)
                .where(
                    (diagnosis_run.c.session_id == session_id)
                    & (diagnosis_run.c.state == "RUNNING")
                )
                .values(intent=intent)
            )


class KnowledgeSelectingHarness(Harness):
    """A KNOWLEDGE_QUERY Run selects a previous turn too, ignoring the rules.

    Recording a selection in a KNOWLEDGE_QUERY Run is allowed (docs/decisions/red-team-6.md,
    "F3"); this one names the newest prior Run of the session whatever its state or intent (a
    FALLBACK, FAILED, CANCELLED, RUNNING or KNOWLEDGE_QUERY Run too) and reports no skipped Run.
    Its agent still gets no previous turn: only the event is wrong.
    """

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        emit = ctx.trace.emit

        def emit_and_select(event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
            event = emit(event_type, data)
            if event_type == "INTENT_ROUTED" and data.get("intent") == "KNOWLEDGE_QUERY":
                selection = self._store.select_previous_turn(session_id, run_seq)
                newest = selection.skipped[0].run_id if selection.skipped else None
                chosen = selection.selected
                emit(
                    "PREVIOUS_TURN_SELECTED",
                    {
                        "selected_run_id": newest or (None if chosen is None else chosen.run_id),
                        "skipped": [],
                    },
                )
            return event

        ctx.trace.emit = emit_and_select  # type: ignore[method-assign]
        return await super()._work(ctx, session_id, user_message, run_seq)
