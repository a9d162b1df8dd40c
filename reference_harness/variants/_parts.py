"""The swapped parts of the latitude variants: each differs from the reference where spec allows.

Every part here changes what the reference Harness does in a way no spec sentence (nor contract
rule) forbids; the catalogue (:mod:`reference_harness.variants._catalogue`) cites the sentence or
the silence each one rests on. They are built the way the mutants are (a Harness, store or run
context subclass, a wrapped reference function), so the same self-test machinery runs them.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import threading
import urllib.parse
from typing import TYPE_CHECKING, Any, ClassVar, Final

from sqlalchemy import Integer, String, bindparam, func, insert, literal, select

from reference_harness._agent_loop import AgentLoop
from reference_harness._conversation import rejection_message, tool_step_messages
from reference_harness._harness import Harness, new_run_id, wall_clock_ms
from reference_harness._ids import classify_tool_call_id, presented_id_text
from reference_harness._run_context import RunContext
from reference_harness._tool_execution import execute_tool
from reference_harness._tools import TOOL_NAMES, recorded_arguments, valid_arguments
from reference_harness._trace import TraceRecorder
from reference_harness.store import RunStore

_NAME_MAX: Final = 256
"""``TOOL_CALL_REJECTED.tool_name`` is at most this long (run-trace-event schema)."""

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from reference_harness._cancellation import CancelCause
    from reference_harness.openai._completion import Completion
    from reference_harness.ports import ProposedToolCall

__all__ = [
    "PerStoreSeqStore",
    "RandomIdHarness",
    "StepFirstLoop",
    "StepFirstUnrecordedLoop",
    "WallClockHarness",
    "failed_repair_submits_nothing",
    "hanging_up_agent",
    "hanging_up_reviewer",
    "no_discard_after_hang_up",
    "other_safe_messages",
    "own_prompt",
    "pretty_snapshot",
    "pretty_tool_messages",
    "reordered_cancellation",
    "sorted_document_ids",
    "stream_flipped",
    "timestamp_free_recorder",
]


# --------------------------------------------------------------------------- clock and ids


class WallClockHarness(Harness):
    """The Harness on the wall clock (row times, ``ts_ms``), whatever clock it is given.

    Latitude: no sentence fixes the clock; times are volatile (the normalizer drops them).
    """

    def __init__(self, **kwargs: Any) -> None:  # noqa: ANN401 - Harness's keyword arguments
        """Wire the Harness with :func:`~reference_harness._harness.wall_clock_ms`."""
        kwargs["clock"] = wall_clock_ms
        super().__init__(**kwargs)


class RandomIdHarness(Harness):
    """The Harness naming each Run ``run-<uuid4 hex>``, whatever id source it is given.

    Latitude: the contract fixes the run id's grammar, not its value.
    """

    def __init__(self, **kwargs: Any) -> None:  # noqa: ANN401 - Harness's keyword arguments
        """Wire the Harness with :func:`~reference_harness._harness.new_run_id`."""
        kwargs["run_ids"] = new_run_id
        super().__init__(**kwargs)


# --------------------------------------------------------------------------- trace


class _TimestampFreeRecorder(TraceRecorder):
    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        clock = self._clock
        self._clock = lambda: 0
        try:
            event = super().emit(event_type, data)
        finally:
            self._clock = clock
        return event

    def deliver(self, frame: dict[str, Any]) -> None:
        if frame.get("event") == "run_event" and isinstance(frame.get("data"), dict):
            frame["data"].pop("ts_ms", None)
        super().deliver(frame)

    @property
    def events(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "ts_ms"} for e in super().events]


def timestamp_free_recorder(_original: type[TraceRecorder]) -> type[TraceRecorder]:
    """Replace ``TraceRecorder``: events carry no ``ts_ms`` (the contract makes it optional)."""
    return _TimestampFreeRecorder


class _ReorderedRunContext(RunContext):
    def on_cancel(self, cause: CancelCause) -> None:
        if self._released or self._gate_closed:
            return
        self.cancel_cause = cause
        self.trace.emit("CANCEL_REQUESTED", {"cause": cause})
        self._gate_closed = True
        self.trace.emit("NEW_WORK_PREVENTED", {})
        for tool_call_id, (task, token) in reversed(list(self.tools_in_flight.items())):
            token.cancel()
            task.cancel()
            self.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": tool_call_id})
            if self.ledger.is_projecting(tool_call_id):
                self.ledger.fail(tool_call_id, "CANCELLED")
        for interrupt in self.interrupts:
            interrupt.set()
        self.trace.emit("INTERRUPT_REQUESTED", {})
        self._cancelled.set()


def reordered_cancellation(_original: type[RunContext]) -> type[RunContext]:
    """Replace ``RunContext``: tool work is cancelled (last accepted first) before the interruption.

    Latitude: the spec distinguishes the layers ("cancellation request, prevention of new work,
    framework interruption, cancellable Tool work"); it does not order the interruption of the
    agent loop and the cancellation of independent tool work, nor tool works among themselves.
    """
    return _ReorderedRunContext


# --------------------------------------------------------------------------- store


class PerStoreSeqStore(RunStore):
    """A ``diagnosis_run`` store whose ``seq`` counts over the whole store, not per session.

    Latitude: "seq (per-session, monotonic)": each new Run's ``seq`` is greater than every
    earlier Run's of its session; nothing says it is exactly one more.
    """

    def create_run(self, *, run_id: str, session_id: str, user_message: str, now_ms: int) -> Any:  # noqa: ANN401 - the reference's DiagnosisRun
        """Insert a RUNNING Run whose ``seq`` is 1 + the store's greatest ``seq``."""
        from reference_harness.store import _store  # noqa: PLC0415 - its table

        table = _store._t  # noqa: SLF001 - the reference store's own table
        statement = insert(table).from_select(
            ["run_id", "session_id", "seq", "user_message", "state", "created_at_ms"],
            select(
                bindparam("p_run_id", type_=String()),
                bindparam("p_session_id", type_=String()),
                select(func.coalesce(func.max(table.c.seq), 0) + 1).scalar_subquery(),
                bindparam("p_user_message", type_=String()),
                literal("RUNNING"),
                bindparam("p_now_ms", type_=Integer()),
            ),
        )
        with self._write() as connection:
            connection.execute(
                statement,
                {
                    "p_run_id": run_id,
                    "p_session_id": session_id,
                    "p_user_message": user_message,
                    "p_now_ms": now_ms,
                },
            )
        return self.get(run_id)


# --------------------------------------------------------------------------- texts


def other_safe_messages(original: Mapping[str, str]) -> dict[str, str]:
    """Other fixed ``safe_message`` texts: the Harness's own words, no backend text."""
    return {code: f"The tool call could not be completed ({code.lower()})." for code in original}


def own_prompt(component: str) -> Callable[[str], str]:
    """Replace a system prompt by another team's wording (no component marker line)."""

    def wrap(_original: str) -> str:
        return (
            f"You are the {component.replace('_', ' ').lower()} of our incident assistant.\n"
            "Reply with the JSON document your role defines, and nothing else."
        )

    return wrap


def pretty_snapshot(_original: Callable[..., Any]) -> Callable[..., Any]:
    """``review_messages`` sending the Verified Snapshot as pretty-printed JSON (indent 2)."""

    def review_messages(request: Any) -> list[dict[str, Any]]:  # noqa: ANN401 - a ReviewRequest
        document = request.snapshot.model_dump(mode="json", exclude_none=True)
        text = json.dumps(document, indent=2, ensure_ascii=False)
        return [{"role": "user", "content": text}]

    return review_messages


def pretty_tool_messages(_original: Callable[[object], str]) -> Callable[[object], str]:
    """``_json_text`` of the conversation as pretty-printed JSON (tool results, previous turn)."""

    def json_text(value: object) -> str:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)

    return json_text


