"""Broken parts for the red-team mutants: kinds written from the spec and the docs alone.

Each part is the smallest wrong harness of one kind an implementer could write while reading only
the spec, ``docs/implementers.md`` and ``docs/contracts.md``:

* a projection marked truncated at its bound: exactly ``max_items`` rows, or a row of exactly
  ``max_item_chars`` characters, left nothing out;
* the ``diagnosis_run`` row keeps another user message than the one asked (trimmed, or cut);
* previous-turn selection ordering ``seq`` as text, or matching sessions case-insensitively;
* a knowledge answer whose item ids repeat accepted; a SemanticGuard verdict naming an analysis
  the snapshot does not hold taken for UNSUPPORTED;
* the ``end`` frame of a fallback carrying the rejected draft's conclusion;
* cancellation layers out of order; a snapshot digest over non-canonical JSON;
* a retry counted as a new logical call; a failed SemanticGuard attempt left unrecorded;
* the step budget off by one.

:mod:`reference_harness.mutants._redteam_specs` combines each with the reference Harness.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import select

from reference_harness._agent_loop import BUDGET_EXHAUSTED, AgentLoop, Submission
from reference_harness._conversation import answer_message
from reference_harness._harness import Harness
from reference_harness._run_context import RunContext
from reference_harness.ports import FinalAnswer
from reference_harness.store import RunStore
from reference_harness.store._codec import run_of_row
from reference_harness.store._selection import PreviousTurnSelection, SkippedRun, skip_reason
from reference_harness.store._table import diagnosis_run

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from contracts import DiagnosisRun
    from reference_harness._limits import Limits
    from reference_harness._outcome import Outcome
    from reference_harness.ports import ToolRows

__all__ = [
    "BudgetPlusOneLoop",
    "CaseFoldedSessionStore",
    "CutMessageStore",
    "DraftInEndFrameHarness",
    "InterruptFirstContext",
    "RememberingLoop",
    "SeqAsTextStore",
    "StrippedMessageStore",
    "duplicate_items_renumbered",
    "failed_review_attempt_dropped",
    "json_dumps_digest",
    "retry_as_new_call",
    "truncated_at_char_bound",
    "truncated_at_item_bound",
    "unknown_verdict_ids_accepted",
    "unknown_verdict_ids_dropped",
    "zero_limits_unset",
]

Json = Any
"""A parsed JSON value."""
_MESSAGE_KEPT: Final = 4000


# --------------------------------------------------------------------------- projections


def truncated_at_item_bound(original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """Wrap ``project``: a result of exactly ``max_items`` rows is marked truncated (off by one)."""

    def project(
        tool_name: str, arguments: Mapping[str, Any], result: ToolRows, limits: Limits
    ) -> dict[str, Any]:
        projection = original(tool_name, arguments, result, limits)
        if projection["items"] and len(projection["items"]) >= limits.max_items:
            projection["truncated"] = True
        return projection

    return project


def truncated_at_char_bound(original: Callable[..., dict[str, Any]]) -> Callable[..., Any]:
    """Wrap ``project``: an item text of exactly ``max_item_chars`` characters counts as cut."""

    def project(
        tool_name: str, arguments: Mapping[str, Any], result: ToolRows, limits: Limits
    ) -> dict[str, Any]:
        projection = original(tool_name, arguments, result, limits)
        if any(len(item["text"]) >= limits.max_item_chars for item in projection["items"]):
            projection["truncated"] = True
        return projection

    return project


def zero_limits_unset(original: type[Limits]) -> Callable[..., Limits]:
    """Replace ``Limits``: a limit of 0 is read as unset (``value or default``).

    So ``max_items`` 0 keeps 20 items and ``max_item_chars`` 0 keeps 2,000 characters.
    """

    def limits(**values: int) -> Limits:
        return original(**{name: value for name, value in values.items() if value != 0})

    return limits


# --------------------------------------------------------------------------- the durable row


class StrippedMessageStore(RunStore):
    """The ``diagnosis_run`` row stores the user message with its surrounding whitespace cut."""

    def create_run(self, *, user_message: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401
        """Create the row with ``user_message.strip()``."""
        return super().create_run(user_message=user_message.strip(), **kwargs)


class CutMessageStore(RunStore):
    """The ``diagnosis_run`` row stores at most 4,000 characters of the user message.

    A column narrower than the contract's 16,000 characters.
    """

    def create_run(self, *, user_message: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401
        """Create the row with the first 4,000 characters of ``user_message``."""
        return super().create_run(user_message=user_message[:_MESSAGE_KEPT], **kwargs)


# --------------------------------------------------------------------------- previous turn


def _selection(runs: list[DiagnosisRun], before_seq: int, key: Callable[[int], Any]) -> Any:  # noqa: ANN401
    """Select among ``runs`` (one session) with ``seq`` ordered by ``key``."""
    earlier = [r for r in runs if r.seq < before_seq]
    eligible = [r for r in earlier if r.intent == "DIAGNOSIS" and r.state == "SUCCESS"]
    selected = max(eligible, key=lambda r: key(r.seq), default=None)
    floor = 0 if selected is None else selected.seq
    skipped = []
    for run in sorted((r for r in earlier if r.seq > floor), key=lambda r: -r.seq):
        reason = skip_reason(run.intent, run.state)
        if reason is not None:
            skipped.append(SkippedRun(run_id=run.run_id, reason=reason))
    limit = RunStore.SKIPPED_LIMIT  # the reference's cap on the skip report (newest first)
    return PreviousTurnSelection(
        selected=selected,
        skipped=tuple(skipped[:limit]),
        skipped_omitted=max(0, len(skipped) - limit),
    )


class SeqAsTextStore(RunStore):
    """Previous-turn selection orders ``seq`` as text: seq 9 is taken for newer than seq 10."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select the eligible Run with the greatest ``str(seq)``."""
        return _selection(self.list_session(session_id), before_seq, str)  # type: ignore[no-any-return]


