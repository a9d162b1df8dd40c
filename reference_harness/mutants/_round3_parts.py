"""Broken parts for the round-3 mutants (``docs/../cases/suite-gaps.md`` S17-S21, by kind).

Each part is the smallest wrong harness of one *kind* of fault the round-3 attackers found the
suite passing, and its siblings:

* identity by arguments instead of the Tool Call ID (S17): a call whose tool and arguments equal
  an accepted call's is rejected DUPLICATE_ID, or is not executed and reuses that call's result;
  a duplicate id judged per tool (the same id under another tool is taken for a new call);
* a release after a disconnect that arrived after the last verdict (S18): the Harness passes the
  release gate without looking for a disconnect already delivered, or releases a fixed-schema
  output (fallback, public error) although the Run was cancelled;
* terminal writes after the end (S19): a disconnect after the release rewrites the finished row
  to CANCELLED; a cancel that arrives after RUN_FINISHED still records its layers; a cancel
  rewrites READY invocations to ERROR/CANCELLED; a cancel finishes the session's older RUNNING
  Runs too;
* closed vocabularies read loosely (S20): the Analysis kind or the confidence of a draft, the
  Router's intent or the SemanticGuard's verdict accepted in another case (or padded);
* per-item rules checked for "all" only (S21): an analysis without Tool Call IDs, a knowledge
  item without references or an action-plan entry without analysis ids accepted next to a valid
  one.

:mod:`reference_harness.mutants._round3_specs` combines each with the reference Harness.
"""

from __future__ import annotations

import asyncio
import copy
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import update

from contracts import canonical_json
from reference_harness._agent_loop import AgentLoop
from reference_harness._conversation import rejection_message, tool_step_messages
from reference_harness._harness import Harness
from reference_harness._ids import classify_tool_call_id, presented_id_text
from reference_harness._run_context import RunContext
from reference_harness._tool_execution import _classified, execute_tool
from reference_harness._tools import TOOL_NAMES, recorded_arguments, valid_arguments
from reference_harness.store import RunStore
from reference_harness.store._table import diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Callable

    from contracts import DiagnosisRun
    from reference_harness._outcome import Outcome
    from reference_harness.ports import ProposedToolCall

__all__ = [
    "ArgumentIdentityLoop",
    "CancelAfterFinishHarness",
    "CancelAllRunningStore",
    "FixedOutputsBypassGateHarness",
    "ReadyRewritingContext",
    "ResultReusingLoop",
    "RowRewritingHarness",
    "ToolKeyedIdentityLoop",
    "case_folded_confidence",
    "case_folded_intent",
    "case_folded_kind",
    "case_folded_review",
    "forgiving_check",
    "late_cancel_context",
    "loop_class",
    "no_release_point",
    "run_context_class",
    "unbound_analysis_dropped",
    "unbound_item_dropped",
    "unbound_plan_entry_dropped",
    "upper_cased",
]

Json = Any
"""A parsed JSON value."""
_NAME_MAX: Final = 256
_KINDS: Final = frozenset({"OBSERVATION", "NEGATIVE_OBSERVATION", "INFERENCE"})
_CONFIDENCES: Final = frozenset({"LOW", "MEDIUM", "HIGH"})
_INTENTS: Final = frozenset({"DIAGNOSIS", "KNOWLEDGE_QUERY"})
_VERDICTS: Final = frozenset({"SUPPORTED", "UNSUPPORTED"})


# --------------------------------------------------------------------------- S17: identity