# --------------------------------------------------------------------------- model endpoint


def stream_flipped(original: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint_ports`` asking the Router for a stream and the agent and reviewer for JSON."""

    def endpoint_ports(model_endpoint: Mapping[str, Any], **kwargs: Any) -> Any:  # noqa: ANN401 - EndpointPorts
        from reference_harness.openai._client import ChatClient  # noqa: PLC0415 - SDK import
        from reference_harness.openai._config import OpenAIConfig  # noqa: PLC0415 - SDK import
        from reference_harness.openai._endpoint import EndpointPorts  # noqa: PLC0415 - SDK import
        from reference_harness.openai._ports import (  # noqa: PLC0415 - SDK import
            OpenAIAgent,
            OpenAIReviewer,
            OpenAIRouter,
        )

        ports = original(model_endpoint, **kwargs)
        ports.close()

        def client(key: str, *, stream: bool) -> ChatClient:
            part = model_endpoint[key]
            config = OpenAIConfig(
                part["base_url"],
                part["model"],
                str(model_endpoint["api_key"]),
                kwargs["timeout_s"],
                stream,
            )
            return ChatClient(config)

        return EndpointPorts(
            OpenAIRouter(client("router", stream=True)),
            OpenAIAgent(client("diagnosis_agent", stream=False)),
            OpenAIReviewer(client("semantic_guard", stream=False)),
        )

    return endpoint_ports


# --------------------------------------------------------------------------- repair


def failed_repair_submits_nothing(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_validate``: a repair answered by tool calls is failed without a submission record.

    Latitude: the THEN says the repair fails and the Run falls back; no sentence says the failed
    repair is recorded as a submission (``DRAFT_SUBMITTED`` 2 / ``EVIDENCE_VALIDATION`` 2).
    """

    def validate(ctx: Any, intent: Any, submission: Any, attempt: int) -> Any:  # noqa: ANN401 - the reference's types
        if submission.tool_calls:
            from reference_harness._release import _FAILED_REPAIR  # noqa: PLC0415 - its verdict

            return _FAILED_REPAIR
        return original(ctx, intent, submission, attempt)

    return validate


# --------------------------------------------------------------------------- hang-up


_CURRENT = threading.local()
_POLL_S = 0.01


def _shut_on_interrupt(
    interrupt: threading.Event | None,
    connection: http.client.HTTPConnection,
    done: threading.Event,
    hung_up: threading.Event,
) -> None:
    """Shut ``connection``'s socket down once ``interrupt`` is set, unless the call is done."""
    while not done.is_set():
        if interrupt is not None and interrupt.wait(_POLL_S):
            if connection.sock is not None and not done.is_set():
                hung_up.set()
                with contextlib.suppress(OSError):
                    connection.sock.shutdown(socket.SHUT_RDWR)
            return
        if interrupt is None:
            done.wait(_POLL_S)


class _HangUpClient:
    """One JSON chat-completions request per call; the socket is shut down on the interrupt.

    The request goes out on its own connection (``http.client``); a watcher half-closes the
    socket as soon as the call's interrupt is set (the Run's cancellation), so the endpoint sees
    the client hang up. Nothing that comes after the interrupt is taken, so no late result ever
    reaches the Harness (and no ``LATE_RESULT_DISCARDED`` is recorded for the call).
    """

    def __init__(self, config: Any, component: str) -> None:  # noqa: ANN401 - OpenAIConfig
        self.config = config
        self._component = component

    def close(self) -> None:
        """Nothing pooled to close."""

    def complete(
        self,
        messages: Sequence[Mapping[str, object]],
        *,
        tools: Sequence[Mapping[str, object]] = (),
        interrupt: threading.Event | None = None,
    ) -> Completion:
        from contracts import loads_strict  # noqa: PLC0415 - heavy
        from reference_harness.errors import ModelTimeout, ModelUnavailable  # noqa: PLC0415
        from reference_harness.openai._completion import from_body  # noqa: PLC0415 - SDK side

        if interrupt is None:  # a port that does not pass its call's interrupt along
            interrupt = getattr(_CURRENT, "interrupt", None)
        url = urllib.parse.urlsplit(f"{self.config.base_url}/chat/completions")
        body: dict[str, object] = {
            "model": self.config.model,
            "messages": list(messages),
            "stream": False,
        }
        if tools:
            body["tools"] = list(tools)
        connection = http.client.HTTPConnection(
            url.hostname or "127.0.0.1", url.port, timeout=self.config.timeout_s
        )
        done = threading.Event()
        hung_up = threading.Event()
        watcher = threading.Thread(
            target=_shut_on_interrupt,
            args=(interrupt, connection, done, hung_up),
            name="srdh-hang-up",
            daemon=True,
        )
        try:
            connection.connect()
            watcher.start()
            connection.request(
                "POST",
                url.path,
                body=json.dumps(body).encode("utf-8"),
                headers={
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {self.config.api_key}",
                },
            )
            response = connection.getresponse()
            data = response.read()
        except TimeoutError as error:
            raise ModelTimeout(type(error).__name__) from error
        except (OSError, http.client.HTTPException) as error:
            raise ModelUnavailable(type(error).__name__) from error
        finally:
            done.set()
            connection.close()
        if hung_up.is_set() or (interrupt is not None and interrupt.is_set()):
            # hung up: whatever came after the interrupt is not taken
            message = "the call was hung up"
            raise ModelUnavailable(message)
        if response.status != 200:  # noqa: PLR2004 - HTTP OK
            message = f"HTTP {response.status}"
            raise ModelUnavailable(message)
        try:
            return from_body(loads_strict(data, source="the completion body"))
        except ValueError as error:
            raise ModelUnavailable(type(error).__name__) from error


class _HangingUp:
    """A model port whose HTTP client hangs up its call when the Run is cancelled."""

    def __init__(self, inner: Any, component: str) -> None:  # noqa: ANN401 - an OpenAI port
        self._inner = inner
        inner._client = _HangUpClient(inner._client.config, component)  # noqa: SLF001 - swapped

    def _call(self, method: str, request: Any, interrupt: threading.Event) -> Any:  # noqa: ANN401 - port types
        _CURRENT.interrupt = interrupt
        try:
            return getattr(self._inner, method)(request, interrupt)
        finally:
            _CURRENT.interrupt = None

    def step(self, request: Any, interrupt: threading.Event) -> Any:  # noqa: ANN401 - port types
        """The agent's step, hung up on the interrupt."""
        return self._call("step", request, interrupt)

    def review(self, request: Any, interrupt: threading.Event) -> Any:  # noqa: ANN401 - port types
        """The SemanticGuard's review, hung up on the interrupt."""
        return self._call("review", request, interrupt)


def hanging_up_agent(port: Any) -> Any:  # noqa: ANN401 - AgentPort
    """Wrap the endpoint agent port: its HTTP call is hung up on cancellation."""
    return _HangingUp(port, "DIAGNOSIS_AGENT")


def hanging_up_reviewer(port: Any) -> Any:  # noqa: ANN401 - ReviewerPort
    """Wrap the endpoint SemanticGuard port: its HTTP call is hung up on cancellation."""
    return _HangingUp(port, "SEMANTIC_GUARD")


class _NoLateDiscardRecorder(TraceRecorder):
    def emit(self, event_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        if event_type == "LATE_RESULT_DISCARDED":
            return {}  # every call in flight at the cancellation was hung up: nothing came late
        return super().emit(event_type, data)


def no_discard_after_hang_up(_original: type[TraceRecorder]) -> type[TraceRecorder]:
    """Replace ``TraceRecorder``: no LATE_RESULT_DISCARDED (the Harness hangs up every call).

    Latitude: "discards any late model result": a call the Harness hung up has no late result;
    an answer that crossed the hang-up (it came before the cancellation was noticed) is dropped
    as well, unrecorded. Over the kit's endpoint the record is required only for a held call
    answered late (after a later request), which a Harness that hangs up never is.
    """
    return _NoLateDiscardRecorder


# ------------------------------------------------------------------ one step, accepted first


class StepFirstLoop(AgentLoop):
    """Each agent step's Tool Call IDs are judged (accepted or rejected) first, then executed.

    Latitude: "the Harness executes the accepted calls of a step in order" (docs/contracts.md,
    "Agent steps") orders the executions, not each execution before the next call's
    acceptance; accepting is no wait, so a disconnect is noticed at the first execution's wait.
    The calls accepted but not yet executed when the Run is cancelled are recorded
    TOOL_WORK_CANCELLED and end ERROR/``CANCELLED`` (false-kills-8, F5).
    """

    records_never_run: ClassVar[bool] = True
    """Whether the calls accepted but never run are recorded TOOL_WORK_CANCELLED."""

    async def _step(self, step: int, calls: tuple[ProposedToolCall, ...]) -> None:
        ctx = self._ctx
        notices: list[dict[str, Any]] = []
        accepted: list[tuple[str, Any, bool]] = []
        await asyncio.sleep(0)  # a disconnect on the agent's answer closes the gate first
        ctx.check_open()
        for position, call in enumerate(calls):
            reason = classify_tool_call_id(call.id, ctx.ledger.accepted_ids)
            if reason is not None:
                name = call.name[:_NAME_MAX] if isinstance(call.name, str) else None
                ctx.trace.emit(
                    "TOOL_CALL_REJECTED",
                    {
                        "reason": reason,
                        "presented_id": presented_id_text(call.id),
                        "tool_name": name,
                        "step": step,
                        "position": position,
                    },
                )
                notices.append(rejection_message(step, position, reason))
                continue
            if call.name not in TOOL_NAMES:
                notices.append(rejection_message(step, position, "UNKNOWN_TOOL"))
                continue
            tool_call_id = str(call.id)
            ctx.trace.emit(
                "TOOL_CALL_ACCEPTED",
                {
                    "tool_call_id": tool_call_id,
                    "tool_name": str(call.name),
                    "step": step,
                    "sequence": len(ctx.ledger.accepted_ids) + 1,
                },
            )
            record = ctx.ledger.accept(
                tool_call_id, str(call.name), recorded_arguments(call.arguments), step
            )
            accepted.append((tool_call_id, record, valid_arguments(call.arguments)))
        done: list[dict[str, Any]] = []
        for index, (tool_call_id, record, runnable) in enumerate(accepted):
            if not runnable:
                done.append(ctx.ledger.fail(tool_call_id, "INVALID_ARGUMENTS"))
                continue
            try:
                done.append(await execute_tool(ctx, self._tools, record))
            except BaseException:
                for pending, _, later_runnable in accepted[index + 1 :]:
                    if later_runnable and self.records_never_run:
                        ctx.trace.emit("TOOL_WORK_CANCELLED", {"tool_call_id": pending})
                raise
        self._messages.extend(tool_step_messages(done))
        self._messages.extend(notices)


class StepFirstUnrecordedLoop(StepFirstLoop):
    """:class:`StepFirstLoop` whose calls accepted but never run get no TOOL_WORK_CANCELLED.

    Latitude: TOOL_WORK_CANCELLED is recorded "once per cancellable in-flight tool call"
    (docs/implementers.md, row 15); a call accepted but never run is no work in flight, and
    "calls accepted but never run end ERROR ``CANCELLED``" ("Where two answers fit"). The call
    whose execution's wait noticed the disconnect is recorded as before (false-kills-8,
    session 11).
    """

    records_never_run: ClassVar[bool] = False


# --------------------------------------------------------------------------- projection


def sorted_document_ids(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """A ``Patch`` wrap of ``_tool_execution.project``: a lookup's ``document_ids`` sorted.

    Latitude: the contract's ``document_ids`` are "Document ids of the items", unique, in no
    stated order; each item keeps its own row's ``document_id`` (docs/decisions/left-kinds-8.md).
    """

    def project(*args: Any, **kwargs: Any) -> dict[str, Any]:  # noqa: ANN401 - project's own
        projection = original(*args, **kwargs)
        projection["document_ids"] = sorted(projection["document_ids"])
        return projection

    return project