class CaseFoldedSessionStore(RunStore):
    """Previous-turn selection matches the session id case-insensitively (``S-1`` is ``s-1``)."""

    def select_previous_turn(self, session_id: str, before_seq: int) -> PreviousTurnSelection:
        """Select among every Run whose session equals ``session_id`` ignoring case."""
        with self._connect() as connection:
            rows = connection.execute(select(diagnosis_run)).mappings()
            runs = [run_of_row(row) for row in rows]
        folded = [r for r in runs if r.session_id.lower() == session_id.lower()]
        return _selection(folded, before_seq, int)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- guards


def duplicate_items_renumbered(document: Json) -> Json:
    """The answer read with repeated item ids made unique (``None``: no id repeats)."""
    if not isinstance(document, dict) or not isinstance(document.get("items"), list):
        return None
    items = document["items"]
    ids = [i.get("item_id") for i in items if isinstance(i, dict)]
    if len(ids) == len(set(ids)):
        return None
    forgiven = copy.deepcopy(document)
    seen: set[Any] = set()
    for number, item in enumerate(forgiven["items"], 1):
        if isinstance(item, dict) and item.get("item_id") in seen:
            item["item_id"] = f"{item['item_id']}-{number}"
        seen.add(item.get("item_id") if isinstance(item, dict) else None)
    return forgiven