class _IdentityLoop(AgentLoop):
    """The reference step with one seam: :meth:`_same_as` names an accepted call it repeats."""

    def _same_as(self, call: ProposedToolCall) -> dict[str, Any] | None:  # noqa: ARG002
        return None

    def _rejection(self, call: ProposedToolCall) -> str | None:
        return classify_tool_call_id(call.id, self._ctx.ledger.accepted_ids)

    async def _execute(self, record: dict[str, Any], call: ProposedToolCall) -> dict[str, Any]:  # noqa: ARG002
        return await execute_tool(self._ctx, self._tools, record)

    async def _step(self, step: int, calls: tuple[ProposedToolCall, ...]) -> None:
        ctx = self._ctx
        done: list[dict[str, Any]] = []
        notices: list[dict[str, Any]] = []
        for position, call in enumerate(calls):
            ctx.check_open()
            reason = self._rejection(call)
            if reason is not None:
                ctx.trace.emit(
                    "TOOL_CALL_REJECTED",
                    {
                        "reason": reason,
                        "presented_id": presented_id_text(call.id),
                        "tool_name": call.name[:_NAME_MAX] if isinstance(call.name, str) else None,
                        "step": step,
                        "position": position,
                    },
                )
                notices.append(rejection_message(step, position, reason))
                continue
            if call.name not in TOOL_NAMES:
                notices.append(rejection_message(step, position, "UNKNOWN_TOOL"))
                continue
            tool_call_id, tool_name = str(call.id), str(call.name)
            ctx.trace.emit(
                "TOOL_CALL_ACCEPTED",
                {
                    "tool_call_id": tool_call_id,
                    "tool_name": tool_name,
                    "step": step,
                    "sequence": len(ctx.ledger.accepted_ids) + 1,
                },
            )
            arguments = call.arguments if valid_arguments(call.arguments) else None
            record = ctx.ledger.accept(
                tool_call_id, tool_name, recorded_arguments(call.arguments), step
            )
            if arguments is None:
                done.append(ctx.ledger.fail(tool_call_id, "INVALID_ARGUMENTS"))
                continue
            done.append(await self._execute(record, call))
        self._messages.extend(tool_step_messages(done))
        self._messages.extend(notices)

    def _earlier_same_call(self, call: ProposedToolCall) -> dict[str, Any] | None:
        """The accepted invocation with the same tool and byte-identical arguments, if any."""
        try:
            wanted = canonical_json(call.arguments)
        except (TypeError, ValueError):
            return None
        for record in self._ctx.ledger.accepted_ids.values():
            if record["tool_name"] == call.name and canonical_json(record["arguments"]) == wanted:
                return record
        return None


class ArgumentIdentityLoop(_IdentityLoop):
    """A call repeating an accepted call's tool and arguments is rejected DUPLICATE_ID."""

    def _rejection(self, call: ProposedToolCall) -> str | None:
        reason = super()._rejection(call)
        if reason is None and self._earlier_same_call(call) is not None:
            return "DUPLICATE_ID"
        return reason


class ResultReusingLoop(_IdentityLoop):
    """A call repeating an accepted call's tool and arguments is never executed.

    It reuses the earlier invocation's result (a cache keyed by tool and arguments).
    """

    async def _execute(self, record: dict[str, Any], call: ProposedToolCall) -> dict[str, Any]:
        earlier = next(
            (
                r
                for r in self._ctx.ledger.accepted_ids.values()
                if r["tool_call_id"] != record["tool_call_id"]
                and r["status"] == "READY"
                and r["evidence_status"] != "ERROR"
                and r["tool_name"] == call.name
                and canonical_json(r["arguments"]) == canonical_json(record["arguments"])
            ),
            None,
        )
        if earlier is None:
            return await super()._execute(record, call)
        done = self._ctx.ledger.ready(record["tool_call_id"], copy.deepcopy(earlier["projection"]))
        _classified(self._ctx, done)
        return done


class ToolKeyedIdentityLoop(_IdentityLoop):
    """A Tool Call ID is a duplicate only when the same tool already used it.

    Identity keyed by tool and id: the same id under another tool is accepted as a new call.
    """

    def _rejection(self, call: ProposedToolCall) -> str | None:
        same_tool = {
            call_id
            for call_id, record in self._ctx.ledger.accepted_ids.items()
            if record["tool_name"] == call.name
        }
        return classify_tool_call_id(call.id, same_tool)


def loop_class(loop: type[AgentLoop]) -> Callable[[Any], type[AgentLoop]]:
    """A ``Patch`` wrap replacing ``reference_harness._harness.AgentLoop`` by ``loop``."""
    return lambda _original: loop


# --------------------------------------------------------------------------- S18: late disconnect


def no_release_point(_original: Callable[[], Any]) -> Callable[[], Any]:
    """Replace the release point: the gate is passed without letting a delivered disconnect in."""

    async def release_point() -> None:
        return None

    return release_point


class FixedOutputsBypassGateHarness(Harness):
    """Fixed-schema outputs are published even when the Run was cancelled after their decision.

    A Safe Fallback or a public error skips the release gate: only agent bodies pass it.
    """

    async def _finish(
        self, ctx: RunContext, outcome: Outcome | None
    ) -> tuple[DiagnosisRun | None, dict[str, Any] | None, Any]:
        if outcome is not None and outcome.kind in {"SAFE_FALLBACK", "PUBLIC_ERROR"}:
            ctx._gate_closed = False  # noqa: SLF001 - the mutant's fault: it reopens the gate
        return await super()._finish(ctx, outcome)