def unknown_verdict_ids_accepted(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``parse_verdict``: an UNSUPPORTED verdict naming ids the snapshot lacks is taken."""
    from contracts import SemanticVerdict  # noqa: PLC0415

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401
        verdict = original(raw, **kwargs)
        if verdict is not None or not isinstance(raw, dict):
            return verdict
        try:
            return SemanticVerdict.model_validate(raw)
        except ValueError:
            return None

    return parse


def unknown_verdict_ids_dropped(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``parse_verdict``: ids the snapshot lacks are dropped from a schema-valid verdict.

    An UNSUPPORTED verdict naming only analyses the snapshot does not hold is left naming none
    and taken for SUPPORTED: the draft is released (neither reading of docs/decisions/
    red-team-6.md, "F4", releases anything).
    """
    from contracts import SemanticVerdict  # noqa: PLC0415
    from reference_harness.guards._body import body_json  # noqa: PLC0415
    from reference_harness.guards._verdict import _reviewable_ids  # noqa: PLC0415

    def parse(raw: object, **kwargs: Any) -> Any:  # noqa: ANN401
        verdict = original(raw, **kwargs)
        if verdict is not None or not isinstance(raw, dict):
            return verdict
        try:
            taken = SemanticVerdict.model_validate(raw)
        except ValueError:
            return None
        known = _reviewable_ids(kwargs["snapshot"])
        kept = [i for i in body_json(taken)["unsupported_analysis_ids"] if i in known]
        return SemanticVerdict.model_validate(
            {"verdict": "UNSUPPORTED" if kept else "SUPPORTED", "unsupported_analysis_ids": kept}
        )

    return parse


# --------------------------------------------------------------------------- what the client sees


class RememberingLoop(AgentLoop):
    """The reference loop, keeping the agent's submission on the Run's context."""

    async def run(self) -> Submission | Any:  # noqa: ANN401
        """Step as the reference; remember what the agent submitted."""
        submission = await super().run()
        if isinstance(submission, Submission):
            self._ctx.first_submission = submission.content  # type: ignore[attr-defined]
        return submission


class DraftInEndFrameHarness(Harness):
    """The ``end`` frame of a Run that falls back carries the rejected draft's conclusion.

    Used with :class:`RememberingLoop` as the Run's agent loop.
    """

    async def _finish(
        self, ctx: RunContext, outcome: Outcome | None
    ) -> tuple[DiagnosisRun | None, dict[str, Any] | None, Any]:
        draft = getattr(ctx, "first_submission", None)
        conclusion = draft.get("conclusion") if isinstance(draft, dict) else None
        summary = conclusion.get("summary") if isinstance(conclusion, dict) else None
        if outcome is not None and outcome.kind == "SAFE_FALLBACK" and isinstance(summary, str):
            deliver = ctx.trace.deliver

            def leaking(frame: dict[str, Any]) -> None:
                if frame.get("event") == "end":
                    frame = {"event": "end", "data": {**frame["data"], "detail": summary}}
                deliver(frame)

            ctx.trace.deliver = leaking  # type: ignore[method-assign]
        return await super()._finish(ctx, outcome)


# --------------------------------------------------------------------------- cancellation order


class InterruptFirstContext(RunContext):
    """The cancel handler interrupts the agent before it prevents new work (layers swapped)."""

    def on_cancel(self, cause: Any) -> None:  # noqa: ANN401 - a CancelCause
        """Run the layers with INTERRUPT_REQUESTED before NEW_WORK_PREVENTED."""
        emit = self.trace.emit
        held: list[tuple[str, Any]] = []

        def swapped(event_type: str, data: Any) -> Any:  # noqa: ANN401
            if event_type == "NEW_WORK_PREVENTED":
                held.append((event_type, data))
                return None
            result = emit(event_type, data)
            if event_type == "INTERRUPT_REQUESTED":
                for name, payload in held:
                    emit(name, payload)
                held.clear()
            return result

        self.trace.emit = swapped  # type: ignore[method-assign]
        try:
            super().on_cancel(cause)
        finally:
            self.trace.emit = emit  # type: ignore[method-assign]


# --------------------------------------------------------------------------- snapshot digest


def json_dumps_digest(_original: Callable[[Any], str]) -> Callable[[Any], str]:
    """Replace ``digest``: SHA-256 of ``json.dumps(sort_keys=True)``, not of RFC 8785 JSON."""

    def digest(value: Any) -> str:  # noqa: ANN401
        return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()

    return digest


# --------------------------------------------------------------------------- attempts


def retry_as_new_call(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_attempt``: a second attempt is recorded as attempt 1 of a new logical call."""

    async def attempt(ctx: RunContext, **kwargs: Any) -> Any:  # noqa: ANN401
        if kwargs["attempt"] > 1:
            kwargs = {
                **kwargs,
                "attempt": 1,
                "call_index": ctx.next_call_index(kwargs["component"]),
            }
        return await original(ctx, **kwargs)

    return attempt


def failed_review_attempt_dropped(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_attempt``: a failed first SemanticGuard attempt leaves no record.

    The retry is then numbered attempt 1.
    """

    async def attempt(ctx: RunContext, **kwargs: Any) -> Any:  # noqa: ANN401
        if kwargs["component"] != "SEMANTIC_GUARD":
            return await original(ctx, **kwargs)
        if kwargs["attempt"] > 1:
            return await original(ctx, **{**kwargs, "attempt": kwargs["attempt"] - 1})
        emit = ctx.trace.emit
        held: list[tuple[str, Any]] = []

        def holding(event_type: str, data: Any) -> Any:  # noqa: ANN401
            if event_type in {"MODEL_CALL_STARTED", "MODEL_CALL_FINISHED"}:
                held.append((event_type, data))
                return None
            return emit(event_type, data)

        ctx.trace.emit = holding  # type: ignore[method-assign]
        try:
            outcome, value = await original(ctx, **kwargs)
        finally:
            ctx.trace.emit = emit  # type: ignore[method-assign]
        if outcome not in {"INVALID_SCHEMA", "UNAVAILABLE"}:
            for event_type, data in held:
                emit(event_type, data)
        return outcome, value

    return attempt


# --------------------------------------------------------------------------- step budget


class BudgetPlusOneLoop(AgentLoop):
    """The step budget is off by one: the agent gets ``max_steps + 1`` tool steps."""

    async def run(self) -> Submission | Any:  # noqa: ANN401
        """Step the agent as the reference does, allowing one step more than the budget."""
        step = 0
        while True:
            answer = await self._ask("AGENT_STEP")
            if isinstance(answer, FinalAnswer):
                self._messages.append(answer_message(answer.content))
                return Submission(answer.content)
            if step > self._ctx.limits.max_steps:
                return BUDGET_EXHAUSTED
            step += 1
            await self._step(step, answer.calls)