# --------------------------------------------------------------------------- S19: terminal writes


class RowRewritingHarness(Harness):
    """A disconnect that arrives after the release rewrites the finished row to CANCELLED."""

    async def run(self, session_id: str, user_message: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401
        """Run as the reference, then mark the row CANCELLED if the client left meanwhile."""
        final = await super().run(session_id, user_message, **kwargs)
        scope = kwargs.get("cancel")
        await asyncio.sleep(0)  # the disconnect delivered on RUN_FINISHED runs now
        if scope is not None and scope.cancelled and final.state != "CANCELLED":
            store = self._store
            with store._write() as connection:  # noqa: SLF001 - the fault bypasses the store rule
                connection.execute(
                    update(diagnosis_run)
                    .where(diagnosis_run.c.run_id == final.run_id)
                    .values(
                        state="CANCELLED",
                        published_result=None,
                        fallback_type=None,
                        error_code=None,
                    )
                )
            return store.get(final.run_id)
        return final


class _LateCancelContext(RunContext):
    """A cancel handler that runs its layers whatever the state of the Run."""

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Run the layered cancellation even after the release."""
        self._released = False
        super().on_cancel(cause)


class CancelAfterFinishHarness(Harness):
    """A cancel that arrives after RUN_FINISHED still records its layers in the Run's trace.

    Used with :func:`late_cancel_context` as the Run's context.
    """

    _last: RunContext | None = None

    async def _finish(
        self, ctx: RunContext, outcome: Outcome | None
    ) -> tuple[DiagnosisRun | None, dict[str, Any] | None, Any]:
        self._last = ctx
        return await super()._finish(ctx, outcome)

    async def run(self, session_id: str, user_message: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401
        """Run as the reference, then let a late cancel run on the finished Run's trace."""
        final = await super().run(session_id, user_message, **kwargs)
        await asyncio.sleep(0)  # the disconnect delivered on RUN_FINISHED runs now
        journal = kwargs.get("journal")
        if journal is not None and self._last is not None:
            journal.events = self._last.trace.events
        return final


class ReadyRewritingContext(RunContext):
    """The cancel handler fails every invocation of the Run, READY ones included.

    Terminal invocation states are rewritten to ERROR/CANCELLED.
    """

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Cancel as the reference, then rewrite every terminal invocation to CANCELLED."""
        was_open = not (self._released or self._gate_closed)
        super().on_cancel(cause)
        if not was_open:
            return
        for record in self.ledger._records.values():  # noqa: SLF001 - the fault: terminal rewrite
            if record["status"] == "READY":
                record.update(
                    status="ERROR",
                    evidence_status="ERROR",
                    projection=None,
                    error={"code": "CANCELLED", "safe_message": "The tool call was cancelled."},
                )
                self.ledger._changed(record)  # noqa: SLF001


def run_context_class(context: type[RunContext]) -> Callable[[Any], type[RunContext]]:
    """A ``Patch`` wrap replacing ``reference_harness._harness.RunContext`` by ``context``."""
    return lambda _original: context


def late_cancel_context(_original: type[RunContext]) -> type[RunContext]:
    """A ``Patch`` wrap: the Run's context runs a late cancel's layers.

    See :class:`CancelAfterFinishHarness`.
    """
    return _LateCancelContext


class CancelAllRunningStore(RunStore):
    """Finishing a Run CANCELLED also finishes every other RUNNING Run of its session."""

    def finish_run(self, run_id: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401
        """Finish ``run_id``; when CANCELLED, mark the session's older RUNNING Runs too."""
        row = super().finish_run(run_id, **kwargs)
        if kwargs.get("state") == "CANCELLED":
            with self._write() as connection:
                connection.execute(
                    update(diagnosis_run)
                    .where(
                        (diagnosis_run.c.session_id == row.session_id)
                        & (diagnosis_run.c.state == "RUNNING")
                    )
                    .values(state="CANCELLED", finished_at_ms=kwargs["now_ms"])
                )
        return row


# --------------------------------------------------------------------------- S20: closed enums


def upper_cased(value: Json, allowed: frozenset[str]) -> Json:
    """``value`` upper-cased and stripped when that makes it one of ``allowed``, else as is."""
    if isinstance(value, str) and value.strip().upper() in allowed:
        return value.strip().upper()
    return value


def _fold_member(document: Json, array: str | None, member: str, allowed: frozenset[str]) -> Json:
    """A copy of ``document`` with ``member`` folded into ``allowed``, or ``None``.

    ``member`` of each entry of ``array`` (or of ``conclusion``); ``None`` when nothing needed
    folding.
    """
    if not isinstance(document, dict):
        return None
    folded = copy.deepcopy(document)
    holders = folded.get(array) if array else [folded.get("conclusion")]
    changed = False
    for holder in holders if isinstance(holders, list) else []:
        if isinstance(holder, dict) and member in holder:
            new = upper_cased(holder[member], allowed)
            changed = changed or new != holder[member]
            holder[member] = new
    return folded if changed else None


def case_folded_kind(document: Json) -> Json:
    """The draft with each Analysis kind read case-insensitively (``None``: nothing to fold)."""
    return _fold_member(document, "analyses", "kind", _KINDS)


def case_folded_confidence(document: Json) -> Json:
    """The draft with its confidence read case-insensitively (``None``: nothing to fold)."""
    return _fold_member(document, None, "confidence", _CONFIDENCES)


def forgiving_check(forgive: Callable[[Json], Json]) -> Callable[[Any], Any]:
    """Wrap an EvidenceGuard check: a rejection is checked again as ``forgive`` reads it.

    ``forgive`` returns a copy with the forgiven defect repaired (or ``None``); that verdict
    stands.
    """

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def check(document: object, **kwargs: Any) -> Any:  # noqa: ANN401
            verdict = original(document, **kwargs)
            if verdict.valid:
                return verdict
            forgiven = forgive(document)
            return verdict if forgiven is None else original(forgiven, **kwargs)

        return check

    return wrap


def case_folded_intent(original: Callable[[object], Any]) -> Callable[[object], Any]:
    """Wrap the Router answer check: an intent in another case (or padded) is accepted."""
    from reference_harness.ports import RouterAnswer  # noqa: PLC0415

    def check(answer: object) -> Any:  # noqa: ANN401
        if isinstance(answer, RouterAnswer):
            answer = RouterAnswer(upper_cased(answer.content, _INTENTS))
        return original(answer)

    return check


def case_folded_review(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``parse_verdict``: a verdict in another case (or padded) is accepted."""

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401
        if isinstance(raw, dict) and "verdict" in raw:
            raw = {**raw, "verdict": upper_cased(raw["verdict"], _VERDICTS)}
        return original(raw, **kwargs)

    return parse


# --------------------------------------------------------------------------- S21: per-item rules


def _bound(entry: Json, member: str) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get(member), list) and bool(entry[member])


def _dropping_unbound(document: Json, array: str, member: str) -> Json:
    """A copy without the entries of ``array`` whose ``member`` is empty or absent.

    Only when some entry is bound (the rule checked for "all" only); ``None`` otherwise.
    """
    if not isinstance(document, dict) or not isinstance(document.get(array), list):
        return None
    entries = document[array]
    kept = [e for e in entries if _bound(e, member)]
    if not kept or len(kept) == len(entries):
        return None
    forgiven = copy.deepcopy(document)
    forgiven[array] = copy.deepcopy(kept)
    if array == "analyses":
        known = {e.get("analysis_id") for e in kept}
        naming = [forgiven.get("conclusion")]
        for section in ("action_plan", "recommendations"):
            entries = forgiven.get(section)
            naming += entries if isinstance(entries, list) else []
        for entry in naming:
            if isinstance(entry, dict) and isinstance(entry.get("analysis_ids"), list):
                entry["analysis_ids"] = [a for a in entry["analysis_ids"] if a in known]
    return forgiven


def unbound_analysis_dropped(document: Json) -> Json:
    """The draft read without its analyses that have no Tool Call ID, when another has one."""
    return _dropping_unbound(document, "analyses", "tool_call_ids")


def unbound_item_dropped(document: Json) -> Json:
    """The answer read without its items that have no reference, when another item has one."""
    return _dropping_unbound(document, "items", "references")


def unbound_plan_entry_dropped(document: Json) -> Json:
    """The draft read without its action-plan entries naming no analysis, when one names one."""
    return _dropping_unbound(document, "action_plan", "analysis_ids")
